// Checks the CPU name and core count parsers on canned /proc and sysfs text.
#include "tools/cpubrrr/machine_info.h"

#include <thread>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

TEST(CpuModelName, FirstModelNameLine) {
  EXPECT_EQ(CpuModelNameFrom("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
                             "model name\t: AMD EPYC 9454P 48-Core Processor  \n"
                             "processor\t: 1\nmodel name\t: other\n"),
            "AMD EPYC 9454P 48-Core Processor");
}

TEST(CpuModelName, UnknownWithoutOne) {
  EXPECT_EQ(CpuModelNameFrom("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n"), "unknown CPU");
  EXPECT_EQ(CpuModelNameFrom("model name\t:\n"), "unknown CPU");
}

TEST(CountCores, HyperThreadSiblingsCountOnce) {
  EXPECT_EQ(CountCores({"0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"}), 4);
  EXPECT_EQ(CountCores({"0-1", "0-1", "2-3", "2-3"}), 2);
  EXPECT_EQ(CountCores({"0", "1"}), 2);
}

TEST(PhysicalCoreCount, BetweenOneAndTheLogicalCpus) {
  const int cores = PhysicalCoreCount();
  EXPECT_GE(cores, 1);
  EXPECT_LE(cores, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace
}  // namespace cpubrrr

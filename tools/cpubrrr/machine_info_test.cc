// Checks the CPU name parser on canned /proc/cpuinfo text.
#include "tools/cpubrrr/machine_info.h"

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

}  // namespace
}  // namespace cpubrrr

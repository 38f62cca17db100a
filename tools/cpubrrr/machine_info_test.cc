// Checks the CPU name and storage-read parsers on canned /proc text.
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

TEST(StorageReadBytes, ReadBytesLine) {
  EXPECT_EQ(StorageReadBytesFrom("rchar: 6976\nwchar: 0\nsyscr: 10\nsyscw: 0\nread_bytes: 123456789012\n"
                                 "write_bytes: 4096\ncancelled_write_bytes: 0\n"),
            123456789012u);
  EXPECT_EQ(StorageReadBytesFrom("rchar: 6976\nwchar: 0\n"), 0u);
  EXPECT_EQ(StorageReadBytesFrom("read_bytes: many\n"), 0u);
}

}  // namespace
}  // namespace cpubrrr

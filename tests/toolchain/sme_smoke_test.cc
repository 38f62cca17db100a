// Runs a trivial SME sequence (smstart, zero {za}, rdsvl, smstop) on aarch64; skips elsewhere.
#include <cstdint>
#include <cstdlib>

#include <gtest/gtest.h>

#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP2_SME
#define HWCAP2_SME (1UL << 23)
#endif
#endif

namespace {

TEST(Sme, StreamingVectorLength) {
#if defined(__aarch64__)
  if (!(getauxval(AT_HWCAP2) & HWCAP2_SME)) {
    // The qemu runner sets CPUBRRR_EXPECT_SME: there SME must be present.
    ASSERT_EQ(std::getenv("CPUBRRR_EXPECT_SME"), nullptr) << "qemu -cpu max should have SME";
    GTEST_SKIP() << "CPU has no SME";
  }
  uint64_t svl_bytes = 0;
  // gcc 12 has no SME intrinsics but assembles SME; smstart/smstop reset the vector registers.
  asm volatile(
      ".arch_extension sme\n"
      "smstart\n"
      "zero {za}\n"
      "rdsvl %0, #1\n"
      "smstop\n"
      : "=r"(svl_bytes)
      :
      : "memory", "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
        "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22",
        "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
  std::printf("SME streaming vector length: %llu bytes\n",
              static_cast<unsigned long long>(svl_bytes));
  EXPECT_GE(svl_bytes, 32u);
  EXPECT_EQ(svl_bytes % 16, 0u);
#else
  GTEST_SKIP() << "SME exists only on aarch64";
#endif
}

}  // namespace

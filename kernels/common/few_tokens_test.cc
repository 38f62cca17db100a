// The lane-tile switch point: CPUBRRR_LANE_TILE_FROM when valid, else the CPU vendor's.
#include "kernels/common/few_tokens.h"

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"

namespace cpubrrr {
namespace {

TEST(FewTokensTest, ChoiceFollowsTheEnvironmentElseTheVendor) {
  const LaneTileChoice& choice = Avx512LaneTileChoice();
  const size_t by_vendor = CpuVendor() == "GenuineIntel" ? 5 : 4;
  const char* set = std::getenv("CPUBRRR_LANE_TILE_FROM");
  if (set == nullptr) {
    EXPECT_EQ(choice.from, by_vendor);
    EXPECT_EQ(choice.why.find("ignored"), std::string::npos) << choice.why;
  } else if (std::string(set) == "3") {
    EXPECT_EQ(choice.from, 3u);
    EXPECT_EQ(choice.why, "CPUBRRR_LANE_TILE_FROM");
  } else {
    // The BUILD file passes "3" and one value out of range.
    EXPECT_EQ(choice.from, by_vendor);
    EXPECT_NE(choice.why.find(std::string("CPUBRRR_LANE_TILE_FROM=") + set + " ignored: not 1-5"),
              std::string::npos)
        << choice.why;
  }
  EXPECT_EQ(Avx512LaneTileFrom(), choice.from);
}

TEST(FewTokensTest, VendorIsTwelveCharactersOnX86) {
#if defined(__x86_64__)
  EXPECT_EQ(CpuVendor().size(), 12u);
#else
  EXPECT_EQ(CpuVendor(), "");
#endif
}

}  // namespace
}  // namespace cpubrrr

// Checks top-k selection against a full sort and the truncation steps on hand-computed
// distributions.
#include "runtime/sampler/candidates.h"

#include <algorithm>
#include <cmath>

#include "gtest/gtest.h"
#include "runtime/sampler/rng.h"

namespace cpubrrr {
namespace {

std::vector<float> RandomLogits(size_t n, uint64_t seed) {
  Xoshiro256 r(seed);
  std::vector<float> v(n);
  // Coarse values so ties occur and the tie rule is exercised.
  for (float& x : v) x = static_cast<float>(static_cast<int>(r.Uniform() * 4000)) / 100.0f - 20.0f;
  return v;
}

// Returns every token sorted by Before, overrides applied: the oracle's full sort.
std::vector<TokenCandidate> SortedAll(const std::vector<float>& logits, const std::vector<TokenCandidate>& overrides) {
  std::vector<TokenCandidate> all;
  for (size_t i = 0; i < logits.size(); ++i) all.push_back({static_cast<int32_t>(i), logits[i]});
  for (const auto& o : overrides) all[o.id].logit = o.logit;
  std::sort(all.begin(), all.end(), Before);
  return all;
}

std::vector<TokenCandidate> Prefix(const std::vector<TokenCandidate>& sorted, size_t k) {
  return {sorted.begin(), sorted.begin() + std::min(k, sorted.size())};
}

std::vector<TokenCandidate> ReferenceTopK(const std::vector<float>& logits, size_t k,
                                          const std::vector<TokenCandidate>& overrides) {
  return Prefix(SortedAll(logits, overrides), k);
}

void ExpectSame(const std::vector<TokenCandidate>& a, const std::vector<TokenCandidate>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id) << i;
    EXPECT_EQ(a[i].logit, b[i].logit) << i;
  }
}

TEST(SelectTopK, MatchesFullSortAtGptOssVocab) {
  const std::vector<float> logits = RandomLogits(201088, 3);
  const std::vector<TokenCandidate> overrides = {{5, 30.0f}, {17, -50.0f}, {123456, 19.5f}};
  const std::vector<TokenCandidate> plain = SortedAll(logits, {});
  const std::vector<TokenCandidate> overridden = SortedAll(logits, overrides);
  for (size_t k : {1, 40, 511, 512, 513, 2000}) {
    SCOPED_TRACE(k);
    ExpectSame(SelectTopK(logits, k), Prefix(plain, k));
    ExpectSame(SelectTopK(logits, k, overrides), Prefix(overridden, k));
  }
}

TEST(SelectTopK, NonPositiveOrHugeKTakesEverything) {
  const std::vector<float> logits = {1.0f, 3.0f, 2.0f};
  ExpectSame(SelectTopK(logits, 0), ReferenceTopK(logits, 3, {}));
  ExpectSame(SelectTopK(logits, 10), ReferenceTopK(logits, 3, {}));
  EXPECT_TRUE(SelectTopK({}, 5).empty());
}

std::vector<TokenCandidate> FromProbs(const std::vector<float>& probs) {
  std::vector<TokenCandidate> c;
  for (size_t i = 0; i < probs.size(); ++i) c.push_back({static_cast<int32_t>(i), std::log(probs[i])});
  return c;
}

TEST(Truncation, SoftmaxRecoversProbabilities) {
  auto c = FromProbs({0.5f, 0.3f, 0.2f});
  Softmax(c);
  EXPECT_NEAR(c[0].p, 0.5f, 1e-6);
  EXPECT_NEAR(c[1].p, 0.3f, 1e-6);
  EXPECT_NEAR(c[2].p, 0.2f, 1e-6);
}

TEST(Truncation, TopPKeepsTheTokenThatCrossesP) {
  auto c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  TopP(c, 0.75f, 0);  // 0.5 < 0.75 <= 0.8: two tokens
  EXPECT_EQ(c.size(), 2u);
  c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  TopP(c, 0.4f, 0);
  EXPECT_EQ(c.size(), 1u);
  c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  TopP(c, 0.4f, 3);  // min_keep
  EXPECT_EQ(c.size(), 3u);
  c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  TopP(c, 1.0f, 0);
  EXPECT_EQ(c.size(), 4u);
}

TEST(Truncation, MinPIsRelativeToTheBestToken) {
  auto c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  MinP(c, 0.2f, 0);  // threshold 0.1: keeps 0.5, 0.3, 0.15
  EXPECT_EQ(c.size(), 3u);
  c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  MinP(c, 0.9f, 0);
  EXPECT_EQ(c.size(), 1u);
  c = FromProbs({0.5f, 0.3f, 0.15f, 0.05f});
  MinP(c, 0.9f, 2);
  EXPECT_EQ(c.size(), 2u);
}

TEST(Truncation, TemperatureSharpens) {
  auto c = FromProbs({0.6f, 0.4f});
  Temperature(c, 0.5f);
  Softmax(c);
  // p^(1/T) renormalized: 0.36 / (0.36 + 0.16).
  EXPECT_NEAR(c[0].p, 0.36f / 0.52f, 1e-6);
}

}  // namespace
}  // namespace cpubrrr

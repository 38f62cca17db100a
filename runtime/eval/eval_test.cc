// Checks the perplexity and KL-divergence arithmetic on small hand-worked distributions
// and the base-logits file's round trip and its errors.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/eval/kl_divergence.h"
#include "runtime/eval/logits_file.h"
#include "runtime/eval/token_log_probs.h"

namespace cpubrrr {
namespace {

std::vector<float> RandomLogits(size_t n, std::mt19937& rng, float spread) {
  std::normal_distribution<float> normal(0.0f, spread);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

std::vector<double> Softmax(const std::vector<float>& logits) {
  double max = logits[0], sum = 0;
  for (float v : logits) max = std::max<double>(max, v);
  std::vector<double> p(logits.size());
  for (size_t i = 0; i < p.size(); ++i) sum += p[i] = std::exp(logits[i] - max);
  for (double& x : p) x /= sum;
  return p;
}

TEST(TokenLogProbs, NegLogLikelihoodOfAKnownDistribution) {
  const std::vector<float> logits = {0.0f, std::log(3.0f)};  // p = 1/4, 3/4
  EXPECT_NEAR(NegLogLikelihood(logits, 1), std::log(4.0 / 3.0), 1e-6);
  EXPECT_NEAR(NegLogLikelihood(logits, 0), std::log(4.0), 1e-6);
}

TEST(TokenLogProbs, StoredRowsKeepLogProbabilitiesWithinHalfAStep) {
  std::mt19937 rng(7);
  const std::vector<float> logits = RandomLogits(1001, rng, 3.0f);
  std::vector<uint16_t> row(LogProbRowEntries(logits.size()));
  EXPECT_EQ(row.size(), 1002u + 4u);
  const double nll = EncodeLogProbRow(logits, 5, absl::MakeSpan(row));
  EXPECT_NEAR(nll, NegLogLikelihood(logits, 5), 1e-9);
  const LogProbRowHeader h = ReadLogProbRowHeader(row);
  const std::vector<double> p = Softmax(logits);
  for (size_t i = 0; i < logits.size(); ++i) {
    const double lp = std::log(p[i]);
    if (lp < h.min_log_prob) continue;  // below the kept range: stored as the floor
    EXPECT_NEAR(StoredLogProb(h, row, i), lp, h.scale * 0.5 + 1e-4) << i;
  }
}

TEST(KlDivergence, ARunAgainstItselfHasNoDivergence) {
  std::mt19937 rng(1);
  KlDivergence kl;
  for (int t = 0; t < 200; ++t) {
    const std::vector<float> logits = RandomLogits(300, rng, 2.0f);
    std::vector<uint16_t> row(LogProbRowEntries(300));
    EncodeLogProbRow(logits, t % 300, absl::MakeSpan(row));
    kl.Add(logits, row, t % 300);
  }
  EXPECT_NEAR(kl.MeanKl().value, 0.0, 1e-4);
  EXPECT_EQ(kl.SameTop().value, 1.0);
  EXPECT_NEAR(kl.Perplexity().value, kl.BasePerplexity().value, 1e-3 * kl.Perplexity().value);
}

TEST(KlDivergence, MatchesTheDivergenceComputedDirectly) {
  std::mt19937 rng(2);
  KlDivergence kl;
  double direct = 0;
  const int n = 150;
  for (int t = 0; t < n; ++t) {
    const std::vector<float> base = RandomLogits(64, rng, 1.5f);
    std::vector<float> other = base;
    for (float& v : other) v += std::normal_distribution<float>(0.0f, 0.5f)(rng);
    std::vector<uint16_t> row(LogProbRowEntries(64));
    EncodeLogProbRow(base, 3, absl::MakeSpan(row));
    kl.Add(other, row, 3);
    const std::vector<double> p = Softmax(base), q = Softmax(other);
    for (size_t i = 0; i < p.size(); ++i) direct += p[i] * std::log(p[i] / q[i]);
  }
  EXPECT_NEAR(kl.MeanKl().value, direct / n, 2e-3);
  EXPECT_GT(kl.MeanKl().value, 0.01);
  EXPECT_LT(kl.SameTop().value, 1.0);
  EXPECT_NE(kl.Report().find("Mean    KLD:"), std::string::npos);
}

TEST(MeanAndError, GivesTheStandardErrorOfTheMean) {
  // Values 1..20: mean 10.5, sample variance 35, error sqrt(35 / 20).
  double sum = 0, sum2 = 0;
  for (int i = 1; i <= 20; ++i) {
    sum += i;
    sum2 += double(i) * i;
  }
  const Estimate e = MeanAndError(sum, sum2, 20);
  EXPECT_DOUBLE_EQ(e.value, 10.5);
  EXPECT_NEAR(e.error, std::sqrt((sum2 / 20 - 10.5 * 10.5) / 19), 1e-12);
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

TEST(LogitsFile, RoundTripsHeaderTokensAndRows) {
  const std::string path = TempPath("round_trip.logits");
  LogitsFileHeader h{8, 5, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
  const size_t entries = ScoredPerChunk(8) * LogProbRowEntries(5);
  EXPECT_EQ(entries, 3u * 10u);
  std::vector<uint16_t> a(entries), b(entries);
  for (size_t i = 0; i < entries; ++i) a[i] = i, b[i] = 1000 + i;
  {
    absl::StatusOr<LogitsFileWriter> w = LogitsFileWriter::Create(path, h);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_TRUE(w->AppendChunk(a).ok());
    ASSERT_TRUE(w->AppendChunk(b).ok());
    ASSERT_TRUE(w->Close().ok());
  }
  absl::StatusOr<LogitsFileReader> r = LogitsFileReader::Open(path);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->header().n_ctx, 8u);
  EXPECT_EQ(r->header().n_vocab, 5u);
  EXPECT_EQ(r->header().n_chunk, 2u);
  EXPECT_EQ(r->header().tokens, h.tokens);
  std::vector<uint16_t> rows;
  ASSERT_TRUE(r->ReadChunk(rows).ok());
  EXPECT_EQ(rows, a);
  ASSERT_TRUE(r->ReadChunk(rows).ok());
  EXPECT_EQ(rows, b);
  EXPECT_FALSE(r->ReadChunk(rows).ok());  // only two chunks were written
}

TEST(LogitsFile, RefusesOtherFilesAndCutHeaders) {
  const std::string path = TempPath("not_logits.bin");
  std::ofstream(path) << "GGUF and more bytes";
  absl::StatusOr<LogitsFileReader> r = LogitsFileReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a logits file"), std::string::npos);

  std::ofstream cut(path, std::ios::binary);
  cut.write("_logits_", 8);
  const int32_t fields[3] = {512, 4096, 3};
  cut.write(reinterpret_cast<const char*>(fields), sizeof(fields));
  cut.close();
  r = LogitsFileReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("needs"), std::string::npos);
  EXPECT_FALSE(LogitsFileReader::Open(TempPath("missing.logits")).ok());
}

}  // namespace
}  // namespace cpubrrr

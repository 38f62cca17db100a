// Checks the Forward calls of the pp and tg runs on a fake model: batch sizes, warm-up,
// fresh sessions, token ids in the vocabulary and the same ids on every run.
#include "tools/cpubrrr/bench_runs.h"

#include <set>

#include "gtest/gtest.h"
#include "runtime/engine/fake_model.h"

namespace cpubrrr {
namespace {

constexpr uint32_t kVocab = 50;

ModelInfo Info() {
  ModelInfo info;
  info.n_vocab = kVocab;
  info.n_ctx_train = 4096;
  return info;
}

// A fake model that keeps the token history of the latest Forward call's session.
struct RecordingModel {
  std::vector<int32_t> history;
  FakeModel model{Info(), [this](absl::Span<const int32_t> h) {
    history.assign(h.begin(), h.end());
    return 0;
  }};
};

TEST(RunBenchTest, PromptIsOneForwardPerRunPlusAWarmUp) {
  RecordingModel m;
  absl::StatusOr<BenchSamples> ts = RunBenchTest(m.model, {.n_prompt = 16}, 3);
  ASSERT_TRUE(ts.ok()) << ts.status();
  EXPECT_EQ(ts->tokens_per_second.size(), 3u);
  for (double x : ts->tokens_per_second) EXPECT_GT(x, 0);
  EXPECT_EQ(m.model.forward_calls(), 4u);
  EXPECT_EQ(m.model.evaluated_tokens(), 64u);
  // The session held exactly the 16 prompt tokens: a reused session would hold more (or
  // fail, its context being 16).
  ASSERT_EQ(m.history.size(), 16u);
  EXPECT_GT(std::set<int32_t>(m.history.begin(), m.history.end()).size(), 4u);  // random ids
}

TEST(RunBenchTest, GenerationIsOneTokenPerForward) {
  RecordingModel m;
  absl::StatusOr<BenchSamples> ts = RunBenchTest(m.model, {.n_gen = 5}, 2);
  ASSERT_TRUE(ts.ok()) << ts.status();
  EXPECT_EQ(ts->tokens_per_second.size(), 2u);
  EXPECT_EQ(m.model.forward_calls(), 15u);
  EXPECT_EQ(m.model.evaluated_tokens(), 15u);
  EXPECT_EQ(m.history.size(), 5u);
}

// Three sequences at depth 4: one untimed call fills them all, then each step carries one
// token of each; the warm-up runs the 5 steps without the depth.
TEST(RunBenchTest, SequencesShareEachStepAfterTheDepthFill) {
  RecordingModel m;
  absl::StatusOr<BenchSamples> ts = RunBenchTest(m.model, {.n_gen = 5, .n_seq = 3, .depth = 4}, 1);
  ASSERT_TRUE(ts.ok()) << ts.status();
  EXPECT_EQ(m.model.widest_batch(), 3u);
  EXPECT_EQ(m.model.evaluated_tokens(), 3u * 5 + 3 * (4 + 5));
  EXPECT_EQ(m.history.size(), 9u);
}

TEST(TimeBenchRun, SameSeededIdsEveryRun) {
  RecordingModel m;
  ASSERT_TRUE(TimeBenchRun(m.model, {.n_prompt = 32}).ok());
  const std::vector<int32_t> first = m.history;
  ASSERT_TRUE(TimeBenchRun(m.model, {.n_gen = 32}).ok());
  EXPECT_EQ(m.history, first);
}

}  // namespace
}  // namespace cpubrrr

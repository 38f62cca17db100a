// ForwardBatch on both architectures: sessions sharing passes (decode rows beside prompt
// chunks, entries split across passes) get their solo runs' logits within the stated
// bound and the solo greedy tokens wherever the solo margin is wider than twice it;
// logits asked for every row are each prefix's; a batch that cannot run changes nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "models/load_model.h"
#include "models/testing/synth_model.h"

namespace cpubrrr {
namespace {

// A logit of a session in a shared pass lies within kBound * (1 + max |solo logit|) of its
// solo value (docs/SERVING.md): the gemm's rounding where the solo run took the gemv
// stays below kRounding, but on random weights it can tip a near-tie of the router, and a
// changed expert moves the logits by up to about 1%, at that step and the ones after it.
constexpr float kBound = 2e-2f, kRounding = 1e-5f;

std::unique_ptr<Model> Load(const std::string& preset, KvCacheType kv) {
  absl::StatusOr<std::string> path = WriteSynthModel(preset, false, 9, "-batch");
  EXPECT_TRUE(path.ok()) << path.status();
  if (!path.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModel(*path, {.n_threads = 2, .kv_type = kv, .max_batch_tokens = 16});
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : nullptr;
}

std::vector<int32_t> Prompt(uint32_t n, uint32_t salt) {
  std::vector<int32_t> t;
  for (uint32_t i = 0; i < n; ++i) t.push_back(static_cast<int32_t>((i * 7919 + salt * 104729 + 13) % 1000));
  return t;
}

int32_t Argmax(const std::vector<float>& v) {
  return static_cast<int32_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// The gap between the largest and the second largest logit.
float Margin(std::vector<float> v) {
  std::partial_sort(v.begin(), v.begin() + 2, v.end(), std::greater<float>());
  return v[0] - v[1];
}

std::unique_ptr<Session> NewSession(Model& model) {
  absl::StatusOr<std::unique_ptr<Session>> s = model.NewSession(128);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

constexpr int kSteps = 24;

// A sequence's solo run: its prompt, then kSteps greedy tokens; logits after each.
struct Solo {
  std::vector<int32_t> prompt, tokens;
  std::vector<std::vector<float>> logits;  // after the prompt, then after each token
};

Solo RunSolo(Model& model, std::vector<int32_t> prompt) {
  Solo solo{std::move(prompt), {}, {}};
  std::unique_ptr<Session> s = NewSession(model);
  std::vector<float> logits(model.info().n_vocab);
  EXPECT_TRUE(model.Forward(*s, solo.prompt, absl::MakeSpan(logits)).ok());
  solo.logits.push_back(logits);
  for (int i = 0; i < kSteps; ++i) {
    solo.tokens.push_back(Argmax(logits));
    EXPECT_TRUE(model.Forward(*s, {&solo.tokens.back(), 1}, absl::MakeSpan(logits)).ok());
    solo.logits.push_back(logits);
  }
  return solo;
}

// Returns the largest |got - want| / (1 + max |want|) and checks the greedy token.
float Compare(const std::vector<float>& got, const std::vector<float>& want, int* greedy_checked) {
  float scale = 0, diff = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::fabs(want[i]));
    diff = std::max(diff, std::fabs(got[i] - want[i]));
  }
  const float rel = diff / (1 + scale);
  if (Margin(want) > 2 * kBound * (1 + scale)) {
    EXPECT_EQ(Argmax(got), Argmax(want));
    ++*greedy_checked;
  }
  return rel;
}

// Four sequences: three start together (prompts of 5, 23 and 1 tokens: the 16-row passes
// cut the second), the fourth's 30-token prompt arrives at step 6 in two chunks (the
// first without logits) beside the others' decode rows. Each sequence is fed its solo
// run's tokens, so every step compares like with like.
TEST(ForwardBatch, SharedPassesMatchSoloRuns) {
  for (KvCacheType kv : {KvCacheType::kF16, KvCacheType::kF32}) {
    for (const char* preset : {"gpt-oss-tiny", "qwen3moe-tiny"}) {
      SCOPED_TRACE(std::string(preset) + (kv == KvCacheType::kF16 ? " f16" : " f32"));
      std::unique_ptr<Model> model = Load(preset, kv);
      ASSERT_NE(model, nullptr);
      const uint32_t n_vocab = model->info().n_vocab;
      std::vector<Solo> solo;
      for (uint32_t i = 0; i < 4; ++i) solo.push_back(RunSolo(*model, Prompt(std::vector<uint32_t>{5, 23, 1, 30}[i], i)));
      std::vector<std::unique_ptr<Session>> sessions;
      for (int i = 0; i < 4; ++i) sessions.push_back(NewSession(*model));
      std::vector<std::vector<float>> logits(4, std::vector<float>(n_vocab));
      std::vector<int> step(4, -1);  // -1: prompt not yet run; else logits hold solo.logits[step]
      float worst = 0;
      int greedy_checked = 0, compared = 0, beyond_rounding = 0;
      for (int round = 0; round < kSteps + 8; ++round) {
        std::vector<ForwardEntry> entries;
        std::vector<int> who;
        for (int i = 0; i < 4; ++i) {
          if (i == 3 && round < 6) continue;
          if (step[i] >= kSteps) continue;
          if (step[i] < 0) {
            const std::vector<int32_t>& p = solo[i].prompt;
            if (i == 3 && round == 6) {  // the first chunk: no logits wanted
              entries.push_back({sessions[i].get(), absl::MakeConstSpan(p).subspan(0, 12), {}});
              continue;
            }
            const size_t from = sessions[i]->position();
            entries.push_back({sessions[i].get(), absl::MakeConstSpan(p).subspan(from), absl::MakeSpan(logits[i])});
          } else {
            entries.push_back({sessions[i].get(), {&solo[i].tokens[step[i]], 1}, absl::MakeSpan(logits[i])});
          }
          who.push_back(i);
        }
        if (entries.empty()) break;
        std::reverse(entries.begin(), entries.end());  // order within a pass does not matter
        std::reverse(who.begin(), who.end());
        ASSERT_TRUE(model->ForwardBatch(entries).ok());
        for (int i : who) {
          ++step[i];
          const float rel = Compare(logits[i], solo[i].logits[step[i]], &greedy_checked);
          worst = std::max(worst, rel);
          if (rel > kRounding) ++beyond_rounding;
          ++compared;
        }
      }
      for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(step[i], kSteps) << i;
        EXPECT_EQ(sessions[i]->position(), solo[i].prompt.size() + kSteps) << i;
      }
      EXPECT_LE(worst, kBound);
      EXPECT_LE(beyond_rounding, compared / 4);
      EXPECT_GT(greedy_checked, compared / 5);
      std::printf("%s: %d steps compared, largest relative difference %.3g, %d beyond %.0e, %d greedy tokens checked\n",
                  preset, compared, worst, beyond_rounding, kRounding, greedy_checked);
    }
  }
}

// Logits for every row (as perplexity asks): row j of each entry is the next-token
// logits after its first j + 1 tokens, as a solo run of that prefix gives them; two such
// entries share passes (their rows' logits then lie apart) and a 40-token entry spans
// three 16-row passes.
TEST(ForwardBatch, EveryRowsLogitsAreEachPrefixsNextTokenLogits) {
  for (const char* preset : {"gpt-oss-tiny", "qwen3moe-tiny"}) {
    SCOPED_TRACE(preset);
    std::unique_ptr<Model> model = Load(preset, KvCacheType::kF32);
    ASSERT_NE(model, nullptr);
    const size_t n_vocab = model->info().n_vocab;
    const std::vector<int32_t> a_tokens = Prompt(40, 3), b_tokens = Prompt(7, 4);
    std::vector<float> a_logits(a_tokens.size() * n_vocab), b_logits(b_tokens.size() * n_vocab);
    std::unique_ptr<Session> a = NewSession(*model), b = NewSession(*model);
    const std::vector<ForwardEntry> entries = {{b.get(), b_tokens, absl::MakeSpan(b_logits)},
                                               {a.get(), a_tokens, absl::MakeSpan(a_logits)}};
    ASSERT_TRUE(model->ForwardBatch(entries).ok());
    EXPECT_EQ(a->position(), 40u);
    int greedy_checked = 0;
    for (const auto& [tokens, logits] : {std::pair{&a_tokens, &a_logits}, std::pair{&b_tokens, &b_logits}}) {
      for (size_t j = 0; j < tokens->size(); j += 3) {
        std::unique_ptr<Session> solo = NewSession(*model);
        std::vector<float> want(n_vocab);
        ASSERT_TRUE(model->Forward(*solo, absl::MakeConstSpan(*tokens).first(j + 1), absl::MakeSpan(want)).ok());
        const std::vector<float> got(logits->begin() + j * n_vocab, logits->begin() + (j + 1) * n_vocab);
        EXPECT_LT(Compare(got, want, &greedy_checked), kBound) << "row " << j;
      }
    }
    EXPECT_GT(greedy_checked, 0);
  }
}

TEST(ForwardBatch, RefusedBatchChangesNothing) {
  std::unique_ptr<Model> model = Load("gpt-oss-tiny", KvCacheType::kF16);
  ASSERT_NE(model, nullptr);
  std::unique_ptr<Session> a = NewSession(*model), b = NewSession(*model);
  std::vector<float> la(model->info().n_vocab), lb(model->info().n_vocab);
  const std::vector<int32_t> prompt = Prompt(10, 1), too_long = Prompt(129, 2);
  const int32_t bad = -1;
  // A later entry that cannot run (too long, an id out of range, a repeated session, a
  // wrong logits size) refuses the whole batch before the first runs.
  const std::vector<std::vector<ForwardEntry>> refused = {
      {{a.get(), prompt, absl::MakeSpan(la)}, {b.get(), too_long, absl::MakeSpan(lb)}},
      {{a.get(), prompt, absl::MakeSpan(la)}, {b.get(), {&bad, 1}, absl::MakeSpan(lb)}},
      {{a.get(), prompt, absl::MakeSpan(la)}, {a.get(), prompt, absl::MakeSpan(lb)}},
      {{a.get(), prompt, absl::MakeSpan(la)}, {b.get(), prompt, absl::MakeSpan(lb).subspan(1)}},
      {{a.get(), prompt, absl::MakeSpan(la)}, {b.get(), {}, absl::MakeSpan(lb)}},
  };
  for (const auto& entries : refused) {
    EXPECT_FALSE(model->ForwardBatch(entries).ok());
    EXPECT_EQ(a->position(), 0u);
    EXPECT_EQ(b->position(), 0u);
  }
  EXPECT_TRUE(model->ForwardBatch({}).ok());
}

}  // namespace
}  // namespace cpubrrr

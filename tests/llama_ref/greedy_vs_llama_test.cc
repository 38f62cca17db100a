// Free-running greedy continuations of our forward pass against llama.cpp's, token for token.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "models/load_model.h"
#include "tests/llama_ref/llama_eval.h"
#include "tests/llama_ref/tiny_models.h"

namespace cpubrrr {
namespace {

constexpr int kContinuation = 64;
// A top-two margin below this (the random models' logits have a std of about 1) is a tie
// that rounding may tip.
constexpr float kNearTie = 0.05f;
// The engines' logits stay this close (in logit units) up to the first difference.
constexpr float kMaxDistance = 1.0f;
const char* const kPrompts[] = {"Hello world, this is a test.",
                                "The quick brown fox jumps over the lazy dog",
                                "<|im_start|>user\nWhat is 2 + 2?<|im_end|>\n"};

int ArgMax(const std::vector<float>& v) {
  return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

class GreedyVsLlama : public testing::TestWithParam<const char*> {};

// Each engine feeds back its own argmax: the two 64-token paths must be identical up to
// a first difference at a near tie.
TEST_P(GreedyVsLlama, SixtyFourFreeRunningGreedyTokensEqualLlamaCpp) {
  absl::StatusOr<TinyModel> tiny = WriteTinyModel(GetParam(), false, 5, "");
  ASSERT_TRUE(tiny.ok()) << tiny.status();
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModel(tiny->path, {.n_threads = 2, .kv_type = KvCacheType::kF32, .max_batch_tokens = 1});
  ASSERT_TRUE(model.ok()) << model.status();
  const uint32_t n_vocab = (*model)->info().n_vocab;
  for (const char* prompt : kPrompts) {
    absl::StatusOr<LlamaGreedy> want =
        LlamaGreedyContinuation(kLlamaBackends, tiny->path, prompt, kContinuation, 2);
    ASSERT_TRUE(want.ok()) << want.status();
    absl::StatusOr<std::unique_ptr<Session>> session = (*model)->NewSession(256);
    ASSERT_TRUE(session.ok()) << session.status();
    std::vector<float> logits(n_vocab);
    const std::vector<int32_t> tokens(want->prompt_tokens.begin(), want->prompt_tokens.end());
    ASSERT_TRUE((*model)->Forward(**session, tokens, absl::MakeSpan(logits)).ok());
    std::vector<int> got;
    std::vector<float> distance;  // per step: max |ours - llama.cpp's| while the paths agree
    for (int step = 0; step < kContinuation; ++step) {
      const int32_t token = ArgMax(logits);
      got.push_back(token);
      float d = 0;
      for (uint32_t i = 0; i < n_vocab; ++i) d = std::max(d, std::fabs(logits[i] - want->step_logits[step][i]));
      distance.push_back(d);
      if (step + 1 < kContinuation) {
        ASSERT_TRUE((*model)->Forward(**session, {&token, 1}, absl::MakeSpan(logits)).ok());
      }
    }
    const int first_diff = static_cast<int>(
        std::mismatch(got.begin(), got.end(), want->continuation.begin()).first - got.begin());
    std::printf("%-20s %zu-token prompt: first difference at step %d of %d (llama.cpp margin there %.4f, "
                "engines %.4f apart)\n",
                GetParam(), tokens.size(), first_diff, kContinuation,
                first_diff < kContinuation ? want->margins[first_diff] : 0.0f,
                first_diff < kContinuation ? distance[first_diff] : 0.0f);
    // Identical, or the first difference sits at a near tie of llama.cpp's logits: a margin
    // below kNearTie or within twice the engines' distance at that step. Where the kernels'
    // rounding orders differ (AVX2-only CPUs) a random model's router near ties tip either
    // way; with AVX-512 our bits are llama.cpp's and all 64 agree.
    if (first_diff < kContinuation) {
      EXPECT_LT(want->margins[first_diff], std::max(kNearTie, 2 * distance[first_diff]))
          << prompt << ": step " << first_diff << " is no near tie";
      EXPECT_LT(distance[first_diff], kMaxDistance) << prompt;
    }
  }
}

// Every preset of both architectures: gpt-oss (MXFP4, Q8_0) and qwen3moe (Q4_K, Q6_K).
INSTANTIATE_TEST_SUITE_P(Presets, GreedyVsLlama,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "gpt-oss-tiny-wide",
                                         "qwen3moe-tiny", "qwen3moe-tiny-odd",
                                         "qwen3moe-tiny-wide"));

}  // namespace
}  // namespace cpubrrr

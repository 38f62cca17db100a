// Free-running greedy continuations of our forward pass against llama.cpp's, token for token.
#include <algorithm>
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
const char* const kPrompts[] = {"Hello world, this is a test.",
                                "The quick brown fox jumps over the lazy dog",
                                "<|im_start|>user\nWhat is 2 + 2?<|im_end|>\n"};

int ArgMax(const std::vector<float>& v) {
  return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

class GreedyVsLlama : public testing::TestWithParam<const char*> {};

// Each engine feeds back its own argmax: the two 64-token paths must be identical.
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
    for (int step = 0; step < kContinuation; ++step) {
      const int32_t token = ArgMax(logits);
      got.push_back(token);
      if (step + 1 < kContinuation) {
        ASSERT_TRUE((*model)->Forward(**session, {&token, 1}, absl::MakeSpan(logits)).ok());
      }
    }
    const int first_diff = static_cast<int>(
        std::mismatch(got.begin(), got.end(), want->continuation.begin()).first - got.begin());
    std::printf("%-20s %zu-token prompt: first difference at step %d of %d (llama.cpp margin there %.4f)\n",
                GetParam(), tokens.size(), first_diff, kContinuation,
                first_diff < kContinuation ? want->margins[first_diff] : 0.0f);
    EXPECT_EQ(got, want->continuation) << prompt;
  }
}

// Every preset of both architectures: gpt-oss (MXFP4, Q8_0) and qwen3moe (Q4_K, Q6_K).
INSTANTIATE_TEST_SUITE_P(Presets, GreedyVsLlama,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "gpt-oss-tiny-wide",
                                         "qwen3moe-tiny", "qwen3moe-tiny-odd",
                                         "qwen3moe-tiny-wide"));

}  // namespace
}  // namespace cpubrrr

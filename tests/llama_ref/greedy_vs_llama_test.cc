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

// For each prompt, each engine feeds back its own argmax from the same prompt tokens
// (llama.cpp's): the two paths must be identical up to a first difference at a near tie.
void ExpectGreedyPathsAgree(const std::string& label, const std::string& path,
                            const std::vector<std::string>& prompts, int threads) {
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModel(path, {.n_threads = threads, .kv_type = KvCacheType::kF32, .max_batch_tokens = 1});
  ASSERT_TRUE(model.ok()) << model.status();
  const uint32_t n_vocab = (*model)->info().n_vocab;
  for (const std::string& prompt : prompts) {
    absl::StatusOr<LlamaGreedy> want =
        LlamaGreedyContinuation(kLlamaBackends, path, prompt, kContinuation, threads);
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
    std::printf("%-24s %3zu-token prompt: first difference at step %d of %d (llama.cpp margin there %.4f, "
                "engines %.4f apart)\n",
                label.c_str(), tokens.size(), first_diff, kContinuation,
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

class GreedyVsLlama : public testing::TestWithParam<const char*> {};

TEST_P(GreedyVsLlama, SixtyFourFreeRunningGreedyTokensEqualLlamaCpp) {
  absl::StatusOr<TinyModel> tiny = WriteTinyModel(GetParam(), false, 5, "");
  ASSERT_TRUE(tiny.ok()) << tiny.status();
  ExpectGreedyPathsAgree(GetParam(), tiny->path, {std::begin(kPrompts), std::end(kPrompts)}, 2);
}

// Every preset of both architectures: gpt-oss (MXFP4, Q8_0) and qwen3moe (Q4_K or Q5_K, Q6_K).
INSTANTIATE_TEST_SUITE_P(Presets, GreedyVsLlama,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "gpt-oss-tiny-wide",
                                         "qwen3moe-tiny", "qwen3moe-tiny-odd",
                                         "qwen3moe-tiny-wide", "qwen3moe-tiny-q5_k_m"));

// Twenty English prompts, ten of them as a chat turn in the model's template.
std::vector<std::string> TrainedModelPrompts(bool chatml) {
  const char* const texts[] = {
      "The history of the city begins",      "In the spring of that year, the committee",
      "She looked out of the window and",    "The government announced today that",
      "Music has always been",               "After the war, the farmers of the valley",
      "The most important thing about a good teacher is",
      "He opened the letter slowly, and",     "Scientists at the university have found",
      "On Sunday morning the church",         "Tell me about the weather.",
      "What is the best way to learn a language?", "Continue this text: The old man",
      "Tell me about your family.",           "Why do people move to the city?",
      "Tell me about the election.",          "What happened in the spring?",
      "Continue this text: It was a cold night", "Tell me about the river.",
      "What do you think of modern art?"};
  std::vector<std::string> prompts;
  for (size_t i = 0; i < std::size(texts); ++i) {
    const std::string text = texts[i];
    if (i < 10) {
      prompts.push_back(text);
    } else if (chatml) {
      prompts.push_back("<|im_start|>user\n" + text + "<|im_end|>\n<|im_start|>assistant\n");
    } else {
      prompts.push_back("<|start|>user<|message|>" + text + "<|end|><|start|>assistant");
    }
  }
  return prompts;
}

class TrainedGreedyVsLlama : public testing::TestWithParam<const char*> {};

// The trained models' logits are far from ties at most steps, so their paths should agree
// for long stretches where the random models' wander off. One thread: 1280 one-token
// steps per engine, each a few barriers that a neighbour holding the cores would stretch.
TEST_P(TrainedGreedyVsLlama, TwentyPromptsOfSixtyFourGreedyTokensEqualLlamaCpp) {
  const std::string path = std::string("models/trained/") + GetParam();
  const bool chatml = std::string(GetParam()).find("qwen3") != std::string::npos;
  ExpectGreedyPathsAgree(GetParam(), path, TrainedModelPrompts(chatml), 1);
}

INSTANTIATE_TEST_SUITE_P(Trained, TrainedGreedyVsLlama,
                         testing::Values("gpt-oss-tiny-brown.gguf", "qwen3moe-tiny-brown.gguf"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           name = name.substr(0, name.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace cpubrrr

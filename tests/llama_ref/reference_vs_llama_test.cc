// The double-precision reference forward pass against llama.cpp on every tiny preset.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "models/common/model_config.h"
#include "models/common/reference_forward.h"
#include "models/gpt_oss/gpt_oss_weights.h"
#include "models/qwen3moe/qwen3moe_weights.h"
#include "runtime/gguf/gguf_file.h"
#include "tests/llama_ref/llama_eval.h"
#include "tests/llama_ref/tiny_models.h"

namespace cpubrrr {
namespace {

class ReferenceVsLlama : public testing::TestWithParam<const char*> {};

TEST_P(ReferenceVsLlama, NextTokenLogitsAgree) {
  absl::StatusOr<TinyModel> model = WriteTinyModel(GetParam(), false, 5, "");
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<GgufFile> file = OpenGguf(model->path);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<ModelConfig> config = ReadModelConfig(*file);
  ASSERT_TRUE(config.ok()) << config.status();
  absl::StatusOr<ModelWeights> weights = config->arch == ModelArch::kGptOss
                                             ? BindGptOssWeights(*file, *config)
                                             : BindQwen3MoeWeights(*file, *config);
  ASSERT_TRUE(weights.ok()) << weights.status();
  for (const char* prompt : {"Hello world, this is a test.", "The quick brown fox jumps over"}) {
    absl::StatusOr<LlamaLogits> want = LlamaNextTokenLogits(kLlamaBackends, model->path, prompt, 2);
    ASSERT_TRUE(want.ok()) << want.status();
    const std::vector<int32_t> tokens(want->prompt_tokens.begin(), want->prompt_tokens.end());
    const std::vector<double> got = ReferenceNextTokenLogits(*config, *weights, tokens);
    ASSERT_EQ(got.size(), want->logits.size());
    double max_diff = 0, sum = 0, sum2 = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      max_diff = std::max(max_diff, std::abs(got[i] - want->logits[i]));
      sum += want->logits[i];
      sum2 += double(want->logits[i]) * want->logits[i];
    }
    const double mean = sum / got.size(), std_dev = std::sqrt(sum2 / got.size() - mean * mean);
    std::printf("%s '%s': max |ref - llama| = %.5f, logit std %.4f, ratio %.5f\n", GetParam(),
                prompt, max_diff, std_dev, max_diff / std_dev);
    EXPECT_LT(max_diff / std_dev, 0.05);
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, ReferenceVsLlama,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "gpt-oss-tiny-wide",
                                         "qwen3moe-tiny", "qwen3moe-tiny-odd",
                                         "qwen3moe-tiny-wide"));

}  // namespace
}  // namespace cpubrrr

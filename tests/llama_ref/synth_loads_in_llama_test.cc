// Writes every tiny synthetic model and proves llama.cpp loads it and returns finite logits.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "runtime/gguf/gguf_file.h"
#include "tests/llama_ref/llama_eval.h"
#include "tests/llama_ref/tiny_models.h"
#include "runtime/synth/model_plan.h"

namespace cpubrrr::synth {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TinyModel WriteTiny(const std::string& preset, bool ollama, uint64_t seed, const std::string& tag) {
  absl::StatusOr<TinyModel> model = WriteTinyModel(preset, ollama, seed, tag);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : TinyModel{};
}

class SynthInLlama : public testing::TestWithParam<const char*> {};

TEST_P(SynthInLlama, LlamaCppLoadsItAndReturnsFiniteLogits) {
  TinyModel model = WriteTiny(GetParam(), /*ollama=*/false, /*seed=*/7, "");
  absl::StatusOr<LlamaLogits> out =
      LlamaNextTokenLogits(kLlamaBackends, model.path, "Hello world, this is a test.", 2);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_FALSE(out->logits.empty());
  float lo = out->logits[0], hi = out->logits[0];
  for (float v : out->logits) {
    ASSERT_TRUE(std::isfinite(v));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GT(hi - lo, 1e-3f) << "logits are all equal: the weights did not reach the output";
}

TEST_P(SynthInLlama, OurReaderSeesThePlannedTensors) {
  TinyModel model = WriteTiny(GetParam(), /*ollama=*/false, /*seed=*/7, "-reader");
  absl::StatusOr<GgufFile> file = OpenGguf(model.path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ(file->tensors().size(), model.plan.tensors.size());
  for (size_t i = 0; i < model.plan.tensors.size(); ++i) {
    const PlannedTensor& want = model.plan.tensors[i];
    const GgufTensor& got = file->tensors()[i];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.type, want.type) << want.name;
    ASSERT_EQ(got.n_dims, want.dims.size()) << want.name;
    for (size_t d = 0; d < want.dims.size(); ++d) {
      EXPECT_EQ(static_cast<uint64_t>(got.dims[d]), want.dims[d]) << want.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, SynthInLlama,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "gpt-oss-tiny-wide",
                                         "qwen3moe-tiny", "qwen3moe-tiny-odd",
                                         "qwen3moe-tiny-wide", "qwen3moe-tiny-q5_k_m"));

TEST(Synth, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::string a = ReadAll(WriteTiny("gpt-oss-tiny", false, 11, "-a").path);
  const std::string b = ReadAll(WriteTiny("gpt-oss-tiny", false, 11, "-b").path);
  const std::string c = ReadAll(WriteTiny("gpt-oss-tiny", false, 12, "-c").path);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a.size(), c.size());
}

TEST(Synth, OllamaNamingUsesOllamaKeysAndTensorNames) {
  TinyModel model = WriteTiny("gpt-oss-tiny", /*ollama=*/true, 3, "-ollama");
  absl::StatusOr<GgufFile> file = OpenGguf(model.path);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(*file->GetString("general.architecture"), "gptoss");
  EXPECT_TRUE(file->GetU32("gptoss.block_count").ok());
  EXPECT_FALSE(file->GetU32("gptoss.expert_feed_forward_length").ok());
  EXPECT_NE(file->FindTensor("blk.0.attn_out.weight"), nullptr);
  EXPECT_NE(file->FindTensor("blk.0.attn_sinks"), nullptr);
  EXPECT_NE(file->FindTensor("blk.0.ffn_norm.weight"), nullptr);
  EXPECT_EQ(file->FindTensor("blk.0.attn_q.weight")->type, GgmlType::kBF16);
}

}  // namespace
}  // namespace cpubrrr::synth

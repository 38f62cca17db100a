// Named model shapes: the real gpt-oss and Qwen3 MoE sizes and tiny test shapes.
#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/synth/model_plan.h"

namespace cpubrrr::synth {
namespace {

ModelShape GptOss(uint32_t layers, uint32_t embd, uint32_t heads, uint32_t kv, uint32_t hd,
                  uint32_t experts, uint32_t used, uint32_t ff) {
  return ModelShape{.arch = ModelArch::kGptOss, .n_layer = layers, .n_embd = embd,
                    .n_head = heads, .n_head_kv = kv, .head_dim = hd, .n_expert = experts,
                    .n_expert_used = used, .n_ff_exp = ff, .n_vocab = 201088,
                    .context_length = 131072, .sliding_window = 128, .rope_base = 150000.0f,
                    .rms_eps = 1e-5f};
}

ModelShape Qwen3Moe(uint32_t layers, uint32_t embd, uint32_t heads, uint32_t kv,
                    uint32_t hd, uint32_t experts, uint32_t used, uint32_t ff) {
  return ModelShape{.arch = ModelArch::kQwen3Moe, .n_layer = layers, .n_embd = embd,
                    .n_head = heads, .n_head_kv = kv, .head_dim = hd, .n_expert = experts,
                    .n_expert_used = used, .n_ff_exp = ff, .n_vocab = 151936,
                    .context_length = 262144, .sliding_window = 0, .rope_base = 1e6f,
                    .rms_eps = 1e-6f};
}

// The shapes tools/train/train_tiny.py trains: a 4096-token vocabulary, a context of 4096.
ModelShape Trained(ModelShape shape) {
  shape.n_vocab = 4096;
  shape.context_length = 4096;
  return shape;
}

// A Q5_K_M file of `shape` (Q5_K where Q4_K_M has Q4_K).
ModelShape Q5KM(ModelShape shape) {
  shape.kquant = GgmlType::kQ5_K;
  return shape;
}

const std::map<std::string, ModelShape>& Presets() {
  static const auto* presets = new std::map<std::string, ModelShape>{
      {"gpt-oss-20b", GptOss(24, 2880, 64, 8, 64, 32, 4, 2880)},
      {"gpt-oss-120b", GptOss(36, 2880, 64, 8, 64, 128, 4, 2880)},
      // Tiny shapes for tests: odd head counts, expert counts that are not powers of two.
      {"gpt-oss-tiny", GptOss(2, 64, 4, 2, 16, 4, 2, 64)},
      {"gpt-oss-tiny-odd", GptOss(3, 96, 3, 1, 32, 5, 2, 96)},
      {"gpt-oss-tiny-wide", GptOss(4, 128, 8, 2, 64, 6, 3, 160)},
      {"gpt-oss-trained", Trained(GptOss(4, 128, 4, 2, 32, 8, 2, 128))},
      {"qwen3moe-trained", Trained(Qwen3Moe(4, 256, 4, 2, 64, 8, 2, 256))},
      {"qwen3moe-30b-a3b", Qwen3Moe(48, 2048, 32, 4, 128, 128, 8, 768)},
      {"qwen3moe-tiny", Qwen3Moe(2, 256, 4, 2, 64, 8, 2, 256)},
      {"qwen3moe-tiny-odd", Qwen3Moe(3, 256, 3, 1, 64, 5, 2, 256)},
      {"qwen3moe-tiny-wide", Qwen3Moe(4, 512, 8, 2, 64, 6, 3, 512)},
      {"qwen3moe-tiny-q5_k_m", Q5KM(Qwen3Moe(3, 256, 3, 1, 64, 5, 2, 256))},
  };
  return *presets;
}

}  // namespace

absl::StatusOr<ModelShape> ShapePreset(const std::string& name) {
  auto it = Presets().find(name);
  if (it != Presets().end()) return it->second;
  std::string known;
  for (const auto& [preset, shape] : Presets()) absl::StrAppend(&known, " ", preset);
  return absl::NotFoundError(absl::StrCat("unknown shape preset '", name, "'; known:", known));
}

}  // namespace cpubrrr::synth

// The tensors and metadata of a synthetic gpt-oss or qwen3moe GGUF, for any shape.
#ifndef CPUBRRR_RUNTIME_SYNTH_MODEL_PLAN_H_
#define CPUBRRR_RUNTIME_SYNTH_MODEL_PLAN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "quant/ggml_type.h"
#include "runtime/model/model_arch.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "runtime/synth/weight_fill.h"

namespace cpubrrr::synth {

// Every dimension of a model; presets match the real models (MODEL_SPEC.md 2 and 3).
struct ModelShape {
  ModelArch arch = ModelArch::kGptOss;
  uint32_t n_layer = 0;
  uint32_t n_embd = 0;
  uint32_t n_head = 0;
  uint32_t n_head_kv = 0;
  uint32_t head_dim = 0;
  uint32_t n_expert = 0;
  uint32_t n_expert_used = 0;
  uint32_t n_ff_exp = 0;
  uint32_t n_vocab = 0;  // embedding rows; the tokenizer is padded up to this
  uint32_t context_length = 0;
  uint32_t sliding_window = 0;  // gpt-oss only
  float rope_base = 0;
  float rms_eps = 0;
  // qwen3moe only: the K-quant of most tensors, Q4_K (a Q4_K_M file) or Q5_K (Q5_K_M); the
  // layers llama-quantize gives more bits get Q6_K either way.
  GgmlType kquant = GgmlType::kQ4_K;
};

// Returns the named preset ("gpt-oss-20b", "gpt-oss-120b", "gpt-oss-tiny",
// "gpt-oss-tiny-odd", "gpt-oss-tiny-wide", "qwen3moe-30b-a3b", "qwen3moe-tiny",
// "qwen3moe-tiny-odd", "qwen3moe-tiny-wide", "qwen3moe-tiny-q5_k_m", and "gpt-oss-trained", "qwen3moe-trained":
// the shapes tools/train trains), or an error listing them.
absl::StatusOr<ModelShape> ShapePreset(const std::string& name);

// Layout choices that are not dimensions.
struct PlanOptions {
  bool ollama_naming = false;  // gpt-oss only: Ollama's `gptoss` keys and tensor names
  GgmlType dense_type = GgmlType::kQ8_0;  // gpt-oss attention, embedding and output
  bool all_f32 = false;  // every tensor f32: the unquantized twin of a trained model
  std::string name;  // general.name
};

// A GGUF metadata value of one of the types the synthetic files use.
using MetaValue = std::variant<uint32_t, float, bool, std::string, std::vector<std::string>,
                               std::vector<int32_t>>;

struct PlannedTensor {
  std::string name;
  GgmlType type;
  std::vector<uint64_t> dims;  // ne[0] first, as GGUF stores them
  WeightInit init;
};

struct ModelPlan {
  std::vector<std::pair<std::string, MetaValue>> metadata;
  std::vector<PlannedTensor> tensors;
};

// Returns the tensors and metadata of a model of `shape` with tokenizer `vocab`, or an
// error when a dimension does not fit the block size of the type it needs.
absl::StatusOr<ModelPlan> PlanModel(const ModelShape& shape, const PlanOptions& options,
                                    const BpeVocab& vocab);

// Returns the bytes of tensor data the plan holds (without metadata and padding).
uint64_t PlannedTensorBytes(const ModelPlan& plan);

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_RUNTIME_SYNTH_MODEL_PLAN_H_

// Reads ModelConfig from GGUF metadata, with the defaults Ollama's gpt-oss blobs need.
#include "models/common/model_config.h"

#include "absl/status/status.h"
#include "runtime/status_macros.h"
#include "runtime/gguf/str_cat.h"
#include "runtime/model/architecture.h"

namespace cpubrrr {
namespace {

// gpt-oss's published YaRN settings, used when a file (Ollama's blob) omits them.
constexpr float kGptOssYarnFactor = 32.0f;
constexpr uint32_t kGptOssYarnOriginalContext = 4096;

// Reads a required positive u32 `prefix.suffix`.
absl::Status ReadDim(const GgufFile& file, const std::string& prefix, const char* suffix,
                     uint32_t* out) {
  const std::string key = Cat(prefix, ".", suffix);
  absl::StatusOr<uint32_t> v = file.GetU32(key);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        Cat("model metadata: cannot read ", key, ": ", v.status().message()));
  }
  if (*v == 0) return absl::InvalidArgumentError(Cat("model metadata: ", key, " is 0"));
  *out = *v;
  return absl::OkStatus();
}

// Reads the optional float `key` into `out`, leaving it unchanged when missing.
absl::Status ReadOptionalF32(const GgufFile& file, const std::string& key, float* out) {
  if (file.Find(key) == nullptr) return absl::OkStatus();
  absl::StatusOr<float> v = file.GetF32(key);
  if (!v.ok()) return absl::InvalidArgumentError(Cat("model metadata: ", key, ": ", v.status().message()));
  *out = *v;
  return absl::OkStatus();
}

absl::Status ReadRope(const GgufFile& file, const ModelConfig& c, RopeConfig* rope) {
  const std::string& p = c.key_prefix;
  CPUBRRR_RETURN_IF_ERROR(ReadOptionalF32(file, p + ".rope.freq_base", &rope->freq_base));
  absl::StatusOr<std::string_view> type = file.GetString(p + ".rope.scaling.type");
  if (type.ok() && *type == "yarn") {
    rope->yarn = true;
    rope->factor = 1.0f;
    CPUBRRR_RETURN_IF_ERROR(ReadOptionalF32(file, p + ".rope.scaling.factor", &rope->factor));
    rope->original_context = c.n_ctx_train;
    if (file.Find(p + ".rope.scaling.original_context_length") != nullptr) {
      CPUBRRR_RETURN_IF_ERROR(
          ReadDim(file, p, "rope.scaling.original_context_length", &rope->original_context));
    }
  } else if (type.ok() && *type != "none" && *type != "linear") {
    return absl::UnimplementedError(Cat("rope scaling type '", *type, "' is not supported"));
  } else if (c.ollama_naming) {
    rope->yarn = true;
    rope->factor = kGptOssYarnFactor;
    rope->original_context = kGptOssYarnOriginalContext;
  }
  if (type.ok() && *type == "linear" && file.Find(p + ".rope.scaling.factor") != nullptr) {
    return absl::UnimplementedError("linear rope scaling is not supported");
  }
  CPUBRRR_RETURN_IF_ERROR(ReadOptionalF32(file, p + ".rope.scaling.yarn_beta_fast", &rope->beta_fast));
  CPUBRRR_RETURN_IF_ERROR(ReadOptionalF32(file, p + ".rope.scaling.yarn_beta_slow", &rope->beta_slow));
  CPUBRRR_RETURN_IF_ERROR(ReadOptionalF32(file, p + ".rope.scaling.attn_factor", &rope->attn_factor));
  if (rope->yarn && (rope->factor <= 1.0f || rope->original_context == 0)) {
    return absl::InvalidArgumentError("model metadata: YaRN needs a factor > 1 and an original context");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ModelConfig> ReadModelConfig(const GgufFile& file) {
  absl::StatusOr<std::string_view> prefix = file.GetString("general.architecture");
  absl::StatusOr<std::string> arch = ArchitectureName(file);
  if (!prefix.ok() || !arch.ok()) return absl::InvalidArgumentError("model metadata: no general.architecture");
  ModelConfig c;
  c.key_prefix = std::string(*prefix);  // the metadata keys' prefix as written ("gptoss.*" in Ollama's)
  c.architecture = *arch;
  c.ollama_naming = c.key_prefix != c.architecture;
  CPUBRRR_ASSIGN_OR_RETURN(c.arch, ModelArchOfName(*arch));
  if (absl::StatusOr<std::string_view> name = file.GetString("general.name"); name.ok()) {
    c.name = std::string(*name);
  }
  const std::string& p = c.key_prefix;
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "block_count", &c.n_layer));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "embedding_length", &c.n_embd));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "attention.head_count", &c.n_head));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "attention.head_count_kv", &c.n_head_kv));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "context_length", &c.n_ctx_train));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "expert_count", &c.n_expert));
  CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "expert_used_count", &c.n_expert_used));
  if (file.Find(p + ".attention.key_length") != nullptr) {
    CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "attention.key_length", &c.head_dim));
  } else {
    c.head_dim = c.n_embd / c.n_head;
  }
  if (file.Find(p + ".attention.value_length") != nullptr) {
    uint32_t value_length = 0;
    CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "attention.value_length", &value_length));
    if (value_length != c.head_dim) {
      return absl::UnimplementedError("attention.value_length differs from key_length");
    }
  }
  if (file.Find(p + ".expert_feed_forward_length") != nullptr) {
    CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "expert_feed_forward_length", &c.n_ff_exp));
  } else {
    const GgufTensor* gate = file.FindTensor("blk.0.ffn_gate_exps.weight");
    if (gate == nullptr || gate->n_dims < 2 || gate->dims[1] <= 0) {
      return absl::InvalidArgumentError(
          "model metadata: no expert_feed_forward_length and no blk.0.ffn_gate_exps.weight");
    }
    c.n_ff_exp = static_cast<uint32_t>(gate->dims[1]);
  }
  absl::StatusOr<float> eps = file.GetF32(p + ".attention.layer_norm_rms_epsilon");
  if (!eps.ok()) {
    return absl::InvalidArgumentError(
        Cat("model metadata: cannot read ", p, ".attention.layer_norm_rms_epsilon"));
  }
  c.rms_eps = *eps;
  if (c.arch == ModelArch::kGptOss) {
    CPUBRRR_RETURN_IF_ERROR(ReadDim(file, p, "attention.sliding_window", &c.sliding_window));
  }
  const GgufTensor* embd = file.FindTensor("token_embd.weight");
  if (embd == nullptr || embd->n_dims != 2) {
    return absl::InvalidArgumentError("model: tensor token_embd.weight is missing or not 2-D");
  }
  c.n_vocab = static_cast<uint32_t>(embd->dims[1]);
  if (c.n_head % c.n_head_kv != 0) {
    return absl::InvalidArgumentError("model metadata: head_count is not a multiple of head_count_kv");
  }
  if (c.head_dim % 2 != 0) return absl::InvalidArgumentError("model metadata: odd head dimension");
  if (c.n_expert_used > c.n_expert) {
    return absl::InvalidArgumentError("model metadata: expert_used_count exceeds expert_count");
  }
  CPUBRRR_RETURN_IF_ERROR(ReadRope(file, c, &c.rope));
  return c;
}

}  // namespace cpubrrr

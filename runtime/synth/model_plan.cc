// Tensor names, shapes, types, initial spreads and metadata keys per architecture.
#include "runtime/synth/model_plan.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/status_macros.h"

namespace cpubrrr::synth {
namespace {

// llama.cpp's file type ids (llama_ftype) written to general.file_type.
constexpr uint32_t kFileTypeAllF32 = 0;
constexpr uint32_t kFileTypeQ4KM = 15;
constexpr uint32_t kFileTypeQ5KM = 17;
constexpr uint32_t kFileTypeMxfp4Moe = 38;

// Spreads: projections keep activations at unit scale (std 1/sqrt(fan_in)); norms sit
// near 1; biases are small.
WeightInit Projection(uint64_t fan_in) { return {0.0f, 1.0f / std::sqrt(float(fan_in))}; }
constexpr WeightInit kNorm{1.0f, 0.05f};
constexpr WeightInit kBias{0.0f, 0.02f};
constexpr WeightInit kEmbedding{0.0f, 1.0f};
constexpr WeightInit kSink{0.0f, 0.5f};

class Planner {
 public:
  Planner(ModelPlan& plan, bool all_f32) : plan_(plan), all_f32_(all_f32) {}

  void Meta(std::string key, MetaValue value) {
    plan_.metadata.emplace_back(std::move(key), std::move(value));
  }

  // general.file_type: `quantized`, or all-f32 when the plan keeps every tensor f32.
  void FileType(uint32_t quantized) {
    Meta("general.file_type", all_f32_ ? kFileTypeAllF32 : quantized);
  }

  // Adds a tensor; fails when ne[0] is not a whole number of `type` blocks.
  absl::Status Tensor(std::string name, GgmlType type, std::vector<uint64_t> dims,
                      WeightInit init) {
    if (all_f32_) type = GgmlType::kF32;
    const uint32_t block = GeometryOf(type).block_elems;
    if (block == 0 || dims.empty() || dims[0] % block != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tensor ", name, ": row length ", dims.empty() ? 0 : dims[0],
          " is not a multiple of the ", TypeName(type), " block size ", block));
    }
    plan_.tensors.push_back({std::move(name), type, std::move(dims), init});
    return absl::OkStatus();
  }

 private:
  ModelPlan& plan_;
  bool all_f32_;
};

void TokenizerMeta(Planner& p, const BpeVocab& vocab, const std::string& pre,
                   int32_t bos, int32_t eos, int32_t pad) {
  p.Meta("tokenizer.ggml.model", std::string("gpt2"));
  p.Meta("tokenizer.ggml.pre", pre);
  p.Meta("tokenizer.ggml.tokens", vocab.tokens);
  p.Meta("tokenizer.ggml.token_type", vocab.token_types);
  p.Meta("tokenizer.ggml.merges", vocab.merges);
  p.Meta("tokenizer.ggml.bos_token_id", static_cast<uint32_t>(bos));
  p.Meta("tokenizer.ggml.eos_token_id", static_cast<uint32_t>(eos));
  p.Meta("tokenizer.ggml.padding_token_id", static_cast<uint32_t>(pad));
  p.Meta("tokenizer.ggml.add_bos_token", false);
}

void CommonArchMeta(Planner& p, const std::string& arch, const ModelShape& s) {
  p.Meta(arch + ".block_count", s.n_layer);
  p.Meta(arch + ".context_length", s.context_length);
  p.Meta(arch + ".embedding_length", s.n_embd);
  p.Meta(arch + ".feed_forward_length", s.n_ff_exp * s.n_expert_used);
  p.Meta(arch + ".attention.head_count", s.n_head);
  p.Meta(arch + ".attention.head_count_kv", s.n_head_kv);
  p.Meta(arch + ".attention.key_length", s.head_dim);
  p.Meta(arch + ".attention.value_length", s.head_dim);
  p.Meta(arch + ".attention.layer_norm_rms_epsilon", s.rms_eps);
  p.Meta(arch + ".rope.freq_base", s.rope_base);
  p.Meta(arch + ".expert_count", s.n_expert);
  p.Meta(arch + ".expert_used_count", s.n_expert_used);
}

absl::Status PlanGptOss(Planner& p, const ModelShape& s, const PlanOptions& o,
                        const BpeVocab& vocab) {
  const std::string arch = o.ollama_naming ? "gptoss" : std::string(ModelArchName(ModelArch::kGptOss));
  p.Meta("general.architecture", arch);
  p.Meta("general.name", o.name);
  p.FileType(kFileTypeMxfp4Moe);
  p.Meta("general.quantization_version", uint32_t{2});
  CommonArchMeta(p, arch, s);
  p.Meta(arch + ".attention.sliding_window", s.sliding_window);
  if (!o.ollama_naming) {  // Ollama's blobs lack these keys.
    p.Meta(arch + ".expert_feed_forward_length", s.n_ff_exp);
    p.Meta(arch + ".rope.scaling.type", std::string("yarn"));
    p.Meta(arch + ".rope.scaling.factor", 32.0f);
    p.Meta(arch + ".rope.scaling.original_context_length", uint32_t{4096});
  }
  auto bos = FindToken(vocab, "<|startoftext|>");
  auto eos = FindToken(vocab, "<|return|>");
  auto pad = FindToken(vocab, "<|endoftext|>");
  if (!bos.ok() || !eos.ok() || !pad.ok()) {
    return absl::InvalidArgumentError("tokenizer lacks gpt-oss special tokens");
  }
  // Ollama writes a pre-tokenizer name other than gpt-4o; the engine must cope.
  TokenizerMeta(p, vocab, o.ollama_naming ? "default" : "gpt-4o", *bos, *eos, *pad);

  const GgmlType dense = o.dense_type;
  const uint64_t d = s.n_embd, q = uint64_t{s.n_head} * s.head_dim,
                 kv = uint64_t{s.n_head_kv} * s.head_dim, ff = s.n_ff_exp, ne = s.n_expert;
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("token_embd.weight", dense, {d, s.n_vocab}, kEmbedding));
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("output_norm.weight", GgmlType::kF32, {d}, kNorm));
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("output.weight", dense, {d, s.n_vocab}, Projection(d)));
  for (uint32_t i = 0; i < s.n_layer; ++i) {
    const std::string b = absl::StrCat("blk.", i, ".");
    const std::string attn_out = o.ollama_naming ? "attn_out" : "attn_output";
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_norm.weight", GgmlType::kF32, {d}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_q.weight", dense, {d, q}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_q.bias", GgmlType::kF32, {q}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_k.weight", dense, {d, kv}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_k.bias", GgmlType::kF32, {kv}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_v.weight", dense, {d, kv}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_v.bias", GgmlType::kF32, {kv}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + attn_out + ".weight", dense, {q, d}, Projection(q)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + attn_out + ".bias", GgmlType::kF32, {d}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + (o.ollama_naming ? "attn_sinks" : "attn_sinks.weight"),
                             GgmlType::kF32, {s.n_head}, kSink));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + (o.ollama_naming ? "ffn_norm" : "post_attention_norm") +
                                 ".weight",
                             GgmlType::kF32, {d}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_inp.weight", GgmlType::kF32, {d, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_inp.bias", GgmlType::kF32, {ne}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_exps.weight", GgmlType::kMXFP4, {d, ff, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_exps.bias", GgmlType::kF32, {ff, ne}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_up_exps.weight", GgmlType::kMXFP4, {d, ff, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_up_exps.bias", GgmlType::kF32, {ff, ne}, kBias));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_down_exps.weight", GgmlType::kMXFP4, {ff, d, ne}, Projection(ff)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_down_exps.bias", GgmlType::kF32, {d, ne}, kBias));
  }
  return absl::OkStatus();
}

// llama.cpp's Q4_K_M and Q5_K_M give a layer more bits in its first and last eighth and in every
// third layer between them.
bool UsesMoreBits(uint32_t layer, uint32_t n_layer) {
  return layer < n_layer / 8 || layer >= 7 * n_layer / 8 || (layer - n_layer / 8) % 3 == 2;
}

// Returns `k_type` when rows split into 256-blocks, else Q8_0 (as llama-quantize falls
// back for rows that K-quants cannot hold).
GgmlType KQuantOrFallback(GgmlType k_type, uint64_t row) {
  return row % 256 == 0 ? k_type : GgmlType::kQ8_0;
}

absl::Status PlanQwen3Moe(Planner& p, const ModelShape& s, const PlanOptions& o,
                          const BpeVocab& vocab) {
  const std::string arch(ModelArchName(ModelArch::kQwen3Moe));
  p.Meta("general.architecture", arch);
  p.Meta("general.name", o.name);
  if (s.kquant != GgmlType::kQ4_K && s.kquant != GgmlType::kQ5_K) {
    return absl::InvalidArgumentError("qwen3moe files are Q4_K_M or Q5_K_M: the K-quant must be q4_K or q5_K");
  }
  p.FileType(s.kquant == GgmlType::kQ5_K ? kFileTypeQ5KM : kFileTypeQ4KM);
  p.Meta("general.quantization_version", uint32_t{2});
  CommonArchMeta(p, arch, s);
  p.Meta(arch + ".expert_feed_forward_length", s.n_ff_exp);
  auto eos = FindToken(vocab, "<|im_end|>");
  auto pad = FindToken(vocab, "<|endoftext|>");
  if (!eos.ok() || !pad.ok()) return absl::InvalidArgumentError("tokenizer lacks Qwen3 tokens");
  TokenizerMeta(p, vocab, "qwen2", *pad, *eos, *pad);

  const uint64_t d = s.n_embd, q = uint64_t{s.n_head} * s.head_dim,
                 kv = uint64_t{s.n_head_kv} * s.head_dim, ff = s.n_ff_exp, ne = s.n_expert;
  const GgmlType q4 = s.kquant, q6 = GgmlType::kQ6_K;
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("token_embd.weight", KQuantOrFallback(q4, d), {d, s.n_vocab}, kEmbedding));
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("output_norm.weight", GgmlType::kF32, {d}, kNorm));
  CPUBRRR_RETURN_IF_ERROR(p.Tensor("output.weight", KQuantOrFallback(q6, d), {d, s.n_vocab}, Projection(d)));
  for (uint32_t i = 0; i < s.n_layer; ++i) {
    const std::string b = absl::StrCat("blk.", i, ".");
    const GgmlType more = UsesMoreBits(i, s.n_layer) ? q6 : q4;
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_norm.weight", GgmlType::kF32, {d}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_q.weight", KQuantOrFallback(q4, d), {d, q}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_k.weight", KQuantOrFallback(q4, d), {d, kv}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_v.weight", KQuantOrFallback(more, d), {d, kv}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_output.weight", KQuantOrFallback(q4, q), {q, d}, Projection(q)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_q_norm.weight", GgmlType::kF32, {s.head_dim}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "attn_k_norm.weight", GgmlType::kF32, {s.head_dim}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_norm.weight", GgmlType::kF32, {d}, kNorm));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_inp.weight", GgmlType::kF32, {d, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_gate_exps.weight", KQuantOrFallback(q4, d), {d, ff, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_up_exps.weight", KQuantOrFallback(q4, d), {d, ff, ne}, Projection(d)));
    CPUBRRR_RETURN_IF_ERROR(p.Tensor(b + "ffn_down_exps.weight", KQuantOrFallback(more, ff), {ff, d, ne}, Projection(ff)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ModelPlan> PlanModel(const ModelShape& shape, const PlanOptions& options,
                                    const BpeVocab& vocab) {
  if (vocab.tokens.size() != shape.n_vocab) {
    return absl::InvalidArgumentError(absl::StrCat("vocabulary has ", vocab.tokens.size(),
                                                   " tokens, the shape ", shape.n_vocab, " rows"));
  }
  if (shape.n_head == 0 || shape.n_head_kv == 0 || shape.n_head % shape.n_head_kv != 0 ||
      shape.n_expert_used == 0 || shape.n_expert_used > shape.n_expert) {
    return absl::InvalidArgumentError("inconsistent head or expert counts");
  }
  ModelPlan plan;
  Planner planner(plan, options.all_f32);
  absl::Status status = shape.arch == ModelArch::kGptOss
                            ? PlanGptOss(planner, shape, options, vocab)
                            : PlanQwen3Moe(planner, shape, options, vocab);
  if (!status.ok()) return status;
  return plan;
}

uint64_t PlannedTensorBytes(const ModelPlan& plan) {
  uint64_t total = 0;
  for (const PlannedTensor& t : plan.tensors) {
    uint64_t elems = 1;
    for (uint64_t n : t.dims) elems *= n;
    const TypeGeometry g = GeometryOf(t.type);
    total += elems / g.block_elems * g.block_bytes;
  }
  return total;
}

}  // namespace cpubrrr::synth

// Test-only GGUF tokenizer metadata access through llama.cpp's gguf_* functions.
#include "runtime/tokenizer/test_gguf_vocab.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gguf.h"

namespace cpubrrr {
namespace {

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};
using GgufPtr = std::unique_ptr<gguf_context, GgufFree>;

absl::StatusOr<std::vector<std::string>> StringArray(const gguf_context* ctx, const char* key) {
  const int64_t k = gguf_find_key(ctx, key);
  if (k < 0 || gguf_get_kv_type(ctx, k) != GGUF_TYPE_ARRAY ||
      gguf_get_arr_type(ctx, k) != GGUF_TYPE_STRING) {
    return absl::NotFoundError(absl::StrCat("no string array ", key));
  }
  std::vector<std::string> out(gguf_get_arr_n(ctx, k));
  for (size_t i = 0; i < out.size(); ++i) out[i] = gguf_get_arr_str(ctx, k, i);
  return out;
}

int32_t OptionalId(const gguf_context* ctx, const char* key) {
  const int64_t k = gguf_find_key(ctx, key);
  return k < 0 ? -1 : static_cast<int32_t>(gguf_get_val_u32(ctx, k));
}

}  // namespace

absl::StatusOr<GgufVocab> ReadGgufVocab(const std::string& path) {
  GgufPtr ctx(gguf_init_from_file(path.c_str(), {/*no_alloc=*/true, /*ctx=*/nullptr}));
  if (!ctx) return absl::InvalidArgumentError(absl::StrCat("cannot read GGUF ", path));
  GgufVocab out;
  absl::StatusOr<std::vector<std::string>> tokens = StringArray(ctx.get(), "tokenizer.ggml.tokens");
  if (!tokens.ok()) return tokens.status();
  out.vocab.tokens = *std::move(tokens);
  absl::StatusOr<std::vector<std::string>> merges = StringArray(ctx.get(), "tokenizer.ggml.merges");
  if (!merges.ok()) return merges.status();
  out.vocab.merges = *std::move(merges);
  const int64_t types = gguf_find_key(ctx.get(), "tokenizer.ggml.token_type");
  if (types < 0 || gguf_get_arr_type(ctx.get(), types) != GGUF_TYPE_INT32 ||
      gguf_get_arr_n(ctx.get(), types) != out.vocab.tokens.size()) {
    return absl::InvalidArgumentError("tokenizer.ggml.token_type is missing or mis-sized");
  }
  const auto* data = static_cast<const int32_t*>(gguf_get_arr_data(ctx.get(), types));
  out.vocab.token_types.assign(data, data + out.vocab.tokens.size());
  const int64_t pre = gguf_find_key(ctx.get(), "tokenizer.ggml.pre");
  if (pre >= 0) out.config.pre = gguf_get_val_str(ctx.get(), pre);
  out.config.bos_id = OptionalId(ctx.get(), "tokenizer.ggml.bos_token_id");
  out.config.eos_id = OptionalId(ctx.get(), "tokenizer.ggml.eos_token_id");
  const int64_t add_bos = gguf_find_key(ctx.get(), "tokenizer.ggml.add_bos_token");
  if (add_bos >= 0) out.config.add_bos = gguf_get_val_bool(ctx.get(), add_bos);
  return out;
}

absl::Status WriteGgufVocab(const std::string& path, const std::string& arch,
                            const GgufVocab& v) {
  GgufPtr ctx(gguf_init_empty());
  gguf_set_val_str(ctx.get(), "general.architecture", arch.c_str());
  gguf_set_val_str(ctx.get(), "tokenizer.ggml.model", "gpt2");
  gguf_set_val_str(ctx.get(), "tokenizer.ggml.pre", v.config.pre.c_str());
  std::vector<const char*> tokens;
  for (const std::string& t : v.vocab.tokens) tokens.push_back(t.c_str());
  gguf_set_arr_str(ctx.get(), "tokenizer.ggml.tokens", tokens.data(), tokens.size());
  gguf_set_arr_data(ctx.get(), "tokenizer.ggml.token_type", GGUF_TYPE_INT32,
                    v.vocab.token_types.data(), v.vocab.token_types.size());
  std::vector<const char*> merges;
  for (const std::string& m : v.vocab.merges) merges.push_back(m.c_str());
  gguf_set_arr_str(ctx.get(), "tokenizer.ggml.merges", merges.data(), merges.size());
  if (v.config.bos_id >= 0) gguf_set_val_u32(ctx.get(), "tokenizer.ggml.bos_token_id", v.config.bos_id);
  if (v.config.eos_id >= 0) gguf_set_val_u32(ctx.get(), "tokenizer.ggml.eos_token_id", v.config.eos_id);
  gguf_set_val_bool(ctx.get(), "tokenizer.ggml.add_bos_token", v.config.add_bos);
  if (!gguf_write_to_file(ctx.get(), path.c_str(), /*only_meta=*/true)) {
    return absl::InternalError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

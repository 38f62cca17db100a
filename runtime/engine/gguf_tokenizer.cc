// Reads tokenizer.ggml.* arrays and scalars into a BpeTokenizer.
#include "runtime/engine/gguf_tokenizer.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace cpubrrr {
namespace {

// Returns the strings of array `key` as owned copies.
absl::StatusOr<std::vector<std::string>> StringArray(const GgufFile& file, const char* key) {
  absl::StatusOr<absl::Span<const std::string_view>> views = file.GetStringArray(key);
  if (!views.ok()) return views.status();
  return std::vector<std::string>(views->begin(), views->end());
}

// Returns integer `key` as an id, or -1 when the file does not have it.
absl::StatusOr<int32_t> OptionalId(const GgufFile& file, const char* key) {
  if (file.Find(key) == nullptr) return -1;
  return file.GetI32(key);
}

}  // namespace

absl::StatusOr<std::unique_ptr<BpeTokenizer>> TokenizerFromGguf(const GgufFile& file) {
  absl::StatusOr<std::string_view> model = file.GetString("tokenizer.ggml.model");
  if (!model.ok()) return model.status();
  if (*model != "gpt2") {
    return absl::UnimplementedError(
        absl::StrCat("tokenizer.ggml.model '", std::string(*model), "' is not byte-level BPE (gpt2)"));
  }
  BpeVocab vocab;
  absl::StatusOr<std::vector<std::string>> tokens = StringArray(file, "tokenizer.ggml.tokens");
  if (!tokens.ok()) return tokens.status();
  vocab.tokens = *std::move(tokens);
  absl::StatusOr<std::vector<int32_t>> types = file.GetArrayI32("tokenizer.ggml.token_type");
  if (!types.ok()) return types.status();
  vocab.token_types = *std::move(types);
  absl::StatusOr<std::vector<std::string>> merges = StringArray(file, "tokenizer.ggml.merges");
  if (!merges.ok()) return merges.status();
  vocab.merges = *std::move(merges);

  TokenizerConfig config;
  if (file.Find("tokenizer.ggml.pre") != nullptr) {
    absl::StatusOr<std::string_view> pre = file.GetString("tokenizer.ggml.pre");
    if (!pre.ok()) return pre.status();
    config.pre = std::string(*pre);
  }
  absl::StatusOr<int32_t> bos = OptionalId(file, "tokenizer.ggml.bos_token_id");
  if (!bos.ok()) return bos.status();
  absl::StatusOr<int32_t> eos = OptionalId(file, "tokenizer.ggml.eos_token_id");
  if (!eos.ok()) return eos.status();
  config.bos_id = *bos;
  config.eos_id = *eos;
  if (file.Find("tokenizer.ggml.add_bos_token") != nullptr) {
    absl::StatusOr<bool> add_bos = file.GetBool("tokenizer.ggml.add_bos_token");
    if (!add_bos.ok()) return add_bos.status();
    config.add_bos = *add_bos;
  }
  return BpeTokenizer::Create(std::move(vocab), std::move(config));
}

}  // namespace cpubrrr

// Reads a Hugging Face tokenizer.json (byte-level BPE) into GGUF tokenizer arrays.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_TOKENIZER_JSON_H_
#define CPUBRRR_RUNTIME_TOKENIZER_TOKENIZER_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

// GGUF token types (llama.cpp's llama_token_type numbering).
enum TokenType : int32_t {
  kTokenNormal = 1,
  kTokenControl = 3,
  kTokenUserDefined = 4,
  kTokenUnused = 5,
};

// The arrays GGUF stores under tokenizer.ggml.*: tokens and types by id, merges by rank.
struct BpeVocab {
  std::vector<std::string> tokens;
  std::vector<int32_t> token_types;
  std::vector<std::string> merges;  // "left right", highest priority first
};

// Reads `path` and returns its vocabulary, padded with unused "[PADn]" tokens up to
// `rows` entries (the model's embedding rows; 0 means no padding). Fails when the file
// is not a BPE tokenizer.json, ids have gaps, or the vocabulary exceeds `rows`.
absl::StatusOr<BpeVocab> ReadTokenizerJson(const std::string& path, size_t rows);

// Returns the id of token `text`, or an error naming it.
absl::StatusOr<int32_t> FindToken(const BpeVocab& vocab, const std::string& text);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_TOKENIZER_JSON_H_

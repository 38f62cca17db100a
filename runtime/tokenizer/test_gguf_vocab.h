// Test-only: reads and writes GGUF tokenizer metadata with llama.cpp's gguf API.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_TEST_GGUF_VOCAB_H_
#define CPUBRRR_RUNTIME_TOKENIZER_TEST_GGUF_VOCAB_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {

// The tokenizer.ggml.* content of one GGUF file.
struct GgufVocab {
  BpeVocab vocab;
  TokenizerConfig config;
};

// Reads tokens, token types, merges, pre, BOS/EOS ids and add_bos from the GGUF at
// `path` (metadata only). Stands in for the project's GGUF reader until it lands.
absl::StatusOr<GgufVocab> ReadGgufVocab(const std::string& path);

// Writes a metadata-only GGUF with architecture `arch` and the tokenizer of `vocab`, so
// that libllama can load it with vocab_only.
absl::Status WriteGgufVocab(const std::string& path, const std::string& arch,
                            const GgufVocab& vocab);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_TEST_GGUF_VOCAB_H_

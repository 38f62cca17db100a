// Builds the BPE tokenizer from a GGUF file's tokenizer.ggml.* metadata.
#ifndef CPUBRRR_RUNTIME_ENGINE_GGUF_TOKENIZER_H_
#define CPUBRRR_RUNTIME_ENGINE_GGUF_TOKENIZER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/tokenizer/bpe_tokenizer.h"

namespace cpubrrr {

// Returns the tokenizer stored in `file` (tokenizer.ggml.model "gpt2": tokens, token
// types, merges, pre, bos/eos ids, add_bos). Fails, naming the key, when the file holds
// no byte-level BPE tokenizer.
absl::StatusOr<std::unique_ptr<BpeTokenizer>> TokenizerFromGguf(const GgufFile& file);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_GGUF_TOKENIZER_H_

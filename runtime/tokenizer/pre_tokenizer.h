// Regex pre-tokenizers (PCRE2, UTF + UCP) that cut text into words before BPE.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_PRE_TOKENIZER_H_
#define CPUBRRR_RUNTIME_TOKENIZER_PRE_TOKENIZER_H_

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

// The pre-tokenizers llama.cpp selects by `tokenizer.ggml.pre`.
enum class PreTokenizerKind {
  kGpt2,    // "gpt-2"
  kLlama3,  // "llama-bpe"
  kQwen2,   // "qwen2"
  kGpt4o,   // "gpt-4o" (o200k, gpt-oss)
};

// Vocabularies at least this large are o200k-based (gpt-oss has 201088 rows).
inline constexpr size_t kO200kMinVocab = 199998;

// Returns the pre-tokenizer for GGUF `tokenizer.ggml.pre` value `pre`. Names llama.cpp
// maps to the four kinds are accepted as aliases; any other name ("default", "" or
// unknown, as in Ollama's gpt-oss blobs) selects kGpt4o when the vocabulary has at
// least kO200kMinVocab tokens and is an error otherwise.
absl::StatusOr<PreTokenizerKind> PreTokenizerKindFor(std::string_view pre, size_t n_vocab);

// Returns the PCRE2 pattern of `kind` (see docs/TOKENIZER.md for how each relates to the
// Hugging Face pattern).
const char* PreTokenizerPattern(PreTokenizerKind kind);

// A compiled pre-tokenizer; thread-safe (Split keeps no state in the object).
class PreTokenizer {
 public:
  // Compiles the pattern of `kind` with JIT.
  static absl::StatusOr<PreTokenizer> Create(PreTokenizerKind kind);

  // Compiles `pattern` (UTF + UCP) with JIT; for patterns other than the built-in ones.
  static absl::StatusOr<PreTokenizer> FromPattern(const char* pattern);

  // Appends the words of `text` to `words` in order: every match, and any unmatched
  // stretch between matches as its own word, so the words concatenate to `text`.
  // Requires valid UTF-8 (see ReplaceInvalidUtf8).
  void Split(std::string_view text, std::vector<std::string_view>* words) const;

 private:
  struct Code;
  explicit PreTokenizer(std::shared_ptr<const Code> code) : code_(std::move(code)) {}
  std::shared_ptr<const Code> code_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_PRE_TOKENIZER_H_

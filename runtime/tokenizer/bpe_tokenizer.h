// Byte-level BPE tokenizer (gpt-oss, Qwen3, GPT-2, Llama 3) built from in-memory arrays.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_BPE_TOKENIZER_H_
#define CPUBRRR_RUNTIME_TOKENIZER_BPE_TOKENIZER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/tokenizer/bpe_merges.h"
#include "runtime/tokenizer/pre_tokenizer.h"
#include "runtime/tokenizer/special_tokens.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {

// The GGUF tokenizer.ggml.* scalars the tokenizer needs besides the arrays.
struct TokenizerConfig {
  std::string pre;       // tokenizer.ggml.pre, e.g. "gpt-4o", "qwen2", "default"
  int32_t bos_id = -1;   // tokenizer.ggml.bos_token_id, -1 when absent
  int32_t eos_id = -1;   // tokenizer.ggml.eos_token_id, -1 when absent
  bool add_bos = false;  // tokenizer.ggml.add_bos_token
};

// Encodes text to token ids and decodes ids to bytes. Immutable and thread-safe.
class BpeTokenizer {
 public:
  // Builds the tokenizer. Fails when the pre-tokenizer is unsupported (see
  // PreTokenizerKindFor), when tokens and types differ in length, when add_bos is set
  // without a valid bos_id, or when some byte has no single-byte token.
  static absl::StatusOr<std::unique_ptr<BpeTokenizer>> Create(BpeVocab vocab,
                                                              TokenizerConfig config);

  // Returns the ids of `text` (any bytes; invalid UTF-8 is tokenized as if each
  // offending byte were U+FFFD). With `add_special`, prepends BOS when the config asks
  // for it. With `parse_special`, control tokens written in the text become their ids;
  // user-defined tokens always do.
  std::vector<int32_t> Encode(std::string_view text, bool add_special,
                              bool parse_special) const;

  // Returns the bytes of token `id`: byte-decoded text for normal tokens, the text
  // itself for user-defined tokens and, when `render_special`, for control tokens;
  // empty for other ids (unused, out of range).
  std::string_view TokenBytes(int32_t id, bool render_special = true) const;

  // Returns the concatenated TokenBytes of `ids` (may end inside a UTF-8 character).
  std::string Decode(absl::Span<const int32_t> ids, bool render_special = true) const;

  PreTokenizerKind pre_tokenizer() const { return kind_; }
  // True when a word that is itself a token is taken whole, without merging.
  bool ignore_merges() const { return ignore_merges_; }
  size_t vocab_size() const { return vocab_.tokens.size(); }
  const BpeVocab& vocab() const { return vocab_; }
  const TokenizerConfig& config() const { return config_; }
  const BpeMerges& merges() const { return *merges_; }

 private:
  BpeTokenizer(BpeVocab vocab, TokenizerConfig config, PreTokenizerKind kind,
               PreTokenizer pre_tokenizer);

  // Fills whole_words_: with ignore_merges every normal token, otherwise those whose
  // bytes merge back into the token itself, so the shortcut never changes ids.
  void FindWholeWords(const absl::flat_hash_map<std::string_view, int32_t>& normal_by_bytes);

  // Appends the ids of `text`, which holds no special tokens and is valid UTF-8.
  void EncodeText(std::string_view text, std::vector<int32_t>* out) const;

  BpeVocab vocab_;
  TokenizerConfig config_;
  PreTokenizerKind kind_;
  PreTokenizer pre_tokenizer_;
  bool ignore_merges_;
  std::vector<std::string> bytes_;                      // decoded bytes of each token
  absl::flat_hash_map<std::string_view, int32_t> ids_;  // token text -> id
  // Words encoded as one token without merging: bytes -> normal token id.
  absl::flat_hash_map<std::string_view, int32_t> whole_words_;
  int32_t byte_ids_[256];                               // the token of each single byte
  std::unique_ptr<BpeMerges> merges_;
  std::unique_ptr<SpecialTokenSplitter> specials_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_BPE_TOKENIZER_H_

// Tokenizes chat prompts so that special tokens come from the template only, never from
// text a user supplied.
#ifndef CPUBRRR_RUNTIME_ENGINE_PROMPT_TOKENIZER_H_
#define CPUBRRR_RUNTIME_ENGINE_PROMPT_TOKENIZER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_types.h"
#include "runtime/engine/chat_format.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/special_tokens.h"

namespace cpubrrr {

// Renders a request and tokenizes it. Every user-supplied string (contents, reasoning,
// tool calls, tool schemas) is escaped before rendering: a control-token text inside it
// gets the private-use character U+E000 after its first character, so it cannot match as
// a special token, and a U+E000 the user wrote is doubled. The rendered text is split at
// the specials the template wrote; the text between them is unescaped and tokenized with
// special parsing off (user-defined tokens such as Qwen3's <think> still match, as in
// llama.cpp and Hugging Face).
class PromptTokenizer {
 public:
  // Keeps a reference to `tokenizer`, which must outlive this object.
  explicit PromptTokenizer(const BpeTokenizer& tokenizer);

  // Returns the prompt ids of `request` in `format` (BOS first when the tokenizer asks).
  absl::StatusOr<std::vector<int32_t>> TokenizeChat(ChatFormat format,
                                                    const ChatRequest& request) const;

  // Returns the ids of `text` with control tokens written in it parsed as specials (a raw
  // prompt the caller formatted), BOS first when the tokenizer asks.
  std::vector<int32_t> TokenizeRaw(std::string_view text) const;

 private:
  // Returns `text` with every control-token text broken by U+E000 and U+E000 doubled.
  std::string Escape(std::string_view text) const;
  ChatRequest EscapeRequest(const ChatRequest& request) const;

  const BpeTokenizer& tokenizer_;
  SpecialTokenSplitter splitter_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_PROMPT_TOKENIZER_H_

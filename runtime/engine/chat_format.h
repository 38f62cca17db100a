// Each chat template family's prompt renderer, output parser and stop tokens.
#ifndef CPUBRRR_RUNTIME_ENGINE_CHAT_FORMAT_H_
#define CPUBRRR_RUNTIME_ENGINE_CHAT_FORMAT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_delta.h"
#include "runtime/chat/chat_format_id.h"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// Returns the format of a file of an architecture whose family is `family`
// (runtime/model/architecture.h): a ChatML file whose `chat_template`
// (tokenizer.chat_template) writes calls as <function=...> with <parameter=...> is
// Qwen3-Coder's; otherwise the family itself.
ChatFormat ChatFormatOfTemplate(ChatFormat family, std::string_view chat_template);

// Returns the prompt text of `request`, special tokens written as text.
absl::StatusOr<std::string> RenderChatPrompt(ChatFormat format, const ChatRequest& request);

// Returns a parser for the text generated after the prompt of `format`, for a request
// offering `tools` (Qwen3-Coder's calls are typed by their schemas).
std::unique_ptr<ChatOutputParser> NewChatOutputParser(ChatFormat format,
                                                      const std::vector<nlohmann::ordered_json>& tools = {});

// Returns the texts of the tokens that end an assistant turn: harmony <|return|> and
// <|call|> (never <|end|>, which only ends a message); ChatML <|im_end|>, <|endoftext|>.
std::vector<std::string> StopTokenTexts(ChatFormat format);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_CHAT_FORMAT_H_

// Renders a chat request as a Qwen3-Coder prompt, string for string as its official chat
// template (Qwen3-Coder.jinja) does: ChatML, tools described in XML, and tool calls as
// <tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>.
#ifndef CPUBRRR_RUNTIME_CHAT_QWEN3_CODER_RENDERER_H_
#define CPUBRRR_RUNTIME_CHAT_QWEN3_CODER_RENDERER_H_

#include <string>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// Returns the prompt text, special tokens written as text. A leading system message (or,
// with tools and none, Qwen's default) opens the prompt, followed by the tools' XML;
// reasoning is not rendered (the model does not think). Tool-call arguments must be JSON
// objects: each member is one <parameter>, strings as they are, objects and arrays as
// JSON, other values as Python prints them. Consecutive tool results share one user
// turn. Fails when there are no messages or arguments are not an object.
absl::StatusOr<std::string> RenderQwen3CoderPrompt(const ChatRequest& request);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_QWEN3_CODER_RENDERER_H_

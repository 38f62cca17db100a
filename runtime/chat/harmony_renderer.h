// Renders a chat request as a gpt-oss harmony prompt, string for string as the official
// chat template (openai-gpt-oss-120b.jinja) does.
#ifndef CPUBRRR_RUNTIME_CHAT_HARMONY_RENDERER_H_
#define CPUBRRR_RUNTIME_CHAT_HARMONY_RENDERER_H_

#include <string>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// Returns the prompt text, special tokens written as text ("<|start|>", ...).
// A leading system or developer message becomes the developer "# Instructions"; later
// system/developer messages are dropped, as the template drops them. Earlier assistant
// turns keep only their final answer; an assistant tool-call turn keeps its reasoning
// (or content) as analysis unless a later assistant turn gives a final answer. With
// `preserve_reasoning`, every assistant turn keeps its reasoning as analysis. Only the
// first tool call of a message is rendered (the template assumes one). Fails where the
// template raises: no messages, channel tags inside content or reasoning, both content
// and reasoning on a tool-call turn, a tool result without a preceding tool call.
absl::StatusOr<std::string> RenderHarmonyPrompt(const ChatRequest& request);

// Returns tool-call arguments as the template prints them (`arguments|tojson` of the
// parsed object); text that is not JSON is printed as a JSON string.
std::string HarmonyToolArguments(const std::string& arguments);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_HARMONY_RENDERER_H_

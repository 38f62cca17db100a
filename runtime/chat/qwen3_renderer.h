// Renders a chat request as a Qwen3 ChatML prompt, string for string as the official
// Qwen3 chat template (Qwen-Qwen3-0.6B.jinja, shared by Qwen3-30B-A3B) does.
#ifndef CPUBRRR_RUNTIME_CHAT_QWEN3_RENDERER_H_
#define CPUBRRR_RUNTIME_CHAT_QWEN3_RENDERER_H_

#include <string>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// Returns the prompt text, special tokens written as text ("<|im_start|>", ...).
// Tools go into the system message as one JSON line each inside <tools>. Assistant turns
// after the last user query keep their reasoning in a <think> block; earlier ones drop
// it (unless `preserve_reasoning`: then every turn with reasoning keeps it). With no
// `reasoning`, a "<think>...</think>" inside `content` is split off as the
// template does. Tool-call arguments are printed as given (JSON text), tool results are
// grouped into one user turn of <tool_response> blocks. With enable_thinking off the
// generation prompt ends with the empty "<think>\n\n</think>\n\n". Fails only when there
// are no messages.
absl::StatusOr<std::string> RenderQwen3Prompt(const ChatRequest& request);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_QWEN3_RENDERER_H_

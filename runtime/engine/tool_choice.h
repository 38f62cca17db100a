// The grammar that makes an answer a tool call when a request's tool_choice requires one:
// optional reasoning, then a call written as each chat format writes calls.
#ifndef CPUBRRR_RUNTIME_ENGINE_TOOL_CHOICE_H_
#define CPUBRRR_RUNTIME_ENGINE_TOOL_CHOICE_H_

#include <vector>

#include "absl/status/status.h"

#include "runtime/chat/chat_types.h"
#include "runtime/engine/chat_format.h"
#include "runtime/sampler/text_constraint.h"

namespace cpubrrr {

// Returns the constraint program (runtime/sampler/text_constraint.h) for a turn of
// `format` answering `request`, or none (empty) when the request requires no call or
// offers no function. The text after the generation prompt is then:
// - harmony: analysis messages (`<|channel|>analysis<|message|>...<|end|><|start|>assistant`),
//   then `<|channel|>commentary to=functions.NAME` (or the recipient in the role header)
//   with or without `<|constrain|>json`, a JSON object and `<|call|>`;
// - ChatML: an optional `<think>...</think>` (when thinking is on), then
//   `<tool_call>\n{"name": "NAME", "arguments": ` a JSON object `}\n</tool_call>`;
// - Qwen3-Coder: `<tool_call>\n<function=NAME>\n` free text `</function>\n</tool_call>`;
// and for the two ChatML formats, more calls (when request.parallel_tool_calls) or the end
// of the turn. NAME is request.tool_choice_name if set, else any function of request.tools.
std::vector<ConstraintPhase> ToolCallProgram(ChatFormat format, const ChatRequest& request);

// Returns InvalidArgument when `request` requires a call it cannot make: no function in
// `tools`, or a named one `tools` does not offer.
absl::Status CheckToolChoice(const ChatRequest& request);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_TOOL_CHOICE_H_

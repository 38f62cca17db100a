// Anthropic Messages API bodies to engine requests, and its response content blocks.
#ifndef CPUBRRR_SERVER_ANTHROPIC_API_H_
#define CPUBRRR_SERVER_ANTHROPIC_API_H_

#include "absl/status/statusor.h"
#include "runtime/engine/generation.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

struct AnthropicRequest {
  GenerateRequest generate;
  bool stream = false;
};

// POST /v1/messages: model, max_tokens (required), system (string or text blocks),
// messages (content a string or blocks: text, thinking, tool_use, tool_result), tools
// ({name, description, input_schema}), tool_choice (auto, none, any, tool;
// disable_parallel_tool_use), thinking ({type}), temperature, top_p, top_k,
// stop_sequences, stream, metadata (ignored).
absl::StatusOr<AnthropicRequest> ParseAnthropicMessages(const Json& body);

// "end_turn", "max_tokens", "stop_sequence" or "tool_use".
const char* AnthropicStopReason(const GenerateResult& result);
// The content blocks of an answer: thinking, text, tool_use (input as an object).
Json AnthropicContent(const ChatMessage& message);
// A tool_use block of `call` (an id made when the model gave none).
Json AnthropicToolUse(const ToolCall& call);
// {"input_tokens", "output_tokens", "cache_read_input_tokens"}.
Json AnthropicUsage(const GenerateTimings& t);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_ANTHROPIC_API_H_

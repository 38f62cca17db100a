// OpenAI-style request bodies (llama-server's field semantics) to engine requests.
#ifndef CPUBRRR_SERVER_OPENAI_REQUEST_H_
#define CPUBRRR_SERVER_OPENAI_REQUEST_H_

#include "absl/status/statusor.h"
#include "runtime/engine/generation.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

struct OpenAiRequest {
  GenerateRequest generate;
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  bool logprobs = false;       // per-token log probabilities in the answer
  bool timings_per_token = false;  // each stream chunk carries the decode timings so far
};

// /v1/chat/completions: messages (content a string, null or text parts), max_tokens /
// max_completion_tokens / n_predict, temperature, top_p, top_k, min_p, seed, stop,
// presence_penalty, frequency_penalty, repeat_penalty, repeat_last_n, logprobs,
// top_logprobs, reasoning_effort, chat_template_kwargs {enable_thinking,
// reasoning_effort, preserve_reasoning}, tools, tool_choice (auto, none, required, a
// named function), parallel_tool_calls, n (1), response_format (text), ignore_eos,
// stream, stream_options, timings_per_token. Fails with InvalidArgument naming the
// field, Unimplemented for what the engine cannot do.
absl::StatusOr<OpenAiRequest> ParseChatCompletionRequest(const Json& body);

// /v1/completions: `prompt` (a string, or an array of one string) as a raw prompt, and the
// sampling fields above.
absl::StatusOr<OpenAiRequest> ParseCompletionRequest(const Json& body);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_OPENAI_REQUEST_H_

// OpenAI-style response bodies and stream chunks with llama-server's extra fields.
#ifndef CPUBRRR_SERVER_OPENAI_RESPONSE_H_
#define CPUBRRR_SERVER_OPENAI_RESPONSE_H_

#include <string>
#include <vector>

#include "runtime/engine/generation.h"
#include "runtime/sampler/sampler.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

// What every response and chunk of one request repeats.
struct ResponseHeader {
  std::string id;      // "chatcmpl-..." or "cmpl-..."
  int64_t created;     // Unix seconds
  std::string model;   // the served model's alias
};

// Returns "stop", "length" or "tool_calls" (when the answer ends in tool calls).
const char* OpenAiFinishReason(const GenerateResult& result);

// {"completion_tokens", "prompt_tokens", "total_tokens", "prompt_tokens_details": {"cached_tokens"}}
Json Usage(const GenerateTimings& t);
// llama-server's "timings": cache_n, prompt_n, prompt_ms, prompt_per_token_ms, ...
Json Timings(const GenerateTimings& t);
// OpenAI tool calls, numbered from `first_index`, ids made when the model gave none.
Json ToolCallsJson(const std::vector<ToolCall>& calls, size_t first_index);
// [{"token", "logprob", "bytes", "top_logprobs": [...]}] for each sampled token.
Json LogprobsContent(const std::vector<SampleResult>& samples, const BpeTokenizer& tokenizer);

// A whole chat.completion.
Json ChatCompletion(const ResponseHeader& h, const GenerateResult& result, const Json& logprobs);
// A chat.completion.chunk with one choice: `delta` and `finish_reason` (null while streaming).
Json ChatChunk(const ResponseHeader& h, Json delta, Json finish_reason);
// A whole text_completion.
Json TextCompletion(const ResponseHeader& h, const GenerateResult& result, const Json& logprobs);
// A text_completion stream chunk.
Json TextChunk(const ResponseHeader& h, const std::string& text, Json finish_reason);
// The usage chunk after the last choice chunk (choices empty).
Json UsageChunk(const ResponseHeader& h, const char* object, const GenerateTimings& t);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_OPENAI_RESPONSE_H_

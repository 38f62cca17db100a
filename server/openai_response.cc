// Building OpenAI-style JSON from generation results.
#include "server/openai_response.h"

#include "server/server_state.h"

namespace cpubrrr::server {
namespace {

Json Bytes(std::string_view s) {
  Json a = Json::array();
  for (unsigned char c : s) a.push_back(c);
  return a;
}

Json Base(const ResponseHeader& h, const char* object) {
  return {{"id", h.id}, {"object", object}, {"created", h.created}, {"model", h.model},
          {"system_fingerprint", "cpubrrr"}};
}

}  // namespace

const char* OpenAiFinishReason(const GenerateResult& result) {
  if (!result.message.tool_calls.empty()) return "tool_calls";
  switch (result.finish) {
    case FinishReason::kMaxTokens:
    case FinishReason::kContextFull:
      return "length";
    default:
      return "stop";
  }
}

Json Usage(const GenerateTimings& t) {
  return {{"completion_tokens", t.generated_tokens},
          {"prompt_tokens", t.prompt_tokens},
          {"total_tokens", t.prompt_tokens + t.generated_tokens},
          {"prompt_tokens_details", {{"cached_tokens", t.reused_tokens}}}};
}

Json Timings(const GenerateTimings& t) {
  const uint32_t prompt_n = t.prompt_tokens - t.reused_tokens;
  const double prompt_ms = t.prompt_seconds * 1e3, predicted_ms = t.generation_seconds * 1e3;
  return {{"cache_n", t.reused_tokens},
          {"prompt_n", prompt_n},
          {"prompt_ms", prompt_ms},
          {"prompt_per_token_ms", prompt_n ? prompt_ms / prompt_n : 0.0},
          {"prompt_per_second", t.PromptTokensPerSecond()},
          {"predicted_n", t.generated_tokens},
          {"predicted_ms", predicted_ms},
          {"predicted_per_token_ms", t.generated_tokens ? predicted_ms / t.generated_tokens : 0.0},
          {"predicted_per_second", t.GenerationTokensPerSecond()}};
}

Json ToolCallsJson(const std::vector<ToolCall>& calls, size_t first_index) {
  Json out = Json::array();
  for (size_t i = 0; i < calls.size(); ++i) {
    out.push_back({{"index", first_index + i},
                   {"id", calls[i].id.empty() ? RandomId("call_") : calls[i].id},
                   {"type", "function"},
                   {"function", {{"name", calls[i].name}, {"arguments", calls[i].arguments}}}});
  }
  return out;
}

Json LogprobsContent(const std::vector<SampleResult>& samples, const BpeTokenizer& tokenizer) {
  Json content = Json::array();
  for (const SampleResult& s : samples) {
    if (!s.logprobs.has_value()) continue;
    const std::string_view piece = tokenizer.TokenBytes(s.token);
    Json top = Json::array();
    for (const TokenLogprob& t : s.logprobs->top) {
      const std::string_view p = tokenizer.TokenBytes(t.id);
      top.push_back({{"id", t.id}, {"token", std::string(p)}, {"logprob", t.logprob}, {"bytes", Bytes(p)}});
    }
    content.push_back({{"id", s.token}, {"token", std::string(piece)}, {"logprob", s.logprobs->chosen.logprob},
                       {"bytes", Bytes(piece)}, {"top_logprobs", top}});
  }
  return content;
}

Json ChatCompletion(const ResponseHeader& h, const GenerateResult& result, const Json& logprobs) {
  Json message = {{"role", "assistant"}, {"content", result.message.content}};
  if (!result.message.reasoning.empty()) message["reasoning_content"] = result.message.reasoning;
  if (!result.message.tool_calls.empty()) message["tool_calls"] = ToolCallsJson(result.message.tool_calls, 0);
  Json choice = {{"index", 0}, {"message", message}, {"finish_reason", OpenAiFinishReason(result)}};
  if (!logprobs.is_null()) choice["logprobs"] = {{"content", logprobs}};
  Json out = Base(h, "chat.completion");
  out["choices"] = Json::array({choice});
  out["usage"] = Usage(result.timings);
  out["timings"] = Timings(result.timings);
  return out;
}

Json ChatChunk(const ResponseHeader& h, Json delta, Json finish_reason) {
  Json out = Base(h, "chat.completion.chunk");
  out["choices"] = Json::array({{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", std::move(finish_reason)}}});
  return out;
}

Json TextCompletion(const ResponseHeader& h, const GenerateResult& result, const Json& logprobs) {
  Json choice = {{"index", 0}, {"text", result.message.content}, {"logprobs", nullptr},
                 {"finish_reason", OpenAiFinishReason(result)}};
  if (!logprobs.is_null()) choice["logprobs"] = {{"content", logprobs}};
  Json out = Base(h, "text_completion");
  out["choices"] = Json::array({choice});
  out["usage"] = Usage(result.timings);
  out["timings"] = Timings(result.timings);
  return out;
}

Json TextChunk(const ResponseHeader& h, const std::string& text, Json finish_reason) {
  Json out = Base(h, "text_completion");
  out["choices"] = Json::array({{{"index", 0}, {"text", text}, {"logprobs", nullptr}, {"finish_reason", std::move(finish_reason)}}});
  return out;
}

Json UsageChunk(const ResponseHeader& h, const char* object, const GenerateTimings& t) {
  Json out = Base(h, object);
  out["choices"] = Json::array();
  out["usage"] = Usage(t);
  out["timings"] = Timings(t);
  return out;
}


}  // namespace cpubrrr::server

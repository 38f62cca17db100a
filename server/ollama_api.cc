// Reading Ollama requests (its option names and defaults) and writing its response fields.
#include "server/ollama_api.h"

#include <chrono>
#include <ctime>
#include <random>

#include "absl/strings/str_format.h"
#include "runtime/chat/chat_json.h"

namespace cpubrrr::server {
namespace {

// Ollama's defaults (api/types.go DefaultOptions), then `options` over them.
absl::Status ReadOptions(const Json& body, GenerateRequest& g) {
  SamplerParams& s = g.sampling;
  s.temperature = 0.8f;
  s.top_k = 40;
  s.top_p = 0.9f;
  s.min_p = 0.0f;
  s.repeat_penalty = 1.1f;
  s.penalty_last_n = 64;
  g.max_tokens = -1;
  int64_t seed = -1;
  if (body.contains("options") && !body["options"].is_null()) {
    if (!body["options"].is_object()) return absl::InvalidArgumentError("'options' must be an object");
    const JsonFields o(body["options"], "options.");
    int64_t top_k = s.top_k, last_n = s.penalty_last_n, num_predict = -1, num_ctx = 0;
    const absl::Status checks[] = {
        o.Float("temperature", s.temperature, 0, 100),
        o.Int("top_k", top_k, 0, INT32_MAX),
        o.Float("top_p", s.top_p, 0, 1),
        o.Float("min_p", s.min_p, 0, 1),
        o.Int("seed", seed, INT32_MIN, UINT32_MAX),
        o.Strings("stop", g.stop),
        o.Float("repeat_penalty", s.repeat_penalty, 0, 100),
        o.Int("repeat_last_n", last_n, -1, INT32_MAX),
        o.Float("presence_penalty", s.presence_penalty, -2, 2),
        o.Float("frequency_penalty", s.frequency_penalty, -2, 2),
        o.Int("num_predict", num_predict, -2, INT32_MAX),
        o.Int("num_ctx", num_ctx, 0, INT32_MAX),  // the server's context is fixed at start
    };
    for (const absl::Status& st : checks) {
      if (!st.ok()) return st;
    }
    s.top_k = static_cast<int32_t>(top_k);
    s.penalty_last_n = static_cast<int32_t>(last_n < 0 ? 0 : last_n);
    g.max_tokens = static_cast<int32_t>(num_predict < 0 ? -1 : num_predict);
  }
  s.seed = seed >= 0 ? static_cast<uint64_t>(seed) : std::random_device{}();
  return absl::OkStatus();
}

// The fields both routes share: model, stream, think, format, keep_alive.
absl::Status ReadCommon(const Json& body, OllamaRequest& r) {
  const JsonFields f(body);
  if (absl::Status s = f.String("model", r.model); !s.ok()) return s;
  if (r.model.empty()) return absl::InvalidArgumentError("model is required");
  if (absl::Status s = f.Bool("stream", r.stream); !s.ok()) return s;
  if (f.Has("think")) {
    const Json& think = body["think"];
    ChatRequest& chat = r.generate.chat;
    if (think.is_boolean()) {
      chat.enable_thinking = think.get<bool>();
      if (!chat.enable_thinking) chat.reasoning_effort = ReasoningEffort::kLow;  // gpt-oss always reasons
    } else if (!think.is_string() || !ReasoningEffortFromName(think.get<std::string>(), chat.reasoning_effort)) {
      return f.Bad("think", "a boolean or one of low, medium, high");
    }
  }
  if (f.Has("format") && !(body["format"].is_string() && body["format"].get<std::string>().empty())) {
    return absl::UnimplementedError("'format' (structured output) is not supported");
  }
  return ReadOptions(body, r.generate);
}

}  // namespace

absl::StatusOr<OllamaRequest> ParseOllamaChat(const Json& body) {
  OllamaRequest r;
  if (absl::Status s = ReadCommon(body, r); !s.ok()) return s;
  auto messages = body.find("messages");
  if (messages == body.end() || !messages->is_array()) return absl::InvalidArgumentError("'messages' must be an array");
  // Ollama's message fields in OpenAI's shape: thinking -> reasoning, tool_name -> name.
  Json chat = {{"messages", Json::array()}};
  for (const Json& m : *messages) {
    if (!m.is_object()) return absl::InvalidArgumentError("each message must be an object");
    if (m.contains("images") && !m["images"].is_null() && !m["images"].empty()) {
      return absl::UnimplementedError("images are not supported");
    }
    Json out = m;
    if (m.contains("thinking")) out["reasoning"] = m["thinking"];
    if (m.contains("tool_name")) out["name"] = m["tool_name"];
    out.erase("thinking");
    out.erase("tool_name");
    out.erase("images");
    chat["messages"].push_back(std::move(out));
  }
  if (chat["messages"].empty()) {
    r.load_only = true;  // Ollama answers an empty chat by loading the model
    return r;
  }
  if (body.contains("tools") && !body["tools"].is_null()) chat["tools"] = body["tools"];
  absl::StatusOr<ChatRequest> parsed = ChatRequestFromJson(chat);
  if (!parsed.ok()) return absl::InvalidArgumentError(std::string(parsed.status().message()));
  parsed->reasoning_effort = r.generate.chat.reasoning_effort;
  parsed->enable_thinking = r.generate.chat.enable_thinking;
  r.generate.chat = *std::move(parsed);
  return r;
}

absl::StatusOr<OllamaRequest> ParseOllamaGenerate(const Json& body) {
  OllamaRequest r;
  if (absl::Status s = ReadCommon(body, r); !s.ok()) return s;
  const JsonFields f(body);
  std::string prompt, system;
  bool raw = false;
  for (const absl::Status& s : {f.String("prompt", prompt), f.String("system", system), f.Bool("raw", raw)}) {
    if (!s.ok()) return s;
  }
  if (f.Has("images") && !body["images"].empty()) return absl::UnimplementedError("images are not supported");
  if (prompt.empty()) {
    r.load_only = true;
    return r;
  }
  if (raw) {
    r.generate.raw_prompt = prompt;
    return r;
  }
  if (!system.empty()) r.generate.chat.messages.push_back({.role = "system", .content = system});
  r.generate.chat.messages.push_back({.role = "user", .content = prompt});
  return r;
}

std::string OllamaTime(int64_t t) {
  const std::time_t seconds = static_cast<std::time_t>(t);
  std::tm tm;
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string OllamaTimeNow() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
  std::string s = OllamaTime(ns / 1000000000);
  s.pop_back();  // the Z
  return s + absl::StrFormat(".%09dZ", ns % 1000000000);
}

Json OllamaDoneFields(const GenerateResult& result, double total_seconds) {
  const GenerateTimings& t = result.timings;
  auto ns = [](double seconds) { return static_cast<int64_t>(seconds * 1e9); };
  const bool length = result.finish == FinishReason::kMaxTokens || result.finish == FinishReason::kContextFull;
  return {{"done", true},
          {"done_reason", length ? "length" : "stop"},
          {"total_duration", ns(total_seconds)},
          {"load_duration", 0},
          {"prompt_eval_count", t.prompt_tokens},
          {"prompt_eval_duration", ns(t.prompt_seconds)},
          {"eval_count", t.generated_tokens},
          {"eval_duration", ns(t.generation_seconds)}};
}

Json OllamaToolCall(const ToolCall& call) {
  Json arguments = Json::parse(call.arguments, nullptr, false);
  if (arguments.is_discarded()) arguments = Json::object();
  return {{"function", {{"name", call.name}, {"arguments", arguments}}}};
}

}  // namespace cpubrrr::server

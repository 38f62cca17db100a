// Field by field reading of chat and completion requests.
#include "server/openai_request.h"

#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/chat/chat_json.h"
#include "runtime/engine/tool_choice.h"

namespace cpubrrr::server {
namespace {

absl::Status ReadReasoningEffort(const JsonFields& f, const char* key, ChatRequest& chat) {
  std::string effort;
  if (absl::Status s = f.String(key, effort); !s.ok()) return s;
  if (effort.empty()) return absl::OkStatus();
  if (effort == "minimal") effort = "low";  // OpenAI's lowest; gpt-oss's lowest is low
  if (!ReasoningEffortFromName(effort, chat.reasoning_effort)) return f.Bad(key, "one of minimal, low, medium, high");
  return absl::OkStatus();
}

// The fields /v1/chat/completions and /v1/completions share.
absl::Status ReadCommon(const Json& body, OpenAiRequest& r) {
  if (!body.is_object()) return absl::InvalidArgumentError("the request body must be a JSON object");
  const JsonFields f(body);
  GenerateRequest& g = r.generate;
  SamplerParams& s = g.sampling;
  int64_t max_tokens = -1;
  for (const char* key : {"n_predict", "max_tokens", "max_completion_tokens"}) {
    if (absl::Status st = f.Int(key, max_tokens, -1, INT32_MAX); !st.ok()) return st;
  }
  g.max_tokens = static_cast<int32_t>(max_tokens);
  int64_t top_k = s.top_k, seed = -1, last_n = s.penalty_last_n, n = 1, top_logprobs = 0;
  const absl::Status checks[] = {
      f.Float("temperature", s.temperature, 0, 100),
      f.Float("top_p", s.top_p, 0, 1),
      f.Int("top_k", top_k, 0, INT32_MAX),
      f.Float("min_p", s.min_p, 0, 1),
      f.Int("seed", seed, -1, UINT32_MAX),
      f.Float("presence_penalty", s.presence_penalty, -2, 2),
      f.Float("frequency_penalty", s.frequency_penalty, -2, 2),
      f.Float("repeat_penalty", s.repeat_penalty, 0, 100),
      f.Int("repeat_last_n", last_n, 0, INT32_MAX),
      f.Strings("stop", g.stop),
      f.Bool("stream", r.stream),
      f.Bool("timings_per_token", r.timings_per_token),
      f.Bool("ignore_eos", g.ignore_eos),
      f.Int("n", n, 1, 1),
      f.Int("top_logprobs", top_logprobs, 0, 20),
  };
  for (const absl::Status& st : checks) {
    if (!st.ok()) return st;
  }
  s.top_k = static_cast<int32_t>(top_k);
  s.penalty_last_n = static_cast<int32_t>(last_n);
  s.seed = seed >= 0 ? static_cast<uint64_t>(seed) : std::random_device{}();
  // logprobs: a boolean in chat (with top_logprobs), a count in completions.
  if (f.Has("logprobs")) {
    const Json& lp = body["logprobs"];
    if (lp.is_boolean()) {
      r.logprobs = lp.get<bool>();
    } else {
      int64_t count = 0;
      if (absl::Status st = f.Int("logprobs", count, 0, 20); !st.ok()) {
        return f.Bad("logprobs", "a boolean or an integer in [0, 20]");
      }
      r.logprobs = true;
      top_logprobs = count;
    }
  }
  if (r.logprobs) s.logprobs = static_cast<int32_t>(top_logprobs);
  if (f.Has("stream_options")) {
    if (!body["stream_options"].is_object()) return f.Bad("stream_options", "an object");
    const JsonFields options(body["stream_options"], "stream_options.");
    if (absl::Status st = options.Bool("include_usage", r.include_usage); !st.ok()) return st;
  }
  if (f.Has("response_format")) {
    const Json& format = body["response_format"];
    if (!format.is_object() || !format.contains("type") || !format["type"].is_string()) {
      return f.Bad("response_format", "an object with a string 'type'");
    }
    if (format["type"] != "text") {
      return absl::UnimplementedError("response_format '" + format["type"].get<std::string>() +
                                      "' is not supported (only 'text')");
    }
  }
  return absl::OkStatus();
}

// Returns `message` with its content as a string: text parts joined, null as "".
absl::StatusOr<Json> FlattenContent(const Json& message, size_t index) {
  if (!message.is_object()) return absl::InvalidArgumentError(absl::StrCat("'messages[", index, "]' must be an object"));
  Json m = message;
  auto content = m.find("content");
  if (content == m.end() || content->is_null()) {
    m["content"] = "";
  } else if (content->is_array()) {
    std::string text;
    for (const Json& part : *content) {
      if (StringField(part, "type") != "text" || !part.contains("text") || !part["text"].is_string()) {
        return absl::UnimplementedError(absl::StrCat("'messages[", index, "].content': only text parts are supported"));
      }
      text += part["text"].get<std::string>();
    }
    m["content"] = text;
  } else if (!content->is_string()) {
    return absl::InvalidArgumentError(absl::StrCat("'messages[", index, "].content' must be a string, an array of parts or null"));
  }
  return m;
}

}  // namespace

absl::StatusOr<OpenAiRequest> ParseChatCompletionRequest(const Json& body) {
  OpenAiRequest r;
  if (absl::Status s = ReadCommon(body, r); !s.ok()) return s;
  auto messages = body.find("messages");
  if (messages == body.end() || !messages->is_array() || messages->empty()) {
    return absl::InvalidArgumentError("'messages' must be a non-empty array");
  }
  Json chat = Json::object();
  chat["messages"] = Json::array();
  for (size_t i = 0; i < messages->size(); ++i) {
    absl::StatusOr<Json> m = FlattenContent((*messages)[i], i);
    if (!m.ok()) return m.status();
    chat["messages"].push_back(*std::move(m));
  }
  const JsonFields f(body);
  // tool_choice: "auto", "none" (no tools shown), "required", or a named function.
  std::string tool_choice = "auto", named;
  if (f.Has("tool_choice") && body["tool_choice"].is_object()) {
    const Json& choice = body["tool_choice"];
    if (StringField(choice, "type") != "function" || !choice.contains("function") ||
        StringField(choice["function"], "name").empty()) {
      return f.Bad("tool_choice", "auto, none, required or {\"type\": \"function\", \"function\": {\"name\": ...}}");
    }
    tool_choice = "required";
    named = StringField(choice["function"], "name");
  } else if (absl::Status s = f.String("tool_choice", tool_choice); !s.ok()) {
    return s;
  }
  if (tool_choice != "auto" && tool_choice != "none" && tool_choice != "required") {
    return f.Bad("tool_choice", "auto, none, required or an object");
  }
  if (f.Has("tools")) {
    if (!body["tools"].is_array()) return f.Bad("tools", "an array");
    if (tool_choice != "none") chat["tools"] = body["tools"];
  }
  bool parallel = true;
  if (absl::Status s = f.Bool("parallel_tool_calls", parallel); !s.ok()) return s;
  absl::StatusOr<ChatRequest> parsed = ChatRequestFromJson(chat);
  if (!parsed.ok()) return absl::InvalidArgumentError(std::string(parsed.status().message()));
  r.generate.chat = *std::move(parsed);
  r.generate.chat.require_tool_call = tool_choice == "required";
  r.generate.chat.tool_choice_name = named;
  r.generate.chat.parallel_tool_calls = parallel;
  if (absl::Status s = CheckToolChoice(r.generate.chat); !s.ok()) return s;
  if (absl::Status s = ReadReasoningEffort(f, "reasoning_effort", r.generate.chat); !s.ok()) return s;
  if (f.Has("chat_template_kwargs")) {
    const Json& kwargs = body["chat_template_kwargs"];
    if (!kwargs.is_object()) return f.Bad("chat_template_kwargs", "an object");
    const JsonFields k(kwargs, "chat_template_kwargs.");
    if (absl::Status s = k.Bool("enable_thinking", r.generate.chat.enable_thinking); !s.ok()) return s;
    if (absl::Status s = ReadReasoningEffort(k, "reasoning_effort", r.generate.chat); !s.ok()) return s;
    if (k.Has("preserve_reasoning")) {
      bool preserve = false;
      if (absl::Status s = k.Bool("preserve_reasoning", preserve); !s.ok()) return s;
      r.generate.chat.preserve_reasoning = preserve;
    }
  }
  return r;
}

absl::StatusOr<OpenAiRequest> ParseCompletionRequest(const Json& body) {
  OpenAiRequest r;
  if (absl::Status s = ReadCommon(body, r); !s.ok()) return s;
  auto prompt = body.find("prompt");
  if (prompt != body.end() && prompt->is_array() && prompt->size() == 1 && (*prompt)[0].is_string()) {
    r.generate.raw_prompt = (*prompt)[0].get<std::string>();
  } else if (prompt != body.end() && prompt->is_string()) {
    r.generate.raw_prompt = prompt->get<std::string>();
  } else {
    return absl::InvalidArgumentError("'prompt' must be a string (or an array of one string)");
  }
  if (r.generate.raw_prompt->empty()) return absl::InvalidArgumentError("'prompt' is empty");
  return r;
}

}  // namespace cpubrrr::server

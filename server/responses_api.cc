// Reading Responses API bodies into chat completion bodies; writing response objects and
// stream events.
#include "server/responses_api.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "server/server_state.h"

namespace cpubrrr::server {
namespace {

// The text of a message's content: a string, or input_text / output_text parts.
absl::StatusOr<std::string> ContentText(const Json& content, const std::string& where) {
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) return absl::InvalidArgumentError("'" + where + ".content' must be a string or an array of parts");
  std::string text;
  for (const Json& part : content) {
    const std::string type = StringField(part, "type");
    if ((type == "input_text" || type == "output_text" || type == "text") && part.contains("text") &&
        part["text"].is_string()) {
      text += part["text"].get<std::string>();
    } else if (type == "refusal") {
      text += StringField(part, "refusal");
    } else if (type == "input_image" || type == "input_file" || type == "input_audio") {
      return absl::UnimplementedError("'" + where + ".content': " + type + " parts are not supported");
    } else {
      return absl::InvalidArgumentError("'" + where + ".content' holds a part of unknown type '" + type + "'");
    }
  }
  return text;
}

// The assistant turn that reasoning, message and function_call items add to: the last
// message when it is one, else a new one.
Json& AssistantTurn(Json& messages) {
  if (messages.empty() || StringField(messages.back(), "role") != "assistant") {
    messages.push_back({{"role", "assistant"}, {"content", ""}});
  }
  return messages.back();
}

absl::Status AddItem(const Json& item, size_t index, Json& messages) {
  const std::string where = absl::StrCat("input[", index, "]");
  if (!item.is_object()) return absl::InvalidArgumentError("'" + where + "' must be an object");
  const std::string type = item.contains("type") ? StringField(item, "type") : "message";
  if (type == "message") {
    std::string role = StringField(item, "role");
    if (role == "developer") role = "system";
    if (role != "user" && role != "system" && role != "assistant") {
      return absl::InvalidArgumentError("'" + where + ".role' must be user, system, developer or assistant");
    }
    absl::StatusOr<std::string> text = ContentText(item.value("content", Json("")), where);
    if (!text.ok()) return text.status();
    if (role == "assistant") {
      Json& turn = AssistantTurn(messages);
      turn["content"] = turn["content"].get<std::string>() + *text;
    } else {
      messages.push_back({{"role", role}, {"content", *text}});
    }
    return absl::OkStatus();
  }
  if (type == "function_call") {
    if (!item.contains("name") || !item["name"].is_string() || !item.contains("arguments") || !item["arguments"].is_string()) {
      return absl::InvalidArgumentError("'" + where + "' (function_call) needs a string 'name' and 'arguments'");
    }
    Json& turn = AssistantTurn(messages);
    if (!turn.contains("tool_calls")) turn["tool_calls"] = Json::array();
    turn["tool_calls"].push_back({{"id", StringField(item, "call_id")}, {"type", "function"},
                                  {"function", {{"name", item["name"]}, {"arguments", item["arguments"]}}}});
    return absl::OkStatus();
  }
  if (type == "function_call_output") {
    absl::StatusOr<std::string> output = ContentText(item.value("output", Json("")), where);
    if (!output.ok()) return output.status();
    messages.push_back({{"role", "tool"}, {"tool_call_id", StringField(item, "call_id")}, {"content", *output}});
    return absl::OkStatus();
  }
  if (type == "reasoning") {
    std::string text;
    for (const char* field : {"content", "summary"}) {
      if (!text.empty() || !item.contains(field) || !item[field].is_array()) continue;
      for (const Json& part : item[field]) text += StringField(part, "text");
    }
    Json& turn = AssistantTurn(messages);
    turn["reasoning_content"] = StringField(turn, "reasoning_content") + text;
    return absl::OkStatus();
  }
  if (type == "item_reference") {
    return absl::UnimplementedError("'" + where + "': item references need stored responses; send the items themselves");
  }
  return absl::InvalidArgumentError("'" + where + "' has an unknown type '" + type + "'");
}

// Responses function tools ({type, name, description, parameters}) as chat tools.
absl::StatusOr<Json> ChatTools(const Json& tools) {
  if (!tools.is_array()) return absl::InvalidArgumentError("'tools' must be an array");
  Json out = Json::array();
  for (const Json& tool : tools) {
    if (StringField(tool, "type") != "function") continue;  // built-in tools: nothing to call here
    Json function = {{"name", tool.value("name", Json(""))}};
    for (const char* field : {"description", "parameters", "strict"}) {
      if (tool.contains(field)) function[field] = tool[field];
    }
    out.push_back({{"type", "function"}, {"function", function}});
  }
  return out;
}

Json Usage(const GenerateTimings& t) {
  return {{"input_tokens", t.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", t.reused_tokens}}},
          {"output_tokens", t.generated_tokens},
          {"output_tokens_details", {{"reasoning_tokens", 0}}},
          {"total_tokens", t.prompt_tokens + t.generated_tokens}};
}

bool CutByLength(const GenerateResult& result) {
  return result.message.tool_calls.empty() &&
         (result.finish == FinishReason::kMaxTokens || result.finish == FinishReason::kContextFull);
}

Json ReasoningItem(const std::string& text, const char* status) {
  Json content = Json::array();
  if (!text.empty()) content.push_back({{"type", "reasoning_text"}, {"text", text}});
  return {{"id", RandomId("rs_")}, {"type", "reasoning"}, {"summary", Json::array()}, {"content", content}, {"status", status}};
}

Json TextPart(const std::string& text) {
  return {{"type", "output_text"}, {"text", text}, {"annotations", Json::array()}, {"logprobs", Json::array()}};
}

Json MessageItem(Json content, const char* status) {
  return {{"id", RandomId("msg_")}, {"type", "message"}, {"status", status}, {"role", "assistant"}, {"content", std::move(content)}};
}

Json FunctionCallItem(const ToolCall& call, const std::string& arguments, const char* status) {
  return {{"id", RandomId("fc_")}, {"type", "function_call"}, {"status", status},
          {"call_id", call.id.empty() ? RandomId("call_") : call.id}, {"name", call.name}, {"arguments", arguments}};
}

// The response object around `output`, echoing the request's settings.
Json Envelope(const std::string& id, int64_t created, const std::string& model, const Json& request,
              const char* status, Json output) {
  auto echo = [&request](const char* field, Json fallback) {
    return request.contains(field) && !request[field].is_null() ? request[field] : fallback;
  };
  return {{"id", id},
          {"object", "response"},
          {"created_at", created},
          {"status", status},
          {"error", nullptr},
          {"incomplete_details", nullptr},
          {"instructions", echo("instructions", nullptr)},
          {"max_output_tokens", echo("max_output_tokens", nullptr)},
          {"model", model},
          {"output", std::move(output)},
          {"parallel_tool_calls", echo("parallel_tool_calls", true)},
          {"previous_response_id", nullptr},
          {"reasoning", echo("reasoning", Json{{"effort", nullptr}, {"summary", nullptr}})},
          {"store", false},
          {"temperature", echo("temperature", nullptr)},
          {"text", echo("text", Json{{"format", {{"type", "text"}}}})},
          {"tool_choice", echo("tool_choice", "auto")},
          {"tools", echo("tools", Json::array())},
          {"top_p", echo("top_p", nullptr)},
          {"truncation", "disabled"},
          {"metadata", echo("metadata", Json::object())}};
}

void MarkIncomplete(Json& response, const GenerateResult& result) {
  if (!CutByLength(result)) return;
  response["status"] = "incomplete";
  response["incomplete_details"] = {{"reason", "max_output_tokens"}};
}

}  // namespace

absl::StatusOr<Json> ResponsesToChatBody(const Json& body) {
  if (!body.is_object()) return absl::InvalidArgumentError("the request body must be a JSON object");
  if (!StringField(body, "previous_response_id").empty()) {
    return absl::UnimplementedError("'previous_response_id' is not supported: this server keeps no responses; send the whole conversation in 'input'");
  }
  for (const char* stored : {"conversation", "prompt"}) {
    if (body.contains(stored) && !body[stored].is_null()) {
      return absl::UnimplementedError(absl::StrCat("'", stored, "' is not supported: this server keeps no conversations or prompts"));
    }
  }
  if (const auto background = body.find("background"); background != body.end() && !background->is_null()) {
    if (!background->is_boolean()) return absl::InvalidArgumentError("'background' must be a boolean");
    if (background->get<bool>()) return absl::UnimplementedError("'background' responses are not supported");
  }
  if (!body.contains("input")) return absl::InvalidArgumentError("'input' is required");
  Json chat = body;
  for (const char* field : {"input", "instructions", "max_output_tokens", "reasoning", "text", "tools", "tool_choice",
                            "store", "include", "truncation", "metadata", "previous_response_id", "background",
                            "user", "service_tier", "prompt_cache_key", "safety_identifier"}) {
    chat.erase(field);
  }
  Json messages = Json::array();
  if (body.contains("instructions") && !body["instructions"].is_null()) {
    if (!body["instructions"].is_string()) return absl::InvalidArgumentError("'instructions' must be a string");
    messages.push_back({{"role", "system"}, {"content", body["instructions"]}});
  }
  const Json& input = body["input"];
  if (input.is_string()) {
    messages.push_back({{"role", "user"}, {"content", input}});
  } else if (input.is_array()) {
    for (size_t i = 0; i < input.size(); ++i) {
      if (absl::Status s = AddItem(input[i], i, messages); !s.ok()) return s;
    }
  } else {
    return absl::InvalidArgumentError("'input' must be a string or an array of items");
  }
  chat["messages"] = std::move(messages);
  if (body.contains("tools") && !body["tools"].is_null()) {
    absl::StatusOr<Json> tools = ChatTools(body["tools"]);
    if (!tools.ok()) return tools.status();
    if (!tools->empty()) chat["tools"] = *std::move(tools);
  }
  if (body.contains("tool_choice")) {
    const Json& choice = body["tool_choice"];
    chat["tool_choice"] = choice.is_object() && StringField(choice, "type") == "function"
                              ? Json{{"type", "function"}, {"function", {{"name", StringField(choice, "name")}}}}
                              : choice;
  }
  if (body.contains("max_output_tokens") && !body["max_output_tokens"].is_null()) {
    chat["max_tokens"] = body["max_output_tokens"];
  }
  if (body.contains("reasoning") && body["reasoning"].is_object() && body["reasoning"].contains("effort") &&
      !body["reasoning"]["effort"].is_null()) {
    chat["reasoning_effort"] = body["reasoning"]["effort"];
  }
  if (body.contains("text") && body["text"].is_object() && body["text"].contains("format")) {
    chat["response_format"] = {{"type", StringField(body["text"]["format"], "type")}};
  }
  return chat;
}

Json ResponseObject(const std::string& id, int64_t created, const std::string& model, const Json& request,
                    const GenerateResult& result) {
  Json output = Json::array();
  const ChatMessage& m = result.message;
  if (!m.reasoning.empty()) output.push_back(ReasoningItem(m.reasoning, "completed"));
  if (!m.content.empty()) output.push_back(MessageItem(Json::array({TextPart(m.content)}), "completed"));
  for (const ToolCall& call : m.tool_calls) output.push_back(FunctionCallItem(call, call.arguments, "completed"));
  Json response = Envelope(id, created, model, request, "completed", std::move(output));
  MarkIncomplete(response, result);
  response["usage"] = Usage(result.timings);
  return response;
}

ResponsesEvents::ResponsesEvents(std::string id, int64_t created, std::string model, Json request, Send send)
    : id_(std::move(id)), created_(created), model_(std::move(model)), request_(std::move(request)), send_(std::move(send)) {}

Json ResponsesEvents::Shell(const char* status) const {
  return Envelope(id_, created_, model_, request_, status, output_);
}

void ResponsesEvents::Emit(const std::string& type, Json data) {
  Json event = {{"type", type}, {"sequence_number", sequence_++}};
  for (auto& [key, value] : data.items()) event[key] = std::move(value);
  send_(type, event);
}

void ResponsesEvents::Start() {
  Emit("response.created", {{"response", Shell("in_progress")}});
  Emit("response.in_progress", {{"response", Shell("in_progress")}});
}

void ResponsesEvents::Open(Item kind) {
  if (open_ == kind) return;
  Close();
  open_ = kind;
  text_.clear();
  const bool reasoning = kind == Item::kReasoning;
  output_.push_back(reasoning ? ReasoningItem("", "in_progress") : MessageItem(Json::array(), "in_progress"));
  const size_t index = output_.size() - 1;
  Emit("response.output_item.added", {{"output_index", index}, {"item", output_.back()}});
  const Json part = reasoning ? Json{{"type", "reasoning_text"}, {"text", ""}} : TextPart("");
  Emit("response.content_part.added", {{"item_id", output_.back()["id"]}, {"output_index", index},
                                       {"content_index", 0}, {"part", part}});
}

void ResponsesEvents::Close() {
  if (open_ == Item::kNone) return;
  const bool reasoning = open_ == Item::kReasoning;
  const size_t index = output_.size() - 1;
  Json& item = output_.back();
  const Json part = reasoning ? Json{{"type", "reasoning_text"}, {"text", text_}} : TextPart(text_);
  const Json where = {{"item_id", item["id"]}, {"output_index", index}, {"content_index", 0}};
  Json done = where;
  done["text"] = text_;
  if (!reasoning) done["logprobs"] = Json::array();
  Emit(reasoning ? "response.reasoning_text.done" : "response.output_text.done", done);
  Json part_done = where;
  part_done["part"] = part;
  Emit("response.content_part.done", part_done);
  item["content"] = Json::array({part});
  item["status"] = "completed";
  Emit("response.output_item.done", {{"output_index", index}, {"item", item}});
  open_ = Item::kNone;
}

void ResponsesEvents::Delta(const ChatDelta& delta) {
  auto text = [this](Item kind, const std::string& piece) {
    Open(kind);
    text_ += piece;
    Json data = {{"item_id", output_.back()["id"]}, {"output_index", output_.size() - 1}, {"content_index", 0},
                 {"delta", piece}};
    if (kind == Item::kMessage) data["logprobs"] = Json::array();
    Emit(kind == Item::kReasoning ? "response.reasoning_text.delta" : "response.output_text.delta", std::move(data));
  };
  if (!delta.reasoning.empty()) text(Item::kReasoning, delta.reasoning);
  if (!delta.content.empty()) text(Item::kMessage, delta.content);
  for (const ToolCall& call : delta.tool_calls) {
    Close();
    output_.push_back(FunctionCallItem(call, "", "in_progress"));
    const size_t index = output_.size() - 1;
    Json& item = output_.back();
    Emit("response.output_item.added", {{"output_index", index}, {"item", item}});
    Emit("response.function_call_arguments.delta", {{"item_id", item["id"]}, {"output_index", index}, {"delta", call.arguments}});
    Emit("response.function_call_arguments.done", {{"item_id", item["id"]}, {"output_index", index}, {"arguments", call.arguments}});
    item["arguments"] = call.arguments;
    item["status"] = "completed";
    Emit("response.output_item.done", {{"output_index", index}, {"item", item}});
  }
}

void ResponsesEvents::Fail(const std::string& code, const std::string& message) {
  Emit("error", {{"code", code}, {"message", message}, {"param", nullptr}});
}

void ResponsesEvents::Finish(const GenerateResult& result) {
  Close();
  Json response = Shell("completed");
  MarkIncomplete(response, result);
  response["usage"] = Usage(result.timings);
  const bool complete = response["status"] == "completed";
  Emit(complete ? "response.completed" : "response.incomplete", {{"response", std::move(response)}});
}

}  // namespace cpubrrr::server

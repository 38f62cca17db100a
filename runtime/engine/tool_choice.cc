// Tool-call grammars per chat format, as phases of literals, free text and JSON, with
// each function's arguments shaped by its parameters' JSON schema.
#include "runtime/engine/tool_choice.h"

#include <algorithm>
#include <string>
#include <utility>

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;
using Literal = std::pair<std::string, int>;

// Whitespace allowed before a literal (the newlines between blocks, the spaces in JSON).
constexpr int kSpaces = 4;
// Beyond these, a schema's object takes any JSON object (its grammar would grow too big).
constexpr int kMaxSchemaDepth = 8;
constexpr size_t kMaxProperties = 64;

struct Function {
  std::string name;
  Json parameters;  // a JSON schema; null when the tool gives none
};

std::vector<Function> OfferedFunctions(const ChatRequest& request) {
  std::vector<Function> functions;
  for (const Json& tool : request.tools) {
    auto function = tool.find("function");
    if (function == tool.end() || !function->is_object()) continue;
    auto name = function->find("name");
    if (name == function->end() || !name->is_string() || name->get<std::string>().empty()) continue;
    auto parameters = function->find("parameters");
    functions.push_back({name->get<std::string>(), parameters != function->end() ? *parameters : Json()});
  }
  return functions;
}

// The functions a required call may name.
std::vector<Function> CallableFunctions(const ChatRequest& request) {
  std::vector<Function> functions = OfferedFunctions(request);
  if (!request.tool_choice_name.empty()) {
    std::erase_if(functions, [&](const Function& f) { return f.name != request.tool_choice_name; });
  }
  return functions;
}

ConstraintPhase Literals(std::vector<Literal> literals, int spaces = 0) {
  return ConstraintPhase::Literals(std::move(literals), spaces);
}

// A program under construction: phases are added, then pointed at by index.
class Program {
 public:
  int Add(ConstraintPhase phase) {
    phases_.push_back(std::move(phase));
    return static_cast<int>(phases_.size()) - 1;
  }
  std::vector<Literal>& LiteralsOf(int phase) { return phases_[phase].literals; }
  std::vector<ConstraintPhase> Take() { return std::move(phases_); }

  // Adds the phases of a JSON value matching `schema`, then `next`; returns the first.
  // The schema subset followed: objects with `properties` (their keys in the schema's
  // order, each `required` one present, no others), `enum` and `const`, and the types
  // boolean, null, string, integer, number, array and object. Any other schema takes any
  // value (an object, where `object` says one must come).
  int AddValue(const Json& schema, int next, bool object, int depth) {
    if (!schema.is_object()) return Add(ConstraintPhase::Json(object ? ConstraintPhase::kObject : ConstraintPhase::kAnyValue, next));
    if (!object) {
      const auto values = schema.find("enum");
      if (values != schema.end() && values->is_array() && !values->empty()) {
        std::vector<Literal> literals;
        for (const Json& v : *values) literals.emplace_back(v.dump(), next);
        return Add(Literals(std::move(literals), kSpaces));
      }
      const auto constant = schema.find("const");
      if (constant != schema.end()) return Add(Literals({{constant->dump(), next}}, kSpaces));
    }
    const auto type_it = schema.find("type");
    const std::string type = type_it != schema.end() && type_it->is_string() ? type_it->get<std::string>() : "";
    const auto properties = schema.find("properties");
    if ((type.empty() || type == "object") && properties != schema.end() && properties->is_object() &&
        properties->size() <= kMaxProperties && depth < kMaxSchemaDepth) {
      return AddObject(schema, *properties, next, depth);
    }
    if (object) return Add(ConstraintPhase::Json(ConstraintPhase::kObject, next));
    if (type == "boolean") return Add(Literals({{"true", next}, {"false", next}}, kSpaces));
    if (type == "null") return Add(Literals({{"null", next}}, kSpaces));
    ConstraintPhase::JsonType json = ConstraintPhase::kAnyValue;
    if (type == "string") json = ConstraintPhase::kString;
    if (type == "integer") json = ConstraintPhase::kInteger;
    if (type == "number") json = ConstraintPhase::kNumber;
    if (type == "array") json = ConstraintPhase::kArray;
    if (type == "object") json = ConstraintPhase::kObject;
    return Add(ConstraintPhase::Json(json, next));
  }

 private:
  int AddObject(const Json& schema, const Json& properties, int next, int depth) {
    const auto req = schema.find("required");
    std::vector<std::string> keys;  // as JSON strings
    std::vector<const Json*> schemas;
    std::vector<bool> required;
    for (const auto& [key, sub] : properties.items()) {
      keys.push_back(Json(key).dump());
      schemas.push_back(&sub);
      required.push_back(req != schema.end() && req->is_array() &&
                         std::find(req->begin(), req->end(), Json(key)) != req->end());
    }
    const size_t n = keys.size();
    if (n == 0) return Add(Literals({{"{}", next}}, kSpaces));
    // Phase `start` opens the object; after[i] follows the value of key i.
    const int start = Add(Literals({}, kSpaces));
    std::vector<int> after(n), value(n);
    for (size_t i = 0; i < n; ++i) after[i] = Add(Literals({}, kSpaces));
    for (size_t i = 0; i < n; ++i) value[i] = AddValue(*schemas[i], after[i], false, depth + 1);
    // Key j may come next after key i (or first, from i = -1) when none between is required.
    for (size_t j = 0; j < n; ++j) {
      LiteralsOf(start).emplace_back("{" + keys[j] + ":", value[j]);
      if (required[j]) break;
    }
    if (std::none_of(required.begin(), required.end(), [](bool r) { return r; })) LiteralsOf(start).emplace_back("{}", next);
    for (size_t i = 0; i < n; ++i) {
      size_t j = i + 1;
      for (; j < n; ++j) {
        LiteralsOf(after[i]).emplace_back("," + keys[j] + ":", value[j]);
        LiteralsOf(after[i]).emplace_back(", " + keys[j] + ":", value[j]);
        if (required[j]) break;
      }
      if (j == n) LiteralsOf(after[i]).emplace_back("}", next);
    }
    return start;
  }

  std::vector<ConstraintPhase> phases_;
};

std::vector<ConstraintPhase> Harmony(const std::vector<Function>& functions) {
  Program p;
  const int header = p.Add(Literals({}));
  const int analysis = p.Add(ConstraintPhase::FreeText("<|end|>", -1));
  const int next_message = p.Add(Literals({{"<|start|>assistant", header}}));
  const int call = p.Add(Literals({{"<|call|>", -1}}, kSpaces));
  p.LiteralsOf(header).emplace_back("<|channel|>analysis<|message|>", analysis);
  std::vector<Literal> headers;
  for (const Function& f : functions) {
    const int arguments = p.AddValue(f.parameters, call, /*object=*/true, 0);
    for (const char* suffix : {"<|message|>", " <|constrain|>json<|message|>", "<|constrain|>json<|message|>",
                               " json<|message|>"}) {
      headers.emplace_back("<|channel|>commentary to=functions." + f.name + suffix, arguments);
      headers.emplace_back(" to=functions." + f.name + "<|channel|>commentary" + suffix, arguments);
    }
  }
  std::vector<Literal>& h = p.LiteralsOf(header);
  h.insert(h.end(), headers.begin(), headers.end());
  std::vector<ConstraintPhase> phases = p.Take();
  phases[analysis].next = next_message;
  return phases;
}

// A ChatML turn: an optional think block (`thinking`), then calls, each opened by the
// literal `open(f)` and continued by `body(f, after)` up to phase `after`, which closes the
// turn or (when parallel) opens another call.
template <typename Open, typename Body>
std::vector<ConstraintPhase> ChatMl(ChatFormat format, const std::vector<Function>& functions, bool thinking,
                                    bool parallel, Open open, Body body) {
  Program p;
  const int start = p.Add(Literals({}, kSpaces));
  const int think = p.Add(ConstraintPhase::FreeText("</think>", -1));
  const int first_call = p.Add(Literals({}, kSpaces));
  const int end = p.Add(Literals({}, kSpaces));
  std::vector<Literal> calls;
  for (const Function& f : functions) calls.emplace_back(open(f), body(p, f, end));
  p.LiteralsOf(start) = calls;
  if (thinking) p.LiteralsOf(start).emplace_back("<think>", think);
  p.LiteralsOf(first_call) = calls;
  for (const std::string& stop : StopTokenTexts(format)) p.LiteralsOf(end).emplace_back(stop, -1);
  if (parallel) p.LiteralsOf(end).insert(p.LiteralsOf(end).end(), calls.begin(), calls.end());
  std::vector<ConstraintPhase> phases = p.Take();
  phases[think].next = first_call;
  return phases;
}

std::vector<ConstraintPhase> Qwen3(const std::vector<Function>& functions, const ChatRequest& request) {
  return ChatMl(
      ChatFormat::kChatMl, functions, request.enable_thinking, request.parallel_tool_calls,
      [](const Function& f) { return "<tool_call>\n{\"name\": " + Json(f.name).dump() + ", \"arguments\": "; },
      [](Program& p, const Function& f, int end) {
        const int close_call = p.Add(Literals({{"</tool_call>", end}}, kSpaces));
        const int close_object = p.Add(Literals({{"}", close_call}}, kSpaces));
        return p.AddValue(f.parameters, close_object, /*object=*/true, 0);
      });
}

// Qwen3-Coder's calls are XML; their parameters are free text.
std::vector<ConstraintPhase> Qwen3Coder(const std::vector<Function>& functions, const ChatRequest& request) {
  return ChatMl(
      ChatFormat::kQwen3Coder, functions, /*thinking=*/false, request.parallel_tool_calls,
      [](const Function& f) { return "<tool_call>\n<function=" + f.name + ">\n"; },
      [](Program& p, const Function&, int end) {
        const int close_call = p.Add(Literals({{"</tool_call>", end}}, kSpaces));
        return p.Add(ConstraintPhase::FreeText("</function>", close_call));
      });
}

}  // namespace

std::vector<ConstraintPhase> ToolCallProgram(ChatFormat format, const ChatRequest& request) {
  if (!request.require_tool_call) return {};
  const std::vector<Function> functions = CallableFunctions(request);
  if (functions.empty()) return {};
  switch (format) {
    case ChatFormat::kHarmony:
      return Harmony(functions);
    case ChatFormat::kChatMl:
      return Qwen3(functions, request);
    case ChatFormat::kQwen3Coder:
      return Qwen3Coder(functions, request);
  }
  return {};
}

absl::Status CheckToolChoice(const ChatRequest& request) {
  if (!request.require_tool_call) return absl::OkStatus();
  const std::vector<Function> offered = OfferedFunctions(request);
  if (offered.empty()) return absl::InvalidArgumentError("'tool_choice' requires a call, but 'tools' offers no function");
  if (!request.tool_choice_name.empty() &&
      std::none_of(offered.begin(), offered.end(), [&](const Function& f) { return f.name == request.tool_choice_name; })) {
    return absl::InvalidArgumentError("'tool_choice' names the function '" + request.tool_choice_name +
                                      "', which 'tools' does not offer");
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

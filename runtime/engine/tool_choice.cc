// Tool-call grammars per chat format, as phases of literals, free text and JSON, with
// each function's arguments shaped by its parameters' JSON schema.
#include "runtime/engine/tool_choice.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "runtime/chat/harmony_parser.h"
#include "runtime/chat/qwen3_parser.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;
using Literal = std::pair<std::string, int>;

// Whitespace allowed before a literal (the newlines between blocks, the spaces in JSON),
// and before a key or separator inside a schema-shaped JSON object (pretty-printed
// arguments indent their keys).
constexpr int kSpaces = 4;
constexpr int kJsonSpaces = 32;
// Beyond these, a schema's object takes any JSON object (its grammar would grow too big).
constexpr int kMaxSchemaDepth = 8;
constexpr size_t kMaxProperties = 64;
// What the grammars of one request may hold, across all its functions: bytes of literal
// text, with a phase counted as kPhaseCost. A schema whose grammar would not fit takes
// any JSON value of its type instead.
constexpr size_t kProgramBudget = 1 << 20;
constexpr size_t kPhaseCost = 64;
// OpenAI's limits on tools: at most 128 functions, names of 1-64 letters, digits, '_'
// and '-' (harmony's headers and the parsers read no other name).
constexpr size_t kMaxFunctions = 128;
constexpr size_t kMaxNameLength = 64;

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

bool IsFunctionName(const std::string& name) {
  return !name.empty() && name.size() <= kMaxNameLength && std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

ConstraintPhase Literals(std::vector<Literal> literals, int spaces = 0) {
  return ConstraintPhase::Literals(std::move(literals), spaces);
}

// How an object's members are written: JSON (`{"key": value, ...}`) or Qwen3-Coder's XML
// parameters (`<parameter=key>\nvalue\n</parameter>` ... `</function>`).
enum class Members { kJson, kXml };

// A program under construction: phases are added, then pointed at by index. Every free
// text and JSON phase forbids the chat format's markers, which its parser would read as
// the end of the call whatever tokens spell them.
class Program {
 public:
  explicit Program(std::vector<std::string> markers) : markers_(std::move(markers)) {}

  int Add(ConstraintPhase phase) {
    if (phase.kind != ConstraintPhase::kLiterals) {
      phase.forbidden.insert(phase.forbidden.end(), markers_.begin(), markers_.end());
    }
    spent_ += kPhaseCost;
    for (const Literal& l : phase.literals) spent_ += l.first.size();
    phases_.push_back(std::move(phase));
    return static_cast<int>(phases_.size()) - 1;
  }
  void AddLiteral(int phase, std::string text, int next) {
    spent_ += text.size();
    phases_[phase].literals.emplace_back(std::move(text), next);
  }
  void AddLiterals(int phase, const std::vector<Literal>& literals) {
    for (const Literal& l : literals) AddLiteral(phase, l.first, l.second);
  }
  void SetNext(int phase, int next) { phases_[phase].next = next; }
  std::vector<ConstraintPhase> Take() { return std::move(phases_); }
  bool Affords(size_t cost) const { return spent_ + cost <= kProgramBudget; }

  // Adds the phases of a JSON value matching `schema`, then `next`; returns the first.
  // The schema subset followed: objects with `properties` (their keys in the schema's
  // order, each `required` one present, no others), `enum` and `const`, and the types
  // boolean, null, string, integer, number, array and object. Any other schema, or one
  // past the limits, takes any value (an object, where `object` says one must come).
  int AddValue(const Json& schema, int next, bool object, int depth) {
    if (!schema.is_object()) return AddJson(object ? ConstraintPhase::kObject : ConstraintPhase::kAnyValue, next);
    if (!object) {
      const auto values = schema.find("enum");
      if (values != schema.end() && values->is_array() && !values->empty()) {
        std::vector<Literal> literals;
        size_t cost = kPhaseCost;
        for (const Json& v : *values) cost += literals.emplace_back(v.dump(), next).first.size();
        if (Affords(cost)) return Add(Literals(std::move(literals), kSpaces));
        return AddJson(ConstraintPhase::kAnyValue, next);
      }
      const auto constant = schema.find("const");
      if (constant != schema.end()) {
        std::string text = constant->dump();
        if (Affords(kPhaseCost + text.size())) return Add(Literals({{std::move(text), next}}, kSpaces));
        return AddJson(ConstraintPhase::kAnyValue, next);
      }
    }
    const std::string type = TypeOf(schema);
    if ((type.empty() || type == "object") && depth < kMaxSchemaDepth) {
      if (std::optional<int> start = AddMembers(Members::kJson, schema, next, depth)) return *start;
    }
    if (object) return AddJson(ConstraintPhase::kObject, next);
    if (type == "boolean") return Add(Literals({{"true", next}, {"false", next}}, kSpaces));
    if (type == "null") return Add(Literals({{"null", next}}, kSpaces));
    ConstraintPhase::JsonType json = ConstraintPhase::kAnyValue;
    if (type == "string") json = ConstraintPhase::kString;
    if (type == "integer") json = ConstraintPhase::kInteger;
    if (type == "number") json = ConstraintPhase::kNumber;
    if (type == "array") json = ConstraintPhase::kArray;
    if (type == "object") json = ConstraintPhase::kObject;
    return AddJson(json, next);
  }

  // Adds the members of an object whose schema has `properties`, written as `members`
  // says, then `next`; returns the first phase, or nullopt (nothing added) when the
  // schema has no usable properties or its grammar does not fit the budget.
  std::optional<int> AddMembers(Members members, const Json& schema, int next, int depth) {
    const auto properties = schema.find("properties");
    if (properties == schema.end() || !properties->is_object() || properties->size() > kMaxProperties) {
      return std::nullopt;
    }
    const auto req = schema.find("required");
    std::vector<std::string> keys;  // as written before the value
    std::vector<const Json*> schemas;
    std::vector<bool> required;
    for (const auto& [key, sub] : properties->items()) {
      if (members == Members::kXml) {
        // The parser reads a key up to '>' on one line.
        if (key.empty() || key.find_first_of("<>\n") != std::string::npos) return std::nullopt;
        keys.push_back("<parameter=" + key + ">");
      } else {
        keys.push_back(Json(key).dump());
      }
      schemas.push_back(&sub);
      required.push_back(req != schema.end() && req->is_array() &&
                         std::find(req->begin(), req->end(), Json(key)) != req->end());
    }
    const size_t n = keys.size();
    const bool json = members == Members::kJson;
    const std::string close = json ? "}" : "</function>";
    // Which keys may come after key i - 1 (the first ones for i = 0): up to and including
    // the first required one; `ends` says whether the object may close there instead.
    const auto next_keys = [&](size_t i) {
      size_t j = i;
      while (j < n && !required[j]) ++j;
      return std::pair<size_t, bool>{std::min(j + 1, n), j == n};
    };
    size_t cost = (3 * n + 2) * kPhaseCost;
    for (size_t i = 0; i <= n; ++i) {
      const auto [end, ends] = next_keys(i);
      for (size_t j = i; j < end; ++j) cost += keys[j].size() + 1;
      cost += ends ? close.size() + 1 : 0;
    }
    if (!Affords(cost)) return std::nullopt;
    // keys_at[i]: the keys that may come after key i - 1 (and the close where allowed;
    // for JSON only at i = 0, since after a value the close follows the value itself).
    std::vector<int> keys_at(n + 1), value(n);
    for (size_t i = 0; i <= n; ++i) keys_at[i] = Add(Literals({}, json ? kJsonSpaces : kSpaces));
    for (size_t i = 0; i < n; ++i) {
      const int after = json ? Add(Literals({}, kJsonSpaces)) : keys_at[i + 1];
      if (json) {
        value[i] = Add(Literals({{":", AddValue(*schemas[i], after, false, depth + 1)}}, kJsonSpaces));
        if (i + 1 < n) AddLiteral(after, ",", keys_at[i + 1]);
        if (next_keys(i + 1).second) AddLiteral(after, close, next);
      } else {
        value[i] = AddXmlValue(*schemas[i], after);
      }
    }
    for (size_t i = 0; i <= n; ++i) {
      const auto [end, ends] = next_keys(i);
      for (size_t j = i; j < end; ++j) AddLiteral(keys_at[i], keys[j], value[j]);
      if (ends && (!json || i == 0)) AddLiteral(keys_at[i], close, next);
    }
    if (!json) return keys_at[0];
    return Add(Literals({{"{", keys_at[0]}}, kSpaces));
  }

  // Adds Qwen3-Coder's parameters (`<parameter=KEY>` value `</parameter>` each, then
  // `</function>`) for a function's `schema`, then `next`: the schema's properties when it
  // has usable ones, else any keys.
  int AddXmlParameters(const Json& schema, int next) {
    if (schema.is_object() && (TypeOf(schema).empty() || TypeOf(schema) == "object")) {
      if (std::optional<int> start = AddMembers(Members::kXml, schema, next, 0)) return *start;
    }
    const int more = Add(Literals({}, kSpaces));
    ConstraintPhase key = ConstraintPhase::FreeText(">", AddXmlValue(Json(), more));
    key.forbidden = {"<", "\n"};
    AddLiteral(more, "<parameter=", Add(std::move(key)));
    AddLiteral(more, "</function>", next);
    return more;
  }

 private:
  static std::string TypeOf(const Json& schema) {
    const auto type = schema.find("type");
    return type != schema.end() && type->is_string() ? type->get<std::string>() : "";
  }

  int AddJson(ConstraintPhase::JsonType type, int next) { return Add(ConstraintPhase::Json(type, next)); }

  // A parameter's value and its closing tag, then `next`: text for a string parameter (as
  // the parser keeps it), else a JSON value of its schema.
  int AddXmlValue(const Json& schema, int next) {
    const std::string type = schema.is_object() ? TypeOf(schema) : "";
    if (type.empty() || type == "string") {
      ConstraintPhase text = ConstraintPhase::FreeText("</parameter>", next);
      // Where the parser would end the value early.
      text.forbidden = {"\n<parameter=", "\n</function>"};
      return Add(std::move(text));
    }
    return AddValue(schema, Add(Literals({{"</parameter>", next}}, kSpaces)), false, 1);
  }

  std::vector<std::string> markers_;
  std::vector<ConstraintPhase> phases_;
  size_t spent_ = 0;
};

// The texts by which each format's parser ends a message or a call.
std::vector<std::string> Markers(ChatFormat format) {
  return format == ChatFormat::kHarmony ? HarmonyParser::Markers() : Qwen3Parser::CallEndMarkers();
}

std::vector<ConstraintPhase> Harmony(const std::vector<Function>& functions) {
  Program p(Markers(ChatFormat::kHarmony));
  const int header = p.Add(Literals({}));
  const int analysis = p.Add(ConstraintPhase::FreeText("<|end|>", -1));
  const int next_message = p.Add(Literals({{"<|start|>assistant", header}}));
  const int call = p.Add(Literals({{"<|call|>", -1}}, kSpaces));
  p.AddLiteral(header, "<|channel|>analysis<|message|>", analysis);
  for (const Function& f : functions) {
    const int arguments = p.AddValue(f.parameters, call, /*object=*/true, 0);
    for (const char* suffix : {"<|message|>", " <|constrain|>json<|message|>", "<|constrain|>json<|message|>",
                               " json<|message|>"}) {
      p.AddLiteral(header, "<|channel|>commentary to=functions." + f.name + suffix, arguments);
      p.AddLiteral(header, " to=functions." + f.name + "<|channel|>commentary" + suffix, arguments);
    }
  }
  p.SetNext(analysis, next_message);
  return p.Take();
}

// A ChatML turn: an optional think block (`thinking`), then calls, each opened by the
// literal `open(f)` and continued by `body(p, f, after)` up to phase `after`, which closes
// the turn or (when parallel) opens another call.
template <typename Open, typename Body>
std::vector<ConstraintPhase> ChatMl(ChatFormat format, const std::vector<Function>& functions, bool thinking,
                                    bool parallel, Open open, Body body) {
  Program p(Markers(format));
  const int start = p.Add(Literals({}, kSpaces));
  const int think = p.Add(ConstraintPhase::FreeText("</think>", -1));
  const int first_call = p.Add(Literals({}, kSpaces));
  const int end = p.Add(Literals({}, kSpaces));
  std::vector<Literal> calls;
  for (const Function& f : functions) calls.emplace_back(open(f), body(p, f, end));
  p.AddLiterals(start, calls);
  if (thinking) p.AddLiteral(start, "<think>", think);
  p.AddLiterals(first_call, calls);
  for (const std::string& stop : StopTokenTexts(format)) p.AddLiteral(end, stop, -1);
  if (parallel) p.AddLiterals(end, calls);
  p.SetNext(think, first_call);
  return p.Take();
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

// Qwen3-Coder's calls are XML, with a parameter block per argument.
std::vector<ConstraintPhase> Qwen3Coder(const std::vector<Function>& functions, const ChatRequest& request) {
  return ChatMl(
      ChatFormat::kQwen3Coder, functions, /*thinking=*/false, request.parallel_tool_calls,
      [](const Function& f) { return "<tool_call>\n<function=" + f.name + ">"; },
      [](Program& p, const Function& f, int end) {
        const int close_call = p.Add(Literals({{"</tool_call>", end}}, kSpaces));
        return p.AddXmlParameters(f.parameters, close_call);
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
  if (offered.size() > kMaxFunctions) {
    return absl::InvalidArgumentError("'tools' offers " + std::to_string(offered.size()) +
                                      " functions; a required call may choose among at most " +
                                      std::to_string(kMaxFunctions));
  }
  for (const Function& f : offered) {
    if (!IsFunctionName(f.name)) {
      return absl::InvalidArgumentError("'tools' has a function named '" + f.name.substr(0, kMaxNameLength) +
                                        "': a name must be 1 to 64 letters, digits, '_' or '-'");
    }
  }
  if (!request.tool_choice_name.empty() &&
      std::none_of(offered.begin(), offered.end(), [&](const Function& f) { return f.name == request.tool_choice_name; })) {
    return absl::InvalidArgumentError("'tool_choice' names the function '" + request.tool_choice_name +
                                      "', which 'tools' does not offer");
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

// ToolCallProgram: what each format's grammar takes (byte by byte, over a byte vocabulary
// plus the format's control tokens), and that what it takes parses to the call.
#include "runtime/engine/tool_choice.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

using Json = nlohmann::ordered_json;

// A vocabulary of the 256 single bytes and the control tokens of every format.
struct Vocab {
  std::vector<std::string> texts;
  std::vector<bool> control;
  std::optional<TokenTexts> token_texts;
  Vocab() {
    for (int b = 0; b < 256; ++b) texts.emplace_back(1, static_cast<char>(b)), control.push_back(false);
    for (const char* t : {"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>",
                          "<|return|>", "<|im_end|>", "<|endoftext|>"}) {
      texts.push_back(t), control.push_back(true);
    }
    token_texts.emplace(std::vector<std::string_view>(texts.begin(), texts.end()), control);
  }
};

const Vocab& TheVocab() {
  static const Vocab v;
  return v;
}

ChatRequest Request(const std::string& choice_name = "", bool thinking = true) {
  ChatRequest r;
  r.tools.push_back(Json::parse(R"({"type": "function", "function": {"name": "set_unit", "parameters":
    {"type": "object", "properties": {"unit": {"enum": ["c", "f"]}, "days": {"type": "integer"},
     "where": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
     "required": ["unit"]}}})"));
  r.tools.push_back(Json::parse(R"({"type": "function", "function": {"name": "now"}})"));
  r.require_tool_call = true;
  r.tool_choice_name = choice_name;
  r.enable_thinking = thinking;
  return r;
}

// Feeds `text` as bytes, control-token texts as those tokens; returns whether all of it
// was taken.
bool Takes(ChatFormat format, const ChatRequest& request, const std::string& text) {
  const Vocab& v = TheVocab();
  TextConstraint c(ToolCallProgram(format, request), *v.token_texts);
  for (size_t i = 0; i < text.size();) {
    int32_t token = static_cast<unsigned char>(text[i]);
    for (size_t id = 256; id < v.texts.size(); ++id) {
      if (text.compare(i, v.texts[id].size(), v.texts[id]) == 0) token = static_cast<int32_t>(id);
    }
    if (!c.Accept(token)) return false;
    i += v.texts[token].size();
  }
  return true;
}

// The call `text` parses to under `format`.
ToolCall Parsed(ChatFormat format, const ChatRequest& request, const std::string& text) {
  std::unique_ptr<ChatOutputParser> parser = NewChatOutputParser(format, request.tools);
  const ChatMessage m = ParseWhole(*parser, text);
  EXPECT_EQ(m.tool_calls.size(), 1u) << text;
  return m.tool_calls.empty() ? ToolCall{} : m.tool_calls[0];
}

TEST(ToolCallProgram, HarmonyTakesAnalysisThenACallInEitherHeaderForm) {
  const ChatRequest r = Request();
  for (const std::string& text :
       {std::string("<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary "
                    "to=functions.set_unit <|constrain|>json<|message|>{\"unit\": \"f\", \"days\": 3}<|call|>"),
        std::string(" to=functions.now<|channel|>commentary json<|message|>{}<|call|>")}) {
    EXPECT_TRUE(Takes(ChatFormat::kHarmony, r, text)) << text;
    const ToolCall call = Parsed(ChatFormat::kHarmony, r, text);
    EXPECT_TRUE(call.name == "set_unit" || call.name == "now") << call.name;
    EXPECT_TRUE(Json::parse(call.arguments).is_object()) << call.arguments;
  }
  // No final answer, no call of a function not offered, no other end.
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>final"));
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>commentary to=functions.rm<"));
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>analysis<|message|>x<|return|>"));
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>commentary to=functions.now<|message|>{}<|return|>"));
}

TEST(ToolCallProgram, ArgumentsFollowTheSchema) {
  const ChatRequest r = Request("set_unit");
  const std::string head = "<|channel|>commentary to=functions.set_unit<|message|>";
  for (const char* good : {R"({"unit":"c"})", R"({"unit": "f", "days": -2})", R"({"unit":"c","where":{"city":"Oslo"}})",
                           R"({"unit": "c", "days": 1, "where": {"city": ""}})"}) {
    EXPECT_TRUE(Takes(ChatFormat::kHarmony, r, head + good + "<|call|>")) << good;
  }
  for (const char* bad : {R"({})", R"({"days": 1)", R"({"unit": "k")", R"({"unit": "c", "extra")", R"({"unit": "c", "days": 1.5)",
                          R"({"unit": "c", "where": {})", R"({"days": 1, "unit")", R"({"unit": "c", "days": "1")"}) {
    EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, head + bad)) << bad;
  }
  // The named function only.
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>commentary to=functions.now<"));
}

TEST(ToolCallProgram, Qwen3TakesThinkingThenCalls) {
  const ChatRequest r = Request();
  const std::string call = "<tool_call>\n{\"name\": \"set_unit\", \"arguments\": {\"unit\": \"f\"}}\n</tool_call>";
  const std::string text = "<think>\nHm.\n</think>\n\n" + call + "\n" + call + "<|im_end|>";
  EXPECT_TRUE(Takes(ChatFormat::kChatMl, r, text));
  std::unique_ptr<ChatOutputParser> parser = NewChatOutputParser(ChatFormat::kChatMl, r.tools);
  const ChatMessage m = ParseWhole(*parser, text);
  ASSERT_EQ(m.tool_calls.size(), 2u);
  EXPECT_EQ(Json::parse(m.tool_calls[1].arguments), Json::parse(R"({"unit": "f"})"));
  // No content before the call, and one call when not parallel; no thinking when it is off.
  EXPECT_FALSE(Takes(ChatFormat::kChatMl, r, "Sure. <tool_call>"));
  ChatRequest single = r;
  single.parallel_tool_calls = false;
  EXPECT_FALSE(Takes(ChatFormat::kChatMl, single, call + "\n<tool_call>"));
  EXPECT_TRUE(Takes(ChatFormat::kChatMl, single, call + "<|im_end|>"));
  EXPECT_FALSE(Takes(ChatFormat::kChatMl, Request("", /*thinking=*/false), "<think>"));
}

TEST(ToolCallProgram, Qwen3CoderTakesAnXmlCall) {
  const ChatRequest r = Request("set_unit");
  const std::string text = "<tool_call>\n<function=set_unit>\n<parameter=unit>\nc\n</parameter>\n</function>\n</tool_call><|im_end|>";
  EXPECT_TRUE(Takes(ChatFormat::kQwen3Coder, r, text));
  EXPECT_EQ(Parsed(ChatFormat::kQwen3Coder, r, text).name, "set_unit");
  EXPECT_FALSE(Takes(ChatFormat::kQwen3Coder, r, "<tool_call>\n<function=now>"));
}

TEST(ToolCallProgram, NoneWithoutARequiredCallOrAFunction) {
  ChatRequest r = Request();
  r.require_tool_call = false;
  EXPECT_TRUE(ToolCallProgram(ChatFormat::kHarmony, r).empty());
  ChatRequest empty;
  empty.require_tool_call = true;
  EXPECT_TRUE(ToolCallProgram(ChatFormat::kChatMl, empty).empty());
  EXPECT_FALSE(CheckToolChoice(empty).ok());
  EXPECT_FALSE(CheckToolChoice(Request("rm")).ok());
  EXPECT_TRUE(CheckToolChoice(Request("now")).ok());
}

// A request requiring a call of one function `f` with these parameters.
ChatRequest WithParameters(const std::string& parameters) {
  ChatRequest r;
  r.tools.push_back(Json::parse(R"({"type": "function", "function": {"name": "f", "parameters": )" + parameters + "}}"));
  r.require_tool_call = true;
  return r;
}

TEST(ToolCallProgram, AnEnumValueThatIsAPrefixOfAnotherCanBeWritten) {
  const ChatRequest r = WithParameters(R"({"properties": {"n": {"enum": [1, 10, 12]}}, "required": ["n"]})");
  const std::string head = "<|channel|>commentary to=functions.f<|message|>";
  for (const char* n : {"1", "10", "12"}) {
    const std::string text = head + "{\"n\": " + n + "}<|call|>";
    EXPECT_TRUE(Takes(ChatFormat::kHarmony, r, text)) << text;
    EXPECT_EQ(Json::parse(Parsed(ChatFormat::kHarmony, r, text).arguments)["n"], std::stoi(n));
  }
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, head + "{\"n\": 13"));
}

TEST(ToolCallProgram, PrettyPrintedArgumentsAreTaken) {
  const ChatRequest r = Request("set_unit");
  const std::string text = "<|channel|>commentary to=functions.set_unit<|message|>{\n  \"unit\" : \"c\",\n  \"where\": {\n"
                           "    \"city\": \"Oslo\"\n  }\n}<|call|>";
  EXPECT_TRUE(Takes(ChatFormat::kHarmony, r, text));
  EXPECT_EQ(Json::parse(Parsed(ChatFormat::kHarmony, r, text).arguments)["where"]["city"], "Oslo");
}

TEST(ToolCallProgram, HostileSchemasStayWithinTheBudget) {
  // 64 optional properties of 4 KiB names at each of 8 levels: 8 MiB of key literals
  // per level if built whole.
  Json schema = Json::object();
  for (int level = 0; level < 8; ++level) {
    Json properties = Json::object();
    for (int i = 0; i < 64; ++i) {
      properties[std::string(4096, static_cast<char>('a' + i % 26)) + std::to_string(i)] =
          i == 0 ? schema : Json{{"type", "string"}};
    }
    schema = Json{{"type", "object"}, {"properties", properties}};
  }
  Json big_enum = Json::array();
  for (int i = 0; i < 100000; ++i) big_enum.push_back(std::string(64, 'x') + std::to_string(i));
  for (const Json& parameters : {schema, Json{{"properties", {{"e", {{"enum", big_enum}}}}}}}) {
    ChatRequest r = WithParameters(parameters.dump());
    for (ChatFormat format : {ChatFormat::kHarmony, ChatFormat::kChatMl, ChatFormat::kQwen3Coder}) {
      size_t bytes = 0;
      for (const ConstraintPhase& p : ToolCallProgram(format, r)) {
        bytes += 64;
        for (const auto& l : p.literals) bytes += l.first.size();
      }
      EXPECT_LT(bytes, 2u << 20);
    }
  }
  // Still a call, of any object.
  EXPECT_TRUE(Takes(ChatFormat::kHarmony, WithParameters(schema.dump()),
                    "<|channel|>commentary to=functions.f<|message|>{\"x\": 1}<|call|>"));
}

TEST(ToolCallProgram, ChatMlMarkersCannotBeSpelledInsideArguments) {
  const ChatRequest r = WithParameters(R"({"properties": {"s": {"type": "string"}}})");
  const std::string head = "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"s\": \"a";
  EXPECT_TRUE(Takes(ChatFormat::kChatMl, r, head + "</tool_cal"));
  EXPECT_FALSE(Takes(ChatFormat::kChatMl, r, head + "</tool_call>"));
  EXPECT_FALSE(Takes(ChatFormat::kChatMl, r, head + "<|im_end|>"));
  EXPECT_FALSE(Takes(ChatFormat::kHarmony, r, "<|channel|>commentary to=functions.f<|message|>{\"s\": \"<|call|>"));
}

TEST(ToolCallProgram, Qwen3CoderParametersFollowTheSchema) {
  const ChatRequest r = Request("set_unit");
  const std::string open = "<tool_call>\n<function=set_unit>\n";
  const std::string unit = "<parameter=unit>\nc\n</parameter>\n";
  const std::string close = "</function>\n</tool_call><|im_end|>";
  for (const std::string& body : {unit, unit + "<parameter=days>\n3\n</parameter>\n",
                                  unit + "<parameter=where>\n{\"city\": \"Oslo\"}\n</parameter>\n"}) {
    EXPECT_TRUE(Takes(ChatFormat::kQwen3Coder, r, open + body + close)) << body;
    EXPECT_EQ(Json::parse(Parsed(ChatFormat::kQwen3Coder, r, open + body + close).arguments)["unit"], "c");
  }
  // A body the parser would not read as the call, a missing required parameter, one the
  // schema lacks, a mistyped one, markers inside a value.
  for (const std::string& bad : std::vector<std::string>{"hello</function>", "</function>", "<parameter=rm>", unit + "<parameter=days>\nmany",
                                 "<parameter=unit>\nc</tool_call>", "<parameter=unit>\nc\n</function>",
                                 "<parameter=unit>\nc\n<parameter=days>"}) {
    EXPECT_FALSE(Takes(ChatFormat::kQwen3Coder, r, open + bad)) << bad;
  }
}

TEST(ToolCallProgram, Qwen3CoderTakesAnyParametersWithoutASchema) {
  const ChatRequest r = Request("now");
  const std::string text = "<tool_call>\n<function=now>\n<parameter=zone>\nUTC\n</parameter>\n</function>\n</tool_call><|im_end|>";
  EXPECT_TRUE(Takes(ChatFormat::kQwen3Coder, r, text));
  EXPECT_EQ(Json::parse(Parsed(ChatFormat::kQwen3Coder, r, text).arguments)["zone"], "UTC");
  EXPECT_FALSE(Takes(ChatFormat::kQwen3Coder, r, "<tool_call>\n<function=now>\n<parameter=a\nb>"));
}

TEST(CheckToolChoice, RefusesNamesThePromptCannotCarryAndTooManyFunctions) {
  for (const char* name : {"get weather", "a.b", "x\u00e9", ""}) {
    ChatRequest r = WithParameters("{}");
    r.tools[0]["function"]["name"] = name;
    if (std::string(name).empty()) r.tools.push_back(Json::parse(R"({"type": "function", "function": {"name": "ok"}})"));
    EXPECT_EQ(CheckToolChoice(r).ok(), std::string(name).empty()) << name;
  }
  ChatRequest long_name = WithParameters("{}");
  long_name.tools[0]["function"]["name"] = std::string(65, 'a');
  EXPECT_FALSE(CheckToolChoice(long_name).ok());
  ChatRequest many;
  many.require_tool_call = true;
  for (int i = 0; i < 129; ++i) {
    many.tools.push_back(Json{{"type", "function"}, {"function", {{"name", "f" + std::to_string(i)}}}});
  }
  EXPECT_FALSE(CheckToolChoice(many).ok());
  many.tools.pop_back();
  EXPECT_TRUE(CheckToolChoice(many).ok());
}

}  // namespace
}  // namespace cpubrrr

// ToolCallProgram: what each format's grammar takes (byte by byte, over a byte vocabulary
// plus the format's control tokens), and that what it takes parses to the call.
#include "runtime/engine/tool_choice.h"

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
  Vocab() {
    for (int b = 0; b < 256; ++b) texts.emplace_back(1, static_cast<char>(b)), control.push_back(false);
    for (const char* t : {"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>",
                          "<|return|>", "<|im_end|>", "<|endoftext|>"}) {
      texts.push_back(t), control.push_back(true);
    }
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
  TextConstraint c(ToolCallProgram(format, request), std::vector<std::string_view>(v.texts.begin(), v.texts.end()),
                   v.control);
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

}  // namespace
}  // namespace cpubrrr

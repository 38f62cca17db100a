// Checks both renderers string for string against the committed goldens, which
// chat_reference_test keeps equal to the official templates' renderings.
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "runtime/chat/chat_test_cases.h"
#include "runtime/chat/harmony_renderer.h"
#include "runtime/chat/qwen3_coder_renderer.h"
#include "runtime/chat/qwen3_renderer.h"

namespace cpubrrr {
namespace {

using Renderer = absl::StatusOr<std::string> (*)(const ChatRequest&);

void CheckFamily(const std::string& family, Renderer render) {
  std::vector<ChatCase> cases = LoadChatCases();
  ASSERT_GE(cases.size(), 12u);
  int rendered = 0;
  for (const ChatCase& c : cases) {
    SCOPED_TRACE(family + "/" + c.name);
    bool has_golden = false;
    std::string golden = ReadTestFile("runtime/chat/testdata/golden/" + family + "/" + c.name + ".txt", &has_golden);
    absl::StatusOr<std::string> ours = render(c.request);
    if (!has_golden) {
      EXPECT_FALSE(ours.ok()) << "no golden, so the template raises; we rendered:\n" << *ours;
      continue;
    }
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(*ours, golden);
    ++rendered;
  }
  EXPECT_GE(rendered, 12);
}

TEST(ChatGolden, Harmony) { CheckFamily("harmony", RenderHarmonyPrompt); }
TEST(ChatGolden, Qwen3) { CheckFamily("qwen3", RenderQwen3Prompt); }
TEST(ChatGolden, Qwen3Coder) { CheckFamily("qwen3coder", RenderQwen3CoderPrompt); }

TEST(ChatGolden, EmptyConversationIsAnError) {
  EXPECT_FALSE(RenderHarmonyPrompt(ChatRequest{}).ok());
  EXPECT_FALSE(RenderQwen3Prompt(ChatRequest{}).ok());
  EXPECT_FALSE(RenderQwen3CoderPrompt(ChatRequest{}).ok());
}

TEST(ChatGolden, HarmonyRejectsChannelTagsInContent) {
  ChatRequest r;
  r.messages = {{.role = "user", .content = "hi"},
                {.role = "assistant", .content = "<|channel|>final<|message|>x"},
                {.role = "user", .content = "again"}};
  EXPECT_FALSE(RenderHarmonyPrompt(r).ok());
}

TEST(ChatGolden, HarmonyDefaultDateIsToday) {
  ChatRequest r;
  r.messages = {{.role = "user", .content = "hi"}};
  absl::StatusOr<std::string> text = RenderHarmonyPrompt(r);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("Current date: 20"), std::string::npos);
}

}  // namespace
}  // namespace cpubrrr

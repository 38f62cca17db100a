// Re-renders every chat case with the official Jinja templates (Python jinja2, the way
// Hugging Face transformers renders them) and checks that our renderers and the
// committed goldens both still match, so drift on either side is caught.
#include <cstdio>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "runtime/chat/chat_test_cases.h"
#include "runtime/chat/harmony_renderer.h"
#include "runtime/chat/qwen3_coder_renderer.h"
#include "runtime/chat/qwen3_renderer.h"

namespace cpubrrr {
namespace {

using Renderer = absl::StatusOr<std::string> (*)(const ChatRequest&);

// Returns the reference renderings {name: {"text"| "error": ...}} of every case.
nlohmann::json RenderWithJinja(const std::string& template_file, const std::string& family) {
  std::string cmd = "/usr/bin/python3 runtime/chat/testdata/render_reference.py "
                    "external/llama_ref/llama.cpp/models/templates/" +
                    template_file + " " + family + " runtime/chat/testdata/chat_cases.json";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return nullptr;
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), pipe)) > 0;) out.append(buf, n);
  if (pclose(pipe) != 0) return nullptr;
  return nlohmann::json::parse(out, nullptr, false);
}

void CheckFamily(const std::string& template_file, const std::string& family, Renderer render) {
  nlohmann::json reference = RenderWithJinja(template_file, family);
  ASSERT_TRUE(reference.is_object()) << "the reference renderer failed; needs python3-jinja2 (scripts/setup.sh)";
  std::vector<ChatCase> cases = LoadChatCases();
  ASSERT_EQ(reference.size(), cases.size());
  for (const ChatCase& c : cases) {
    SCOPED_TRACE(family + "/" + c.name);
    ASSERT_TRUE(reference.contains(c.name));
    const nlohmann::json& ref = reference[c.name];
    absl::StatusOr<std::string> ours = render(c.request);
    bool has_golden = false;
    std::string golden = ReadTestFile("runtime/chat/testdata/golden/" + family + "/" + c.name + ".txt", &has_golden);
    if (ref.contains("error")) {
      EXPECT_FALSE(ours.ok()) << "the template raised: " << ref["error"];
      EXPECT_FALSE(has_golden);
      continue;
    }
    const std::string& text = ref["text"].get_ref<const std::string&>();
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(*ours, text);
    EXPECT_TRUE(has_golden);
    EXPECT_EQ(golden, text) << "golden drifted from the template; regenerate with render_reference.py --write-goldens";
  }
}

TEST(ChatReference, HarmonyMatchesOfficialGptOssTemplate) {
  CheckFamily("openai-gpt-oss-120b.jinja", "harmony", RenderHarmonyPrompt);
}

TEST(ChatReference, Qwen3MatchesOfficialQwen3Template) {
  CheckFamily("Qwen-Qwen3-0.6B.jinja", "qwen3", RenderQwen3Prompt);
}

TEST(ChatReference, Qwen3CoderMatchesOfficialQwen3CoderTemplate) {
  CheckFamily("Qwen3-Coder.jinja", "qwen3coder", RenderQwen3CoderPrompt);
}

}  // namespace
}  // namespace cpubrrr

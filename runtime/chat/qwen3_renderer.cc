// Qwen3 ChatML prompt rendering, following the official template's control flow.
#include "runtime/chat/qwen3_renderer.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

constexpr char kToolsHeader[] =
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>";
constexpr char kToolsFooter[] =
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": "
    "<function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n";

// Python's str.lstrip('\n'), rstrip('\n') and strip('\n').
std::string LStripNewlines(std::string s) { return s.erase(0, s.find_first_not_of('\n')); }
std::string RStripNewlines(std::string s) {
  size_t end = s.find_last_not_of('\n');
  return end == std::string::npos ? std::string() : s.substr(0, end + 1);
}
std::string StripNewlines(std::string s) { return LStripNewlines(RStripNewlines(std::move(s))); }

bool IsToolResponseText(const std::string& s) {
  return absl::StartsWith(s, "<tool_response>") && absl::EndsWith(s, "</tool_response>");
}

}  // namespace

absl::StatusOr<std::string> RenderQwen3Prompt(const ChatRequest& request) {
  const std::vector<ChatMessage>& messages = request.messages;
  if (messages.empty()) return absl::InvalidArgumentError("qwen3: no messages");
  const size_t n = messages.size();
  std::string out;
  if (!request.tools.empty()) {
    out += "<|im_start|>system\n";
    if (messages[0].role == "system") out += messages[0].content + "\n\n";
    out += kToolsHeader;
    for (const auto& tool : request.tools) out += "\n" + PyJsonDumps(tool);
    out += kToolsFooter;
  } else if (messages[0].role == "system") {
    out += "<|im_start|>system\n" + messages[0].content + "<|im_end|>\n";
  }

  // The last user message that is a real query (not a wrapped tool response).
  size_t last_query = n - 1;
  for (size_t k = n; k-- > 0;) {
    if (messages[k].role == "user" && !IsToolResponseText(messages[k].content)) {
      last_query = k;
      break;
    }
  }

  const bool preserve = request.preserve_reasoning.value_or(false);
  for (size_t i = 0; i < n; ++i) {
    const ChatMessage& m = messages[i];
    const bool last = i + 1 == n;
    if (m.role == "user" || (m.role == "system" && i != 0)) {
      out += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
    } else if (m.role == "assistant") {
      std::string content = m.content;
      std::string reasoning;
      if (!m.reasoning.empty()) {
        reasoning = m.reasoning;
      } else if (size_t close = content.find("</think>"); close != std::string::npos) {
        std::string before = RStripNewlines(content.substr(0, close));
        size_t open = before.rfind("<think>");
        reasoning = LStripNewlines(open == std::string::npos ? before : before.substr(open + 7));
        content = LStripNewlines(content.substr(content.rfind("</think>") + 8));
      }
      const bool keep = (i > last_query && last) || ((i > last_query || preserve) && !reasoning.empty());
      if (keep) {
        out += "<|im_start|>assistant\n<think>\n" + StripNewlines(reasoning) + "\n</think>\n\n" +
               LStripNewlines(content);
      } else {
        out += "<|im_start|>assistant\n" + content;
      }
      for (size_t j = 0; j < m.tool_calls.size(); ++j) {
        if (j > 0 || !content.empty()) out += "\n";
        out += "<tool_call>\n{\"name\": \"" + m.tool_calls[j].name + "\", \"arguments\": " +
               m.tool_calls[j].arguments + "}\n</tool_call>";
      }
      out += "<|im_end|>\n";
    } else if (m.role == "tool") {
      if (i == 0 || messages[i - 1].role != "tool") out += "<|im_start|>user";
      out += "\n<tool_response>\n" + m.content + "\n</tool_response>";
      if (last || messages[i + 1].role != "tool") out += "<|im_end|>\n";
    }
  }
  if (request.add_generation_prompt) {
    out += "<|im_start|>assistant\n";
    if (!request.enable_thinking) out += "<think>\n\n</think>\n\n";
  }
  return out;
}

}  // namespace cpubrrr

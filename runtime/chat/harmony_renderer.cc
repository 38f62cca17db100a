// gpt-oss harmony prompt rendering, following the official template's control flow.
#include "runtime/chat/harmony_renderer.h"

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "runtime/chat/harmony_tools.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

constexpr char kDefaultIdentity[] = "You are ChatGPT, a large language model trained by OpenAI.";

bool HasChannelTags(const std::string& text) {
  return absl::StrContains(text, "<|channel|>analysis<|message|>") ||
         absl::StrContains(text, "<|channel|>final<|message|>");
}

std::string SystemMessage(const ChatRequest& request) {
  std::string date = request.date.empty()
                         ? absl::FormatTime("%Y-%m-%d", absl::Now(), absl::UTCTimeZone())
                         : request.date;
  std::string out = "<|start|>system<|message|>";
  out += request.model_identity.empty() ? kDefaultIdentity : request.model_identity;
  out += "\nKnowledge cutoff: 2024-06\nCurrent date: " + date + "\n\n";
  out += std::string("Reasoning: ") + ReasoningEffortName(request.reasoning_effort) + "\n\n";
  out += "# Valid channels: analysis, commentary, final. Channel must be included for every message.";
  if (!request.tools.empty()) {
    out += "\nCalls to these tools must go to the commentary channel: 'functions'.";
  }
  return out + "<|end|>";
}

std::string Analysis(const std::string& text) {
  return "<|start|>assistant<|channel|>analysis<|message|>" + text + "<|end|>";
}

}  // namespace

std::string HarmonyToolArguments(const std::string& arguments) {
  nlohmann::ordered_json parsed =
      nlohmann::ordered_json::parse(arguments, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return PyJsonQuote(arguments);
  return PyJsonDumps(parsed);
}

absl::StatusOr<std::string> RenderHarmonyPrompt(const ChatRequest& request) {
  const std::vector<ChatMessage>& messages = request.messages;
  if (messages.empty()) return absl::InvalidArgumentError("harmony: no messages");
  std::string out = SystemMessage(request);

  size_t first = 0;
  std::string developer;
  if (messages[0].role == "developer" || messages[0].role == "system") {
    developer = messages[0].content;
    first = 1;
  }
  if (!developer.empty() || !request.tools.empty()) {
    out += "<|start|>developer<|message|>";
    if (!developer.empty()) out += "# Instructions\n\n" + developer + "\n\n";
    if (!request.tools.empty()) out += "# Tools\n\n" + HarmonyToolNamespace(request.tools);
    out += "<|end|>";
  }

  const bool preserve = request.preserve_reasoning.value_or(false);
  std::optional<std::string> last_tool_call;
  for (size_t i = first; i < messages.size(); ++i) {
    const ChatMessage& m = messages[i];
    const bool last = i + 1 == messages.size();
    if (m.role == "assistant") {
      if (HasChannelTags(m.content) || HasChannelTags(m.reasoning)) {
        return absl::InvalidArgumentError(
            "harmony: pass analysis text as reasoning and final text as content, without <|channel|> tags");
      }
      if (!m.tool_calls.empty()) {
        // A later final answer drops this call's reasoning, unless reasoning is preserved.
        bool future_final = false;
        for (size_t j = i + 1; j < messages.size(); ++j) {
          if (messages[j].role == "assistant" && messages[j].tool_calls.empty()) future_final = !preserve;
        }
        if (!m.content.empty() && !m.reasoning.empty()) {
          return absl::InvalidArgumentError(
              "harmony: an assistant tool-call message cannot have both content and reasoning");
        }
        if (!future_final && !m.content.empty()) out += Analysis(m.content);
        if (!future_final && !m.reasoning.empty()) out += Analysis(m.reasoning);
        const ToolCall& call = m.tool_calls[0];
        out += "<|start|>assistant to=functions." + call.name + "<|channel|>commentary json<|message|>";
        out += HarmonyToolArguments(call.arguments) + "<|call|>";
        last_tool_call = call.name;
      } else if (last && !request.add_generation_prompt) {
        if (!m.reasoning.empty()) out += Analysis(m.reasoning);
        out += "<|start|>assistant<|channel|>final<|message|>" + m.content + "<|return|>";
      } else {
        if (preserve && !m.reasoning.empty()) out += Analysis(m.reasoning);
        out += "<|start|>assistant<|channel|>final<|message|>" + m.content + "<|end|>";
        last_tool_call.reset();
      }
    } else if (m.role == "tool") {
      if (!last_tool_call) {
        return absl::InvalidArgumentError("harmony: tool message without a preceding tool call");
      }
      out += "<|start|>functions." + *last_tool_call + " to=assistant<|channel|>commentary<|message|>";
      out += PyJsonQuote(m.content) + "<|end|>";
    } else if (m.role == "user") {
      out += "<|start|>user<|message|>" + m.content + "<|end|>";
    }
  }
  if (request.add_generation_prompt) out += "<|start|>assistant";
  return out;
}

}  // namespace cpubrrr

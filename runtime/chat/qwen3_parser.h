// Streaming parser of Qwen3 and Qwen3-Coder output (the text generated after
// "<|im_start|>assistant\n"): a leading <think>...</think> -> reasoning, <tool_call> blocks
// holding {"name", "arguments"} (Qwen3) or <function=NAME> XML (Qwen3-Coder) -> tool calls,
// everything else -> content.
#ifndef CPUBRRR_RUNTIME_CHAT_QWEN3_PARSER_H_
#define CPUBRRR_RUNTIME_CHAT_QWEN3_PARSER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/chat/chat_delta.h"
#include "runtime/chat/xml_tool_call.h"

namespace cpubrrr {

// Reasoning is only recognized at the start of the output (after optional whitespace);
// its leading and trailing newlines are dropped, as the template drops them when it
// re-renders a turn. Whitespace right after </think> or </tool_call> and right before
// <tool_call> is dropped. A tool call whose body is neither a JSON object with a string
// "name" nor an XML function call is passed through as content, tags included. <|im_end|> or <|endoftext|> end
// the turn. Tool calls get ids "call_0", "call_1", ... An XML call's values are typed by
// `strings` (the string parameters of the request's tools, xml_tool_call.h).
class Qwen3Parser : public ChatOutputParser {
 public:
  // `thinking_forced_open`: the prompt already ends with "<think>\n" (templates that open
  // the think block themselves), so output starts inside the reasoning.
  explicit Qwen3Parser(bool thinking_forced_open = false, StringParameters strings = {})
      : state_(thinking_forced_open ? State::kReasoning : State::kStart), strings_(std::move(strings)) {}

  // The markers that end a tool call or the turn, whatever tokens spell them.
  static std::vector<std::string> CallEndMarkers();

  ChatDelta Feed(std::string_view piece) override;
  ChatDelta Finish() override;
  bool done() const override { return state_ == State::kDone; }

 private:
  enum class State { kStart, kReasoning, kContent, kToolCall, kDone };

  void Process(bool final, ChatDelta& out);
  void EmitContent(std::string_view text, ChatDelta& out);
  // Emits the tool call in `body`, or passes "<tool_call>" + body [+ "</tool_call>" when
  // `closed`] through as content when it is not a JSON call.
  void EndToolCall(std::string_view body, bool closed, ChatDelta& out);

  State state_;
  StringParameters strings_;
  std::string buf_;
  bool reasoning_started_ = false;  // a non-newline reasoning byte was emitted
  bool content_start_ = true;       // no non-space content since the last </think> or </tool_call>
  int tool_calls_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_QWEN3_PARSER_H_

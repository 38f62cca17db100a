// Streaming parser of gpt-oss harmony output (the text generated after the prompt's
// "<|start|>assistant"): analysis -> reasoning, final and commentary preambles -> content,
// a message addressed "to=functions.NAME" and ended by <|call|> -> a tool call.
#ifndef CPUBRRR_RUNTIME_CHAT_HARMONY_PARSER_H_
#define CPUBRRR_RUNTIME_CHAT_HARMONY_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/chat/chat_delta.h"

namespace cpubrrr {

// Messages look like `[<|start|>assistant][ to=R]<|channel|>C[ to=R][ <|constrain|>T]<|message|>
// BODY(<|end|>|<|return|>|<|call|>)`. The turn ends at <|return|> or <|call|>, never at
// <|end|>. A header that is not plausible harmony (characters outside [A-Za-z0-9_.:=- ],
// longer than kMaxHeader, or interrupted by another marker) is passed through as content,
// as is text between messages. A tool call's arguments are JSON text; arguments that do not
// parse are passed through as content. Tool calls get ids "call_0", "call_1", ...
class HarmonyParser : public ChatOutputParser {
 public:
  static constexpr size_t kMaxHeader = 256;
  // The markers the parser splits messages at, whatever tokens spell them.
  static std::vector<std::string> Markers();

  ChatDelta Feed(std::string_view piece) override;
  ChatDelta Finish() override;
  bool done() const override { return state_ == State::kDone; }

 private:
  enum class State { kHeader, kBody, kBetween, kDone };
  enum class Kind { kReasoning, kContent, kToolCall };

  void Process(bool final, ChatDelta& out);
  // Returns true once the header state has made progress (or must wait when false).
  bool StepHeader(bool final, ChatDelta& out);
  bool StepBody(bool final, ChatDelta& out);
  void FallBackToContent(ChatDelta& out);
  void StartBody(std::string_view header);
  void Emit(std::string_view text, ChatDelta& out);
  void EndMessage(ChatDelta& out);

  State state_ = State::kHeader;
  bool role_expected_ = false;  // header follows an explicit <|start|>: it begins with a role
  Kind kind_ = Kind::kContent;
  std::string buf_;
  std::string tool_name_;
  std::string tool_args_;
  int tool_calls_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_HARMONY_PARSER_H_

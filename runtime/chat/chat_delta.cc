// Accumulation of streaming deltas into a message.
#include "runtime/chat/chat_delta.h"

namespace cpubrrr {

void ApplyDelta(const ChatDelta& delta, ChatMessage& message) {
  message.reasoning += delta.reasoning;
  message.content += delta.content;
  message.tool_calls.insert(message.tool_calls.end(), delta.tool_calls.begin(), delta.tool_calls.end());
}

ChatMessage ParseWhole(ChatOutputParser& parser, std::string_view text) {
  ChatMessage message;
  message.role = "assistant";
  ApplyDelta(parser.Feed(text), message);
  ApplyDelta(parser.Finish(), message);
  return message;
}

}  // namespace cpubrrr

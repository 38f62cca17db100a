// The streaming output-parser interface: text pieces in, reasoning/content/tool-call deltas out.
#ifndef CPUBRRR_RUNTIME_CHAT_CHAT_DELTA_H_
#define CPUBRRR_RUNTIME_CHAT_CHAT_DELTA_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// What one piece of model output added. Tool calls are reported whole, once complete.
struct ChatDelta {
  std::string reasoning;
  std::string content;
  std::vector<ToolCall> tool_calls;

  bool empty() const { return reasoning.empty() && content.empty() && tool_calls.empty(); }
};

// A streaming parser of one assistant turn. Pieces may split anywhere, even inside a
// special-token text; the concatenated deltas do not depend on where. Never throws:
// text that does not fit the format is passed through as content.
class ChatOutputParser {
 public:
  virtual ~ChatOutputParser() = default;
  // Consumes the next piece of generated text and returns what it completed.
  virtual ChatDelta Feed(std::string_view piece) = 0;
  // Ends the stream: flushes held-back text (a truncated tool call becomes a tool call
  // only if its arguments are complete JSON, else content).
  virtual ChatDelta Finish() = 0;
  // Returns whether an end-of-turn marker was seen; later pieces are ignored.
  virtual bool done() const = 0;
};

// Appends `delta` to assistant message `message`.
void ApplyDelta(const ChatDelta& delta, ChatMessage& message);

// Feeds `text` as one piece, finishes, and returns the resulting assistant message.
ChatMessage ParseWhole(ChatOutputParser& parser, std::string_view text);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_CHAT_DELTA_H_

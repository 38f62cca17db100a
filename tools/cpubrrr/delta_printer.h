// Prints a streamed assistant turn: the answer to stdout, reasoning apart on stderr.
#ifndef CPUBRRR_TOOLS_CPUBRRR_DELTA_PRINTER_H_
#define CPUBRRR_TOOLS_CPUBRRR_DELTA_PRINTER_H_

#include "runtime/chat/chat_delta.h"
#include "runtime/engine/generation.h"

namespace cpubrrr {

// Reasoning goes to stderr, dimmed on a terminal, otherwise after a "thinking:" label;
// content and tool calls ("tool call: NAME ARGUMENTS") go to stdout.
class DeltaPrinter {
 public:
  DeltaPrinter();

  // Prints `delta` and flushes.
  void Print(const ChatDelta& delta);
  // Ends the turn: closes an open reasoning block and ends the answer's last line.
  void Finish();

 private:
  bool dim_;                      // stderr is a terminal
  bool in_reasoning_ = false;     // reasoning printed since the last content
  bool content_line_open_ = false;  // content printed without a final newline
};

// Prints the timing line of a generation to stderr:
// "prompt: N tokens (R reused), X tok/s | generated: M tokens, Y tok/s | stop: REASON".
void PrintTimings(const GenerateResult& result);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_DELTA_PRINTER_H_

// Terminal output of reasoning, content, tool calls and timings.
#include "tools/cpubrrr/delta_printer.h"

#include <unistd.h>

#include <cstdio>

namespace cpubrrr {
namespace {

constexpr char kDim[] = "\x1b[2m";
constexpr char kReset[] = "\x1b[0m";

void Write(FILE* f, const std::string& text) { std::fwrite(text.data(), 1, text.size(), f); }

}  // namespace

DeltaPrinter::DeltaPrinter() : dim_(isatty(2)) {}

void DeltaPrinter::Print(const ChatDelta& delta) {
  if (!delta.reasoning.empty()) {
    if (!in_reasoning_) {
      std::fputs(dim_ ? kDim : "thinking: ", stderr);
      in_reasoning_ = true;
    } else if (dim_) {
      std::fputs(kDim, stderr);
    }
    Write(stderr, delta.reasoning);
    if (dim_) std::fputs(kReset, stderr);
    std::fflush(stderr);
  }
  if (!delta.content.empty() || !delta.tool_calls.empty()) {
    if (in_reasoning_) {
      std::fputs("\n", stderr);
      in_reasoning_ = false;
    }
    Write(stdout, delta.content);
    if (!delta.content.empty()) content_line_open_ = delta.content.back() != '\n';
    for (const ToolCall& call : delta.tool_calls) {
      if (content_line_open_) std::fputs("\n", stdout);
      std::fprintf(stdout, "tool call: %s %s\n", call.name.c_str(), call.arguments.c_str());
      content_line_open_ = false;
    }
    std::fflush(stdout);
  }
}

void DeltaPrinter::Finish() {
  if (in_reasoning_) std::fputs("\n", stderr);
  if (content_line_open_) std::fputs("\n", stdout);
  in_reasoning_ = content_line_open_ = false;
  std::fflush(stdout);
  std::fflush(stderr);
}

void PrintTimings(const GenerateResult& result) {
  const GenerateTimings& t = result.timings;
  std::fprintf(stderr,
               "prompt: %u tokens (%u reused), %.1f tok/s | generated: %u tokens, %.1f tok/s | "
               "stop: %s\n",
               t.prompt_tokens, t.reused_tokens, t.PromptTokensPerSecond(), t.generated_tokens,
               t.GenerationTokensPerSecond(), FinishReasonName(result.finish));
}

}  // namespace cpubrrr

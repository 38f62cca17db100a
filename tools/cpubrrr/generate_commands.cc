// The run and chat loops over the engine.
#include "tools/cpubrrr/generate_commands.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "tools/cpubrrr/cli_engine.h"
#include "tools/cpubrrr/delta_printer.h"

namespace cpubrrr {
namespace {

// Returns a request with the sampling, limits and template settings of `options`.
GenerateRequest BaseRequest(const CliOptions& options) {
  GenerateRequest request;
  request.sampling = options.sampling;
  request.sampling.seed = options.seed >= 0 ? options.seed : std::random_device{}();
  request.max_tokens = options.n_predict;
  request.stop = options.stop;
  request.ignore_eos = options.ignore_eos;
  request.chat.reasoning_effort = options.reasoning_effort;
  request.chat.enable_thinking = !options.no_think;
  if (!options.system_prompt.empty()) {
    request.chat.messages.push_back({.role = "system", .content = options.system_prompt});
  }
  return request;
}

// Generates one turn, printing it as it streams, then the timing line.
absl::StatusOr<GenerateResult> Answer(Engine& engine, const GenerateRequest& request) {
  DeltaPrinter printer;
  GenerateCallbacks callbacks;
  callbacks.on_delta = [&printer](const ChatDelta& delta) { printer.Print(delta); };
  absl::StatusOr<GenerateResult> result = engine.Generate(request, callbacks);
  printer.Finish();
  if (!result.ok()) return result.status();
  PrintTimings(*result);
  if (result->finish == FinishReason::kContextFull) {
    std::fprintf(stderr, "cpubrrr: the context of %u tokens is full (raise -c)\n",
                 engine.context_length());
  }
  return result;
}

}  // namespace

absl::Status RunCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  absl::StatusOr<std::string> prompt = ReadPrompt(options);
  if (!prompt.ok()) return prompt.status();
  absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(options, architectures);
  if (!engine.ok()) return engine.status();
  GenerateRequest request = BaseRequest(options);
  if (options.raw) {
    request.raw_prompt = *prompt;
  } else {
    request.chat.messages.push_back({.role = "user", .content = *prompt});
  }
  return Answer(**engine, request).status();
}

absl::Status ChatCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(options, architectures);
  if (!engine.ok()) return engine.status();
  const bool interactive = isatty(0);
  if (interactive) std::fprintf(stderr, "chat: /exit to quit, /reset to start over\n");
  const GenerateRequest base = BaseRequest(options);
  GenerateRequest request = base;
  std::string line;
  for (;;) {
    if (interactive) std::fputs("> ", stderr);
    if (!std::getline(std::cin, line) || line == "/exit") break;
    if (line == "/reset") {
      request = base;
      (*engine)->Reset();
      std::fprintf(stderr, "chat: conversation reset\n");
      continue;
    }
    if (line.empty()) continue;
    request.chat.messages.push_back({.role = "user", .content = line});
    absl::StatusOr<GenerateResult> result = Answer(**engine, request);
    if (absl::IsOutOfRange(result.status())) {
      // The conversation no longer fits the context: say so and keep what came before.
      std::fprintf(stderr, "cpubrrr: %s; the message was dropped (/reset starts over)\n",
                   std::string(result.status().message()).c_str());
      request.chat.messages.pop_back();
      continue;
    }
    if (!result.ok()) return result.status();
    request.chat.messages.push_back(result->message);
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

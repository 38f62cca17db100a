// Names of finish reasons and token rates.
#include "runtime/engine/generation.h"

namespace cpubrrr {

const char* FinishReasonName(FinishReason reason) {
  switch (reason) {
    case FinishReason::kStopToken:
      return "stop";
    case FinishReason::kStopString:
      return "stop string";
    case FinishReason::kMaxTokens:
      return "length";
    case FinishReason::kContextFull:
      return "context full";
    case FinishReason::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

double GenerateTimings::PromptTokensPerSecond() const {
  const uint32_t evaluated = prompt_tokens - reused_tokens;
  return evaluated > 0 && prompt_seconds > 0 ? evaluated / prompt_seconds : 0;
}

double GenerateTimings::GenerationTokensPerSecond() const {
  return generated_tokens > 0 && generation_seconds > 0 ? generated_tokens / generation_seconds
                                                        : 0;
}

}  // namespace cpubrrr

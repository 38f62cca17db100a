// What a generation is asked for, what it streams and what it returns.
#ifndef CPUBRRR_RUNTIME_ENGINE_GENERATION_H_
#define CPUBRRR_RUNTIME_ENGINE_GENERATION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/chat/chat_delta.h"
#include "runtime/chat/chat_types.h"
#include "runtime/sampler/sampler.h"
#include "runtime/sampler/sampler_params.h"

namespace cpubrrr {

struct GenerateRequest {
  ChatRequest chat;                       // rendered with the model's chat template
  std::optional<std::string> raw_prompt;  // instead of `chat`: text with specials parsed,
                                          // output not parsed (all of it is content)
  SamplerParams sampling;
  int32_t max_tokens = -1;                // < 0: until a stop or the context is full
  std::vector<std::string> stop;          // stop strings, matched on the generated text
  bool ignore_eos = false;                // never sample an end-of-turn token
};

enum class FinishReason {
  kStopToken,    // the model ended its turn
  kStopString,   // a stop string matched
  kMaxTokens,    // max_tokens generated
  kContextFull,  // the session's context has no room for another token
  kCancelled,    // the caller's cancel check said so
};

// Returns "stop", "stop string", "length", "context full" or "cancelled".
const char* FinishReasonName(FinishReason reason);

struct GenerateTimings {
  uint32_t prompt_tokens = 0;     // the whole prompt
  uint32_t reused_tokens = 0;     // prompt tokens already in the KV cache (not evaluated)
  double prompt_seconds = 0;      // prefill of the other prompt tokens
  uint32_t generated_tokens = 0;  // sampled tokens, the stop token included
  double generation_seconds = 0;

  // Returns evaluated prompt tokens per second (0 when none were evaluated).
  double PromptTokensPerSecond() const;
  // Returns generated tokens per second.
  double GenerationTokensPerSecond() const;
};

struct GenerateResult {
  ChatMessage message;  // role "assistant": content, reasoning, tool calls
  FinishReason finish = FinishReason::kStopToken;
  GenerateTimings timings;
  std::vector<int32_t> tokens;  // the sampled ids
};

struct GenerateCallbacks {
  std::function<void(const ChatDelta&)> on_delta;           // each non-empty delta
  std::function<void(const SampleResult&)> on_token;        // each sampled token
  // Once the prompt is evaluated, before the first token: its prompt fields filled.
  std::function<void(const GenerateTimings&)> on_prompt;
  std::function<bool()> cancelled;                          // checked before each token
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_GENERATION_H_

// The generation engine shared by the driver and the server: a model, its tokenizer and
// chat format, and one session whose KV cache carries over between turns.
#ifndef CPUBRRR_RUNTIME_ENGINE_ENGINE_H_
#define CPUBRRR_RUNTIME_ENGINE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/model/model.h"
#include "runtime/engine/chat_format.h"
#include "runtime/engine/generation.h"
#include "runtime/engine/prompt_tokenizer.h"
#include "runtime/tokenizer/bpe_tokenizer.h"

namespace cpubrrr {

struct EngineOptions {
  uint32_t context_length = 0;  // 0: the model's choice (see Model::NewSession)
  uint32_t batch_size = 512;    // prompt tokens per Forward call during prefill
};

// Not thread-safe: one generation at a time.
class Engine {
 public:
  // Takes the chat format from model->info().architecture and opens a session. Fails when
  // the tokenizer lacks the format's stop tokens or has more tokens than the model has
  // logits.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(std::unique_ptr<Model> model,
                                                        std::unique_ptr<BpeTokenizer> tokenizer,
                                                        const EngineOptions& options);

  // Returns the prompt ids of `request` (its chat rendered, or its raw prompt).
  absl::StatusOr<std::vector<int32_t>> TokenizePrompt(const GenerateRequest& request) const;

  // Generates one assistant turn, streaming deltas through `callbacks`. Reuses the cached
  // prefix the prompt shares with the previous call's prompt and output. Fails with
  // OutOfRange when the prompt does not fit the context; running out of context while
  // generating ends with FinishReason::kContextFull instead.
  absl::StatusOr<GenerateResult> Generate(const GenerateRequest& request,
                                          const GenerateCallbacks& callbacks);

  // Evaluates `tokens` from an empty cache and returns the next-token logits.
  absl::StatusOr<std::vector<float>> PromptLogits(absl::Span<const int32_t> tokens);

  // Empties the KV cache.
  void Reset();

  const Model& model() const { return *model_; }
  const BpeTokenizer& tokenizer() const { return *tokenizer_; }
  ChatFormat chat_format() const { return format_; }
  uint32_t context_length() const { return session_->context_length(); }

 private:
  Engine(std::unique_ptr<Model> model, std::unique_ptr<BpeTokenizer> tokenizer, ChatFormat format,
         std::unique_ptr<Session> session, std::vector<int32_t> stop_ids,
         const EngineOptions& options);

  // Makes the cache hold `tokens`, evaluating only what differs from what it holds, and
  // leaves the logits after the last token in logits_. Returns the tokens reused.
  absl::StatusOr<uint32_t> Prefill(absl::Span<const int32_t> tokens);
  bool IsStopToken(int32_t id) const;

  std::unique_ptr<Model> model_;
  std::unique_ptr<BpeTokenizer> tokenizer_;
  ChatFormat format_;
  PromptTokenizer prompt_tokenizer_;
  std::unique_ptr<Session> session_;
  std::vector<int32_t> stop_ids_;
  EngineOptions options_;
  std::vector<int32_t> cached_;  // the tokens in the session's KV cache, in order
  std::vector<float> logits_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_ENGINE_H_

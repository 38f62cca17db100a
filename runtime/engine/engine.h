// The generation engine shared by the driver and the server: a model, its tokenizer and
// chat format, and its slots: sessions whose KV caches carry over between turns.
#ifndef CPUBRRR_RUNTIME_ENGINE_ENGINE_H_
#define CPUBRRR_RUNTIME_ENGINE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/model/model.h"
#include "runtime/engine/chat_format.h"
#include "runtime/engine/generation.h"
#include "runtime/engine/prompt_tokenizer.h"
#include "runtime/sampler/text_constraint.h"
#include "runtime/tokenizer/bpe_tokenizer.h"

namespace cpubrrr {

struct EngineOptions {
  // Positions of each slot (what one conversation can reach, as with llama-server's
  // unified cache); 0: the model's choice for one session (see Model::NewSession), split
  // evenly among the slots.
  uint32_t context_length = 0;
  uint32_t batch_size = 512;  // prompt tokens per Forward call during prefill
  uint32_t slots = 1;         // sessions (llama-server's -np); Generate uses the first
  ChatFormat chat_format = ChatFormat::kHarmony;  // the architecture's family (Architecture::chat_format)
  std::string chat_template;  // the file's tokenizer.chat_template: picks Qwen3-Coder's format
  // What the slots' caches may take together; 0: the memory available now, a cgroup's
  // limit included (AvailableMemoryBytes).
  uint64_t memory_budget = 0;
  // Chat requests that do not say keep earlier turns' reasoning in the prompt
  // (ChatRequest::preserve_reasoning).
  bool preserve_reasoning = false;
};

// A session and the tokens in its KV cache, in order.
struct EngineSlot {
  std::unique_ptr<Session> session;
  std::vector<int32_t> cached;
};

// Not thread-safe: one caller at a time (Generate, or a scheduler driving the slots).
class Engine {
 public:
  // Takes the chat format from options.chat_format and chat_template and opens a session. Fails when
  // the tokenizer lacks the format's stop tokens or has more tokens than the model has
  // logits.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(std::unique_ptr<Model> model,
                                                        std::unique_ptr<BpeTokenizer> tokenizer,
                                                        const EngineOptions& options);

  // Returns the prompt ids of `request` (its chat rendered, or its raw prompt).
  absl::StatusOr<std::vector<int32_t>> TokenizePrompt(const GenerateRequest& request) const;
  // Returns `chat` with what it leaves unset taken from the engine's options
  // (preserve_reasoning), as TokenizePrompt renders it.
  ChatRequest WithDefaults(ChatRequest chat) const;

  // Generates one assistant turn, streaming deltas through `callbacks`. Reuses the cached
  // prefix the prompt shares with the previous call's prompt and output. Fails with
  // OutOfRange when the prompt does not fit the context; running out of context while
  // generating ends with FinishReason::kContextFull instead.
  absl::StatusOr<GenerateResult> Generate(const GenerateRequest& request,
                                          const GenerateCallbacks& callbacks);

  // Evaluates `tokens` from an empty cache and returns the next-token logits.
  absl::StatusOr<std::vector<float>> PromptLogits(absl::Span<const int32_t> tokens);

  // Empties the first slot's KV cache.
  void Reset();

  // Fails with InvalidArgument for an empty prompt, OutOfRange for one longer than a
  // slot's context.
  absl::Status CheckFits(absl::Span<const int32_t> prompt) const;

  // Drops what `slot` caches beyond the longest prefix it shares with `prompt` and can
  // keep, leaving at least the prompt's last token to evaluate; returns that prefix's
  // length.
  uint32_t Reuse(EngineSlot& slot, absl::Span<const int32_t> prompt);

  const Model& model() const { return *model_; }
  Model& model() { return *model_; }
  const BpeTokenizer& tokenizer() const { return *tokenizer_; }
  // What each token spells, for the grammars of required tool calls.
  const TokenTexts& token_texts() const { return token_texts_; }
  ChatFormat chat_format() const { return format_; }
  absl::Span<const int32_t> stop_ids() const { return stop_ids_; }
  uint32_t batch_size() const { return options_.batch_size; }
  // Positions of each slot.
  uint32_t context_length() const { return slots_[0].session->context_length(); }
  size_t slot_count() const { return slots_.size(); }
  EngineSlot& slot(size_t i) { return slots_[i]; }

 private:
  Engine(std::unique_ptr<Model> model, std::unique_ptr<BpeTokenizer> tokenizer, ChatFormat format,
         std::vector<EngineSlot> slots, std::vector<int32_t> stop_ids, const EngineOptions& options);

  // Makes the first slot's cache hold `tokens`, evaluating only what differs from what it
  // holds, and leaves the logits after the last token in logits_. Returns the tokens reused.
  absl::StatusOr<uint32_t> Prefill(absl::Span<const int32_t> tokens);

  std::unique_ptr<Model> model_;
  std::unique_ptr<BpeTokenizer> tokenizer_;
  ChatFormat format_;
  PromptTokenizer prompt_tokenizer_;
  TokenTexts token_texts_;
  std::vector<EngineSlot> slots_;
  std::vector<int32_t> stop_ids_;
  EngineOptions options_;
  std::vector<float> logits_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_ENGINE_H_

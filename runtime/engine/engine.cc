// Slots opened at load; prefill with prefix reuse, then the turn token by token.
#include "runtime/engine/engine.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/gguf/page_in.h"
#include "runtime/engine/turn.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double GiB(uint64_t bytes) { return static_cast<double>(bytes) / (uint64_t{1} << 30); }

// Opens `n` sessions of `each` positions whose caches fit `budget` bytes together. With
// `each` 0, the model's choice for one session is split among them and halved (down to
// kMinDefaultContext) until the caches take at most half the budget.
absl::StatusOr<std::vector<EngineSlot>> OpenSlots(Model& model, uint32_t each, uint32_t n, uint64_t budget) {
  constexpr uint32_t kMinDefaultContext = 2048;
  if (each == 0) {
    each = std::max<uint32_t>(model.DefaultContextLength() / n, 1);
    while (each > kMinDefaultContext && n * model.SessionBytes(each) > budget / 2) each /= 2;
  }
  const uint64_t total = n * model.SessionBytes(each);
  if (total > budget) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "kv cache: cannot allocate %u slot%s of %u positions (%.2f GiB): %.2f GiB of memory is available "
        "(a cgroup limit included); lower -c or -np",
        n, n == 1 ? "" : "s", each, GiB(total), GiB(budget)));
  }
  std::vector<EngineSlot> slots(n);
  for (EngineSlot& slot : slots) {
    absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(each);
    if (!session.ok()) return session.status();
    slot.session = *std::move(session);
  }
  return slots;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(std::unique_ptr<Model> model,
                                                       std::unique_ptr<BpeTokenizer> tokenizer,
                                                       const EngineOptions& options) {
  const ModelInfo& info = model->info();
  const ChatFormat format = ChatFormatOfTemplate(options.chat_format, options.chat_template);
  if (tokenizer->vocab_size() > info.n_vocab) {
    return absl::InvalidArgumentError(absl::StrCat("the tokenizer has ", tokenizer->vocab_size(),
                                                   " tokens but the model only ", info.n_vocab,
                                                   " logits"));
  }
  std::vector<int32_t> stop_ids;
  for (const std::string& text : StopTokenTexts(format)) {
    absl::StatusOr<int32_t> id = FindToken(tokenizer->vocab(), text);
    if (!id.ok()) return id.status();
    stop_ids.push_back(*id);
  }
  uint64_t budget = options.memory_budget != 0 ? options.memory_budget : AvailableMemoryBytes();
  if (budget == 0) budget = UINT64_MAX;  // unknown (no /proc/meminfo): not limited
  absl::StatusOr<std::vector<EngineSlot>> slots =
      OpenSlots(*model, options.context_length, std::max<uint32_t>(options.slots, 1), budget);
  if (!slots.ok()) return slots.status();
  return std::unique_ptr<Engine>(new Engine(std::move(model), std::move(tokenizer), format,
                                            *std::move(slots), std::move(stop_ids), options));
}

Engine::Engine(std::unique_ptr<Model> model, std::unique_ptr<BpeTokenizer> tokenizer,
               ChatFormat format, std::vector<EngineSlot> slots, std::vector<int32_t> stop_ids,
               const EngineOptions& options)
    : model_(std::move(model)),
      tokenizer_(std::move(tokenizer)),
      format_(format),
      prompt_tokenizer_(*tokenizer_),
      token_texts_(TokenTextsOf(*tokenizer_)),
      slots_(std::move(slots)),
      stop_ids_(std::move(stop_ids)),
      options_(options),
      logits_(model_->info().n_vocab) {
  if (options_.batch_size == 0) options_.batch_size = 1;
}

absl::StatusOr<std::vector<int32_t>> Engine::TokenizePrompt(const GenerateRequest& request) const {
  if (request.raw_prompt.has_value()) return prompt_tokenizer_.TokenizeRaw(*request.raw_prompt);
  return prompt_tokenizer_.TokenizeChat(format_, WithDefaults(request.chat));
}

ChatRequest Engine::WithDefaults(ChatRequest chat) const {
  if (!chat.preserve_reasoning.has_value()) chat.preserve_reasoning = options_.preserve_reasoning;
  return chat;
}

void Engine::Reset() {
  slots_[0].cached.clear();
  slots_[0].session->Truncate(0);
}

absl::Status Engine::CheckFits(absl::Span<const int32_t> prompt) const {
  if (prompt.empty()) return absl::InvalidArgumentError("the prompt is empty");
  if (prompt.size() > context_length()) {
    return absl::OutOfRangeError(absl::StrCat("the prompt has ", prompt.size(),
                                              " tokens but the context holds ", context_length(),
                                              " (raise -c)"));
  }
  return absl::OkStatus();
}

uint32_t Engine::Reuse(EngineSlot& slot, absl::Span<const int32_t> prompt) {
  const size_t common =
      std::mismatch(slot.cached.begin(), slot.cached.end(), prompt.begin(), prompt.end()).first -
      slot.cached.begin();
  const uint32_t kept = slot.session->Truncate(static_cast<uint32_t>(std::min(common, prompt.size() - 1)));
  slot.cached.resize(kept);
  return kept;
}

absl::StatusOr<uint32_t> Engine::Prefill(absl::Span<const int32_t> tokens) {
  if (absl::Status fits = CheckFits(tokens); !fits.ok()) return fits;
  EngineSlot& slot = slots_[0];
  const uint32_t reuse = Reuse(slot, tokens);
  for (size_t at = reuse; at < tokens.size(); at += options_.batch_size) {
    const absl::Span<const int32_t> batch = tokens.subspan(at, options_.batch_size);
    if (absl::Status s = model_->Forward(*slot.session, batch, absl::MakeSpan(logits_)); !s.ok()) {
      return s;
    }
    slot.cached.insert(slot.cached.end(), batch.begin(), batch.end());
  }
  // The next turn's prompt renders this answer differently (both templates drop earlier
  // reasoning), so it diverges from the cache right after this prompt.
  slot.session->Checkpoint();
  return reuse;
}

absl::StatusOr<GenerateResult> Engine::Generate(const GenerateRequest& request,
                                                const GenerateCallbacks& callbacks) {
  absl::StatusOr<std::vector<int32_t>> prompt = TokenizePrompt(request);
  if (!prompt.ok()) return prompt.status();

  const auto prefill_start = std::chrono::steady_clock::now();
  absl::StatusOr<uint32_t> reused = Prefill(*prompt);
  if (!reused.ok()) return reused.status();
  const double prompt_seconds = SecondsSince(prefill_start);
  if (callbacks.on_prompt) {
    callbacks.on_prompt({.prompt_tokens = static_cast<uint32_t>(prompt->size()), .reused_tokens = *reused,
                         .prompt_seconds = prompt_seconds});
  }

  EngineSlot& slot = slots_[0];
  Turn turn(request, *tokenizer_, token_texts_, format_, stop_ids_, *prompt, callbacks);
  const auto decode_start = std::chrono::steady_clock::now();
  for (;;) {
    const std::optional<int32_t> token =
        turn.Next(absl::MakeSpan(logits_), slot.session->position() < slot.session->context_length());
    if (!token) break;
    if (absl::Status s = model_->Forward(*slot.session, absl::MakeConstSpan(&*token, 1),
                                         absl::MakeSpan(logits_));
        !s.ok()) {
      return s;
    }
    slot.cached.push_back(*token);
  }
  GenerateResult result = turn.Finish();
  result.timings.prompt_tokens = prompt->size();
  result.timings.reused_tokens = *reused;
  result.timings.prompt_seconds = prompt_seconds;
  result.timings.generation_seconds = SecondsSince(decode_start);
  return result;
}

absl::StatusOr<std::vector<float>> Engine::PromptLogits(absl::Span<const int32_t> tokens) {
  Reset();
  absl::StatusOr<uint32_t> reused = Prefill(tokens);
  if (!reused.ok()) return reused.status();
  return logits_;
}

}  // namespace cpubrrr

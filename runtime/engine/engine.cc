// Prefill with prefix reuse, then sample, decode, stop-match and parse token by token.
#include "runtime/engine/engine.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/sampler/stop_strings.h"
#include "runtime/tokenizer/streaming_decoder.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {
namespace {

// The parser of raw-prompt output: all of it is content.
class ContentOnlyParser : public ChatOutputParser {
 public:
  ChatDelta Feed(std::string_view piece) override { return {.content = std::string(piece)}; }
  ChatDelta Finish() override { return {}; }
  bool done() const override { return false; }
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(std::unique_ptr<Model> model,
                                                       std::unique_ptr<BpeTokenizer> tokenizer,
                                                       const EngineOptions& options) {
  const ModelInfo& info = model->info();
  absl::StatusOr<ChatFormat> format = ChatFormatFor(info.architecture);
  if (!format.ok()) return format.status();
  if (tokenizer->vocab_size() > info.n_vocab) {
    return absl::InvalidArgumentError(absl::StrCat("the tokenizer has ", tokenizer->vocab_size(),
                                                   " tokens but the model only ", info.n_vocab,
                                                   " logits"));
  }
  std::vector<int32_t> stop_ids;
  for (const std::string& text : StopTokenTexts(*format)) {
    absl::StatusOr<int32_t> id = FindToken(tokenizer->vocab(), text);
    if (!id.ok()) return id.status();
    stop_ids.push_back(*id);
  }
  absl::StatusOr<std::unique_ptr<Session>> session = model->NewSession(options.context_length);
  if (!session.ok()) return session.status();
  return std::unique_ptr<Engine>(new Engine(std::move(model), std::move(tokenizer), *format,
                                            *std::move(session), std::move(stop_ids), options));
}

Engine::Engine(std::unique_ptr<Model> model, std::unique_ptr<BpeTokenizer> tokenizer,
               ChatFormat format, std::unique_ptr<Session> session, std::vector<int32_t> stop_ids,
               const EngineOptions& options)
    : model_(std::move(model)),
      tokenizer_(std::move(tokenizer)),
      format_(format),
      prompt_tokenizer_(*tokenizer_),
      session_(std::move(session)),
      stop_ids_(std::move(stop_ids)),
      options_(options),
      logits_(model_->info().n_vocab) {
  if (options_.batch_size == 0) options_.batch_size = 1;
}

absl::StatusOr<std::vector<int32_t>> Engine::TokenizePrompt(const GenerateRequest& request) const {
  if (request.raw_prompt.has_value()) return prompt_tokenizer_.TokenizeRaw(*request.raw_prompt);
  return prompt_tokenizer_.TokenizeChat(format_, request.chat);
}

bool Engine::IsStopToken(int32_t id) const {
  return std::find(stop_ids_.begin(), stop_ids_.end(), id) != stop_ids_.end();
}

void Engine::Reset() {
  cached_.clear();
  session_->Truncate(0);
}

absl::StatusOr<uint32_t> Engine::Prefill(absl::Span<const int32_t> tokens) {
  if (tokens.empty()) return absl::InvalidArgumentError("the prompt is empty");
  if (tokens.size() > session_->context_length()) {
    return absl::OutOfRangeError(absl::StrCat("the prompt has ", tokens.size(),
                                              " tokens but the context holds ",
                                              session_->context_length(), " (raise -c)"));
  }
  // Keep the common prefix, or as much of it as the session can continue from, but
  // evaluate at least the last token to get its logits.
  size_t reuse = std::mismatch(cached_.begin(), cached_.end(), tokens.begin(), tokens.end()).first -
                 cached_.begin();
  reuse = session_->Truncate(static_cast<uint32_t>(std::min(reuse, tokens.size() - 1)));
  cached_.resize(reuse);
  for (size_t at = reuse; at < tokens.size(); at += options_.batch_size) {
    const absl::Span<const int32_t> batch = tokens.subspan(at, options_.batch_size);
    if (absl::Status s = model_->Forward(*session_, batch, absl::MakeSpan(logits_)); !s.ok()) {
      return s;
    }
    cached_.insert(cached_.end(), batch.begin(), batch.end());
  }
  // The next turn's prompt renders this answer differently (both templates drop earlier
  // reasoning), so it diverges from the cache right after this prompt.
  session_->Checkpoint();
  return static_cast<uint32_t>(reuse);
}

absl::StatusOr<GenerateResult> Engine::Generate(const GenerateRequest& request,
                                                const GenerateCallbacks& callbacks) {
  absl::StatusOr<std::vector<int32_t>> prompt = TokenizePrompt(request);
  if (!prompt.ok()) return prompt.status();

  GenerateResult result;
  result.message.role = "assistant";
  result.timings.prompt_tokens = prompt->size();
  const auto prefill_start = std::chrono::steady_clock::now();
  absl::StatusOr<uint32_t> reused = Prefill(*prompt);
  if (!reused.ok()) return reused.status();
  result.timings.reused_tokens = *reused;
  result.timings.prompt_seconds = SecondsSince(prefill_start);

  Sampler sampler(request.sampling);
  for (int32_t id : *prompt) sampler.Accept(id);
  StreamingDecoder decoder(*tokenizer_);
  StopStringMatcher stopper(request.stop);
  std::unique_ptr<ChatOutputParser> parser = request.raw_prompt.has_value()
                                                 ? std::make_unique<ContentOnlyParser>()
                                                 : NewChatOutputParser(format_);
  auto emit = [&](const ChatDelta& delta) {
    if (delta.empty()) return;
    ApplyDelta(delta, result.message);
    if (callbacks.on_delta) callbacks.on_delta(delta);
  };
  // Passes the decoder's and the stop matcher's held-back text on; returns whether a stop
  // string matched in it.
  auto drain = [&]() {
    StopStringMatcher::Result matched = stopper.Feed(decoder.Flush());
    if (!matched.stopped) matched.text += stopper.Flush();
    emit(parser->Feed(matched.text));
    return matched.stopped;
  };

  const auto decode_start = std::chrono::steady_clock::now();
  for (;;) {
    if (callbacks.cancelled && callbacks.cancelled()) {
      result.finish = FinishReason::kCancelled;
      break;
    }
    if (request.max_tokens == 0) {
      result.finish = FinishReason::kMaxTokens;
      break;
    }
    if (request.ignore_eos) {
      for (int32_t id : stop_ids_) logits_[id] = -std::numeric_limits<float>::infinity();
    }
    const SampleResult sample = sampler.Sample(logits_);
    sampler.Accept(sample.token);
    result.tokens.push_back(sample.token);
    if (callbacks.on_token) callbacks.on_token(sample);
    if (IsStopToken(sample.token)) {
      const bool stopped = drain();
      // The parser sees the end marker (it ends a harmony tool call); the text stream does not.
      if (!stopped && !request.raw_prompt.has_value()) {
        emit(parser->Feed(tokenizer_->TokenBytes(sample.token)));
      }
      result.finish = stopped ? FinishReason::kStopString : FinishReason::kStopToken;
      break;
    }
    const StopStringMatcher::Result matched = stopper.Feed(decoder.Push(sample.token));
    emit(parser->Feed(matched.text));
    if (matched.stopped) {
      result.finish = FinishReason::kStopString;
      break;
    }
    if (request.max_tokens >= 0 && result.tokens.size() >= static_cast<size_t>(request.max_tokens)) {
      result.finish = FinishReason::kMaxTokens;
      break;
    }
    if (session_->position() >= session_->context_length()) {
      result.finish = FinishReason::kContextFull;
      break;
    }
    const int32_t token = sample.token;
    if (absl::Status s = model_->Forward(*session_, absl::MakeConstSpan(&token, 1),
                                         absl::MakeSpan(logits_));
        !s.ok()) {
      return s;
    }
    cached_.push_back(token);
  }
  if (result.finish != FinishReason::kStopString && result.finish != FinishReason::kStopToken &&
      drain()) {
    result.finish = FinishReason::kStopString;
  }
  emit(parser->Finish());
  result.timings.generated_tokens = result.tokens.size();
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

// The token loop of one turn: sample, stop on an end token or string, stream and parse.
#include "runtime/engine/turn.h"

#include <algorithm>
#include <limits>
#include <string>

#include "runtime/engine/tool_choice.h"
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

}  // namespace

TokenTexts TokenTextsOf(const BpeTokenizer& tokenizer) {
  std::vector<std::string_view> bytes(tokenizer.vocab_size());
  std::vector<bool> control(tokenizer.vocab_size());
  for (size_t id = 0; id < bytes.size(); ++id) {
    bytes[id] = tokenizer.TokenBytes(static_cast<int32_t>(id));
    control[id] = tokenizer.vocab().token_types[id] == kTokenControl;
  }
  return TokenTexts(std::move(bytes), std::move(control));
}

Turn::Turn(const GenerateRequest& request, const BpeTokenizer& tokenizer, const TokenTexts& token_texts, ChatFormat format,
           absl::Span<const int32_t> stop_ids, absl::Span<const int32_t> prompt,
           const GenerateCallbacks& callbacks)
    : request_(request),
      tokenizer_(tokenizer),
      stop_ids_(stop_ids.begin(), stop_ids.end()),
      callbacks_(callbacks),
      sampler_(request.sampling),
      decoder_(tokenizer),
      stopper_(request.stop),
      parser_(request.raw_prompt.has_value() ? std::make_unique<ContentOnlyParser>()
                                             : NewChatOutputParser(format, request.chat.tools)) {
  for (int32_t id : prompt) sampler_.Accept(id);
  result_.message.role = "assistant";
  if (request.raw_prompt.has_value()) return;
  std::vector<ConstraintPhase> program = ToolCallProgram(format, request.chat);
  if (program.empty()) return;
  constraint_ = std::make_unique<TextConstraint>(std::move(program), token_texts);
}

bool Turn::IsStopToken(int32_t id) const {
  return std::find(stop_ids_.begin(), stop_ids_.end(), id) != stop_ids_.end();
}

void Turn::Emit(const ChatDelta& delta) {
  if (delta.empty()) return;
  ApplyDelta(delta, result_.message);
  if (callbacks_.on_delta) callbacks_.on_delta(delta);
}

bool Turn::Drain() {
  StopStringMatcher::Result matched = stopper_.Feed(decoder_.Flush());
  if (!matched.stopped) matched.text += stopper_.Flush();
  Emit(parser_->Feed(matched.text));
  return matched.stopped;
}

std::optional<int32_t> Turn::Next(absl::Span<float> logits, bool room) {
  auto end = [&](FinishReason reason) -> std::optional<int32_t> {
    result_.finish = reason;
    ended_ = true;
    return std::nullopt;
  };
  if (ended_) return std::nullopt;
  if (callbacks_.cancelled && callbacks_.cancelled()) return end(FinishReason::kCancelled);
  if (request_.max_tokens == 0) return end(FinishReason::kMaxTokens);
  if (request_.ignore_eos) {
    for (int32_t id : stop_ids_) logits[id] = -std::numeric_limits<float>::infinity();
  }
  if (constraint_ != nullptr) constraint_->Mask(std::span<float>(logits.data(), logits.size()));
  const SampleResult sample = sampler_.Sample(logits);
  sampler_.Accept(sample.token);
  if (constraint_ != nullptr) constraint_->Accept(sample.token);
  result_.tokens.push_back(sample.token);
  if (callbacks_.on_token) callbacks_.on_token(sample);
  if (IsStopToken(sample.token)) {
    const bool stopped = Drain();
    // The parser sees the end marker (it ends a harmony tool call); the text stream does not.
    if (!stopped && !request_.raw_prompt.has_value()) {
      Emit(parser_->Feed(tokenizer_.TokenBytes(sample.token)));
    }
    return end(stopped ? FinishReason::kStopString : FinishReason::kStopToken);
  }
  const StopStringMatcher::Result matched = stopper_.Feed(decoder_.Push(sample.token));
  Emit(parser_->Feed(matched.text));
  if (matched.stopped) return end(FinishReason::kStopString);
  if (request_.max_tokens >= 0 && result_.tokens.size() >= static_cast<size_t>(request_.max_tokens)) {
    return end(FinishReason::kMaxTokens);
  }
  if (!room) return end(FinishReason::kContextFull);
  return sample.token;
}

void Turn::Cancel() {
  result_.finish = FinishReason::kCancelled;
  ended_ = true;
}

GenerateResult Turn::Finish() {
  if (result_.finish != FinishReason::kStopString && result_.finish != FinishReason::kStopToken &&
      Drain()) {
    result_.finish = FinishReason::kStopString;
  }
  Emit(parser_->Finish());
  result_.timings.generated_tokens = result_.tokens.size();
  return std::move(result_);
}

}  // namespace cpubrrr

// One assistant turn after its prompt: sampling, streaming decode, stop strings and the
// output parser, token by token, for whoever runs the model (the engine, the scheduler).
#ifndef CPUBRRR_RUNTIME_ENGINE_TURN_H_
#define CPUBRRR_RUNTIME_ENGINE_TURN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "runtime/chat/chat_delta.h"
#include "runtime/engine/chat_format.h"
#include "runtime/engine/generation.h"
#include "runtime/sampler/sampler.h"
#include "runtime/sampler/stop_strings.h"
#include "runtime/sampler/text_constraint.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/streaming_decoder.h"

namespace cpubrrr {

// What each token of `tokenizer` spells, control tokens marked; views into the tokenizer.
TokenTexts TokenTextsOf(const BpeTokenizer& tokenizer);

}  // namespace cpubrrr

namespace cpubrrr {

class Turn {
 public:
  // `request`, `tokenizer`, `token_texts` (the tokenizer's, for a required tool call's
  // grammar) and `callbacks` must outlive the turn; the sampler sees `prompt` as the
  // history (for penalties).
  Turn(const GenerateRequest& request, const BpeTokenizer& tokenizer, const TokenTexts& token_texts, ChatFormat format,
       absl::Span<const int32_t> stop_ids, absl::Span<const int32_t> prompt,
       const GenerateCallbacks& callbacks);

  // Samples a token from `logits` (the next-token logits after the prompt or the last
  // token returned; changed in place by ignore_eos and a required tool call's grammar) and streams its text. Returns the
  // token to run next, or nullopt when the turn has ended: a stop, max_tokens, the
  // caller's cancel check, or no `room` in the session for another position.
  std::optional<int32_t> Next(absl::Span<float> logits, bool room);

  // Ends the turn as cancelled (for a caller that stops it between calls to Next).
  void Cancel();

  // Passes on the text still held back and returns the message, the tokens and the finish
  // reason (timings are the caller's). Call once, after Next returned nullopt or Cancel.
  GenerateResult Finish();

 private:
  bool IsStopToken(int32_t id) const;
  void Emit(const ChatDelta& delta);
  // Passes the decoder's and the stop matcher's held-back text on; returns whether a stop
  // string matched in it.
  bool Drain();

  const GenerateRequest& request_;
  const BpeTokenizer& tokenizer_;
  std::vector<int32_t> stop_ids_;
  const GenerateCallbacks& callbacks_;
  Sampler sampler_;
  StreamingDecoder decoder_;
  StopStringMatcher stopper_;
  std::unique_ptr<ChatOutputParser> parser_;
  std::unique_ptr<TextConstraint> constraint_;  // when a tool call is required
  GenerateResult result_;
  bool ended_ = false;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_TURN_H_

// Turns a stream of token ids into text pieces that never split a UTF-8 character.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_STREAMING_DECODER_H_
#define CPUBRRR_RUNTIME_TOKENIZER_STREAMING_DECODER_H_

#include <cstdint>
#include <string>

#include "runtime/tokenizer/bpe_tokenizer.h"

namespace cpubrrr {

// Holds back the bytes of an unfinished UTF-8 character until a later token completes
// it. Bytes that can never start or continue a valid character are passed through
// unchanged, so the pieces always concatenate to BpeTokenizer::Decode of all ids.
class StreamingDecoder {
 public:
  // Keeps a reference to `tokenizer`, which must outlive the decoder.
  explicit StreamingDecoder(const BpeTokenizer& tokenizer, bool render_special = true)
      : tokenizer_(tokenizer), render_special_(render_special) {}

  // Adds token `id` and returns the bytes that are now complete (possibly empty).
  std::string Push(int32_t id);

  // Returns the held-back bytes (an unfinished character at the end of the stream).
  std::string Flush();

 private:
  const BpeTokenizer& tokenizer_;
  bool render_special_;
  std::string pending_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_STREAMING_DECODER_H_

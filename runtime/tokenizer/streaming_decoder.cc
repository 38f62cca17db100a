// Streaming decode: emit the complete UTF-8 prefix, keep the open tail.
#include "runtime/tokenizer/streaming_decoder.h"

#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {

std::string StreamingDecoder::Push(int32_t id) {
  pending_.append(tokenizer_.TokenBytes(id, render_special_));
  const size_t complete = CompleteUtf8Prefix(pending_);
  std::string out = pending_.substr(0, complete);
  pending_.erase(0, complete);
  return out;
}

std::string StreamingDecoder::Flush() {
  std::string out;
  out.swap(pending_);
  return out;
}

}  // namespace cpubrrr

// libFuzzer target: the tokenizers of both trained models (gpt-4o and qwen2 pre-tokenizers)
// on any bytes, with and without special parsing, and decoding of any ids, out of range
// included. The first byte picks the model and the mode.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/streaming_decoder.h"
#include "runtime/tokenizer/utf8.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

std::unique_ptr<cpubrrr::BpeTokenizer> tokenizers[2];

std::unique_ptr<cpubrrr::BpeTokenizer> Load(const char* path) {
  absl::StatusOr<cpubrrr::GgufFile> file = cpubrrr::OpenGguf(path);
  FuzzCheck(file.ok(), "cannot open a trained model (run from the runfiles root)");
  absl::StatusOr<std::unique_ptr<cpubrrr::BpeTokenizer>> tokenizer = cpubrrr::TokenizerFromGguf(*file);
  FuzzCheck(tokenizer.ok(), "no tokenizer in a trained model");
  return *std::move(tokenizer);
}

// Encodes `text` and checks the ids are in range and decode back to it (valid UTF-8 only:
// the tokenizer reads each invalid byte as U+FFFD).
void CheckEncode(const cpubrrr::BpeTokenizer& tokenizer, std::string_view text, bool parse_special) {
  const std::vector<int32_t> ids = tokenizer.Encode(text, /*add_special=*/false, parse_special);
  for (int32_t id : ids) FuzzCheck(id >= 0 && static_cast<size_t>(id) < tokenizer.vocab_size(), "id out of range");
  if (cpubrrr::IsValidUtf8(text)) FuzzCheck(tokenizer.Decode(ids) == text, "decode(encode(text)) != text");
}

// Decodes any ids whole and streamed; the streamed pieces must concatenate to the whole.
void CheckDecode(const cpubrrr::BpeTokenizer& tokenizer, std::string_view bytes) {
  std::vector<int32_t> ids(bytes.size() / 4);
  if (!ids.empty()) std::memcpy(ids.data(), bytes.data(), ids.size() * 4);
  for (bool render_special : {false, true}) {
    const std::string whole = tokenizer.Decode(ids, render_special);
    cpubrrr::StreamingDecoder decoder(tokenizer, render_special);
    std::string streamed;
    for (int32_t id : ids) streamed += decoder.Push(id);
    streamed += decoder.Flush();
    FuzzCheck(streamed == whole, "streamed decode differs from the whole decode");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tokenizers[0] = Load("models/trained/gpt-oss-tiny-brown.gguf");
  tokenizers[1] = Load("models/trained/qwen3moe-tiny-brown.gguf");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const cpubrrr::BpeTokenizer& tokenizer = *tokenizers[data[0] & 1];
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  switch ((data[0] >> 1) % 3) {
    case 0: CheckEncode(tokenizer, rest, false); break;
    case 1: CheckEncode(tokenizer, rest, true); break;
    default: CheckDecode(tokenizer, rest); break;
  }
  return 0;
}

// Random splitting of parser input for split-invariance tests.
#include "runtime/chat/parser_test_util.h"

namespace cpubrrr {
namespace {

// SplitMix64: a tiny generator whose sequence is the same everywhere.
uint64_t Next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

ChatMessage ParseInPieces(const ParserFactory& make, std::string_view text, uint64_t seed) {
  std::unique_ptr<ChatOutputParser> parser = make();
  ChatMessage message;
  message.role = "assistant";
  uint64_t state = seed;
  for (size_t i = 0; i < text.size();) {
    size_t n = seed == 0 ? 1 : 1 + Next(state) % 12;
    ApplyDelta(parser->Feed(text.substr(i, n)), message);
    i += n;
  }
  ApplyDelta(parser->Finish(), message);
  return message;
}

std::string RandomText(const std::vector<std::string>& alphabet, int pieces, uint64_t seed) {
  uint64_t state = seed;
  std::string out;
  for (int i = 0; i < pieces; ++i) out += alphabet[Next(state) % alphabet.size()];
  return out;
}

}  // namespace cpubrrr

// libFuzzer target: the harmony, Qwen3 and Qwen3-Coder output parsers on any bytes, fed
// whole and in pieces split anywhere; the parsed message must not depend on the split.
// The first byte picks the format, the second seeds the piece sizes.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string_view>
#include <vector>

#include "runtime/chat/chat_delta.h"
#include "runtime/engine/chat_format.h"
#include "tests/fuzz/chat_formats.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// A tool with typed parameters, so Qwen3-Coder's XML calls are converted by its schema.
const std::vector<nlohmann::ordered_json>& Tools() {
  static const auto* tools = new std::vector<nlohmann::ordered_json>{nlohmann::ordered_json::parse(R"({
    "type": "function", "function": {"name": "get", "parameters": {"type": "object", "properties": {
      "n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
      "s": {"type": "string"}, "a": {"type": "array"}, "o": {"type": "object"}}}}})")};
  return *tools;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const cpubrrr::ChatFormat format = kAllChatFormats[data[0] % std::size(kAllChatFormats)];
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  std::unique_ptr<cpubrrr::ChatOutputParser> whole_parser = cpubrrr::NewChatOutputParser(format, Tools());
  const cpubrrr::ChatMessage whole = cpubrrr::ParseWhole(*whole_parser, text);

  std::unique_ptr<cpubrrr::ChatOutputParser> parser = cpubrrr::NewChatOutputParser(format, Tools());
  cpubrrr::ChatMessage pieces;
  pieces.role = "assistant";
  uint32_t state = data[1] * 2654435761u + 1;
  for (size_t at = 0; at < text.size();) {
    state = state * 1103515245u + 12345u;
    const size_t n = std::min<size_t>(1 + (state >> 16) % 9, text.size() - at);
    cpubrrr::ApplyDelta(parser->Feed(text.substr(at, n)), pieces);
    at += n;
  }
  cpubrrr::ApplyDelta(parser->Finish(), pieces);
  FuzzCheck(pieces == whole, "the message depends on where the pieces split");
  return 0;
}

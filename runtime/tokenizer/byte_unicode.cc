// Builds GPT-2's byte <-> character tables once and looks bytes and characters up.
#include "runtime/tokenizer/byte_unicode.h"

#include <array>

#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

// Code points 0..0x17F cover every character of the map (the last is U+0143).
constexpr uint32_t kMaxMappedCodePoint = 0x180;

struct ByteTables {
  std::array<std::string, 256> to_unicode;
  std::array<int16_t, kMaxMappedCodePoint> to_byte;  // -1 where no byte maps
};

// Returns true for the bytes GPT-2 keeps as their own Latin-1 character.
bool IsSelfMapped(int b) {
  return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

const ByteTables& Tables() {
  static const ByteTables* tables = [] {
    auto* t = new ByteTables;
    t->to_byte.fill(-1);
    uint32_t next_extra = 0x100;
    for (int b = 0; b < 256; ++b) {
      const uint32_t cp = IsSelfMapped(b) ? static_cast<uint32_t>(b) : next_extra++;
      AppendUtf8(cp, &t->to_unicode[b]);
      t->to_byte[cp] = static_cast<int16_t>(b);
    }
    return t;
  }();
  return *tables;
}

}  // namespace

const std::string& ByteToUnicode(uint8_t b) { return Tables().to_unicode[b]; }

bool UnicodeToBytes(std::string_view text, std::string* out) {
  const ByteTables& t = Tables();
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t n = Utf8SequenceLength(text, pos);
    if (n == 0 || n > 2) return false;  // every mapped character is 1 or 2 bytes long
    uint32_t cp = static_cast<uint8_t>(text[pos]);
    if (n == 2) cp = ((cp & 0x1F) << 6) | (static_cast<uint8_t>(text[pos + 1]) & 0x3F);
    if (cp >= kMaxMappedCodePoint || t.to_byte[cp] < 0) return false;
    out->push_back(static_cast<char>(t.to_byte[cp]));
    pos += n;
  }
  return true;
}

}  // namespace cpubrrr

// UTF-8 validation after the Unicode standard's table of well-formed byte sequences.
#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

// Returns the sequence length a lead byte announces (0 for bytes that cannot lead).
size_t LeadLength(uint8_t b) {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;
}

// Returns true when `b` may follow `lead` as the second byte of a sequence; the ranges
// exclude overlong forms, surrogates and code points above U+10FFFF.
bool ValidSecondByte(uint8_t lead, uint8_t b) {
  switch (lead) {
    case 0xE0: return b >= 0xA0 && b <= 0xBF;
    case 0xED: return b >= 0x80 && b <= 0x9F;
    case 0xF0: return b >= 0x90 && b <= 0xBF;
    case 0xF4: return b >= 0x80 && b <= 0x8F;
    default: return b >= 0x80 && b <= 0xBF;
  }
}

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

}  // namespace

size_t Utf8SequenceLength(std::string_view text, size_t pos) {
  const uint8_t lead = static_cast<uint8_t>(text[pos]);
  const size_t n = LeadLength(lead);
  if (n <= 1) return n;
  if (pos + n > text.size()) return 0;
  if (!ValidSecondByte(lead, static_cast<uint8_t>(text[pos + 1]))) return 0;
  for (size_t i = 2; i < n; ++i) {
    if (!IsContinuation(static_cast<uint8_t>(text[pos + i]))) return 0;
  }
  return n;
}

bool IsValidUtf8(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    if (static_cast<uint8_t>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const size_t n = Utf8SequenceLength(text, pos);
    if (n == 0) return false;
    pos += n;
  }
  return true;
}

std::string ReplaceInvalidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t n = Utf8SequenceLength(text, pos);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++pos;
    } else {
      out.append(text.substr(pos, n));
      pos += n;
    }
  }
  return out;
}

size_t CompleteUtf8Prefix(std::string_view bytes) {
  const size_t size = bytes.size();
  // A sequence is at most 4 bytes, so only a lead within the last 3 bytes can be open.
  for (size_t back = 1; back <= 3 && back <= size; ++back) {
    const size_t start = size - back;
    const uint8_t lead = static_cast<uint8_t>(bytes[start]);
    if (IsContinuation(lead)) continue;
    const size_t n = LeadLength(lead);
    if (n <= back) return size;  // ASCII, invalid lead, or a sequence already complete
    if (back >= 2 && !ValidSecondByte(lead, static_cast<uint8_t>(bytes[start + 1]))) {
      return size;
    }
    return start;
  }
  return size;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace cpubrrr

// GPT-2's reversible map between the 256 byte values and printable Unicode characters.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_BYTE_UNICODE_H_
#define CPUBRRR_RUNTIME_TOKENIZER_BYTE_UNICODE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace cpubrrr {

// Returns the UTF-8 text of the character that byte-level BPE vocabularies use for `b`.
// Printable Latin-1 bytes stand for themselves; the other 68 bytes become U+0100 onwards
// in increasing byte order.
const std::string& ByteToUnicode(uint8_t b);

// Appends the bytes that the characters of `text` (a byte-level vocabulary entry) stand
// for to `out`. Returns false, leaving `out` partly extended, when `text` holds a
// character outside the map or invalid UTF-8.
bool UnicodeToBytes(std::string_view text, std::string* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_BYTE_UNICODE_H_

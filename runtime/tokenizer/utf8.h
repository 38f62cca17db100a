// UTF-8 helpers for tokenization: validation, replacement of invalid bytes, boundaries.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_UTF8_H_
#define CPUBRRR_RUNTIME_TOKENIZER_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cpubrrr {

// Returns the length (1..4) of the well-formed UTF-8 sequence starting at `text[pos]`,
// or 0 when none starts there (stray continuation byte, bad lead byte, truncated or
// overlong sequence, surrogate, code point above U+10FFFF). Requires pos < size.
size_t Utf8SequenceLength(std::string_view text, size_t pos);

// Returns true when every byte of `text` belongs to a well-formed UTF-8 sequence.
bool IsValidUtf8(std::string_view text);

// Returns `text` with every byte that does not start or belong to a well-formed sequence
// replaced by U+FFFD (one replacement per byte, as llama.cpp's decoder does).
std::string ReplaceInvalidUtf8(std::string_view text);

// Returns the length of the longest prefix of `bytes` that does not end inside a UTF-8
// sequence which more bytes could still complete. Bytes that can never become valid
// count as complete, so a caller holding back the rest never waits on them.
size_t CompleteUtf8Prefix(std::string_view bytes);

// Appends the UTF-8 encoding of code point `cp` (at most U+10FFFF) to `out`.
void AppendUtf8(uint32_t cp, std::string* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_UTF8_H_

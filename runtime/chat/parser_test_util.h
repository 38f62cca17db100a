// Test helpers for streaming parsers: feeding text split at random points.
#ifndef CPUBRRR_RUNTIME_CHAT_PARSER_TEST_UTIL_H_
#define CPUBRRR_RUNTIME_CHAT_PARSER_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/chat/chat_delta.h"

namespace cpubrrr {

using ParserFactory = std::function<std::unique_ptr<ChatOutputParser>()>;

// Feeds `text` in pieces cut at pseudo-random points drawn from `seed` (seed 0: one byte
// at a time), finishes, and returns the accumulated assistant message.
ChatMessage ParseInPieces(const ParserFactory& make, std::string_view text, uint64_t seed);

// Returns a pseudo-random string of `pieces` fragments drawn from `alphabet`.
std::string RandomText(const std::vector<std::string>& alphabet, int pieces, uint64_t seed);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_PARSER_TEST_UTIL_H_

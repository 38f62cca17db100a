// A tiny byte-level vocabulary with the harmony and ChatML special tokens, for tests.
#ifndef CPUBRRR_RUNTIME_ENGINE_TEST_VOCAB_H_
#define CPUBRRR_RUNTIME_ENGINE_TEST_VOCAB_H_

#include <memory>

#include "runtime/tokenizer/bpe_tokenizer.h"

namespace cpubrrr {

// Returns a tokenizer whose ids 0..255 are the byte tokens (id b is byte b), followed by
// a few merges, the harmony and ChatML control tokens and the user-defined <think> and
// </think>.
std::unique_ptr<BpeTokenizer> TestTokenizer();

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_TEST_VOCAB_H_

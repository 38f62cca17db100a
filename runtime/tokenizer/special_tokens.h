// Finds control and user-defined tokens written in text, before pre-tokenization.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_SPECIAL_TOKENS_H_
#define CPUBRRR_RUNTIME_TOKENIZER_SPECIAL_TOKENS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cpubrrr {

// A piece of input: either text still to tokenize (id < 0) or one special token.
struct TextFragment {
  std::string_view text;
  int32_t id;
};

// Splits text at occurrences of special token texts.
class SpecialTokenSplitter {
 public:
  // Takes the control (kTokenControl) and user-defined (kTokenUserDefined) tokens of
  // `tokens`/`types`; empty texts are ignored.
  SpecialTokenSplitter(const std::vector<std::string>& tokens,
                       const std::vector<int32_t>& types);

  // Returns the fragments of `text` in order. User-defined tokens are always matched;
  // control tokens only when `parse_special` (llama.cpp's rule). Tokens are matched
  // longest first over the whole text (ties: lower id first), like llama.cpp, so a
  // longer token wins over a shorter one that overlaps it.
  std::vector<TextFragment> Split(std::string_view text, bool parse_special) const;

 private:
  struct Special {
    std::string text;
    int32_t id;
    bool control;
  };
  std::vector<Special> specials_;  // longest first
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_SPECIAL_TOKENS_H_

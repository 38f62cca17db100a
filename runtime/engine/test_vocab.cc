// The tiny test vocabulary: bytes, a few merges, harmony and ChatML specials.
#include "runtime/engine/test_vocab.h"

#include "gtest/gtest.h"
#include "runtime/tokenizer/byte_unicode.h"

namespace cpubrrr {

std::unique_ptr<BpeTokenizer> TestTokenizer() {
  BpeVocab v;
  for (int b = 0; b < 256; ++b) v.tokens.push_back(ByteToUnicode(b));
  for (const char* t : {"He", "ll", "Hell", "Hello"}) v.tokens.push_back(t);
  v.merges = {"H e", "l l", "He ll", "Hell o"};
  v.token_types.assign(v.tokens.size(), kTokenNormal);
  for (const char* t : {"<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|return|>",
                        "<|call|>", "<|constrain|>", "<|endoftext|>", "<|im_start|>",
                        "<|im_end|>"}) {
    v.tokens.push_back(t);
    v.token_types.push_back(kTokenControl);
  }
  for (const char* t : {"<think>", "</think>"}) {
    v.tokens.push_back(t);
    v.token_types.push_back(kTokenUserDefined);
  }
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> t = BpeTokenizer::Create(v, {"qwen2"});
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

}  // namespace cpubrrr

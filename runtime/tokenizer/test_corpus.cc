// Test-only corpus: Brown corpus reader and a seeded generator of hard tokenizer inputs.
#include "runtime/tokenizer/test_corpus.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

namespace cpubrrr {
namespace {

// Returns the text of a tagged Brown line: "word/tag word/tag" -> "word word".
std::string StripTags(const std::string& line) {
  std::istringstream in(line);
  std::string out;
  for (std::string item; in >> item;) {
    const size_t slash = item.rfind('/');
    if (slash != std::string::npos && slash > 0) item.resize(slash);
    if (!out.empty()) out += ' ';
    out += item;
  }
  return out;
}

// Fragments the generator strings together; each is valid UTF-8.
const char* const kFragments[] = {
    "int main(int argc, char** argv) {\n  return 0;\n}",
    "for (size_t i = 0; i < n; ++i) { sum += a[i] * b[i]; }",
    "def f(x):\n    return x ** 2  # square\n",
    "if (x != nullptr && *x >= 0x7fff) y = x->next;",
    "const re = /^[a-z]+$/gi; console.log(`${a}/${b}`);",
    "SELECT id, name FROM users WHERE age > 42;",
    "https://example.com/path/to/page?query=1&x=2#frag",
    "C:\\Users\\me\\file.txt", "a/b/c//d///", "<div class=\"x\">&amp;</div>",
    "3.14159", "1234567890", "-0.5e-10", "1,000,000", "$12.99", "42%", "٣٤٥", "१२३",
    "½ ¾ ²³", "2024-06-01T12:34:56Z", "v1.2.3-rc4",
    "😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷🇯🇵", "❤️", "🤖🧠", "✨🔥💯",
    "日本語のテキストです。", "中文分词测试，标点符号！", "한국어 문장입니다.", "カタカナ",
    "العربية لغة جميلة", "שלום עולם", "مرحبا بالعالم ١٢٣",
    "cafe\xCC\x81", "e\xCC\x81\xCC\x82", "n\xCC\x83o", "a\xCC\x8A", "\xE0\xA4\xA8\xE0\xA4\xBF",
    "हिन्दी भाषा", "ภาษาไทย", "Ελληνικά", "Привет мир",
    "ПриветМИР", "ΑΒΓδεζ", "ÀÉÎõü", "ǅungla", "ﬁnance", "Straße", "İstanbul", "ǈ",
    "don't", "I'M", "we'LL", "they'Re", "it'S", "'s'", "O'Neil's", "x'ſ", "'\xE2\x84\xAA",
    "<|start|>", "<|end|>", "<|message|>", "<|im_start|>", "<|im_end|>", "<think>",
    "</think>", "<|endoftext|>", "<tool_call>", "<|channel|>final",
    "    ", "\t\t", "\n\n\n", "\r\n", " \n ", "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\x83 ",
    "\xE2\x80\x8B", "\xC2\xAD", "\xEF\xBF\xBD", "\x7F", "\x01\x02", "...", "!!!", "?!",
    "--", "—", "“quoted”", "«guillemets»", "(parens)", "[brackets]", "{braces}",
    "HelloWorld", "camelCaseWord", "SCREAMING_SNAKE", "snake_case_name", "x86_64",
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "tokenization",
    "antidisestablishmentarianism", "supercalifragilisticexpialidocious",
};

// Invalid UTF-8 pieces llama.cpp replaces byte by byte: stray continuation bytes,
// truncated sequences, bytes that never lead.
const char* const kInvalid[] = {
    "\x80", "\xBF\xBF", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xFF", "\xFE\xFF", "\xC3(",
    "\xE2(\xA1", "\xF8\x88\x80\x80\x80",
};

}  // namespace

std::vector<std::string> BrownLines(const std::string& dir, size_t max_lines) {
  std::vector<std::string> lines;
  size_t seen = 0;
  for (char category = 'a'; category <= 'r'; ++category) {
    for (int number = 1; number <= 99; ++number) {
      char name[8];
      std::snprintf(name, sizeof(name), "c%c%02d", category, number);
      std::ifstream in(dir + "/" + name);
      if (!in) continue;
      for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        lines.push_back(seen++ % 4 == 3 ? line : StripTags(line));
        if (lines.size() == max_lines) return lines;
      }
    }
  }
  return lines;
}

std::vector<std::string> GeneratedLines(size_t n) {
  std::mt19937 rng(20240601);
  const size_t n_fragments = sizeof(kFragments) / sizeof(kFragments[0]);
  const size_t n_invalid = sizeof(kInvalid) / sizeof(kInvalid[0]);
  const char* const separators[] = {" ", " ", " ", "", "\n", "  ", "\t", ", "};
  std::vector<std::string> lines;
  lines.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::string line;
    const int pieces = 1 + static_cast<int>(rng() % 12);
    for (int p = 0; p < pieces; ++p) {
      if (p > 0) line += separators[rng() % 8];
      line += kFragments[rng() % n_fragments];
      if (i % 10 == 7 && rng() % 3 == 0) line += kInvalid[rng() % n_invalid];
    }
    if (i % 50 == 11) line += std::string(1 + rng() % 300, " \t\n"[rng() % 3]);
    if (i % 97 == 5) line.append(200 + rng() % 2000, 'a' + rng() % 26);
    lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<std::string> ComparisonCorpus(const std::string& brown_dir) {
  std::vector<std::string> lines = BrownLines(brown_dir, 16000);
  for (std::string& line : GeneratedLines(6000)) lines.push_back(std::move(line));
  return lines;
}

}  // namespace cpubrrr

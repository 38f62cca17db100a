// Test-only: the tokenizer comparison corpus (Brown corpus lines plus generated lines).
#ifndef CPUBRRR_RUNTIME_TOKENIZER_TEST_CORPUS_H_
#define CPUBRRR_RUNTIME_TOKENIZER_TEST_CORPUS_H_

#include <cstddef>
#include <string>
#include <vector>

namespace cpubrrr {

// Returns up to `max_lines` non-empty lines of the Brown corpus files in `dir` (ca01 ..
// cr09, in order). Three of every four have their "/tag" suffixes stripped and spacing
// collapsed (plain English); the fourth is kept raw, tags, tab indent and all.
std::vector<std::string> BrownLines(const std::string& dir, size_t max_lines);

// Returns `n` deterministic lines (fixed seed) mixing code, numbers, emoji, CJK, RTL
// scripts, combining marks, mixed-case non-ASCII words, contractions, special-token
// texts, long whitespace runs and, in some lines, invalid UTF-8.
std::vector<std::string> GeneratedLines(size_t n);

// Returns 16,000 Brown lines followed by 6,000 generated lines.
std::vector<std::string> ComparisonCorpus(const std::string& brown_dir);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_TEST_CORPUS_H_

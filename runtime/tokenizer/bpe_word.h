// Applies BPE merges to one pre-tokenized word, lowest rank first, in O(n log n).
#ifndef CPUBRRR_RUNTIME_TOKENIZER_BPE_WORD_H_
#define CPUBRRR_RUNTIME_TOKENIZER_BPE_WORD_H_

#include <cstdint>
#include <vector>

#include "runtime/tokenizer/bpe_merges.h"

namespace cpubrrr {

// Reusable buffers for MergeWord, so encoding many words allocates only once.
struct BpeScratch {
  struct Symbol {
    int32_t id;
    int32_t prev;  // index of the previous live symbol, -1 at the start
    int32_t next;  // index of the next live symbol, -1 at the end
  };
  struct Candidate {
    int32_t rank;
    int32_t left;      // index of the left symbol
    int32_t left_id;   // ids when the candidate was queued; stale if either changed
    int32_t right_id;
    int32_t result;    // the token the merge produces
  };
  std::vector<Symbol> symbols;
  std::vector<Candidate> heap;
};

// Merges the symbols `ids[0..n)` (one token per byte) with `merges` and appends the
// resulting token ids to `out`. Among pairs of equal rank the leftmost merges first,
// as in llama.cpp and Hugging Face tokenizers.
void MergeWord(const BpeMerges& merges, const int32_t* ids, size_t n, BpeScratch* scratch,
               std::vector<int32_t>* out);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_BPE_WORD_H_

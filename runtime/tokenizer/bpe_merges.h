// Merge ranks of a byte-level BPE vocabulary, keyed by the pair of token ids they join.
#ifndef CPUBRRR_RUNTIME_TOKENIZER_BPE_MERGES_H_
#define CPUBRRR_RUNTIME_TOKENIZER_BPE_MERGES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace cpubrrr {

// One merge: its rank (lower merges first) and the token it produces.
struct BpeMerge {
  int32_t rank;
  int32_t result;
};

// Merge lookup by (left id, right id). Immutable after construction.
class BpeMerges {
 public:
  // Builds the table from GGUF merges ("left right", highest priority first) and the
  // map from token text to id. A merge whose parts or result are not tokens can never
  // apply to id symbols and is skipped (counted by skipped()); a repeated pair keeps its
  // first (best) rank.
  BpeMerges(const std::vector<std::string>& merges,
            const absl::flat_hash_map<std::string_view, int32_t>& token_ids);

  // Returns the merge of `left` followed by `right`, or nullptr when there is none.
  const BpeMerge* Find(int32_t left, int32_t right) const {
    auto it = table_.find(Key(left, right));
    return it == table_.end() ? nullptr : &it->second;
  }

  size_t size() const { return table_.size(); }
  size_t skipped() const { return skipped_; }

 private:
  static uint64_t Key(int32_t left, int32_t right) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) |
           static_cast<uint32_t>(right);
  }

  absl::flat_hash_map<uint64_t, BpeMerge> table_;
  size_t skipped_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_TOKENIZER_BPE_MERGES_H_

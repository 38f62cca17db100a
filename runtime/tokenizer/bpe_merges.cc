// Builds the (left id, right id) -> rank table from GGUF merge strings.
#include "runtime/tokenizer/bpe_merges.h"

namespace cpubrrr {

BpeMerges::BpeMerges(const std::vector<std::string>& merges,
                     const absl::flat_hash_map<std::string_view, int32_t>& token_ids) {
  table_.reserve(merges.size());
  std::string joined;
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    const std::string& merge = merges[rank];
    // The separator is the first space after the first character: a part may itself be
    // a space only in vocabularies without the byte-level map, which is not supported.
    const size_t space = merge.find(' ', 1);
    if (space == std::string::npos) {
      ++skipped_;
      continue;
    }
    const std::string_view left(merge.data(), space);
    const std::string_view right(merge.data() + space + 1, merge.size() - space - 1);
    joined.assign(left);
    joined.append(right);
    auto l = token_ids.find(left);
    auto r = token_ids.find(right);
    auto j = token_ids.find(joined);
    if (l == token_ids.end() || r == token_ids.end() || j == token_ids.end()) {
      ++skipped_;
      continue;
    }
    table_.try_emplace(Key(l->second, r->second),
                       BpeMerge{static_cast<int32_t>(rank), j->second});
  }
}

}  // namespace cpubrrr

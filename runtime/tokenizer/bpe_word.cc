// BPE over a doubly linked list of symbols with a min-heap of candidate pairs.
#include "runtime/tokenizer/bpe_word.h"

#include <algorithm>

namespace cpubrrr {
namespace {

using Candidate = BpeScratch::Candidate;

// Orders the heap so that the lowest rank, then the leftmost pair, is on top.
bool Later(const Candidate& a, const Candidate& b) {
  return a.rank != b.rank ? a.rank > b.rank : a.left > b.left;
}

void Push(const BpeMerges& merges, BpeScratch* s, int32_t left) {
  if (left < 0) return;
  const int32_t right = s->symbols[left].next;
  if (right < 0) return;
  const int32_t left_id = s->symbols[left].id;
  const int32_t right_id = s->symbols[right].id;
  const BpeMerge* merge = merges.Find(left_id, right_id);
  if (merge == nullptr) return;
  s->heap.push_back(Candidate{merge->rank, left, left_id, right_id, merge->result});
  std::push_heap(s->heap.begin(), s->heap.end(), Later);
}

}  // namespace

void MergeWord(const BpeMerges& merges, const int32_t* ids, size_t n, BpeScratch* scratch,
               std::vector<int32_t>* out) {
  if (n == 1) {
    out->push_back(ids[0]);
    return;
  }
  auto& symbols = scratch->symbols;
  symbols.resize(n);
  for (size_t i = 0; i < n; ++i) {
    symbols[i] = {ids[i], static_cast<int32_t>(i) - 1,
                  i + 1 < n ? static_cast<int32_t>(i + 1) : -1};
  }
  scratch->heap.clear();
  for (size_t i = 0; i + 1 < n; ++i) Push(merges, scratch, static_cast<int32_t>(i));

  auto& heap = scratch->heap;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), Later);
    const Candidate c = heap.back();
    heap.pop_back();
    BpeScratch::Symbol& left = symbols[c.left];
    // A merged-away symbol has id -1; otherwise the pair is current iff both ids match.
    if (left.id != c.left_id || left.next < 0) continue;
    BpeScratch::Symbol& right = symbols[left.next];
    if (right.id != c.right_id) continue;
    left.id = c.result;
    left.next = right.next;
    if (right.next >= 0) symbols[right.next].prev = c.left;
    right.id = -1;
    Push(merges, scratch, left.prev);
    Push(merges, scratch, c.left);
  }
  for (int32_t i = 0; i >= 0; i = symbols[i].next) out->push_back(symbols[i].id);
}

}  // namespace cpubrrr

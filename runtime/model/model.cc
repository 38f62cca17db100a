// The one-by-one ForwardBatch of models without a batched pass.
#include "runtime/model/model.h"

#include <vector>

namespace cpubrrr {

absl::Status Model::ForwardBatch(absl::Span<const ForwardEntry> entries) {
  for (size_t i = 0; i < entries.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (entries[i].session == entries[j].session) {
        return absl::InvalidArgumentError("ForwardBatch: two entries share a session");
      }
    }
  }
  std::vector<float> unused;
  const size_t n_vocab = info().n_vocab;
  for (const ForwardEntry& e : entries) {
    if (e.tokens.size() > 1 && e.logits.size() == e.tokens.size() * n_vocab) {
      // Every row's logits: one token per call, each writing its own row.
      for (size_t j = 0; j < e.tokens.size(); ++j) {
        if (absl::Status s = Forward(*e.session, e.tokens.subspan(j, 1), e.logits.subspan(j * n_vocab, n_vocab));
            !s.ok()) {
          return s;
        }
      }
      continue;
    }
    absl::Span<float> logits = e.logits;
    if (logits.empty()) {
      unused.resize(n_vocab);
      logits = absl::MakeSpan(unused);
    }
    if (absl::Status s = Forward(*e.session, e.tokens, logits); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

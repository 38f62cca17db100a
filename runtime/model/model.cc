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
  for (const ForwardEntry& e : entries) {
    absl::Span<float> logits = e.logits;
    if (logits.empty()) {
      unused.resize(info().n_vocab);
      logits = absl::MakeSpan(unused);
    }
    if (absl::Status s = Forward(*e.session, e.tokens, logits); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

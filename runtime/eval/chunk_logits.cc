// One chunk's forward calls: the first half to fill the cache, the scored half with logits.
#include "runtime/eval/chunk_logits.h"

#include <algorithm>

#include "absl/status/status.h"
#include "runtime/eval/logits_file.h"

namespace cpubrrr {

absl::StatusOr<std::vector<float>> ChunkLogits(Model& model, Session& session,
                                               absl::Span<const int32_t> chunk, uint32_t batch) {
  if (chunk.size() < 4 || batch == 0) return absl::InvalidArgumentError("ChunkLogits: chunk or batch too small");
  const size_t n_vocab = model.info().n_vocab;
  const size_t first = chunk.size() / 2;
  const size_t scored = ScoredPerChunk(static_cast<uint32_t>(chunk.size()));
  session.Truncate(0);
  for (size_t at = 0; at < first; at += batch) {
    const ForwardEntry entry{&session, chunk.subspan(at, std::min<size_t>(batch, first - at)), {}};
    if (absl::Status s = model.ForwardBatch({&entry, 1}); !s.ok()) return s;
  }
  std::vector<float> logits(scored * n_vocab);
  for (size_t at = first; at < first + scored; at += batch) {
    const size_t n = std::min<size_t>(batch, first + scored - at);
    const ForwardEntry entry{&session, chunk.subspan(at, n),
                             absl::MakeSpan(logits).subspan((at - first) * n_vocab, n * n_vocab)};
    if (absl::Status s = model.ForwardBatch({&entry, 1}); !s.ok()) return s;
  }
  return logits;
}

}  // namespace cpubrrr

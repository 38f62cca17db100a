// Runs one perplexity chunk through a model: the next-token logits of its scored half.
#ifndef CPUBRRR_RUNTIME_EVAL_CHUNK_LOGITS_H_
#define CPUBRRR_RUNTIME_EVAL_CHUNK_LOGITS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/model/model.h"

namespace cpubrrr {

// Empties `session`, runs `chunk` and returns the logits after each scored position's
// token (ScoredPerChunk(chunk.size()) rows, n_vocab apart; row i follows token
// chunk.size() / 2 + i). The unscored first half runs without the output head, the rest
// in calls of at most `batch` tokens with every row's logits.
absl::StatusOr<std::vector<float>> ChunkLogits(Model& model, Session& session,
                                               absl::Span<const int32_t> chunk, uint32_t batch);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_EVAL_CHUNK_LOGITS_H_

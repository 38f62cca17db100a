// A stand-in Model for tests: logits are a deterministic function of the token history.
#ifndef CPUBRRR_RUNTIME_ENGINE_FAKE_MODEL_H_
#define CPUBRRR_RUNTIME_ENGINE_FAKE_MODEL_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/model/model.h"
#include "runtime/model/architecture.h"

namespace cpubrrr {

// Forward puts logit 10 on the token `next(history)` picks and 0 elsewhere, so greedy
// sampling follows `next` exactly. The default `next` hashes the history onto
// [0, n_vocab_for_hash).
class FakeModel : public Model {
 public:
  using NextToken = std::function<int32_t(absl::Span<const int32_t> history)>;

  FakeModel(ModelInfo info, NextToken next);

  const ModelInfo& info() const override { return info_; }
  absl::StatusOr<std::unique_ptr<Session>> NewSession(uint32_t context_length) override;
  uint64_t SessionBytes(uint32_t context_length) const override { return context_length * bytes_per_position_; }
  absl::Status Forward(Session& session, absl::Span<const int32_t> tokens,
                       absl::Span<float> logits) override;
  // Model's one-by-one ForwardBatch, noting the widest batch.
  absl::Status ForwardBatch(absl::Span<const ForwardEntry> entries) override;

  // Returns how many tokens Forward has evaluated so far (all sessions).
  uint64_t evaluated_tokens() const { return evaluated_; }
  // Returns how many Forward calls there were.
  uint64_t forward_calls() const { return forward_calls_; }
  // Returns the most entries a ForwardBatch call carried (any thread may ask).
  size_t widest_batch() const { return widest_batch_.load(); }
  // Makes later sessions rewind as a sliding-window ring does: at most `limit` positions
  // back, else to the latest checkpoint at or before the target, else to 0.
  void set_rewind_limit(uint32_t limit) { rewind_limit_ = limit; }
  // Makes a session's cache take `bytes` per position (0, the default: unknown).
  void set_bytes_per_position(uint64_t bytes) { bytes_per_position_ = bytes; }
  // Makes each Forward call take at least `delay`, as a real model's step does.
  void set_step_delay(std::chrono::microseconds delay) { step_delay_ = delay; }

 private:
  ModelInfo info_;
  NextToken next_;
  uint64_t evaluated_ = 0;
  uint64_t bytes_per_position_ = 0;
  uint64_t forward_calls_ = 0;
  std::atomic<size_t> widest_batch_{0};
  uint32_t rewind_limit_ = UINT32_MAX;
  std::chrono::microseconds step_delay_{0};
};

// Returns a NextToken that hashes the history onto ids [0, n).
FakeModel::NextToken HashNextToken(uint32_t n);

// Returns a NextToken that, wherever the history ends in `cue` and then a prefix of
// `script`, continues the script; elsewhere it asks `otherwise`. With `cue` the end of a
// template's generation prompt, every answer starts with `script`.
FakeModel::NextToken ScriptedNextToken(std::vector<int32_t> cue, std::vector<int32_t> script,
                                       FakeModel::NextToken otherwise);

// What every answer of a fake model starts with: `text` (special tokens parsed) after the
// generation prompt's last tokens `cue`, both tokenized with the GGUF's vocabulary.
struct FakeAnswer {
  std::string cue;
  std::string text;
  std::chrono::microseconds step_delay{0};  // FakeModel::set_step_delay
};

// Returns a registry entry for `architecture` in `chat_format` whose models are FakeModels
// sized from the GGUF's vocabulary, with HashNextToken over its first `hash_range` ids,
// after `answer` when its text is not empty, each step taking `answer.step_delay`.
Architecture FakeArchitecture(const std::string& architecture, ChatFormat chat_format, uint32_t hash_range,
                              FakeAnswer answer = {});

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_ENGINE_FAKE_MODEL_H_

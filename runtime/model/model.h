// The interface every architecture implements, and what the driver and server see of it.
#ifndef CPUBRRR_RUNTIME_MODEL_MODEL_H_
#define CPUBRRR_RUNTIME_MODEL_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace cpubrrr {

// What a caller needs to know about a loaded model.
struct ModelInfo {
  std::string architecture;  // "gpt-oss" or "qwen3moe" (Ollama's "gptoss" is normalized)
  std::string name;          // general.name, if present
  uint32_t n_vocab = 0;      // logits per token
  uint32_t n_ctx_train = 0;  // the model's context length
  uint64_t n_params = 0;     // elements of all tensors
  uint64_t file_bytes = 0;   // size of the GGUF file
  uint64_t bytes_per_token = 0;  // weight bytes one decode step reads (active experts only)
  uint64_t derived_bytes = 0;    // weight bytes repacked for this CPU (the rest is used from the file)
  std::string repack_cache;      // the file the repacked bytes are mapped from ("": made in memory)
  bool repack_cache_written = false;  // whether this load wrote repack_cache
  std::string repack_cache_error;     // why the repacked bytes are in memory although a cache was asked for
  std::string not_repacked;           // why the weights are used from the file although a repack was asked for
  std::string kernels;  // which kernel variant each weight type runs, and the CPU features behind the choice
};

// Per-conversation state: the KV cache and the next position. Created by the model.
class Session {
 public:
  virtual ~Session() = default;
  // Returns the number of tokens already in the cache (the next token's position).
  virtual uint32_t position() const = 0;
  // Returns the context length this session was created with.
  virtual uint32_t context_length() const = 0;
  // Returns the longest prefix of at most `position` positions (and at most position())
  // that Truncate keeps: `position` itself unless the cache no longer holds what continuing
  // there needs (a sliding-window ring that has moved on), then the latest checkpoint at or
  // before it, else 0.
  virtual uint32_t KeepablePrefix(uint32_t position) const = 0;
  // Drops every cached position from KeepablePrefix(position) on and returns that
  // prefix's length (for rewinding a conversation). Never fails; Truncate(0) empties it.
  // The positions kept give the same logits as a fresh session fed the same calls.
  virtual uint32_t Truncate(uint32_t position) = 0;
  // Marks the current position as one a later Truncate may come back to although the
  // cache moves on (the engine calls it after each prompt: the next turn's prompt
  // usually diverges right after it). Sessions that keep every position ignore it.
  virtual void Checkpoint() {}
};

// One session's part of a batched forward call: tokens at the session's next positions,
// and where the next-token logits go: n_vocab floats for those after the last token,
// tokens.size() * n_vocab for those after every token (evaluation, as perplexity needs),
// or empty for none (a prompt chunk that is not the prompt's end).
struct ForwardEntry {
  Session* session = nullptr;
  absl::Span<const int32_t> tokens;
  absl::Span<float> logits;
};

// A loaded model. Forward and ForwardBatch are not reentrant: one caller at a time, which
// may serve many sessions.
class Model {
 public:
  virtual ~Model() = default;

  virtual const ModelInfo& info() const = 0;

  // Returns a new session whose KV cache holds `context_length` positions (0 means the
  // model's context length, capped by available memory).
  virtual absl::StatusOr<std::unique_ptr<Session>> NewSession(uint32_t context_length) = 0;

  // Returns the context NewSession(0) gives, without making a session.
  virtual uint32_t DefaultContextLength() const { return info().n_ctx_train; }

  // Returns the bytes of the KV cache a session of `context_length` positions holds; 0 when
  // the model does not say.
  virtual uint64_t SessionBytes(uint32_t context_length) const { return 0; }

  // Runs `tokens` at the session's next positions, appends them to its cache and writes
  // the next-token logits after the last of them to `logits` (n_vocab floats). Fails,
  // changing nothing, when the tokens do not fit the context or an id is out of range.
  virtual absl::Status Forward(Session& session, absl::Span<const int32_t> tokens,
                               absl::Span<float> logits) = 0;

  // Runs the entries (of distinct sessions) as Forward would run each, in passes that carry
  // rows of several sessions: attention is per session, everything else runs over all rows
  // of a pass, so a step of N decoding sessions reads the weights once. A session's logits
  // may differ from its solo run's within the bound the implementation states (a weight
  // shared by several rows takes the gemm path, one row the gemv). Fails when any entry
  // would fail Forward or two entries share a session; a batched implementation then
  // changes nothing, while this default, which runs the entries one by one, stops at the
  // first that fails with the earlier ones run.
  virtual absl::Status ForwardBatch(absl::Span<const ForwardEntry> entries);

  // Returns the weight bytes the passes so far have read, each matrix (each routed
  // expert) counted once per pass that used it; 0 when the model does not count. Divided
  // by the passes, it is the bytes a step of N sequences really reads.
  virtual uint64_t weight_bytes_read() const { return 0; }
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_MODEL_MODEL_H_

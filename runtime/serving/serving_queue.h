// Requests from many threads served by one engine in arrival order, with a bounded wait
// queue and cancellation while waiting. The batching scheduler takes its place behind the
// same calls.
#ifndef CPUBRRR_RUNTIME_SERVING_SERVING_QUEUE_H_
#define CPUBRRR_RUNTIME_SERVING_SERVING_QUEUE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/engine/engine.h"

namespace cpubrrr {

// Totals since the queue was made (for /metrics and /slots).
struct ServingStats {
  uint64_t requests = 0;          // generations finished
  uint64_t prompt_tokens = 0;     // evaluated prompt tokens (reused ones excluded)
  uint64_t reused_tokens = 0;     // prompt tokens taken from the cache
  uint64_t generated_tokens = 0;
  double prompt_seconds = 0;
  double generation_seconds = 0;
  uint32_t running = 0;           // 0 or 1
  uint32_t waiting = 0;
};

class ServingQueue {
 public:
  // Refuses a request when `max_waiting` others already wait behind the running one.
  ServingQueue(std::unique_ptr<Engine> engine, uint32_t max_waiting);

  // Waits for its turn, then runs engine().Generate on the calling thread. Fails with
  // Unavailable when the wait queue is full, with Cancelled when callbacks.cancelled says
  // so before its turn comes (checked every 50 ms while waiting).
  absl::StatusOr<GenerateResult> Generate(const GenerateRequest& request,
                                          const GenerateCallbacks& callbacks);

  // Whether a request arriving now would be queued rather than refused (a hint: another
  // may take the room first).
  bool HasRoom() const;

  // What every thread may use at any time: the tokenizer, the model's info, the format.
  const Engine& engine() const { return *engine_; }
  ServingStats stats() const;

 private:
  std::unique_ptr<Engine> engine_;
  const uint32_t max_waiting_;
  mutable std::mutex mu_;
  std::condition_variable turn_;
  std::deque<const void*> queue_;  // the running request first, then the waiting ones
  ServingStats stats_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SERVING_SERVING_QUEUE_H_

// Requests from many threads decoded together: the engine's slots, each step one
// ForwardBatch over every decoding slot and a bounded chunk of pending prompt, a bounded
// wait queue beyond the slots, cancellation at any point, prefill included, and the next
// turn's history prefilled while idle.
#ifndef CPUBRRR_RUNTIME_SERVING_SCHEDULER_H_
#define CPUBRRR_RUNTIME_SERVING_SCHEDULER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/engine/engine.h"

namespace cpubrrr {

struct SchedulerOptions {
  uint32_t max_waiting = 16;  // requests queued while every slot is busy; more are refused
  // Prompt tokens a step takes beside decoding slots, so that a long prompt arriving does
  // not stall the others' streams for its whole prefill (a step with no decoding slot
  // takes the engine's batch size).
  uint32_t prefill_chunk = 128;
  // When a chat turn ends, prefill, while no request needs the compute, the conversation
  // as the next turn will render it (the answer without its reasoning), so a follow-up
  // evaluates only its new message.
  bool prefill_next_turn = true;
  // History tokens one idle step prefills: small, since a request that arrives meanwhile
  // waits for the step to end.
  uint32_t warm_chunk = 32;
};

// Totals since the scheduler was made (for /metrics and /slots).
struct ServingStats {
  uint64_t requests = 0;          // generations finished
  uint64_t prompt_tokens = 0;     // evaluated prompt tokens (reused ones excluded)
  uint64_t reused_tokens = 0;     // prompt tokens taken from the cache
  uint64_t generated_tokens = 0;
  double prompt_seconds = 0;      // summed over requests (they overlap)
  double generation_seconds = 0;
  uint64_t steps = 0;             // ForwardBatch calls
  double step_seconds = 0;        // time spent in them (the engine busy)
  uint64_t step_rows = 0;         // sequences those calls carried, summed
  uint64_t warmed_tokens = 0;     // next-turn history prefilled while idle
  uint32_t warming = 0;           // slots with next-turn history still to prefill
  uint32_t slots = 0;
  std::vector<bool> slot_busy;    // per slot: holds a request
  uint32_t running = 0;           // requests in a slot
  uint32_t waiting = 0;
};

class Scheduler {
 public:
  // Starts the step thread over `engine`'s slots.
  Scheduler(std::unique_ptr<Engine> engine, const SchedulerOptions& options);
  // Ends running requests as cancelled, refuses waiting ones, stops the step thread and
  // returns once no caller is inside Generate.
  ~Scheduler();

  // Queues the request, waits for a slot and its turn's end, and returns what
  // Engine::Generate would; callbacks run on the calling thread, which checks
  // callbacks.cancelled at least every 50 ms. The request goes to the free slot where its
  // prompt gains the most from the cache (docs/SERVING.md). Fails as Engine::Generate does for a prompt that
  // does not fit, with Unavailable when the wait queue is full or the scheduler is
  // stopping, with Cancelled when cancelled before a slot was free.
  absl::StatusOr<GenerateResult> Generate(const GenerateRequest& request,
                                          const GenerateCallbacks& callbacks);

  // Whether a request arriving now would be queued rather than refused (a hint: another
  // may take the room first).
  bool HasRoom() const;

  // What every thread may use at any time: the tokenizer, the model's info, the format.
  const Engine& engine() const { return *engine_; }
  ServingStats stats() const;

 private:
  struct Job;
  struct Slot;

  bool HasRoomLocked() const;
  void Loop();
  // Takes waiting jobs into free slots (mu_ held).
  void Admit();
  // One ForwardBatch over the busy slots, then their turns' next tokens.
  void Step();
  // Ends slot i's turn and hands its result to the waiting caller.
  void Complete(size_t i, absl::StatusOr<GenerateResult> result);
  // Returns the conversation `request` and `result` make as the next turn's prompt begins
  // (nullopt: nothing to prefill).
  std::optional<GenerateRequest> NextTurnRequest(const GenerateRequest& request,
                                                 const GenerateResult& result) const;
  // With no request running: one chunk of a free slot's next-turn history.
  void WarmStep();

  std::unique_ptr<Engine> engine_;
  const SchedulerOptions options_;
  std::vector<Slot> slots_;  // the step thread's alone, but for Slot::job (mu_)
  mutable std::mutex mu_;
  std::condition_variable work_;      // the step thread: a job arrived, or stop
  std::condition_variable progress_;  // callers: events or an end
  std::deque<Job*> waiting_;
  bool stopping_ = false;
  uint32_t callers_ = 0;  // threads inside Generate
  uint64_t admissions_ = 0;
  ServingStats stats_;
  std::thread thread_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SERVING_SCHEDULER_H_

// FIFO turns on one engine: the front of the queue generates, the others wait.
#include "runtime/serving/serving_queue.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"

namespace cpubrrr {

ServingQueue::ServingQueue(std::unique_ptr<Engine> engine, uint32_t max_waiting)
    : engine_(std::move(engine)), max_waiting_(max_waiting) {}

absl::StatusOr<GenerateResult> ServingQueue::Generate(const GenerateRequest& request,
                                                      const GenerateCallbacks& callbacks) {
  std::unique_lock<std::mutex> lock(mu_);
  if (queue_.size() > max_waiting_) {
    return absl::UnavailableError(absl::StrCat("the server is busy: ", queue_.size() - 1,
                                               " requests are already waiting"));
  }
  const int me = 0;  // its address identifies this request in the queue
  queue_.push_back(&me);
  stats_.waiting = static_cast<uint32_t>(queue_.size() - 1);
  while (queue_.front() != &me) {
    if (callbacks.cancelled && callbacks.cancelled()) {
      queue_.erase(std::find(queue_.begin(), queue_.end(), &me));
      stats_.waiting = static_cast<uint32_t>(queue_.size() - 1);
      turn_.notify_all();
      return absl::CancelledError("the request was cancelled while waiting");
    }
    turn_.wait_for(lock, std::chrono::milliseconds(50));
  }
  stats_.running = 1;
  stats_.waiting = static_cast<uint32_t>(queue_.size() - 1);
  lock.unlock();
  // Leaves the queue however Generate ends, an exception included.
  struct Leave {
    ServingQueue* q;
    std::unique_lock<std::mutex>* lock;
    ~Leave() {
      if (!lock->owns_lock()) lock->lock();
      q->queue_.pop_front();
      q->stats_.running = 0;
      q->stats_.waiting = static_cast<uint32_t>(q->queue_.empty() ? 0 : q->queue_.size() - 1);
      q->turn_.notify_all();
    }
  } leave{this, &lock};
  absl::StatusOr<GenerateResult> result = engine_->Generate(request, callbacks);
  lock.lock();
  if (result.ok()) {
    const GenerateTimings& t = result->timings;
    ++stats_.requests;
    stats_.prompt_tokens += t.prompt_tokens - t.reused_tokens;
    stats_.reused_tokens += t.reused_tokens;
    stats_.generated_tokens += t.generated_tokens;
    stats_.prompt_seconds += t.prompt_seconds;
    stats_.generation_seconds += t.generation_seconds;
  }
  return result;
}

bool ServingQueue::HasRoom() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size() <= max_waiting_;
}

ServingStats ServingQueue::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace cpubrrr

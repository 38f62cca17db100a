// ServingQueue over a fake model: one runs, a bounded number wait, the rest are refused,
// and a waiting request can be cancelled.
#include "runtime/serving/serving_queue.h"

#include <atomic>
#include <future>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/engine/fake_model.h"
#include "runtime/engine/test_vocab.h"

namespace cpubrrr {
namespace {

std::unique_ptr<ServingQueue> MakeQueue(uint32_t max_waiting) {
  auto tokenizer = TestTokenizer();
  const ModelInfo info{.architecture = "qwen3moe", .n_vocab = static_cast<uint32_t>(tokenizer->vocab_size()),
                       .n_ctx_train = 4096};
  auto model = std::make_unique<FakeModel>(info, [](absl::Span<const int32_t>) { return int32_t{'z'}; });
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(std::move(model), std::move(tokenizer), {});
  EXPECT_TRUE(engine.ok()) << engine.status();
  return std::make_unique<ServingQueue>(*std::move(engine), max_waiting);
}

GenerateRequest Hi() {
  GenerateRequest r;
  r.chat.messages = {{.role = "user", .content = "Hi"}};
  r.max_tokens = 3;
  r.sampling.temperature = 0;
  return r;
}

// A request that runs on `queue` until Release(), holding the engine.
class HeldRequest {
 public:
  explicit HeldRequest(ServingQueue& queue) : released_(release_.get_future().share()) {
    GenerateCallbacks hold;
    hold.on_token = [released = released_](const SampleResult&) { released.wait(); };
    result_ = std::async(std::launch::async, [&queue, hold] { return queue.Generate(Hi(), hold); });
    while (queue.stats().running == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  absl::StatusOr<GenerateResult> Release() {
    release_.set_value();
    return result_.get();
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_;
  std::future<absl::StatusOr<GenerateResult>> result_;
};

// Waits until `queue` shows `waiting` waiting requests.
void AwaitWaiting(const ServingQueue& queue, uint32_t waiting) {
  while (queue.stats().waiting != waiting) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

TEST(ServingQueue, OneRunsOthersWaitBeyondThatTheyAreRefused) {
  std::unique_ptr<ServingQueue> queue = MakeQueue(1);
  HeldRequest first(*queue);
  auto second = std::async(std::launch::async, [&] { return queue->Generate(Hi(), {}); });
  AwaitWaiting(*queue, 1);
  EXPECT_FALSE(queue->HasRoom());
  absl::StatusOr<GenerateResult> third = queue->Generate(Hi(), {});
  EXPECT_EQ(third.status().code(), absl::StatusCode::kUnavailable) << third.status();
  ASSERT_TRUE(first.Release().ok());
  absl::StatusOr<GenerateResult> r = second.get();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->timings.generated_tokens, 3u);
  EXPECT_TRUE(queue->HasRoom());
  const ServingStats s = queue->stats();
  EXPECT_EQ(s.requests, 2u);
  EXPECT_EQ(s.generated_tokens, 6u);
  EXPECT_EQ(s.running, 0u);
  EXPECT_EQ(s.waiting, 0u);
}

TEST(ServingQueue, AWaitingRequestCanBeCancelled) {
  std::unique_ptr<ServingQueue> queue = MakeQueue(4);
  HeldRequest first(*queue);
  std::atomic<bool> cancel{false};
  GenerateCallbacks cancellable;
  cancellable.cancelled = [&cancel] { return cancel.load(); };
  auto waiting = std::async(std::launch::async, [&] { return queue->Generate(Hi(), cancellable); });
  AwaitWaiting(*queue, 1);
  cancel = true;
  EXPECT_EQ(waiting.get().status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(queue->stats().waiting, 0u);
  EXPECT_TRUE(first.Release().ok());
  EXPECT_TRUE(queue->Generate(Hi(), {}).ok());
}

}  // namespace
}  // namespace cpubrrr

// The scheduler over a fake model: slots decode in shared steps with the results the
// engine gives alone, a full queue is refused, cancellation works while waiting and in
// prefill, a conversation goes back to its slot, and stopping ends every request.
#include "runtime/serving/scheduler.h"

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/engine/fake_model.h"
#include "runtime/engine/test_vocab.h"

namespace cpubrrr {
namespace {

// Holds the first Forward call of a model until Open() (the step thread stops there).
class Gate {
 public:
  FakeModel::NextToken Wrap(FakeModel::NextToken next) {
    return [this, next](absl::Span<const int32_t> history) {
      if (calls_++ == 0) opened_.wait();
      return next(history);
    };
  }
  void Open() { open_.set_value(); }
  bool reached() const { return calls_.load() > 0; }

 private:
  std::promise<void> open_;
  std::shared_future<void> opened_ = open_.get_future().share();
  std::atomic<int> calls_{0};
};

std::unique_ptr<Engine> MakeEngine(uint32_t slots, FakeModel::NextToken next, FakeModel** model_out = nullptr,
                                   uint32_t batch_size = 512) {
  auto tokenizer = TestTokenizer();
  const ModelInfo info{.architecture = "qwen3moe", .n_vocab = static_cast<uint32_t>(tokenizer->vocab_size()),
                       .n_ctx_train = 4096};
  auto model = std::make_unique<FakeModel>(info, std::move(next));
  if (model_out != nullptr) *model_out = model.get();
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(
      std::move(model), std::move(tokenizer), {.context_length = 4096, .batch_size = batch_size, .slots = slots, .chat_format = ChatFormat::kChatMl});
  EXPECT_TRUE(engine.ok()) << engine.status();
  return engine.ok() ? *std::move(engine) : nullptr;
}

GenerateRequest Ask(const std::string& text, int32_t max_tokens = 3) {
  GenerateRequest r;
  r.chat.messages = {{.role = "user", .content = text}};
  r.max_tokens = max_tokens;
  r.sampling.temperature = 0;
  return r;
}

void AwaitStats(const Scheduler& s, uint32_t running, uint32_t waiting) {
  while (s.stats().running != running || s.stats().waiting != waiting) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The prompt's timings reach the caller once, before its first token, as the result has them.
TEST(Scheduler, PromptTimingsComeBeforeTheFirstToken) {
  Scheduler scheduler(MakeEngine(1, HashNextToken(200)), {.prefill_chunk = 4});
  std::vector<std::string> order;
  GenerateTimings prompt;
  GenerateCallbacks cb;
  cb.on_prompt = [&](const GenerateTimings& t) {
    order.push_back("prompt");
    prompt = t;
  };
  cb.on_token = [&](const SampleResult&) { order.push_back("token"); };
  absl::StatusOr<GenerateResult> r = scheduler.Generate(Ask("a question long enough for several chunks", 3), cb);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(order, (std::vector<std::string>{"prompt", "token", "token", "token"}));
  EXPECT_EQ(prompt.prompt_tokens, r->timings.prompt_tokens);
  EXPECT_EQ(prompt.reused_tokens, r->timings.reused_tokens);
  EXPECT_DOUBLE_EQ(prompt.prompt_seconds, r->timings.prompt_seconds);
}

// The first step is held until every request has arrived, so that the slots share steps
// however slowly the request threads start (TSan slows them by an order of magnitude).
TEST(Scheduler, SlotsDecodeTogetherWithTheEngineAlonesResults) {
  FakeModel* model = nullptr;
  Gate gate;
  Scheduler scheduler(MakeEngine(4, gate.Wrap(HashNextToken(200)), &model), {});
  std::vector<GenerateRequest> requests;
  for (int i = 0; i < 7; ++i) requests.push_back(Ask("question " + std::to_string(i) + std::string(i * 9, 'x'), 24));
  std::vector<std::future<std::pair<absl::StatusOr<GenerateResult>, std::string>>> running;
  for (const GenerateRequest& r : requests) {
    running.push_back(std::async(std::launch::async, [&scheduler, &r] {
      std::string streamed;
      GenerateCallbacks cb;
      cb.on_delta = [&streamed](const ChatDelta& d) { streamed += d.content + d.reasoning; };
      return std::make_pair(scheduler.Generate(r, cb), streamed);
    }));
  }
  while (scheduler.stats().running + scheduler.stats().waiting < requests.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  gate.Open();
  std::unique_ptr<Engine> alone = MakeEngine(1, HashNextToken(200));
  for (size_t i = 0; i < requests.size(); ++i) {
    auto [together, streamed] = running[i].get();
    ASSERT_TRUE(together.ok()) << together.status();
    absl::StatusOr<GenerateResult> solo = alone->Generate(requests[i], {});
    ASSERT_TRUE(solo.ok());
    EXPECT_EQ(together->tokens, solo->tokens) << i;
    EXPECT_EQ(together->message.content, solo->message.content) << i;
    EXPECT_EQ(together->message.reasoning, solo->message.reasoning) << i;
    EXPECT_EQ(streamed, together->message.content + together->message.reasoning) << i;
    EXPECT_EQ(together->finish, solo->finish) << i;
  }
  const ServingStats stats = scheduler.stats();
  EXPECT_EQ(stats.requests, 7u);
  EXPECT_EQ(stats.running, 0u);
  EXPECT_EQ(stats.slots, 4u);
  EXPECT_GE(model->widest_batch(), 2u);  // steps were shared
  EXPECT_LT(stats.steps, stats.generated_tokens);
}

TEST(Scheduler, BusySlotsQueueThenRefuse) {
  Gate gate;
  Scheduler scheduler(MakeEngine(1, gate.Wrap(HashNextToken(200))), {.max_waiting = 1});
  auto first = std::async(std::launch::async, [&] { return scheduler.Generate(Ask("a"), {}); });
  AwaitStats(scheduler, 1, 0);
  auto second = std::async(std::launch::async, [&] { return scheduler.Generate(Ask("b"), {}); });
  AwaitStats(scheduler, 1, 1);
  EXPECT_FALSE(scheduler.HasRoom());
  absl::StatusOr<GenerateResult> third = scheduler.Generate(Ask("c"), {});
  EXPECT_EQ(third.status().code(), absl::StatusCode::kUnavailable) << third.status();
  gate.Open();
  EXPECT_TRUE(first.get().ok());
  absl::StatusOr<GenerateResult> r = second.get();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->timings.generated_tokens, 3u);
  EXPECT_TRUE(scheduler.HasRoom());
  EXPECT_EQ(scheduler.stats().requests, 2u);
}

TEST(Scheduler, AWaitingRequestCanBeCancelled) {
  Gate gate;
  Scheduler scheduler(MakeEngine(1, gate.Wrap(HashNextToken(200))), {});
  auto first = std::async(std::launch::async, [&] { return scheduler.Generate(Ask("a"), {}); });
  AwaitStats(scheduler, 1, 0);
  std::atomic<bool> cancel{false};
  GenerateCallbacks cancellable;
  cancellable.cancelled = [&cancel] { return cancel.load(); };
  auto waiting = std::async(std::launch::async, [&] { return scheduler.Generate(Ask("b"), cancellable); });
  AwaitStats(scheduler, 1, 1);
  cancel = true;
  EXPECT_EQ(waiting.get().status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(scheduler.stats().waiting, 0u);
  gate.Open();
  EXPECT_TRUE(first.get().ok());
  EXPECT_TRUE(scheduler.Generate(Ask("c"), {}).ok());
}

// A 4-token batch size cuts the prompt into many passes; the cancel lands after the first.
TEST(Scheduler, CancelDuringPrefillFreesTheSlot) {
  Gate gate;
  FakeModel* model = nullptr;
  Scheduler scheduler(MakeEngine(1, gate.Wrap(HashNextToken(200)), &model, 4), {});
  std::atomic<bool> cancel{false}, seen{false};
  GenerateCallbacks cancellable;
  cancellable.cancelled = [&] {
    seen = cancel.load();
    return seen.load();
  };
  const GenerateRequest long_prompt = Ask(std::string(300, 'q'), 50);
  auto r = std::async(std::launch::async, [&] { return scheduler.Generate(long_prompt, cancellable); });
  while (!gate.reached()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  cancel = true;
  while (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the caller marks the job
  gate.Open();
  absl::StatusOr<GenerateResult> result = r.get();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->finish, FinishReason::kCancelled);
  EXPECT_TRUE(result->tokens.empty());
  EXPECT_LT(model->evaluated_tokens(), 300u);
  EXPECT_EQ(scheduler.stats().running, 0u);
  EXPECT_TRUE(scheduler.Generate(Ask("next"), {}).ok());
}

// Two conversations on two slots: each follow-up finds its own history cached, although a
// new conversation shares the template's header with the first.
TEST(Scheduler, AConversationGoesBackToItsSlot) {
  Scheduler scheduler(MakeEngine(2, HashNextToken(200)), {});
  auto turn = [&](std::vector<ChatMessage>& history, const std::string& text) {
    history.push_back({.role = "user", .content = text});
    GenerateRequest r;
    r.chat.messages = history;
    r.max_tokens = 6;
    r.sampling.temperature = 0;
    absl::StatusOr<GenerateResult> result = scheduler.Generate(r, {});
    EXPECT_TRUE(result.ok()) << result.status();
    history.push_back(result->message);
    return result->timings;
  };
  std::vector<ChatMessage> a, b;
  const GenerateTimings a1 = turn(a, "the first conversation begins here");
  const GenerateTimings b1 = turn(b, "another one");
  EXPECT_LT(b1.reused_tokens, 8u);
  const GenerateTimings a2 = turn(a, "and goes on");
  EXPECT_GE(a2.reused_tokens, a1.prompt_tokens);
  const GenerateTimings b2 = turn(b, "and this one too");
  EXPECT_GE(b2.reused_tokens, b1.prompt_tokens);
}

// Once an answer ends, its slot prefills the conversation as the next turn renders it, so
// the follow-up evaluates little more than its own message; without that it evaluates the
// answer too.
TEST(Scheduler, AFinishedAnswerIsPrefilledForTheNextTurn) {
  for (bool warm : {true, false}) {
    SCOPED_TRACE(warm ? "warm" : "cold");
    Scheduler scheduler(MakeEngine(1, HashNextToken(200)), {.prefill_chunk = 8, .prefill_next_turn = warm, .warm_chunk = 8});
    std::vector<ChatMessage> history = {{.role = "user", .content = "tell me a long story"}};
    GenerateRequest first;
    first.chat.messages = history;
    first.max_tokens = 40;
    first.sampling.temperature = 0;
    first.ignore_eos = true;
    absl::StatusOr<GenerateResult> a = scheduler.Generate(first, {});
    ASSERT_TRUE(a.ok()) << a.status();
    while (scheduler.stats().warming > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    history.push_back(a->message);
    history.push_back({.role = "user", .content = "more"});
    GenerateRequest second = first;
    second.chat.messages = history;
    absl::StatusOr<GenerateResult> b = scheduler.Generate(second, {});
    ASSERT_TRUE(b.ok()) << b.status();
    const uint32_t evaluated = b->timings.prompt_tokens - b->timings.reused_tokens;
    if (warm) {
      EXPECT_GT(scheduler.stats().warmed_tokens, 0u);
      // What follows the empty user message's start: "more<|im_end|>\n<|im_start|>assistant\n",
      // 17 tokens in the test's byte vocabulary.
      EXPECT_EQ(evaluated, 17u);
    } else {
      EXPECT_EQ(scheduler.stats().warmed_tokens, 0u);
      EXPECT_GT(evaluated, 17u + 40);  // and the answer's 40 tokens, rendered anew
    }
  }
}

// A model's broken UTF-8 reaches a JSON client as U+FFFD, which it sends back; the warmed
// history holds the same, so the follow-up still finds it cached.
TEST(Scheduler, WarmedHistoryHoldsTheTextAsClientsReceiveIt) {
  const std::vector<int32_t> broken = {'o', 'k', 0xe2, 0x82, ' ', 0xff, 'z'};  // bytes, as the test vocabulary's ids
  size_t at = 0;  // the step thread's alone
  Scheduler scheduler(MakeEngine(1, [&](absl::Span<const int32_t>) { return broken[at++ % broken.size()]; }), {});
  GenerateRequest first = Ask("hi", static_cast<int32_t>(broken.size()));
  absl::StatusOr<GenerateResult> a = scheduler.Generate(first, {});
  ASSERT_TRUE(a.ok()) << a.status();
  while (scheduler.stats().warming > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ChatMessage received = a->message;
  received.content = "ok\xef\xbf\xbd \xef\xbf\xbdz";  // one U+FFFD per ill-formed sequence
  GenerateRequest second = first;
  second.chat.messages = {first.chat.messages[0], received, {.role = "user", .content = "more"}};
  absl::StatusOr<GenerateResult> b = scheduler.Generate(second, {});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->timings.prompt_tokens - b->timings.reused_tokens, 17u);
}

TEST(Scheduler, StoppingEndsRunningAndWaitingRequests) {
  Gate gate;
  auto scheduler = std::make_unique<Scheduler>(MakeEngine(1, gate.Wrap(HashNextToken(200))), SchedulerOptions{});
  auto running = std::async(std::launch::async, [&] { return scheduler->Generate(Ask("a", 1000), {}); });
  AwaitStats(*scheduler, 1, 0);
  auto waiting = std::async(std::launch::async, [&] { return scheduler->Generate(Ask("b"), {}); });
  AwaitStats(*scheduler, 1, 1);
  auto stop = std::async(std::launch::async, [&] { scheduler.reset(); });
  EXPECT_EQ(waiting.get().status().code(), absl::StatusCode::kUnavailable);
  gate.Open();
  absl::StatusOr<GenerateResult> r = running.get();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kCancelled);
  stop.get();
}

}  // namespace
}  // namespace cpubrrr

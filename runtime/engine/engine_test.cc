// Checks generation with a scripted fake model: stops, limits, streaming, prefix reuse.
#include "runtime/engine/engine.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "runtime/engine/fake_model.h"
#include "runtime/engine/test_vocab.h"
#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

// An engine over a FakeModel that, after the prompt of the current request, emits
// `script` (text with specials) and then the filler byte 'z' forever.
class EngineFixture {
 public:
  // `rewind_limit`: the model's sessions rewind as a sliding-window ring of that slack.
  EngineFixture(ChatFormat format, uint32_t context_length = 4096, uint32_t rewind_limit = UINT32_MAX) {
    auto tokenizer = TestTokenizer();
    tokenizer_ = tokenizer.get();
    const ModelInfo info{.architecture = "fake",
                         .n_vocab = static_cast<uint32_t>(tokenizer->vocab_size()),
                         .n_ctx_train = 4096};
    auto model = std::make_unique<FakeModel>(info, [this](absl::Span<const int32_t> history) {
      const size_t i = history.size() - prompt_size_;
      return i < script_.size() ? script_[i] : int32_t{'z'};
    });
    model_ = model.get();
    model_->set_rewind_limit(rewind_limit);
    absl::StatusOr<std::unique_ptr<Engine>> engine =
        Engine::Create(std::move(model), std::move(tokenizer), {.context_length = context_length, .chat_format = format});
    EXPECT_TRUE(engine.ok()) << engine.status();
    engine_ = *std::move(engine);
  }

  // Runs `request` with greedy sampling, the model continuing with `script`.
  absl::StatusOr<GenerateResult> Run(GenerateRequest request, const std::string& script,
                                     std::vector<ChatDelta>* deltas = nullptr) {
    request.sampling.temperature = 0;
    script_ = tokenizer_->Encode(script, false, true);
    absl::StatusOr<std::vector<int32_t>> prompt = engine_->TokenizePrompt(request);
    if (!prompt.ok()) return prompt.status();
    prompt_size_ = prompt->size();
    GenerateCallbacks callbacks;
    if (deltas) callbacks.on_delta = [deltas](const ChatDelta& d) { deltas->push_back(d); };
    return engine_->Generate(request, callbacks);
  }

  int32_t Id(const char* text) const { return tokenizer_->Encode(text, false, true).at(0); }

  Engine& engine() { return *engine_; }
  FakeModel& model() { return *model_; }

 private:
  const BpeTokenizer* tokenizer_;
  FakeModel* model_;
  std::unique_ptr<Engine> engine_;
  std::vector<int32_t> script_;
  size_t prompt_size_ = 0;
};

GenerateRequest UserSays(const std::string& text) {
  GenerateRequest request;
  request.chat.date = "2025-01-01";
  request.chat.messages = {{.role = "user", .content = text}};
  return request;
}

// A model whose caches take 1 KiB per position and n_ctx_train 32768, for the memory budget.
std::unique_ptr<FakeModel> KibPerPositionModel() {
  const ModelInfo info{.architecture = "gpt-oss", .n_vocab = static_cast<uint32_t>(TestTokenizer()->vocab_size()),
                       .n_ctx_train = 32768};
  auto model = std::make_unique<FakeModel>(info, [](absl::Span<const int32_t>) { return int32_t{'z'}; });
  model->set_bytes_per_position(1024);
  return model;
}

TEST(Engine, SlotsThatDoNotFitTheMemoryBudgetAreRefused) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(
      KibPerPositionModel(), TestTokenizer(), {.context_length = 8192, .slots = 4, .memory_budget = 16 << 20});
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(engine.status().message(),
            "kv cache: cannot allocate 4 slots of 8192 positions (0.03 GiB): 0.02 GiB of memory is available "
            "(a cgroup limit included); lower -c or -np");
  EXPECT_TRUE(Engine::Create(KibPerPositionModel(), TestTokenizer(),
                             {.context_length = 4096, .slots = 4, .memory_budget = 16 << 20})
                  .ok());
}

TEST(Engine, TheDefaultContextIsSplitAndHalvedToHalfTheBudget) {
  // 32768 positions over 4 slots is 8192 each: 32 MiB in all, halved twice to fit 8 MiB.
  absl::StatusOr<std::unique_ptr<Engine>> engine =
      Engine::Create(KibPerPositionModel(), TestTokenizer(), {.slots = 4, .memory_budget = 16 << 20});
  ASSERT_TRUE(engine.ok()) << engine.status();
  EXPECT_EQ((*engine)->context_length(), 2048u);
  engine = Engine::Create(KibPerPositionModel(), TestTokenizer(), {.slots = 4, .memory_budget = uint64_t{1} << 30});
  ASSERT_TRUE(engine.ok()) << engine.status();
  EXPECT_EQ((*engine)->context_length(), 8192u);
}

TEST(Engine, HarmonyStopsOnReturnNotEnd) {
  EngineFixture f(ChatFormat::kHarmony);
  absl::StatusOr<GenerateResult> r = f.Run(
      UserSays("Hi"),
      "<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>"
      "Hello<|return|>more");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kStopToken);
  EXPECT_EQ(r->message.reasoning, "think");
  EXPECT_EQ(r->message.content, "Hello");
  EXPECT_EQ(r->tokens.back(), f.Id("<|return|>"));
}

TEST(Engine, HarmonyToolCallEndsOnCall) {
  EngineFixture f(ChatFormat::kHarmony);
  absl::StatusOr<GenerateResult> r = f.Run(
      UserSays("Weather?"),
      "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
      "{\"city\":\"Paris\"}<|call|>");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kStopToken);
  ASSERT_EQ(r->message.tool_calls.size(), 1u);
  EXPECT_EQ(r->message.tool_calls[0].name, "get_weather");
  EXPECT_EQ(r->message.tool_calls[0].arguments, "{\"city\":\"Paris\"}");
}

TEST(Engine, ChatMlStopsOnImEndAndSplitsThinking) {
  EngineFixture f(ChatFormat::kChatMl);
  absl::StatusOr<GenerateResult> r =
      f.Run(UserSays("Hi"), "<think>\nhmm\n</think>\n\nHello<|im_end|>zz");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kStopToken);
  EXPECT_EQ(r->message.reasoning, "hmm");
  EXPECT_EQ(r->message.content, "Hello");
  EXPECT_EQ(r->tokens.back(), f.Id("<|im_end|>"));
}

TEST(Engine, StopsOnEndOfText) {
  EngineFixture f(ChatFormat::kChatMl);
  absl::StatusOr<GenerateResult> r = f.Run(UserSays("Hi"), "ok<|endoftext|>zz");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->finish, FinishReason::kStopToken);
  EXPECT_EQ(r->message.content, "ok");
}

TEST(Engine, StopStringEndsTheTurnBeforeIt) {
  EngineFixture f(ChatFormat::kChatMl);
  GenerateRequest request = UserSays("Hi");
  request.stop = {"STOP"};
  absl::StatusOr<GenerateResult> r = f.Run(request, "Hello STOP world<|im_end|>");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->finish, FinishReason::kStopString);
  EXPECT_EQ(r->message.content, "Hello ");
}

TEST(Engine, MaxTokens) {
  EngineFixture f(ChatFormat::kChatMl);
  GenerateRequest request = UserSays("Hi");
  request.max_tokens = 3;
  absl::StatusOr<GenerateResult> r = f.Run(request, "abcdef");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->finish, FinishReason::kMaxTokens);
  EXPECT_EQ(r->message.content, "abc");
  EXPECT_EQ(r->timings.generated_tokens, 3u);
}

TEST(Engine, IgnoreEosNeverSamplesTheEndOfTurn) {
  EngineFixture f(ChatFormat::kChatMl);
  GenerateRequest request = UserSays("Hi");
  request.max_tokens = 4;
  request.ignore_eos = true;
  absl::StatusOr<GenerateResult> r = f.Run(request, "<|im_end|><|im_end|><|endoftext|>x");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kMaxTokens);
  for (int32_t id : r->tokens) {
    EXPECT_NE(id, f.Id("<|im_end|>"));
    EXPECT_NE(id, f.Id("<|endoftext|>"));
  }
}

TEST(Engine, PromptLongerThanContextIsAnError) {
  EngineFixture f(ChatFormat::kChatMl, /*context_length=*/16);
  absl::StatusOr<GenerateResult> r = f.Run(UserSays(std::string(100, 'a')), "x");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kOutOfRange) << r.status();
  EXPECT_NE(r.status().message().find("context"), std::string::npos);
}

TEST(Engine, GenerationStopsWhenTheContextIsFull) {
  EngineFixture f(ChatFormat::kChatMl, /*context_length=*/40);
  absl::StatusOr<GenerateResult> r = f.Run(UserSays("Hi"), "");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->finish, FinishReason::kContextFull);
  EXPECT_EQ(r->timings.prompt_tokens + r->timings.generated_tokens, 41u);
}

TEST(Engine, StreamingNeverSplitsACharacter) {
  EngineFixture f(ChatFormat::kChatMl);
  const std::string text = "\xC3\xA9\xF0\x9F\x98\x80x\xE2\x82\xAC";  // é 😀 x €, one token per byte
  std::vector<ChatDelta> deltas;
  absl::StatusOr<GenerateResult> r = f.Run(UserSays("Hi"), text + "<|im_end|>", &deltas);
  ASSERT_TRUE(r.ok());
  std::string joined;
  for (const ChatDelta& d : deltas) {
    EXPECT_TRUE(IsValidUtf8(d.content)) << d.content;
    joined += d.content;
  }
  EXPECT_EQ(joined, text);
  EXPECT_GT(deltas.size(), 1u);
}

TEST(Engine, MultiTurnPrefillsOnlyTheNewSuffix) {
  EngineFixture f(ChatFormat::kChatMl);
  GenerateRequest request = UserSays("Hi");
  absl::StatusOr<std::vector<int32_t>> first_prompt = f.engine().TokenizePrompt(request);
  ASSERT_TRUE(first_prompt.ok());
  absl::StatusOr<GenerateResult> first = f.Run(request, "Hello<|im_end|>");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->timings.reused_tokens, 0u);

  request.chat.messages.push_back(first->message);
  request.chat.messages.push_back({.role = "user", .content = "again"});
  absl::StatusOr<std::vector<int32_t>> second_prompt = f.engine().TokenizePrompt(request);
  ASSERT_TRUE(second_prompt.ok());
  const uint64_t evaluated_before = f.model().evaluated_tokens();
  absl::StatusOr<GenerateResult> second = f.Run(request, "Bye<|im_end|>");
  ASSERT_TRUE(second.ok());
  // The first prompt and the generated "Hello" are in the cache.
  EXPECT_EQ(second->timings.reused_tokens, first_prompt->size() + 1);
  // Prefill evaluated only the rest; decode evaluated "Bye" (3 tokens, the stop is not run).
  EXPECT_EQ(f.model().evaluated_tokens() - evaluated_before,
            second_prompt->size() - second->timings.reused_tokens + 3);
  EXPECT_EQ(second->message.content, "Bye");
}

TEST(Engine, ResetForgetsTheCache) {
  EngineFixture f(ChatFormat::kChatMl);
  ASSERT_TRUE(f.Run(UserSays("Hi"), "Hello<|im_end|>").ok());
  f.engine().Reset();
  absl::StatusOr<GenerateResult> r = f.Run(UserSays("Hi"), "Hello<|im_end|>");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->timings.reused_tokens, 0u);
}

// A session that cannot rewind as far as the previous answer goes back to the checkpoint
// the engine made after the previous prompt, and prefills only what follows it.
TEST(Engine, ARewindBeyondTheSessionFallsBackToThePromptsCheckpoint) {
  for (ChatFormat format : {ChatFormat::kHarmony, ChatFormat::kChatMl}) {
    SCOPED_TRACE(static_cast<int>(format));
    EngineFixture f(format, 4096, /*rewind_limit=*/8);
    GenerateRequest request = UserSays("Hi");
    absl::StatusOr<std::vector<int32_t>> first_prompt = f.engine().TokenizePrompt(request);
    ASSERT_TRUE(first_prompt.ok());
    request.max_tokens = 40;  // 40 'z' tokens: far beyond the 8 the session can rewind
    absl::StatusOr<GenerateResult> first = f.Run(request, "");
    ASSERT_TRUE(first.ok()) << first.status();
    ASSERT_EQ(first->timings.generated_tokens, 40u);

    request.chat.messages.push_back({.role = "assistant", .content = "ok"});
    request.chat.messages.push_back({.role = "user", .content = "again"});
    absl::StatusOr<std::vector<int32_t>> second_prompt = f.engine().TokenizePrompt(request);
    ASSERT_TRUE(second_prompt.ok());
    const uint64_t evaluated_before = f.model().evaluated_tokens();
    absl::StatusOr<GenerateResult> second = f.Run(request, "Bye");
    ASSERT_TRUE(second.ok()) << second.status();
    EXPECT_EQ(second->timings.reused_tokens, first_prompt->size());
    EXPECT_EQ(f.model().evaluated_tokens() - evaluated_before,
              second_prompt->size() - first_prompt->size() + second->timings.generated_tokens - 1);
    EXPECT_EQ(second->message.content.substr(0, 3), "Bye");

    // A prompt that shares nothing the session can keep starts from 0.
    GenerateRequest other = UserSays("Other");
    other.max_tokens = 2;
    absl::StatusOr<GenerateResult> third = f.Run(other, "x");
    ASSERT_TRUE(third.ok()) << third.status();
    EXPECT_EQ(third->timings.reused_tokens, 0u);
  }
}

TEST(Engine, ResetAndPromptLogitsAfterALongAnswer) {
  EngineFixture f(ChatFormat::kHarmony, 4096, /*rewind_limit=*/8);
  GenerateRequest request = UserSays("Hi");
  request.max_tokens = 40;
  ASSERT_TRUE(f.Run(request, "").ok());
  f.engine().Reset();
  absl::StatusOr<GenerateResult> r = f.Run(UserSays("Hi"), "ok<|return|>");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->timings.reused_tokens, 0u);
  request.max_tokens = 40;
  ASSERT_TRUE(f.Run(request, "").ok());
  EXPECT_TRUE(f.engine().PromptLogits(std::vector<int32_t>{'a', 'b'}).ok());
}

TEST(Engine, RawPromptOutputIsAllContent) {
  EngineFixture f(ChatFormat::kHarmony);
  GenerateRequest request;
  request.raw_prompt = "<|start|>user<|message|>Hi<|end|><|start|>assistant";
  absl::StatusOr<GenerateResult> r = f.Run(request, "<|channel|>final<|message|>ok<|return|>");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->message.content, "<|channel|>final<|message|>ok");
  EXPECT_EQ(r->finish, FinishReason::kStopToken);
}

TEST(Engine, PromptLogitsComeFromAFreshCache) {
  EngineFixture f(ChatFormat::kChatMl);
  const std::vector<int32_t> prompt = {'a', 'b'};
  absl::StatusOr<std::vector<float>> logits = f.engine().PromptLogits(prompt);
  ASSERT_TRUE(logits.ok());
  EXPECT_EQ(logits->size(), f.engine().model().info().n_vocab);
}

}  // namespace
}  // namespace cpubrrr

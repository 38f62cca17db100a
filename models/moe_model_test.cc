// LoadModel without llama.cpp: thread-count independence, batched prefill equal to
// token-by-token, Ollama naming, and clear errors for broken files and misuse.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "models/load_model.h"
#include "models/testing/synth_model.h"

namespace cpubrrr {
namespace {

// Returns the path of `preset` (seed 3, GGUF naming), written once per test binary: the
// properties checked here hold for any weights, so the tests share one file per preset.
std::string SharedModel(const std::string& preset) {
  static auto* paths = new std::map<std::string, std::string>;
  auto it = paths->find(preset);
  if (it != paths->end()) return it->second;
  absl::StatusOr<std::string> path = WriteSynthModel(preset, false, 3, "-shared");
  EXPECT_TRUE(path.ok()) << path.status();
  return (*paths)[preset] = path.ok() ? *path : "";
}

// Loads with 32-token passes unless told otherwise, so short prompts span several.
std::unique_ptr<Model> Load(const std::string& path, int threads,
                            KvCacheType kv = KvCacheType::kF16, int batch = 32) {
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModel(path, {.n_threads = threads, .kv_type = kv, .max_batch_tokens = batch});
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : nullptr;
}

std::vector<int32_t> Prompt(int n, uint32_t n_vocab) {
  std::vector<int32_t> p;
  for (int i = 0; i < n; ++i) p.push_back(static_cast<int32_t>((i * 7919 + 13) % n_vocab));
  return p;
}

// Returns `n` greedy tokens after `prompt`, the prompt run as one batch.
std::vector<int32_t> Greedy(Model& model, const std::vector<int32_t>& prompt, int n) {
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(512);
  EXPECT_TRUE(session.ok());
  std::vector<float> logits(model.info().n_vocab);
  EXPECT_TRUE(model.Forward(**session, prompt, absl::MakeSpan(logits)).ok());
  std::vector<int32_t> out;
  for (int i = 0; i < n; ++i) {
    const int32_t next = static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    out.push_back(next);
    EXPECT_TRUE(model.Forward(**session, {&next, 1}, absl::MakeSpan(logits)).ok());
  }
  return out;
}

class PerPreset : public testing::TestWithParam<const char*> {};

// With 3 threads a decode step of the presets that route 2 experts per token splits each
// expert's rows across workers; with fewer threads, and in the prompt, workers run whole
// experts (MoeModel::Experts): both paths must give the same tokens.
TEST_P(PerPreset, GreedyContinuationDoesNotDependOnThreadCount) {
  const std::string path = SharedModel(GetParam());
  const std::vector<int32_t> prompt = Prompt(9, 1000);
  std::vector<int32_t> first;
  for (int threads : {1, 2, 3}) {
    std::unique_ptr<Model> model = Load(path, threads);
    ASSERT_NE(model, nullptr);
    const std::vector<int32_t> got = Greedy(*model, prompt, 32);
    if (first.empty()) first = got;
    EXPECT_EQ(got, first) << threads << " threads";
  }
}

// Runs 45 tokens as one Forward and token by token with `batch`-token passes. The
// batched pass takes the gemm kernels (the AVX-512 ones round in the oracle's order, the
// gemv in ggml's); a last-bit difference can move an activation quant by one step, so
// the logits agree within the bound we hold ourselves to against llama.cpp (0.15 of the
// logits' standard deviation, tests/llama_ref/model_vs_llama_test.cc; docs/MODELS.md,
// "Prefill and decode kernels") and pick the same next token.
void ExpectBatchedMatchesTokenByToken(const std::string& path, int batch) {
  std::unique_ptr<Model> model = Load(path, 2, KvCacheType::kF32, batch);
  ASSERT_NE(model, nullptr);
  const std::vector<int32_t> prompt = Prompt(45, model->info().n_vocab);
  std::vector<float> batched(model->info().n_vocab), single(model->info().n_vocab);
  auto a = model->NewSession(64);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(model->Forward(**a, prompt, absl::MakeSpan(batched)).ok());
  auto b = model->NewSession(64);
  ASSERT_TRUE(b.ok());
  for (int32_t t : prompt) ASSERT_TRUE(model->Forward(**b, {&t, 1}, absl::MakeSpan(single)).ok());
  double mean = 0, worst = 0;
  for (float v : single) mean += v / single.size();
  double var = 0;
  for (size_t i = 0; i < single.size(); ++i) {
    var += (single[i] - mean) * (single[i] - mean) / single.size();
    worst = std::max(worst, std::fabs(double{batched[i]} - single[i]));
  }
  const double sd = std::sqrt(var);
  std::printf("batch %d: max|batched - token by token| = %.4g = %.4f logit std\n", batch, worst,
              worst / sd);
  EXPECT_LT(worst, 0.15 * sd);
  EXPECT_EQ(std::max_element(batched.begin(), batched.end()) - batched.begin(),
            std::max_element(single.begin(), single.end()) - single.begin());
  EXPECT_EQ((*a)->position(), 45u);
}

// With one-token passes the prompt takes the decode kernels: bit for bit.
TEST_P(PerPreset, OneTokenPassesEqualTokenByTokenBitForBit) {
  std::unique_ptr<Model> model = Load(SharedModel(GetParam()), 2, KvCacheType::kF32, 1);
  ASSERT_NE(model, nullptr);
  const std::vector<int32_t> prompt = Prompt(20, model->info().n_vocab);
  std::vector<float> whole(model->info().n_vocab), single(model->info().n_vocab);
  auto a = model->NewSession(64);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(model->Forward(**a, prompt, absl::MakeSpan(whole)).ok());
  auto b = model->NewSession(64);
  ASSERT_TRUE(b.ok());
  for (int32_t t : prompt) ASSERT_TRUE(model->Forward(**b, {&t, 1}, absl::MakeSpan(single)).ok());
  EXPECT_EQ(whole, single);
}

TEST_P(PerPreset, BatchedPrefillMatchesTokenByTokenWithinBound) {
  // 32-token passes: a full chunk and a partial one; 512 (the default): one chunk.
  ExpectBatchedMatchesTokenByToken(SharedModel(GetParam()), 32);
  ExpectBatchedMatchesTokenByToken(SharedModel(GetParam()), 512);
}

INSTANTIATE_TEST_SUITE_P(Presets, PerPreset,
                         testing::Values("gpt-oss-tiny", "gpt-oss-tiny-odd", "qwen3moe-tiny",
                                         "qwen3moe-tiny-odd"));

TEST(GptOss, SlidingWindowRingMatchesAFullCacheAndRewinds) {
  std::unique_ptr<Model> model = Load(SharedModel("gpt-oss-tiny"), 2, KvCacheType::kF32);
  ASSERT_NE(model, nullptr);
  // 200 positions pass the 128-position window of the even layers.
  const std::vector<int32_t> prompt = Prompt(200, model->info().n_vocab);
  std::vector<float> whole(model->info().n_vocab), again(model->info().n_vocab);
  auto session = model->NewSession(256);
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE(model->Forward(**session, prompt, absl::MakeSpan(whole)).ok());
  ASSERT_EQ((*session)->Truncate(199), 199u);
  ASSERT_TRUE(model->Forward(**session, {&prompt[199], 1}, absl::MakeSpan(again)).ok());
  EXPECT_EQ(whole, again);
  // 100 positions back the ring has overwritten the window before position 100.
  EXPECT_EQ((*session)->Truncate(100), 0u);
}

TEST(GptOss, OllamaNamingLoadsAndRuns) {
  absl::StatusOr<std::string> path = WriteSynthModel("gpt-oss-tiny", true, 3, "-ollama");
  ASSERT_TRUE(path.ok()) << path.status();
  std::unique_ptr<Model> model = Load(*path, 2);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->info().architecture, "gpt-oss");
  EXPECT_EQ(Greedy(*model, Prompt(5, 1000), 4).size(), 4u);
}

// Logits of a batched prompt (the gemms) and of greedy one-token steps after it (the gemvs).
std::vector<float> PromptAndStepLogits(Model& model, int steps) {
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(128);
  EXPECT_TRUE(session.ok());
  std::vector<float> logits(model.info().n_vocab), all;
  EXPECT_TRUE(model.Forward(**session, Prompt(40, model.info().n_vocab), absl::MakeSpan(logits)).ok());
  for (int i = 0; i <= steps; ++i) {
    all.insert(all.end(), logits.begin(), logits.end());
    const int32_t next = static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    EXPECT_TRUE(model.Forward(**session, {&next, 1}, absl::MakeSpan(logits)).ok());
  }
  return all;
}

// Whether this CPU should repack, from its features rather than from the code under test:
// every x86-64 CPU with AVX2 (and only those) runs repacked kernels.
bool RepacksHere() { return HasFeatures(DetectCpuFeatures(), kCpuAvx2); }

// Where a repacked kernel runs (AVX2 or AVX-512 VNNI) the gpt-oss presets' MXFP4 experts and the qwen3moe presets' Q4_K and
// Q6_K experts, attention and output head run from repacked copies (models/common/repacked_weights.h):
// the same bits as from the file, whether a worker takes whole experts (1-2 threads) or a
// share of each one's rows (3 threads, 2 experts).
TEST(Repack, RepackedWeightsGiveTheSameBits) {
  const bool repacks = RepacksHere();
  for (const char* preset : {"gpt-oss-tiny", "gpt-oss-tiny-odd", "qwen3moe-tiny", "qwen3moe-tiny-odd"}) {
    for (int threads : {1, 3}) {
      SCOPED_TRACE(std::string(preset) + ", " + std::to_string(threads) + " threads");
      absl::StatusOr<std::unique_ptr<Model>> with = LoadModel(SharedModel(preset), {.n_threads = threads, .max_batch_tokens = 32});
      absl::StatusOr<std::unique_ptr<Model>> without =
          LoadModel(SharedModel(preset), {.n_threads = threads, .max_batch_tokens = 32, .repack = false});
      ASSERT_TRUE(with.ok() && without.ok());
      EXPECT_EQ((*with)->info().derived_bytes > 0, repacks);
      EXPECT_EQ((*without)->info().derived_bytes, 0u);
      const std::vector<float> a = PromptAndStepLogits(**with, 6), b = PromptAndStepLogits(**without, 6);
      ASSERT_EQ(a.size(), b.size());
      const size_t first = std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin();
      EXPECT_EQ(first, a.size()) << "first difference in pass " << first / (*with)->info().n_vocab
                                 << " (0: the prompt)";
    }
  }
}

// With a repack cache directory the first load writes the copies to a file there, the
// next ones map it (until the model file changes, when it is written again): the same bits
// as without copies. Without AVX2 nothing is written.
TEST(Repack, CacheFileGivesTheSameBitsAndFollowsTheModelFile) {
  const bool repacks = RepacksHere();
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/repack-cache";
  absl::StatusOr<std::string> path = WriteSynthModel("qwen3moe-tiny", false, 3, "-cached");
  ASSERT_TRUE(path.ok()) << path.status();
  absl::StatusOr<std::unique_ptr<Model>> plain = LoadModel(*path, {.n_threads = 2, .max_batch_tokens = 32, .repack = false});
  ASSERT_TRUE(plain.ok()) << plain.status();
  const std::vector<float> want = PromptAndStepLogits(**plain, 4);
  // Loads with the cache and returns whether it wrote the file (-1: no file used).
  auto load = [&]() {
    absl::StatusOr<std::unique_ptr<Model>> model =
        LoadModel(*path, {.n_threads = 2, .max_batch_tokens = 32, .repack_cache_dir = dir});
    EXPECT_TRUE(model.ok()) << model.status();
    if (!model.ok()) return -2;
    const ModelInfo& info = (*model)->info();
    EXPECT_EQ(info.repack_cache_error, "");
    EXPECT_EQ(info.derived_bytes > 0, repacks);
    EXPECT_TRUE(PromptAndStepLogits(**model, 4) == want) << "not the bits of the file's layout";
    return info.repack_cache.empty() ? -1 : int{info.repack_cache_written};
  };
  EXPECT_EQ(load(), repacks ? 1 : -1);
  EXPECT_EQ(load(), repacks ? 0 : -1);
  // The model file given a new modification time, as rewriting it in place would (same
  // size and inode): the copies are made again.
  struct timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
  ASSERT_EQ(utimensat(AT_FDCWD, path->c_str(), times, 0), 0);
  EXPECT_EQ(load(), repacks ? 1 : -1);
  EXPECT_EQ(load(), repacks ? 0 : -1);
  std::error_code ec;
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir, ec), {}), repacks ? 1 : 0);
}

// A cache directory that cannot be made costs only the cache: the copies are made in
// memory and the load says why. Without AVX2 nothing is repacked, so no cache is
// tried and there is nothing to report.
TEST(Repack, UnusableCacheDirectoryFallsBackToMemory) {
  const bool repacks = RepacksHere();
  const std::string blocker = std::string(std::getenv("TEST_TMPDIR")) + "/not-a-directory";
  std::FILE* f = std::fopen(blocker.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(
      SharedModel("qwen3moe-tiny"), {.n_threads = 2, .max_batch_tokens = 32, .repack_cache_dir = blocker + "/cache"});
  ASSERT_TRUE(model.ok()) << model.status();
  const ModelInfo& info = (*model)->info();
  EXPECT_EQ(info.derived_bytes > 0, repacks);
  EXPECT_EQ(info.repack_cache, "");
  if (repacks) {
    EXPECT_NE(info.repack_cache_error.find("is not a directory"), std::string::npos) << info.repack_cache_error;
  } else {
    EXPECT_EQ(info.repack_cache_error, "");
  }
}

TEST(ModelInfo, CountsParametersAndBytesPerToken) {
  std::unique_ptr<Model> model = Load(SharedModel("qwen3moe-tiny"), 1);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->info().n_vocab, 151936u);
  EXPECT_GT(model->info().n_params, 151936u * 256);
  EXPECT_GT(model->info().bytes_per_token, 0u);
  EXPECT_LT(model->info().bytes_per_token, model->info().file_bytes);
  // The Q6_K output head, Q4_K and Q6_K experts and attention are repacked (only) where
  // AVX2 runs.
  EXPECT_EQ(model->info().derived_bytes > 0, RepacksHere());
}

// Returns LoadModel's status for `preset` after `edit`.
absl::Status LoadEdited(const std::string& tag, const std::function<void(synth::ModelPlan&)>& edit,
                        const std::string& preset = "gpt-oss-tiny") {
  absl::StatusOr<std::string> path = WriteSynthModel(preset, false, 3, tag, edit);
  if (!path.ok()) return path.status();
  return LoadModel(*path, {.n_threads = 1}).status();
}

synth::PlannedTensor* Find(synth::ModelPlan& plan, const std::string& name) {
  for (synth::PlannedTensor& t : plan.tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

TEST(Errors, MissingTensorIsNamed) {
  absl::Status s = LoadEdited("-missing", [](synth::ModelPlan& plan) {
    plan.tensors.erase(plan.tensors.begin() + (Find(plan, "blk.1.attn_k.weight") - plan.tensors.data()));
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_NE(s.message().find("blk.1.attn_k.weight"), std::string::npos) << s;
}

TEST(Errors, WrongShapeIsNamed) {
  absl::Status s = LoadEdited("-shape", [](synth::ModelPlan& plan) {
    Find(plan, "blk.0.attn_v.weight")->dims[1] = 64;
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("blk.0.attn_v.weight"), std::string::npos) << s;
}

TEST(Errors, UnsupportedTensorTypeIsNamed) {
  // Q8_K is a valid GGUF type (an activation format) but no weight type of ours.
  absl::Status s = LoadEdited("-type", [](synth::ModelPlan& plan) {
    Find(plan, "blk.0.attn_q.weight")->type = GgmlType::kQ8_K;
  }, "qwen3moe-tiny");
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_NE(s.message().find("q8_K"), std::string::npos) << s;
}

TEST(Errors, UnknownArchitecture) {
  absl::Status s = LoadEdited("-arch", [](synth::ModelPlan& plan) {
    for (auto& [key, value] : plan.metadata) {
      if (key == "general.architecture") value = std::string("llama");
    }
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_NE(s.message().find("llama"), std::string::npos) << s;
}

TEST(Errors, ContextOverflowAndBadTokensChangeNothing) {
  std::unique_ptr<Model> model = Load(SharedModel("gpt-oss-tiny"), 2);
  ASSERT_NE(model, nullptr);
  auto session = model->NewSession(8);
  ASSERT_TRUE(session.ok());
  std::vector<float> logits(model->info().n_vocab);
  const std::vector<int32_t> six = Prompt(6, 1000);
  ASSERT_TRUE(model->Forward(**session, six, absl::MakeSpan(logits)).ok());
  absl::Status s = model->Forward(**session, six, absl::MakeSpan(logits));
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  EXPECT_EQ((*session)->position(), 6u);
  const int32_t bad = -1;
  EXPECT_EQ(model->Forward(**session, {&bad, 1}, absl::MakeSpan(logits)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(model->Forward(**session, {}, absl::MakeSpan(logits)).code(),
            absl::StatusCode::kInvalidArgument);
  std::vector<float> short_logits(5);
  EXPECT_EQ(model->Forward(**session, six, absl::MakeSpan(short_logits)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*session)->position(), 6u);
}

TEST(Errors, MissingFile) {
  EXPECT_FALSE(LoadModel("/nonexistent/model.gguf", {}).ok());
}

}  // namespace
}  // namespace cpubrrr

namespace cpubrrr {
namespace {

// Measures how far rounding only the KV cache to f16 moves the logits: the scale of
// disagreement any f16-cache engine (llama.cpp's default) shows on these random models.
TEST(Numerics, F16CacheMovesLogitsLittle) {
  for (const char* preset : {"gpt-oss-tiny", "qwen3moe-tiny"}) {
    std::vector<std::vector<float>> logits;
    for (KvCacheType kv : {KvCacheType::kF32, KvCacheType::kF16}) {
      std::unique_ptr<Model> model = Load(SharedModel(preset), 2, kv);
      ASSERT_NE(model, nullptr);
      auto session = model->NewSession(64);
      ASSERT_TRUE(session.ok());
      logits.emplace_back(model->info().n_vocab);
      ASSERT_TRUE(model->Forward(**session, Prompt(20, 1000), absl::MakeSpan(logits.back())).ok());
    }
    double diff = 0;
    for (size_t i = 0; i < logits[0].size(); ++i) diff = std::max(diff, double(std::abs(logits[0][i] - logits[1][i])));
    std::printf("%s: max |f32 cache - f16 cache| = %.4f\n", preset, diff);
    EXPECT_LT(diff, 0.2);
  }
}

}  // namespace
}  // namespace cpubrrr

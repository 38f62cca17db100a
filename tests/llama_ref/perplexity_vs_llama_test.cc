// Accuracy parity on the tiny trained models (docs/TRAINING.md): on held-out text, our
// perplexity equals llama.cpp's on the same quantized file within 0.5%, and our mean KL
// divergence from llama.cpp's default run stays below the divergence between llama.cpp's
// own default and per-row configurations, at 1 and 2 threads, with and without repacked
// weights, with batched and token-by-token passes. Threads and repacking change no bit of
// ours. The pass size may change the last bits: on AVX-512 VNNI the gemv follows ggml's
// x86 order (so decode matches llama.cpp) while the gemm follows the oracle's (kernels/
// q4_k/q4_k_kernels.h). There our token-by-token and batched runs are held to llama.cpp's
// own change of pass size (its per-row against its default run): the same top token at
// least as often, and a mean KL within twice its own (the last-bit roundings tip router
// near-ties, and which ones tip is luck; the ratios measured on the two tiny models are in
// docs/RESEARCH_LOG.md). Where both share one order, they are equal.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "models/load_model.h"
#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/eval/chunk_logits.h"
#include "runtime/eval/kl_divergence.h"
#include "runtime/eval/logits_file.h"
#include "runtime/eval/token_log_probs.h"
#include "runtime/gguf/gguf_file.h"
#include "tests/llama_ref/llama_eval.h"

namespace cpubrrr {
namespace {

constexpr char kBackends[] = "external/llama_ref/bins";
constexpr int kCtx = 512, kChunks = 6;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The scored positions of every chunk: logits rows and the true next tokens.
struct Run {
  std::vector<std::vector<float>> logits;  // per chunk, ScoredPerChunk rows
};

// The perplexity of a run's scored positions, from its exact logits.
double Perplexity(const std::vector<std::vector<float>>& logits, const LlamaChunks& base) {
  double nll = 0;
  size_t count = 0;
  for (size_t c = 0; c < logits.size(); ++c) {
    for (uint32_t i = 0; i < ScoredPerChunk(kCtx); ++i, ++count) {
      nll += NegLogLikelihood(absl::MakeConstSpan(logits[c]).subspan(size_t{i} * base.n_vocab, base.n_vocab),
                              base.tokens[c * kCtx + kCtx / 2 + i + 1]);
    }
  }
  return std::exp(nll / count);
}

// Base rows of a run's logits (llama.cpp's default run, or one of ours), as
// --kl-divergence-base stores them.
std::vector<std::vector<uint16_t>> BaseRows(const std::vector<std::vector<float>>& logits, const LlamaChunks& base) {
  const size_t entries = LogProbRowEntries(base.n_vocab);
  std::vector<std::vector<uint16_t>> rows;
  for (size_t c = 0; c < logits.size(); ++c) {
    std::vector<uint16_t>& r = rows.emplace_back(ScoredPerChunk(kCtx) * entries);
    for (uint32_t i = 0; i < ScoredPerChunk(kCtx); ++i) {
      EncodeLogProbRow(absl::MakeConstSpan(logits[c]).subspan(size_t{i} * base.n_vocab, base.n_vocab),
                       base.tokens[c * kCtx + kCtx / 2 + i + 1], absl::MakeSpan(r).subspan(i * entries, entries));
    }
  }
  return rows;
}

KlDivergence Compare(const std::vector<std::vector<float>>& logits, const LlamaChunks& base,
                     const std::vector<std::vector<uint16_t>>& rows) {
  const size_t entries = LogProbRowEntries(base.n_vocab);
  KlDivergence kl;
  for (size_t c = 0; c < logits.size(); ++c) {
    for (uint32_t i = 0; i < ScoredPerChunk(kCtx); ++i) {
      kl.Add(absl::MakeConstSpan(logits[c]).subspan(size_t{i} * base.n_vocab, base.n_vocab),
             absl::MakeConstSpan(rows[c]).subspan(i * entries, entries), base.tokens[c * kCtx + kCtx / 2 + i + 1]);
    }
  }
  return kl;
}

struct OurConfig {
  const char* name;
  int threads;
  bool repack;
  int ubatch;
};

class PerplexityVsLlama : public testing::TestWithParam<const char*> {};

TEST_P(PerplexityVsLlama, SamePerplexityAndLessDivergenceThanLlamaCppsOwnConfigurations) {
  const std::string model_path = std::string("models/trained/") + GetParam();
  std::string text = ReadFile("models/trained/heldout.txt");
  ASSERT_GT(text.size(), 100000u);
  if (text.back() == '\n') text.pop_back();  // as llama-perplexity's -f
  absl::StatusOr<LlamaChunks> base = LlamaChunkLogits(kBackends, model_path, text, kCtx, kChunks, kLlamaDefault, 2);
  ASSERT_TRUE(base.ok()) << base.status();
  absl::StatusOr<LlamaChunks> per_row = LlamaChunkLogits(kBackends, model_path, text, kCtx, kChunks, kLlamaPerRow, 2);
  ASSERT_TRUE(per_row.ok()) << per_row.status();
  const std::vector<std::vector<uint16_t>> rows = BaseRows(base->logits, *base);
  const KlDivergence llama_noise = Compare(per_row->logits, *base, rows);
  const double llama_ppl = Perplexity(base->logits, *base);
  std::printf("%s: llama.cpp PPL %.4f (default) %.4f (per row); KL between them %.3g, same top %.2f%%\n",
              GetParam(), llama_ppl, Perplexity(per_row->logits, *base), llama_noise.MeanKl().value,
              100 * llama_noise.SameTop().value);

  // Our tokenizer gives llama.cpp's tokens.
  absl::StatusOr<GgufFile> file = OpenGguf(model_path);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tokenizer = TokenizerFromGguf(*file);
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.status();
  const std::vector<int32_t> ours = (*tokenizer)->Encode(text, /*add_special=*/true, /*parse_special=*/false);
  ASSERT_EQ(std::vector<int>(ours.begin(), ours.end()), base->tokens);

  const OurConfig configs[] = {{"2 threads, repacked, batched", 2, true, 512},
                               {"1 thread, repacked, batched", 1, true, 512},
                               {"2 threads, file layout, batched", 2, false, 512},
                               {"2 threads, repacked, token by token", 2, true, 1},
                               {"1 thread, file layout, token by token", 1, false, 1}};
  double batched_ppl = 0, by_token_ppl = 0;
  std::vector<std::vector<float>> batched_logits;
  for (const OurConfig& config : configs) {
    SCOPED_TRACE(config.name);
    absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(
        model_path, {.n_threads = config.threads, .max_batch_tokens = config.ubatch, .repack = config.repack});
    ASSERT_TRUE(model.ok()) << model.status();
    absl::StatusOr<std::unique_ptr<Session>> session = (*model)->NewSession(kCtx);
    ASSERT_TRUE(session.ok()) << session.status();
    std::vector<std::vector<float>> logits;
    for (int c = 0; c < kChunks; ++c) {
      std::vector<int32_t> chunk(ours.begin() + c * kCtx, ours.begin() + (c + 1) * kCtx);
      if ((*tokenizer)->config().add_bos) chunk[0] = (*tokenizer)->config().bos_id;
      absl::StatusOr<std::vector<float>> l = ChunkLogits(**model, **session, chunk, 512);
      ASSERT_TRUE(l.ok()) << l.status();
      logits.push_back(*std::move(l));
    }
    const KlDivergence kl = Compare(logits, *base, rows);
    const double ppl = Perplexity(logits, *base);
    std::printf("%s, %s: PPL %.4f (llama.cpp %.4f, ratio %.5f), KL %.3g, same top %.2f%%\n", GetParam(),
                config.name, ppl, llama_ppl, ppl / llama_ppl, kl.MeanKl().value, 100 * kl.SameTop().value);
    EXPECT_NEAR(ppl / llama_ppl, 1.0, 0.005);
    EXPECT_LT(kl.MeanKl().value, llama_noise.MeanKl().value);
    // Threads and repacking change no bit of ours.
    double& same_pass_ppl = config.ubatch == 1 ? by_token_ppl : batched_ppl;
    if (same_pass_ppl == 0) same_pass_ppl = ppl;
    EXPECT_EQ(ppl, same_pass_ppl);
    if (config.ubatch == 1) {
      // The pass size: equal, or as close as llama.cpp's per-row run is to its default.
      const KlDivergence pass_noise = Compare(logits, *base, BaseRows(batched_logits, *base));
      std::printf("%s: token by token vs batched: KL %.3g (llama.cpp's per row vs default %.3g), same top %.2f%%\n",
                  GetParam(), pass_noise.MeanKl().value, llama_noise.MeanKl().value,
                  100 * pass_noise.SameTop().value);
      if (ppl != batched_ppl) {
        EXPECT_LT(pass_noise.MeanKl().value, 2 * llama_noise.MeanKl().value);
        EXPECT_GE(pass_noise.SameTop().value, llama_noise.SameTop().value);
      }
    } else if (batched_logits.empty()) {
      batched_logits = std::move(logits);
    }
  }
  ASSERT_FALSE(batched_logits.empty());
  ASSERT_NE(by_token_ppl, 0);
}

INSTANTIATE_TEST_SUITE_P(TrainedModels, PerplexityVsLlama,
                         testing::Values("gpt-oss-tiny-brown.gguf", "qwen3moe-tiny-brown.gguf"));

}  // namespace
}  // namespace cpubrrr

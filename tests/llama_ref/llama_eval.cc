// libllama wrapper: load a model, tokenize, decode a prompt, copy logits, continue greedily.
#include "tests/llama_ref/llama_eval.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ggml-backend.h"
#include "llama.h"

namespace cpubrrr {
namespace {

// Silences llama.cpp's informational logging; errors still reach stderr.
void QuietLog(ggml_log_level level, const char* text, void*) {
  if (level == GGML_LOG_LEVEL_ERROR) std::fputs(text, stderr);
}

void InitBackendsOnce(const std::string& backend_dir) {
  static std::once_flag once;
  std::call_once(once, [&] {
    llama_log_set(QuietLog, nullptr);
    ggml_backend_load_all_from_path(backend_dir.c_str());
    llama_backend_init();
  });
}

// Returns the index of the largest logit and writes its margin over the runner-up.
int ArgMax(const float* logits, int n, float* margin) {
  int best = 0;
  for (int i = 1; i < n; ++i) best = logits[i] > logits[best] ? i : best;
  float second = -INFINITY;
  for (int i = 0; i < n; ++i) second = i != best ? std::max(second, logits[i]) : second;
  *margin = logits[best] - second;
  return best;
}

// Runs the prompt and `n_tokens` greedy steps.
absl::StatusOr<LlamaGreedy> Run(const std::string& backend_dir, const std::string& model_path,
                                const std::string& prompt, int n_tokens, int threads) {
  InitBackendsOnce(backend_dir);
  llama_model_params model_params = llama_model_default_params();
  // No weight repacking (llama-cli --no-repack): matmuls run ggml's per-row vec_dot.
  model_params.use_extra_bufts = false;
  std::unique_ptr<llama_model, decltype(&llama_model_free)> model(
      llama_model_load_from_file(model_path.c_str(), model_params), llama_model_free);
  if (!model) return absl::InvalidArgumentError(absl::StrCat("llama.cpp cannot load ", model_path));
  const llama_vocab* vocab = llama_model_get_vocab(model.get());
  const int n_vocab = llama_vocab_n_tokens(vocab);

  LlamaGreedy result;
  result.prompt_tokens.resize(prompt.size() + 8);
  const int n = llama_tokenize(vocab, prompt.data(), static_cast<int32_t>(prompt.size()),
                               result.prompt_tokens.data(),
                               static_cast<int32_t>(result.prompt_tokens.size()),
                               /*add_special=*/true, /*parse_special=*/true);
  if (n <= 0) return absl::InvalidArgumentError("llama.cpp tokenized the prompt to nothing");
  result.prompt_tokens.resize(n);

  llama_context_params ctx_params = llama_context_default_params();
  ctx_params.n_ctx = static_cast<uint32_t>(n + n_tokens + 16);
  ctx_params.n_batch = static_cast<uint32_t>(n);
  // One token per graph (llama-cli -ub 1): the prompt then takes the same kernels as the
  // continuation (no tinyBLAS), as our batched passes equal our token-by-token ones.
  ctx_params.n_ubatch = 1;
  ctx_params.n_threads = threads;
  ctx_params.n_threads_batch = threads;
  // An f32 cache without flash attention (whose CPU path rounds q and the value sums to
  // f16): the tiny random models amplify f16 rounding into visible logit changes.
  ctx_params.type_k = GGML_TYPE_F32;
  ctx_params.type_v = GGML_TYPE_F32;
  ctx_params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  std::unique_ptr<llama_context, decltype(&llama_free)> ctx(
      llama_init_from_model(model.get(), ctx_params), llama_free);
  if (!ctx) return absl::InternalError("llama.cpp could not create a context");
  if (llama_decode(ctx.get(), llama_batch_get_one(result.prompt_tokens.data(), n)) != 0) {
    return absl::InternalError("llama_decode failed");
  }
  const float* logits = llama_get_logits_ith(ctx.get(), -1);
  result.logits.assign(logits, logits + n_vocab);
  for (int step = 0; step < n_tokens; ++step) {
    float margin = 0;
    int token = ArgMax(logits, n_vocab, &margin);
    result.continuation.push_back(token);
    result.margins.push_back(margin);
    result.step_logits.emplace_back(logits, logits + n_vocab);
    if (step + 1 == n_tokens) break;
    if (llama_decode(ctx.get(), llama_batch_get_one(&token, 1)) != 0) {
      return absl::InternalError("llama_decode failed on a continuation token");
    }
    logits = llama_get_logits_ith(ctx.get(), -1);
  }
  return result;
}

}  // namespace

absl::StatusOr<LlamaChunks> LlamaChunkLogits(const std::string& backend_dir, const std::string& model_path,
                                             const std::string& text, int n_ctx, int n_chunk,
                                             const LlamaPerplexityConfig& config, int threads) {
  InitBackendsOnce(backend_dir);
  llama_model_params model_params = llama_model_default_params();
  model_params.use_extra_bufts = config.repack;
  std::unique_ptr<llama_model, decltype(&llama_model_free)> model(
      llama_model_load_from_file(model_path.c_str(), model_params), llama_model_free);
  if (!model) return absl::InvalidArgumentError(absl::StrCat("llama.cpp cannot load ", model_path));
  const llama_vocab* vocab = llama_model_get_vocab(model.get());
  LlamaChunks result;
  result.n_vocab = llama_vocab_n_tokens(vocab);
  result.tokens.resize(text.size() + 8);
  const int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), result.tokens.data(),
                               static_cast<int32_t>(result.tokens.size()), /*add_special=*/true,
                               /*parse_special=*/false);
  if (n < n_ctx * n_chunk) return absl::InvalidArgumentError("the text is shorter than the chunks asked for");
  result.tokens.resize(n);

  llama_context_params ctx_params = llama_context_default_params();
  ctx_params.n_ctx = static_cast<uint32_t>(n_ctx);
  ctx_params.n_batch = static_cast<uint32_t>(n_ctx);
  ctx_params.n_ubatch = static_cast<uint32_t>(config.n_ubatch);
  ctx_params.n_threads = threads;
  ctx_params.n_threads_batch = threads;
  ctx_params.type_k = config.f32_cache ? GGML_TYPE_F32 : GGML_TYPE_F16;
  ctx_params.type_v = ctx_params.type_k;
  ctx_params.flash_attn_type = config.flash_attn ? LLAMA_FLASH_ATTN_TYPE_AUTO : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  std::unique_ptr<llama_context, decltype(&llama_free)> ctx(llama_init_from_model(model.get(), ctx_params),
                                                             llama_free);
  if (!ctx) return absl::InternalError("llama.cpp could not create a context");
  const int first = n_ctx / 2;
  llama_batch batch = llama_batch_init(n_ctx, 0, 1);
  for (int c = 0; c < n_chunk; ++c) {
    llama_memory_clear(llama_get_memory(ctx.get()), true);
    batch.n_tokens = n_ctx;
    for (int k = 0; k < n_ctx; ++k) {
      batch.token[k] = result.tokens[c * n_ctx + k];
      batch.pos[k] = k;
      batch.n_seq_id[k] = 1;
      batch.seq_id[k][0] = 0;
      batch.logits[k] = k >= first;
    }
    if (llama_vocab_get_add_bos(vocab)) batch.token[0] = llama_vocab_bos(vocab);
    if (llama_decode(ctx.get(), batch) != 0) {
      llama_batch_free(batch);
      return absl::InternalError("llama_decode failed on a chunk");
    }
    std::vector<float>& rows = result.logits.emplace_back();
    for (int k = first; k < n_ctx - 1; ++k) {
      const float* row = llama_get_logits_ith(ctx.get(), k);
      rows.insert(rows.end(), row, row + result.n_vocab);
    }
  }
  llama_batch_free(batch);
  return result;
}

absl::StatusOr<LlamaLogits> LlamaNextTokenLogits(const std::string& backend_dir,
                                                 const std::string& model_path,
                                                 const std::string& prompt, int threads) {
  absl::StatusOr<LlamaGreedy> run = Run(backend_dir, model_path, prompt, 0, threads);
  if (!run.ok()) return run.status();
  return LlamaLogits{std::move(run->prompt_tokens), std::move(run->logits)};
}

absl::StatusOr<LlamaGreedy> LlamaGreedyContinuation(const std::string& backend_dir,
                                                    const std::string& model_path,
                                                    const std::string& prompt, int n_tokens,
                                                    int threads) {
  return Run(backend_dir, model_path, prompt, n_tokens, threads);
}

}  // namespace cpubrrr

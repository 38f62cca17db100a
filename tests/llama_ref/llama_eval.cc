// libllama wrapper: load a model, tokenize, decode one prompt, copy the last logits.
#include "tests/llama_ref/llama_eval.h"

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

}  // namespace

absl::StatusOr<LlamaLogits> LlamaNextTokenLogits(const std::string& backend_dir,
                                                 const std::string& model_path,
                                                 const std::string& prompt, int threads) {
  InitBackendsOnce(backend_dir);
  llama_model_params model_params = llama_model_default_params();
  std::unique_ptr<llama_model, decltype(&llama_model_free)> model(
      llama_model_load_from_file(model_path.c_str(), model_params), llama_model_free);
  if (!model) return absl::InvalidArgumentError(absl::StrCat("llama.cpp cannot load ", model_path));
  const llama_vocab* vocab = llama_model_get_vocab(model.get());

  LlamaLogits result;
  result.prompt_tokens.resize(prompt.size() + 8);
  const int n = llama_tokenize(vocab, prompt.data(), static_cast<int32_t>(prompt.size()),
                               result.prompt_tokens.data(),
                               static_cast<int32_t>(result.prompt_tokens.size()),
                               /*add_special=*/true, /*parse_special=*/true);
  if (n <= 0) return absl::InvalidArgumentError("llama.cpp tokenized the prompt to nothing");
  result.prompt_tokens.resize(n);

  llama_context_params ctx_params = llama_context_default_params();
  ctx_params.n_ctx = static_cast<uint32_t>(n + 16);
  ctx_params.n_batch = static_cast<uint32_t>(n);
  ctx_params.n_threads = threads;
  ctx_params.n_threads_batch = threads;
  std::unique_ptr<llama_context, decltype(&llama_free)> ctx(
      llama_init_from_model(model.get(), ctx_params), llama_free);
  if (!ctx) return absl::InternalError("llama.cpp could not create a context");
  if (llama_decode(ctx.get(), llama_batch_get_one(result.prompt_tokens.data(), n)) != 0) {
    return absl::InternalError("llama_decode failed");
  }
  const float* logits = llama_get_logits_ith(ctx.get(), -1);
  result.logits.assign(logits, logits + llama_vocab_n_tokens(vocab));
  return result;
}

}  // namespace cpubrrr

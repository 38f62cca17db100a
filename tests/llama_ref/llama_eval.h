// Runs a GGUF model through llama.cpp (libllama) to get reference logits and greedy tokens.
#ifndef CPUBRRR_TESTS_LLAMA_REF_LLAMA_EVAL_H_
#define CPUBRRR_TESTS_LLAMA_REF_LLAMA_EVAL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

struct LlamaLogits {
  std::vector<int> prompt_tokens;
  std::vector<float> logits;  // next-token logits after the whole prompt
};

// Loads `model_path` with llama.cpp's CPU backends from `backend_dir`, tokenizes
// `prompt` with llama.cpp's tokenizer (specials parsed) and returns the next-token
// logits, or an error when llama.cpp refuses the file.
absl::StatusOr<LlamaLogits> LlamaNextTokenLogits(const std::string& backend_dir,
                                                 const std::string& model_path,
                                                 const std::string& prompt, int threads);

struct LlamaGreedy {
  std::vector<int> prompt_tokens;
  std::vector<float> logits;       // next-token logits after the whole prompt
  std::vector<int> continuation;   // greedy (argmax) tokens, one decode call each
  std::vector<float> margins;      // per continuation token: top logit minus the runner-up
  std::vector<std::vector<float>> step_logits;  // per continuation token: the logits it was picked from
};

// As LlamaNextTokenLogits, then appends `n_tokens` greedy tokens, decoding them one at a
// time (the prompt runs as one batch).
absl::StatusOr<LlamaGreedy> LlamaGreedyContinuation(const std::string& backend_dir,
                                                    const std::string& model_path,
                                                    const std::string& prompt, int n_tokens,
                                                    int threads);

// How llama.cpp runs a perplexity reference.
struct LlamaPerplexityConfig {
  int n_ubatch = 512;     // rows per graph; 1: token by token
  bool f32_cache = false;  // else f16
  bool flash_attn = true;  // llama.cpp picks (auto, llama-perplexity's default); false: off
  bool repack = true;      // weight repacking (extra buffer types), llama.cpp's default
};

// llama.cpp's default configuration and its per-row one (one token per graph, an f32
// cache without flash attention, no repacking): their divergence is llama.cpp's own
// numerical noise.
inline constexpr LlamaPerplexityConfig kLlamaDefault{};
inline constexpr LlamaPerplexityConfig kLlamaPerRow{1, true, false, false};

struct LlamaChunks {
  std::vector<int> tokens;  // the text's tokens as llama-perplexity takes them
  // Per chunk: the logits after each scored position's token (n_ctx - 1 - n_ctx / 2
  // rows, n_vocab apart), as llama-perplexity scores them.
  std::vector<std::vector<float>> logits;
  int n_vocab = 0;
};

// Tokenizes `text` as llama-perplexity does (BOS where the vocabulary adds one, specials
// not parsed) and runs its first `n_chunk` chunks of `n_ctx` tokens, each from an empty
// cache with BOS in place of its first token where the vocabulary adds one.
absl::StatusOr<LlamaChunks> LlamaChunkLogits(const std::string& backend_dir, const std::string& model_path,
                                             const std::string& text, int n_ctx, int n_chunk,
                                             const LlamaPerplexityConfig& config, int threads);

}  // namespace cpubrrr

#endif  // CPUBRRR_TESTS_LLAMA_REF_LLAMA_EVAL_H_

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
};

// As LlamaNextTokenLogits, then appends `n_tokens` greedy tokens, decoding them one at a
// time (the prompt runs as one batch).
absl::StatusOr<LlamaGreedy> LlamaGreedyContinuation(const std::string& backend_dir,
                                                    const std::string& model_path,
                                                    const std::string& prompt, int n_tokens,
                                                    int threads);

}  // namespace cpubrrr

#endif  // CPUBRRR_TESTS_LLAMA_REF_LLAMA_EVAL_H_

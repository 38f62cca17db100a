// The cpubrrr command line: subcommands and llama.cpp-style flags.
#ifndef CPUBRRR_TOOLS_CPUBRRR_CLI_OPTIONS_H_
#define CPUBRRR_TOOLS_CPUBRRR_CLI_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/chat/chat_types.h"
#include "runtime/kv_cache/kv_cache.h"
#include "runtime/sampler/sampler_params.h"

namespace cpubrrr {

enum class Command { kHelp, kRun, kChat, kLogits, kTokenize, kModels, kBench, kServe, kPerplexity };

struct CliOptions {
  Command command = Command::kHelp;
  bool help = false;  // -h or --help after the subcommand: print its usage

  std::string model;             // -m: GGUF path or Ollama name; empty: the default model
  int threads = 0;               // -t; 0: the model's choice
  uint32_t context_length = 4096;  // -c; 0: the model's full context (perplexity: 512, a chunk)
  bool repack = true;              // --no-repack turns it off (ModelOptions::repack)
  bool repack_cache = true;        // --no-repack-cache turns it off
  std::string repack_cache_dir;    // --repack-cache; empty: CacheDir()/repacked
  bool page_in = true;             // --no-page-in turns it off (ModelOptions::page_in)
  bool warm_pages = true;          // --no-page-warmer turns it off (ModelOptions::warm_pages)
  uint32_t batch_size = 512;       // -b: prompt tokens per forward call (EngineOptions)
  int ubatch_size = 512;           // -ub: tokens per pass (ModelOptions::max_batch_tokens)
  KvCacheType cache_type = KvCacheType::kF16;  // -ctk / -ctv (K and V share one type)
  const char* cache_type_flag = nullptr;       // which of them set it, if any

  std::optional<std::string> prompt;  // -p or the positional words
  std::string prompt_file;            // -f
  int32_t n_predict = 512;            // -n; -1: until a stop or the context is full
  int64_t seed = -1;                  // -s; -1: random
  SamplerParams sampling;             // --temp --top-k --top-p --min-p --repeat-*
  std::string system_prompt;          // -sys
  ReasoningEffort reasoning_effort = ReasoningEffort::kMedium;
  bool no_think = false;              // Qwen3: thinking off
  bool reasoning_preserve = false;    // earlier turns keep their reasoning in the prompt
  bool ignore_eos = false;            // never end a turn with the model's end token
  bool raw = false;                   // run: the prompt is already formatted
  std::vector<std::string> stop;      // --stop, repeatable

  int top_logits = 10;  // logits --top; 0: every logit
  bool json = false;    // logits --json, bench -o json

  bool ids_only = false;        // tokenize --ids
  bool parse_special = true;    // tokenize --no-parse-special turns it off

  std::vector<int> n_prompt = {512};  // bench -p: ppN tests; 0: none
  std::vector<int> n_gen = {128};     // bench -n: tgN tests; 0: none
  std::vector<int> n_seq = {1};       // bench -np: sequences per step
  std::vector<int> depths = {0};      // bench -d: tokens cached before each test
  std::vector<int> thread_counts;     // bench -t; empty: the physical cores
  int repetitions = 5;                // bench -r

  std::string host = "127.0.0.1";     // serve --host
  int port = -1;                      // serve --port; -1: 8080, or 11434 with --ollama
  bool ollama = false;                // serve --ollama: listen on Ollama's port
  std::vector<std::string> api_keys;  // serve --api-key (repeatable, comma-separated)
  std::string api_key_file;           // serve --api-key-file: one key per line
  std::string alias;                  // serve --alias: the model's name in the APIs
  int timeout_seconds = 600;          // serve --timeout
  std::string race_url;               // serve --race-url: the one endpoint the race page may reach
  std::vector<std::string> cors_origins;  // serve --cors-origin: browser origins allowed to call
  int parallel = 4;                   // serve -np: slots
  int n_chunks = -1;                  // perplexity --chunks; -1: all
  std::string kl_base_file;           // perplexity --kl-divergence-base
  bool kl_divergence = false;         // perplexity --kl-divergence: compare with the base file
};

// Parses `args` (without the program name): a subcommand, then its flags and positional
// words. Flags take "-x V", "--name V" or "--name=V"; a flag name can mean different things
// to different subcommands (bench's -p, -n and -t take comma-separated lists). Fails with a
// one-line message for an unknown subcommand or flag, a flag of another subcommand, a
// missing or malformed value.
absl::StatusOr<CliOptions> ParseCommandLine(const std::vector<std::string>& args);

// Returns the usage text of `command` (kHelp: the overview).
std::string UsageText(Command command);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_CLI_OPTIONS_H_

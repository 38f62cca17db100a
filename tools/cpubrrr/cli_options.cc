// Table-driven parsing of cpubrrr's subcommands and flags.
#include "tools/cpubrrr/cli_options.h"

#include <cstring>
#include <functional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cpubrrr {
namespace {

constexpr unsigned Bit(Command c) { return 1u << static_cast<unsigned>(c); }
constexpr unsigned kGenerate = Bit(Command::kRun) | Bit(Command::kChat);
constexpr unsigned kServe = Bit(Command::kServe);
constexpr unsigned kPerplexity = Bit(Command::kPerplexity);
constexpr unsigned kModel = kGenerate | Bit(Command::kLogits) | Bit(Command::kTokenize) | kServe | kPerplexity;
constexpr unsigned kBench = Bit(Command::kBench);
constexpr unsigned kPrompt = Bit(Command::kRun) | Bit(Command::kLogits) | Bit(Command::kTokenize);

struct Subcommand {
  const char* name;
  Command command;
  const char* summary;
  const char* positional;  // what positional words mean, or nullptr when none are taken
};

constexpr Subcommand kSubcommands[] = {
    {"run", Command::kRun, "answer one prompt, streaming the answer to stdout", "PROMPT..."},
    {"chat", Command::kChat, "interactive multi-turn chat on stdin (/exit, /reset)", nullptr},
    {"logits", Command::kLogits, "print the next-token logits after a raw prompt", "PROMPT..."},
    {"tokenize", Command::kTokenize, "print the token ids and pieces of a text", "TEXT..."},
    {"models", Command::kModels, "list the models in Ollama's store ($OLLAMA_MODELS)", nullptr},
    {"bench", Command::kBench, "measure prompt (ppN) and generation (tgN) speed as llama-bench does", nullptr},
    {"serve", Command::kServe, "serve the OpenAI, Ollama and llama-server HTTP APIs", nullptr},
    {"perplexity", Command::kPerplexity,
     "score a text file (perplexity, KL divergence against a base run) as llama-perplexity does", nullptr},
};

using Setter = std::function<absl::Status(const std::string& value, CliOptions& o)>;

struct Flag {
  std::vector<std::string> names;
  unsigned commands;
  const char* value_name;  // nullptr: a switch without a value
  const char* help;
  Setter set;
};

absl::Status BadValue(const char* flag, const std::string& value, const std::string& expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("invalid value '", value, "' for ", flag, " (expected ", expected, ")"));
}

// Returns a setter that parses an integer into the field `field` selects.
template <typename T, typename Field>
Setter Int(const char* flag, Field field, int64_t min) {
  return [flag, field, min](const std::string& value, CliOptions& o) {
    int64_t v;
    if (!absl::SimpleAtoi(value, &v) || v < min) {
      return BadValue(flag, value, min >= 0 ? absl::StrCat("an integer >= ", min) : "an integer");
    }
    field(o) = static_cast<T>(v);
    return absl::OkStatus();
  };
}

template <typename Field>
Setter Float(const char* flag, Field field) {
  return [flag, field](const std::string& value, CliOptions& o) {
    float v;
    if (!absl::SimpleAtof(value, &v)) return BadValue(flag, value, "a number");
    field(o) = v;
    return absl::OkStatus();
  };
}

// Returns a setter that parses a comma-separated list of integers >= `min` into the field
// `field` selects.
template <typename Field>
Setter IntList(const char* flag, Field field, int min) {
  return [flag, field, min](const std::string& value, CliOptions& o) {
    std::vector<int> list;
    for (absl::string_view item : absl::StrSplit(value, ',')) {
      int v;
      if (!absl::SimpleAtoi(item, &v) || v < min) {
        return BadValue(flag, value, absl::StrCat("integers >= ", min, ", comma-separated"));
      }
      list.push_back(v);
    }
    field(o) = std::move(list);
    return absl::OkStatus();
  };
}

// Returns a setter for -ctk or -ctv. The cache holds K and V in one type, so the two
// flags set the same field and the parser refuses them when they disagree.
Setter CacheType(const char* flag) {
  return [flag](const std::string& value, CliOptions& o) {
    KvCacheType type;
    if (value == "f16") {
      type = KvCacheType::kF16;
    } else if (value == "f32") {
      type = KvCacheType::kF32;
    } else {
      return BadValue(flag, value, "f16 or f32 (quantized caches are not supported)");
    }
    if (o.cache_type_flag != nullptr && type != o.cache_type) {
      return absl::InvalidArgumentError(absl::StrCat(flag, " ", value, " differs from ", o.cache_type_flag,
                                                     ": K and V share one cache type here"));
    }
    o.cache_type = type;
    o.cache_type_flag = flag;
    return absl::OkStatus();
  };
}

const std::vector<Flag>& Flags() {
  static const std::vector<Flag> flags = {
      {{"-m", "--model"}, kModel | kBench, "MODEL", "GGUF file or Ollama name (gpt-oss:20b); default: the tiny trained gpt-oss",
       [](const std::string& v, CliOptions& o) { o.model = v; return absl::OkStatus(); }},
      {{"-t", "--threads"}, kModel, "N", "threads (default: the physical cores)",
       Int<int>("--threads", [](CliOptions& o) -> int& { return o.threads; }, 0)},
      {{"--no-repack"}, kModel | kBench, nullptr,
       "keep MXFP4, Q8_0, Q4_K and Q6_K weights in the file's layout (default: repacked at load where a repacked kernel runs: AVX2 or AVX-512 VNNI)",
       [](const std::string&, CliOptions& o) { o.repack = false; return absl::OkStatus(); }},
      {{"--repack-cache"}, kModel | kBench, "DIR",
       "keep the repacked weights in DIR between loads (default: ~/.cache/cpubrrr/repacked)",
       [](const std::string& v, CliOptions& o) { o.repack_cache_dir = v; return absl::OkStatus(); }},
      {{"--no-repack-cache"}, kModel | kBench, nullptr,
       "repack into memory at every load instead of keeping a copy on disk",
       [](const std::string&, CliOptions& o) { o.repack_cache = false; return absl::OkStatus(); }},
      {{"--no-page-in"}, kModel | kBench, nullptr,
       "leave the weights to fault in on first use (default: read into memory at load when they fit)",
       [](const std::string&, CliOptions& o) { o.page_in = false; return absl::OkStatus(); }},
      {{"--no-page-warmer"}, kModel | kBench, nullptr,
       "no thread touching the next weights' pages ahead of the workers (default: one when a core is idle)",
       [](const std::string&, CliOptions& o) { o.warm_pages = false; return absl::OkStatus(); }},
      {{"-b", "--batch-size"}, kModel, "N", "prompt tokens per forward call (default 512)",
       Int<uint32_t>("--batch-size", [](CliOptions& o) -> uint32_t& { return o.batch_size; }, 1)},
      {{"-ub", "--ubatch-size"}, kModel | kBench, "N", "tokens per pass through the layers (default 512)",
       Int<int>("--ubatch-size", [](CliOptions& o) -> int& { return o.ubatch_size; }, 1)},
      {{"-ctk", "--cache-type-k"}, kModel | kBench, "f16|f32", "KV cache type of K (default f16; the same as -ctv)",
       CacheType("--cache-type-k")},
      {{"-ctv", "--cache-type-v"}, kModel | kBench, "f16|f32", "KV cache type of V (default f16; the same as -ctk)",
       CacheType("--cache-type-v")},
      {{"-c", "--ctx-size"}, kGenerate | Bit(Command::kLogits) | kServe, "N", "context length (default 4096; 0: the model's)",
       Int<uint32_t>("--ctx-size", [](CliOptions& o) -> uint32_t& { return o.context_length; }, 0)},
      {{"-c", "--ctx-size"}, kPerplexity, "N", "tokens per chunk; the second half of each is scored (default 512)",
       Int<uint32_t>("--ctx-size", [](CliOptions& o) -> uint32_t& { return o.context_length; }, 4)},
      {{"-f", "--file"}, kPerplexity, "FILE", "the text to score",
       [](const std::string& v, CliOptions& o) { o.prompt_file = v; return absl::OkStatus(); }},
      {{"--chunks"}, kPerplexity, "N", "score only the first N chunks (default: all)",
       Int<int>("--chunks", [](CliOptions& o) -> int& { return o.n_chunks; }, 1)},
      {{"--kl-divergence-base"}, kPerplexity, "FILE",
       "save the log-probabilities to FILE (with --kl-divergence: read them from it)",
       [](const std::string& v, CliOptions& o) { o.kl_base_file = v; return absl::OkStatus(); }},
      {{"--kl-divergence"}, kPerplexity, nullptr,
       "compare with the run saved in --kl-divergence-base (files of llama-perplexity too)",
       [](const std::string&, CliOptions& o) { o.kl_divergence = true; return absl::OkStatus(); }},
      {{"-p", "--prompt"}, kPrompt, "TEXT", "prompt text",
       [](const std::string& v, CliOptions& o) { o.prompt = std::string(v); return absl::OkStatus(); }},
      {{"-f", "--file"}, kPrompt, "FILE", "read the prompt from FILE",
       [](const std::string& v, CliOptions& o) { o.prompt_file = v; return absl::OkStatus(); }},
      {{"-n", "--n-predict"}, kGenerate, "N", "tokens to generate per answer (default 512; -1: no limit)",
       Int<int32_t>("--n-predict", [](CliOptions& o) -> int32_t& { return o.n_predict; }, -1)},
      {{"-s", "--seed"}, kGenerate, "N", "sampling seed (default -1: random)",
       Int<int64_t>("--seed", [](CliOptions& o) -> int64_t& { return o.seed; }, -1)},
      {{"--temp"}, kGenerate, "T", "temperature (default 0.8; 0: greedy)",
       Float("--temp", [](CliOptions& o) -> float& { return o.sampling.temperature; })},
      {{"--top-k"}, kGenerate, "N", "top-k (default 40; 0: off)",
       Int<int32_t>("--top-k", [](CliOptions& o) -> int32_t& { return o.sampling.top_k; }, 0)},
      {{"--top-p"}, kGenerate, "P", "top-p (default 0.95; 1: off)",
       Float("--top-p", [](CliOptions& o) -> float& { return o.sampling.top_p; })},
      {{"--min-p"}, kGenerate, "P", "min-p (default 0.05; 0: off)",
       Float("--min-p", [](CliOptions& o) -> float& { return o.sampling.min_p; })},
      {{"--repeat-penalty"}, kGenerate, "X", "repeat penalty (default 1.0: off)",
       Float("--repeat-penalty", [](CliOptions& o) -> float& { return o.sampling.repeat_penalty; })},
      {{"--repeat-last-n"}, kGenerate, "N", "tokens the repeat penalty looks back on (default 64)",
       Int<int32_t>("--repeat-last-n", [](CliOptions& o) -> int32_t& { return o.sampling.penalty_last_n; }, 0)},
      {{"-sys", "--system-prompt"}, kGenerate, "TEXT", "system prompt",
       [](const std::string& v, CliOptions& o) { o.system_prompt = v; return absl::OkStatus(); }},
      {{"--reasoning-effort"}, kGenerate, "low|medium|high", "gpt-oss reasoning effort (default medium)",
       [](const std::string& v, CliOptions& o) {
         if (v == "low") o.reasoning_effort = ReasoningEffort::kLow;
         else if (v == "medium") o.reasoning_effort = ReasoningEffort::kMedium;
         else if (v == "high") o.reasoning_effort = ReasoningEffort::kHigh;
         else return BadValue("--reasoning-effort", v, "low, medium or high");
         return absl::OkStatus();
       }},
      {{"--no-think"}, kGenerate, nullptr, "Qwen3: answer without thinking",
       [](const std::string&, CliOptions& o) { o.no_think = true; return absl::OkStatus(); }},
      {{"--reasoning-preserve"}, Bit(Command::kChat) | kServe, nullptr,
       "earlier turns keep their reasoning in the prompt (the templates drop it)",
       [](const std::string&, CliOptions& o) { o.reasoning_preserve = true; return absl::OkStatus(); }},
      {{"--no-reasoning-preserve"}, Bit(Command::kChat) | kServe, nullptr, "earlier turns' reasoning dropped (default)",
       [](const std::string&, CliOptions& o) { o.reasoning_preserve = false; return absl::OkStatus(); }},
      {{"--ignore-eos"}, kGenerate, nullptr, "never end an answer with the model's end-of-turn token",
       [](const std::string&, CliOptions& o) { o.ignore_eos = true; return absl::OkStatus(); }},
      {{"--stop"}, kGenerate, "TEXT", "stop when the output contains TEXT (repeatable)",
       [](const std::string& v, CliOptions& o) { o.stop.emplace_back(v); return absl::OkStatus(); }},
      {{"--raw"}, Bit(Command::kRun), nullptr, "the prompt is already in the model's template (specials parsed)",
       [](const std::string&, CliOptions& o) { o.raw = true; return absl::OkStatus(); }},
      {{"--top"}, Bit(Command::kLogits), "N", "print the N largest logits (default 10; 0: all)",
       Int<int>("--top", [](CliOptions& o) -> int& { return o.top_logits; }, 0)},
      {{"--json"}, Bit(Command::kLogits), nullptr, "write JSON instead of text",
       [](const std::string&, CliOptions& o) { o.json = true; return absl::OkStatus(); }},
      {{"--ids"}, Bit(Command::kTokenize), nullptr, "print only the ids, as [1, 2, 3]",
       [](const std::string&, CliOptions& o) { o.ids_only = true; return absl::OkStatus(); }},
      {{"--no-parse-special"}, Bit(Command::kTokenize), nullptr, "treat special-token texts as plain text",
       [](const std::string&, CliOptions& o) { o.parse_special = false; return absl::OkStatus(); }},
      {{"-p", "--n-prompt"}, kBench, "N,N,...", "ppN tests: prompt lengths (default 512; 0: none)",
       IntList("--n-prompt", [](CliOptions& o) -> std::vector<int>& { return o.n_prompt; }, 0)},
      {{"-n", "--n-gen"}, kBench, "N,N,...", "tgN tests: tokens generated (default 128; 0: none)",
       IntList("--n-gen", [](CliOptions& o) -> std::vector<int>& { return o.n_gen; }, 0)},
      {{"-t", "--threads"}, kBench, "N,N,...", "thread counts (default: the physical cores)",
       IntList("--threads", [](CliOptions& o) -> std::vector<int>& { return o.thread_counts; }, 1)},
      {{"-np", "--parallel"}, kBench, "N,N", "sequences decoded together, t/s over all (default 1)",
       IntList("--parallel", [](CliOptions& o) -> std::vector<int>& { return o.n_seq; }, 1)},
      {{"-d", "--n-depth"}, kBench, "N,N", "tokens already in the cache before each test (default 0)",
       IntList("--n-depth", [](CliOptions& o) -> std::vector<int>& { return o.depths; }, 0)},
      {{"-r", "--repetitions"}, kBench, "N", "timed runs per test, after one warm-up run (default 5)",
       Int<int>("--repetitions", [](CliOptions& o) -> int& { return o.repetitions; }, 1)},
      {{"--host"}, kServe, "ADDR", "address to listen on (default 127.0.0.1)",
       [](const std::string& v, CliOptions& o) { o.host = v; return absl::OkStatus(); }},
      {{"--port"}, kServe, "N", "port to listen on (default 8080; 11434 with --ollama)",
       Int<int>("--port", [](CliOptions& o) -> int& { return o.port; }, 0)},
      {{"--ollama"}, kServe, nullptr, "stand in for Ollama: listen on its port, 11434",
       [](const std::string&, CliOptions& o) { o.ollama = true; return absl::OkStatus(); }},
      {{"--api-key"}, kServe, "KEY", "require this key (Bearer or X-Api-Key; repeatable, comma-separated)",
       [](const std::string& v, CliOptions& o) {
         for (absl::string_view key : absl::StrSplit(v, ',', absl::SkipEmpty())) o.api_keys.emplace_back(key);
         return absl::OkStatus();
       }},
      {{"--api-key-file"}, kServe, "FILE", "require one of the keys in FILE (one per line)",
       [](const std::string& v, CliOptions& o) { o.api_key_file = v; return absl::OkStatus(); }},
      {{"--alias", "-a"}, kServe, "NAME", "the model's name in the APIs (default: the -m name or file name)",
       [](const std::string& v, CliOptions& o) { o.alias = v; return absl::OkStatus(); }},
      {{"--race-url"}, kServe, "URL",
       "the one OpenAI-compatible endpoint the web page may race against (default: any on loopback)",
       [](const std::string& v, CliOptions& o) { o.race_url = v; return absl::OkStatus(); }},
      {{"--cors-origin"}, kServe, "ORIGIN",
       "let pages from ORIGIN (\"*\": any) call the API from a browser (repeatable; default: none)",
       [](const std::string& v, CliOptions& o) { o.cors_origins.push_back(v); return absl::OkStatus(); }},
      {{"--timeout", "-to"}, kServe, "SECONDS", "socket read and write timeout (default 600)",
       Int<int>("--timeout", [](CliOptions& o) -> int& { return o.timeout_seconds; }, 1)},
      {{"-np", "--parallel"}, kServe, "N", "slots: conversations decoded together, each with -c positions (default 4)",
       Int<int>("--parallel", [](CliOptions& o) -> int& { return o.parallel; }, 1)},
      {{"-o", "--output"}, kBench, "md|json", "a markdown table (default) or JSON rows",
       [](const std::string& v, CliOptions& o) {
         if (v != "md" && v != "json") return BadValue("--output", v, "md or json");
         o.json = v == "json";
         return absl::OkStatus();
       }},
  };
  return flags;
}

// Returns the flag called `name` that applies to `command`; else one of that name for
// another subcommand (reported as not applying); else nullptr.
const Flag* FindFlag(const std::string& name, Command command) {
  const Flag* other = nullptr;
  for (const Flag& flag : Flags()) {
    for (const std::string& n : flag.names) {
      if (n != name) continue;
      if (flag.commands & Bit(command)) return &flag;
      other = &flag;
    }
  }
  return other;
}

bool IsHelp(const std::string& arg) { return arg == "-h" || arg == "--help" || arg == "help"; }

}  // namespace

absl::StatusOr<CliOptions> ParseCommandLine(const std::vector<std::string>& args) {
  CliOptions o;
  if (args.empty() || IsHelp(args[0])) return o;
  const Subcommand* sub = nullptr;
  for (const Subcommand& s : kSubcommands) {
    if (args[0] == s.name) sub = &s;
  }
  if (sub == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown command '", args[0],
                     "' (try: run, chat, logits, tokenize, models, bench, serve, perplexity)"));
  }
  o.command = sub->command;
  if (o.command == Command::kPerplexity) o.context_length = 512;  // llama-perplexity's chunk
  std::vector<std::string> words;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      o.help = true;
      return o;
    }
    if (arg.size() < 2 || arg[0] != '-' || arg == "--") {
      if (arg == "--") {
        words.insert(words.end(), args.begin() + i + 1, args.end());
        break;
      }
      words.push_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const Flag* flag = FindFlag(name, sub->command);
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", name, " (see cpubrrr ",
                                                     sub->name, " --help)"));
    }
    if ((flag->commands & Bit(sub->command)) == 0) {
      return absl::InvalidArgumentError(absl::StrCat("flag ", name, " does not apply to '",
                                                     sub->name, "'"));
    }
    std::string value;
    if (flag->value_name == nullptr) {
      if (eq != std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat("flag ", name, " takes no value"));
      }
    } else if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return absl::InvalidArgumentError(absl::StrCat("flag ", name, " needs a value (",
                                                     flag->value_name, ")"));
    }
    if (absl::Status s = flag->set(value, o); !s.ok()) return s;
  }
  if (!words.empty()) {
    if (sub->positional == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("'", sub->name,
                                                     "' takes no arguments (got '", words[0], "')"));
    }
    if (o.prompt.has_value() || !o.prompt_file.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", words[0],
                                                     "' (the prompt is already given)"));
    }
    o.prompt = absl::StrJoin(words, " ");
  }
  if (o.prompt.has_value() && !o.prompt_file.empty()) {
    return absl::InvalidArgumentError("give the prompt with -p or -f, not both");
  }
  return o;
}

std::string UsageText(Command command) {
  std::string out;
  if (command == Command::kHelp) {
    out = "usage: cpubrrr COMMAND [FLAGS] [ARGS]\n\nRuns mixture-of-experts LLMs on the CPU.\n\n";
    for (const Subcommand& s : kSubcommands) absl::StrAppend(&out, "  ", s.name, std::string(12 - std::strlen(s.name), ' '), s.summary, "\n");
    absl::StrAppend(&out, "\nSee cpubrrr COMMAND --help for its flags.\n");
    return out;
  }
  for (const Subcommand& s : kSubcommands) {
    if (s.command != command) continue;
    absl::StrAppend(&out, "usage: cpubrrr ", s.name, " [FLAGS]", s.positional ? absl::StrCat(" [", s.positional, "]") : "",
                    "\n\n", s.summary, ".\n\n");
  }
  for (const Flag& flag : Flags()) {
    if ((flag.commands & Bit(command)) == 0) continue;
    std::string names = absl::StrJoin(flag.names, ", ");
    if (flag.value_name) absl::StrAppend(&names, " ", flag.value_name);
    if (names.size() < 28) names.resize(28, ' ');
    absl::StrAppend(&out, "  ", names, " ", flag.help, "\n");
  }
  return out;
}

}  // namespace cpubrrr

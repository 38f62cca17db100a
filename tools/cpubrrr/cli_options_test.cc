// Checks subcommand and flag parsing, llama.cpp flag names and the error messages.
#include "tools/cpubrrr/cli_options.h"

#include "gtest/gtest.h"

namespace cpubrrr {
namespace {

absl::StatusOr<CliOptions> Parse(std::vector<std::string> args) { return ParseCommandLine(args); }

TEST(CliOptions, RunWithLlamaCppFlags) {
  absl::StatusOr<CliOptions> o =
      Parse({"run", "-m", "x.gguf", "-p", "hi", "-n", "32", "-t", "2", "-c", "1024", "-s", "7",
             "--temp", "0.5", "--top-k", "20", "--top-p", "0.9", "--min-p", "0.1",
             "--repeat-penalty", "1.1", "--repeat-last-n", "32", "-sys", "be brief",
             "--reasoning-effort", "high", "--no-think", "--stop", "END", "--ignore-eos"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->command, Command::kRun);
  EXPECT_EQ(o->model, "x.gguf");
  EXPECT_EQ(o->prompt, "hi");
  EXPECT_EQ(o->n_predict, 32);
  EXPECT_EQ(o->threads, 2);
  EXPECT_EQ(o->context_length, 1024u);
  EXPECT_EQ(o->seed, 7);
  EXPECT_FLOAT_EQ(o->sampling.temperature, 0.5f);
  EXPECT_EQ(o->sampling.top_k, 20);
  EXPECT_FLOAT_EQ(o->sampling.top_p, 0.9f);
  EXPECT_FLOAT_EQ(o->sampling.min_p, 0.1f);
  EXPECT_FLOAT_EQ(o->sampling.repeat_penalty, 1.1f);
  EXPECT_EQ(o->sampling.penalty_last_n, 32);
  EXPECT_EQ(o->system_prompt, "be brief");
  EXPECT_EQ(o->reasoning_effort, ReasoningEffort::kHigh);
  EXPECT_TRUE(o->no_think);
  EXPECT_EQ(o->stop, std::vector<std::string>{"END"});
  EXPECT_TRUE(o->ignore_eos);
}

TEST(CliOptions, ServeWithLlamaServerFlags) {
  absl::StatusOr<CliOptions> o =
      Parse({"serve", "-m", "x.gguf", "--host", "0.0.0.0", "--port", "9000", "--api-key", "a,b",
             "--api-key", "c", "--api-key-file", "keys.txt", "--alias", "m", "--timeout", "30", "-np", "4",
             "-c", "2048", "-t", "2", "--ollama"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->command, Command::kServe);
  EXPECT_EQ(o->host, "0.0.0.0");
  EXPECT_EQ(o->port, 9000);
  EXPECT_EQ(o->api_keys, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(o->api_key_file, "keys.txt");
  EXPECT_EQ(o->alias, "m");
  EXPECT_EQ(o->timeout_seconds, 30);
  EXPECT_EQ(o->parallel, 4);
  EXPECT_EQ(o->context_length, 2048u);
  EXPECT_TRUE(o->ollama);
  EXPECT_FALSE(Parse({"serve", "--port", "-1"}).ok());
  EXPECT_FALSE(Parse({"run", "--port", "9000"}).ok());
}

// llama.cpp's names for the engine's knobs, so its per-row configuration can be asked for.
TEST(CliOptions, BatchUbatchAndCacheTypes) {
  absl::StatusOr<CliOptions> o = Parse({"run", "-b", "64", "-ub", "1", "-ctk", "f32", "-ctv", "f32", "hi"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->batch_size, 64u);
  EXPECT_EQ(o->ubatch_size, 1);
  EXPECT_EQ(o->cache_type, KvCacheType::kF32);
  absl::StatusOr<CliOptions> mixed = Parse({"run", "-ctk", "f32", "-ctv", "f16", "hi"});
  EXPECT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("share one cache type"), std::string::npos) << mixed.status();
  EXPECT_FALSE(Parse({"run", "-ctk", "q8_0", "hi"}).ok());
  EXPECT_FALSE(Parse({"run", "-ub", "0", "hi"}).ok());
  absl::StatusOr<CliOptions> bench = Parse({"bench", "-np", "1,4", "-d", "0,8192", "-ub", "256"});
  ASSERT_TRUE(bench.ok()) << bench.status();
  EXPECT_EQ(bench->n_seq, (std::vector<int>{1, 4}));
  EXPECT_EQ(bench->depths, (std::vector<int>{0, 8192}));
  EXPECT_EQ(bench->ubatch_size, 256);
  EXPECT_FALSE(Parse({"bench", "-np", "0"}).ok());
}

TEST(CliOptions, LongFormsWithEqualsAndPositionalPrompt) {
  absl::StatusOr<CliOptions> o = Parse({"run", "--model=a.gguf", "--n-predict=-1", "why", "so?"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->model, "a.gguf");
  EXPECT_EQ(o->n_predict, -1);
  EXPECT_EQ(o->prompt, "why so?");
}

TEST(CliOptions, Defaults) {
  absl::StatusOr<CliOptions> o = Parse({"chat"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->command, Command::kChat);
  EXPECT_TRUE(o->model.empty());
  EXPECT_EQ(o->seed, -1);
  EXPECT_FLOAT_EQ(o->sampling.temperature, 0.8f);
  EXPECT_FALSE(o->prompt.has_value());
}

TEST(CliOptions, RepackFlags) {
  absl::StatusOr<CliOptions> d = Parse({"run"});
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->repack);
  EXPECT_TRUE(d->repack_cache);
  EXPECT_EQ(d->repack_cache_dir, "");
  absl::StatusOr<CliOptions> o = Parse({"bench", "--repack-cache", "/big/disk"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->repack_cache_dir, "/big/disk");
  absl::StatusOr<CliOptions> n = Parse({"chat", "--no-repack-cache", "--no-repack"});
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_FALSE(n->repack_cache);
  EXPECT_FALSE(n->repack);
}

TEST(CliOptions, TokenizeLogitsAndModels) {
  absl::StatusOr<CliOptions> t = Parse({"tokenize", "-m", "m.gguf", "--ids", "-f", "in.txt"});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->ids_only);
  EXPECT_EQ(t->prompt_file, "in.txt");
  absl::StatusOr<CliOptions> l = Parse({"logits", "-m", "m.gguf", "--top", "0", "--json", "hi"});
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->top_logits, 0);
  EXPECT_TRUE(l->json);
  EXPECT_EQ(Parse({"models"})->command, Command::kModels);
}

TEST(CliOptions, PerplexityTakesLlamaPerplexitysFlagsAndChunk) {
  absl::StatusOr<CliOptions> p = Parse({"perplexity", "-m", "m.gguf", "-f", "wiki.txt"});
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->command, Command::kPerplexity);
  EXPECT_EQ(p->prompt_file, "wiki.txt");
  EXPECT_EQ(p->context_length, 512u);  // llama-perplexity's chunk, not the 4096 of run
  EXPECT_EQ(p->n_chunks, -1);
  EXPECT_FALSE(p->kl_divergence);
  absl::StatusOr<CliOptions> k = Parse({"perplexity", "-c", "128", "-b", "1", "--chunks", "3",
                                        "--kl-divergence-base", "base.bin", "--kl-divergence"});
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(k->context_length, 128u);
  EXPECT_EQ(k->batch_size, 1u);
  EXPECT_EQ(k->n_chunks, 3);
  EXPECT_EQ(k->kl_base_file, "base.bin");
  EXPECT_TRUE(k->kl_divergence);
  EXPECT_FALSE(Parse({"perplexity", "-c", "2"}).ok());
  EXPECT_FALSE(Parse({"perplexity", "--top", "3"}).ok());
  EXPECT_FALSE(Parse({"run", "--kl-divergence"}).ok());
}

TEST(CliOptions, BenchListsAndDefaults) {
  absl::StatusOr<CliOptions> d = Parse({"bench"});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->command, Command::kBench);
  EXPECT_EQ(d->n_prompt, std::vector<int>{512});
  EXPECT_EQ(d->n_gen, std::vector<int>{128});
  EXPECT_TRUE(d->thread_counts.empty());
  EXPECT_EQ(d->repetitions, 5);
  EXPECT_FALSE(d->json);

  absl::StatusOr<CliOptions> o =
      Parse({"bench", "-m", "gpt-oss:20b", "-p", "16,512", "-n", "0", "-t", "1,2", "-r", "3", "-o", "json"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->model, "gpt-oss:20b");
  EXPECT_EQ(o->n_prompt, (std::vector<int>{16, 512}));
  EXPECT_EQ(o->n_gen, std::vector<int>{0});
  EXPECT_EQ(o->thread_counts, (std::vector<int>{1, 2}));
  EXPECT_EQ(o->repetitions, 3);
  EXPECT_TRUE(o->json);
  EXPECT_FALSE(o->prompt.has_value());  // bench's -p is not run's prompt
  EXPECT_EQ(Parse({"bench", "--n-gen=4", "--output=md"})->n_gen, std::vector<int>{4});

  // The same letters keep their meaning for the other subcommands.
  absl::StatusOr<CliOptions> run = Parse({"run", "-p", "16,512", "-n", "4", "-t", "2"});
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->prompt, "16,512");
  EXPECT_EQ(run->n_predict, 4);
  EXPECT_EQ(run->threads, 2);
  EXPECT_EQ(run->n_prompt, std::vector<int>{512});
}

TEST(CliOptions, HelpAnywhere) {
  EXPECT_EQ(Parse({})->command, Command::kHelp);
  EXPECT_EQ(Parse({"--help"})->command, Command::kHelp);
  absl::StatusOr<CliOptions> o = Parse({"run", "--help"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->help);
  EXPECT_NE(UsageText(Command::kRun).find("--repeat-penalty"), std::string::npos);
  EXPECT_EQ(UsageText(Command::kModels).find("--temp"), std::string::npos);
  const std::string bench = UsageText(Command::kBench);
  EXPECT_NE(bench.find("-p, --n-prompt N,N,..."), std::string::npos) << bench;
  EXPECT_NE(bench.find("-o, --output md|json"), std::string::npos) << bench;
  EXPECT_EQ(bench.find("--prompt TEXT"), std::string::npos) << bench;
  EXPECT_NE(UsageText(Command::kHelp).find("bench"), std::string::npos);
}

TEST(CliOptions, ErrorsAreOneClearLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"fly"}, "unknown command 'fly'"},
      {{"run", "--bogus"}, "unknown flag --bogus"},
      {{"run", "-n"}, "flag -n needs a value"},
      {{"run", "-n", "many"}, "invalid value 'many' for --n-predict"},
      {{"run", "--temp", "hot"}, "invalid value 'hot' for --temp"},
      {{"run", "--reasoning-effort", "max"}, "expected low, medium or high"},
      {{"tokenize", "--temp", "1"}, "flag --temp does not apply to 'tokenize'"},
      {{"models", "extra"}, "'models' takes no arguments"},
      {{"run", "--no-think=1"}, "flag --no-think takes no value"},
      {{"run", "-p", "a", "-f", "b"}, "not both"},
      {{"run", "-t", "-2"}, "invalid value '-2' for --threads"},
      {{"bench", "-p", "512,x"}, "invalid value '512,x' for --n-prompt (expected integers >= 0"},
      {{"bench", "-n", "-1"}, "invalid value '-1' for --n-gen"},
      {{"bench", "-t", "0"}, "invalid value '0' for --threads (expected integers >= 1"},
      {{"bench", "-t", ""}, "invalid value '' for --threads"},
      {{"bench", "-r", "0"}, "invalid value '0' for --repetitions (expected an integer >= 1)"},
      {{"bench", "-o", "csv"}, "expected md or json"},
      {{"bench", "--temp", "1"}, "flag --temp does not apply to 'bench'"},
      {{"bench", "extra"}, "'bench' takes no arguments"},
      {{"tokenize", "-r", "1"}, "flag -r does not apply to 'tokenize'"},
  };
  for (const auto& [args, expected] : cases) {
    absl::StatusOr<CliOptions> o = Parse(args);
    ASSERT_FALSE(o.ok()) << args[0];
    EXPECT_NE(o.status().message().find(expected), std::string::npos) << o.status();
    EXPECT_EQ(o.status().message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace cpubrrr

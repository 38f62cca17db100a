// Scores a text as llama-perplexity does: the tokens cut into chunks of -c, each chunk run
// from an empty cache (its first token BOS where the vocabulary adds one), the second half
// of each chunk scored by the logits before it.
#include "tools/cpubrrr/perplexity_command.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "runtime/eval/chunk_logits.h"
#include "runtime/eval/kl_divergence.h"
#include "runtime/eval/logits_file.h"
#include "runtime/eval/token_log_probs.h"
#include "tools/cpubrrr/cli_engine.h"

namespace cpubrrr {
namespace {

// The text's tokens as llama-perplexity takes them: one trailing newline dropped (as its
// -f does), specials not parsed, BOS prepended when the vocabulary asks for it.
absl::StatusOr<std::vector<int32_t>> TextTokens(const CliOptions& options, const Engine& engine) {
  absl::StatusOr<std::string> text = ReadPrompt(options);
  if (!text.ok()) return text.status();
  if (!text->empty() && text->back() == '\n') text->pop_back();
  return engine.tokenizer().Encode(*text, /*add_special=*/true, /*parse_special=*/false);
}

// Prints the time of the first chunk and the estimate for all, as llama-perplexity does.
void ReportEta(absl::Duration first_chunk, uint32_t n_chunk) {
  const double seconds = absl::ToDoubleSeconds(first_chunk);
  std::fprintf(stderr, "perplexity: %.2f seconds per pass - ETA %.2f minutes\n", seconds,
               seconds * n_chunk / 60.0);
}

absl::Status Perplexity(const CliOptions& options, Engine& engine, std::vector<int32_t> tokens) {
  Model& model = engine.model();
  const uint32_t n_ctx = options.context_length;
  const size_t n_vocab = model.info().n_vocab;
  const TokenizerConfig& tc = engine.tokenizer().config();
  if (tokens.size() < 2 * size_t{n_ctx}) {
    return absl::InvalidArgumentError(absl::StrCat("the text has ", tokens.size(), " tokens; perplexity with -c ",
                                                   n_ctx, " needs at least ", 2 * n_ctx));
  }
  uint32_t n_chunk = static_cast<uint32_t>(tokens.size() / n_ctx);
  if (options.n_chunks > 0) n_chunk = std::min<uint32_t>(n_chunk, options.n_chunks);
  tokens.resize(size_t{n_chunk} * n_ctx);

  std::unique_ptr<LogitsFileWriter> base_out;
  if (!options.kl_base_file.empty()) {
    absl::StatusOr<LogitsFileWriter> w =
        LogitsFileWriter::Create(options.kl_base_file, {n_ctx, static_cast<uint32_t>(n_vocab), n_chunk, tokens});
    if (!w.ok()) return w.status();
    base_out = std::make_unique<LogitsFileWriter>(*std::move(w));
    std::fprintf(stderr, "perplexity: saving the log-probabilities to %s\n", options.kl_base_file.c_str());
  }
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(n_ctx);
  if (!session.ok()) return session.status();
  std::fprintf(stderr, "perplexity: calculating perplexity over %u chunks, n_ctx=%u, batch_size=%u\n", n_chunk,
               n_ctx, options.batch_size);

  const uint32_t scored = ScoredPerChunk(n_ctx), first = n_ctx / 2;
  const size_t entries = LogProbRowEntries(n_vocab);
  std::vector<uint16_t> rows(base_out ? size_t{scored} * entries : 0);
  double nll = 0, nll2 = 0;
  size_t count = 0;
  for (uint32_t c = 0; c < n_chunk; ++c) {
    std::vector<int32_t> chunk(tokens.begin() + size_t{c} * n_ctx, tokens.begin() + size_t{c + 1} * n_ctx);
    if (tc.add_bos) chunk[0] = tc.bos_id;
    const absl::Time start = absl::Now();
    absl::StatusOr<std::vector<float>> logits = ChunkLogits(model, **session, chunk, options.batch_size);
    if (!logits.ok()) return logits.status();
    if (c == 0) ReportEta(absl::Now() - start, n_chunk);
    for (uint32_t i = 0; i < scored; ++i) {
      const absl::Span<const float> row = absl::MakeConstSpan(*logits).subspan(size_t{i} * n_vocab, n_vocab);
      const int32_t next = chunk[first + i + 1];
      const double v = base_out ? EncodeLogProbRow(row, next, absl::MakeSpan(rows).subspan(size_t{i} * entries, entries))
                                : NegLogLikelihood(row, next);
      nll += v;
      nll2 += v * v;
    }
    count += scored;
    if (base_out) {
      if (absl::Status s = base_out->AppendChunk(rows); !s.ok()) return s;
    }
    std::printf("[%u]%.4f,", c + 1, std::exp(nll / count));
    std::fflush(stdout);
  }
  std::printf("\n");
  if (base_out) {
    if (absl::Status s = base_out->Close(); !s.ok()) return s;
  }
  const Estimate log_ppl = MeanAndError(nll, nll2, count);
  const double ppl = std::exp(log_ppl.value);
  std::printf("Final estimate: PPL = %.4f +/- %.5f\n", ppl, log_ppl.error * ppl);
  return absl::OkStatus();
}

absl::Status Divergence(const CliOptions& options, LogitsFileReader& base, Engine& engine) {
  const LogitsFileHeader& h = base.header();
  Model& model = engine.model();
  if (h.n_vocab != model.info().n_vocab) {
    return absl::InvalidArgumentError(absl::StrCat(options.kl_base_file, " holds a vocabulary of ", h.n_vocab,
                                                   " tokens, the model ", model.info().n_vocab));
  }
  if (h.n_ctx > model.info().n_ctx_train) {
    return absl::InvalidArgumentError(absl::StrCat(options.kl_base_file, " was computed with chunks of ", h.n_ctx,
                                                   " tokens, more than the model's context of ",
                                                   model.info().n_ctx_train));
  }
  for (int32_t t : h.tokens) {
    if (t < 0 || static_cast<uint32_t>(t) >= h.n_vocab) {
      return absl::InvalidArgumentError(absl::StrCat(options.kl_base_file, " holds token id ", t,
                                                     ", outside the vocabulary"));
    }
  }
  uint32_t n_chunk = h.n_chunk;
  if (options.n_chunks > 0) n_chunk = std::min<uint32_t>(n_chunk, options.n_chunks);
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(h.n_ctx);
  if (!session.ok()) return session.status();
  std::fprintf(stderr, "kl-divergence: %u chunks of %u tokens from %s\n", n_chunk, h.n_ctx,
               options.kl_base_file.c_str());
  std::printf("chunk             PPL          ln(PPL(Q)/PPL(base))          KL Divergence              Δp RMS            Same top p\n");
  const uint32_t scored = ScoredPerChunk(h.n_ctx), first = h.n_ctx / 2;
  const size_t n_vocab = h.n_vocab, entries = LogProbRowEntries(n_vocab);
  KlDivergence kl;
  std::vector<uint16_t> rows;
  for (uint32_t c = 0; c < n_chunk; ++c) {
    if (absl::Status s = base.ReadChunk(rows); !s.ok()) return s;
    // The file keeps the text's tokens; BOS replaces the first, as in the base run.
    const absl::Span<const int32_t> chunk = absl::MakeConstSpan(h.tokens).subspan(size_t{c} * h.n_ctx, h.n_ctx);
    std::vector<int32_t> input(chunk.begin(), chunk.end());
    const TokenizerConfig& tc = engine.tokenizer().config();
    if (tc.add_bos) input[0] = tc.bos_id;
    absl::StatusOr<std::vector<float>> logits = ChunkLogits(model, **session, input, options.batch_size);
    if (!logits.ok()) return logits.status();
    for (uint32_t i = 0; i < scored; ++i) {
      kl.Add(absl::MakeConstSpan(*logits).subspan(size_t{i} * n_vocab, n_vocab),
             absl::MakeConstSpan(rows).subspan(size_t{i} * entries, entries), chunk[first + i + 1]);
    }
    std::printf("%s\n", kl.ProgressLine(static_cast<int>(c + 1)).c_str());
    std::fflush(stdout);
  }
  std::printf("\n%s", kl.Report().c_str());
  return absl::OkStatus();
}

}  // namespace

absl::Status PerplexityCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  if (options.kl_divergence && options.kl_base_file.empty()) {
    return absl::InvalidArgumentError("--kl-divergence needs --kl-divergence-base FILE (the base run's logits)");
  }
  if (!options.kl_divergence && options.prompt_file.empty() && !options.prompt.has_value()) {
    return absl::InvalidArgumentError("give the text to score with -f FILE");
  }
  if (options.kl_divergence) {  // the base file is checked before the model loads
    absl::StatusOr<LogitsFileReader> base = LogitsFileReader::Open(options.kl_base_file);
    if (!base.ok()) return base.status();
    absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(options, architectures);
    if (!engine.ok()) return engine.status();
    return Divergence(options, *base, **engine);
  }
  absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(options, architectures);
  if (!engine.ok()) return engine.status();
  absl::StatusOr<std::vector<int32_t>> tokens = TextTokens(options, **engine);
  if (!tokens.ok()) return tokens.status();
  return Perplexity(options, **engine, *std::move(tokens));
}

}  // namespace cpubrrr

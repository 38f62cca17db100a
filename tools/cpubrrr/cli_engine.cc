// Model resolution, progress display and prompt input shared by the subcommands.
#include "tools/cpubrrr/cli_engine.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "runtime/engine/engine_loader.h"
#include "tools/cpubrrr/load_progress.h"

namespace cpubrrr {

absl::StatusOr<ModelSource> ResolveCliModel(const CliOptions& options) {
  absl::StatusOr<ModelSource> source = ResolveModelSource(options.model);
  if (source.ok() && source->random_weights) {
    std::fprintf(stderr,
                 "cpubrrr: no -m given, so using the default model: a tiny synthetic gpt-oss "
                 "with RANDOM weights. Its output is gibberish; pass -m MODEL for a real one.\n");
  }
  return source;
}

absl::StatusOr<std::unique_ptr<Engine>> OpenCliEngine(
    const CliOptions& options, absl::Span<const ArchitectureFactory> factories) {
  absl::StatusOr<ModelSource> source = ResolveCliModel(options);
  if (!source.ok()) return source.status();
  LoadProgress progress(source->path);
  LoadEngineOptions load;
  load.engine.context_length = options.context_length;
  load.model.threads = options.threads;
  load.model.repack = options.repack;
  load.model.progress = [&progress](double fraction) { progress.Update(fraction); };
  absl::StatusOr<std::unique_ptr<Engine>> engine = LoadEngine(source->path, factories, load);
  if (!engine.ok()) return engine.status();
  progress.Done();
  const ModelInfo& info = (*engine)->model().info();
  std::fprintf(stderr, "model: %s (%s, %.2f B parameters), context %u tokens\n",
               info.name.empty() ? "unnamed" : info.name.c_str(), info.architecture.c_str(),
               info.n_params / 1e9, (*engine)->context_length());
  if (info.derived_bytes > 0) {
    std::fprintf(stderr, "model: %.2f GiB of weights repacked for this CPU (--no-repack: none)\n",
                 info.derived_bytes / double(uint64_t{1} << 30));
  }
  return engine;
}

absl::StatusOr<std::string> ReadPrompt(const CliOptions& options) {
  if (options.prompt.has_value()) return *options.prompt;
  if (options.prompt_file.empty()) {
    return absl::InvalidArgumentError("no prompt: give one with -p TEXT, -f FILE or as arguments");
  }
  std::ifstream in(options.prompt_file, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", options.prompt_file));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace cpubrrr

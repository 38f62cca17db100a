// Model resolution, progress display and prompt input shared by the subcommands.
#include "tools/cpubrrr/cli_engine.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/engine/engine_loader.h"
#include "tools/cpubrrr/cache_dir.h"
#include "tools/cpubrrr/default_model.h"
#include "tools/cpubrrr/load_progress.h"

namespace cpubrrr {

absl::StatusOr<ModelSource> ResolveCliModel(const CliOptions& options) {
  absl::StatusOr<ModelSource> source = ResolveModelSource(options.model);
  if (source.ok() && source->default_model) {
    std::fprintf(stderr, "cpubrrr: no -m given, so using the default model: %s. Pass -m MODEL for a real one.\n",
                 kDefaultModelDescription);
  }
  return source;
}

namespace {

// The directory for the repacked weights: --repack-cache, else CacheDir()/repacked; empty
// with --no-repack-cache (or no cache directory).
std::string RepackCacheDir(const CliOptions& options) {
  if (!options.repack_cache) return "";
  if (!options.repack_cache_dir.empty()) return options.repack_cache_dir;
  const std::string cache = CacheDir();
  return cache.empty() ? "" : cache + "/repacked";
}

}  // namespace

ModelOptions CliModelOptions(const CliOptions& options) {
  ModelOptions model;
  model.n_threads = options.threads;
  model.kv_type = options.cache_type;
  model.page_in = options.page_in;
  model.max_batch_tokens = options.ubatch_size;
  model.warm_pages = options.warm_pages;
  model.repack = options.repack;
  model.repack_cache_dir = RepackCacheDir(options);
  return model;
}

void ReportRepack(const ModelInfo& info) {
  if (!info.not_repacked.empty()) {
    std::fprintf(stderr, "model: weights used in the file's layout: %s%s%s\n", info.not_repacked.c_str(),
                 info.repack_cache_error.empty() ? "" : "; no repack cache: ", info.repack_cache_error.c_str());
  }
  if (info.derived_bytes == 0) return;
  const std::string size = info.derived_bytes >= (uint64_t{1} << 30)
                               ? absl::StrFormat("%.2f GiB", info.derived_bytes / double(uint64_t{1} << 30))
                               : absl::StrFormat("%.1f MiB", info.derived_bytes / double(uint64_t{1} << 20));
  if (!info.repack_cache.empty()) {
    std::fprintf(stderr, "model: %s of weights repacked for this CPU, %s %s\n", size.c_str(),
                 info.repack_cache_written ? "written to" : "mapped from", info.repack_cache.c_str());
    return;
  }
  std::fprintf(stderr, "model: %s of weights repacked for this CPU in memory%s%s\n", size.c_str(),
               info.repack_cache_error.empty() ? "" : "; not kept on disk: ",
               info.repack_cache_error.c_str());
}

absl::StatusOr<std::unique_ptr<Engine>> OpenCliEngine(
    const CliOptions& options, absl::Span<const Architecture> architectures, uint32_t slots) {
  absl::StatusOr<ModelSource> source = ResolveCliModel(options);
  if (!source.ok()) return source.status();
  LoadProgress progress(source->path);
  LoadEngineOptions load;
  load.engine.context_length = options.context_length;
  load.engine.slots = slots;
  load.engine.batch_size = options.batch_size;
  load.engine.preserve_reasoning = options.reasoning_preserve;
  load.model = CliModelOptions(options);
  load.model.progress = [&progress](double fraction) { progress.Update(fraction); };
  absl::StatusOr<std::unique_ptr<Engine>> engine = LoadEngine(source->path, architectures, load);
  if (!engine.ok()) return engine.status();
  progress.Done();
  const ModelInfo& info = (*engine)->model().info();
  const std::string params = info.n_params >= 100'000'000 ? absl::StrFormat("%.2f B", info.n_params / 1e9)
                                                          : absl::StrFormat("%.1f M", info.n_params / 1e6);
  std::fprintf(stderr, "model: %s (%s, %s parameters), context %u tokens%s\n",
               info.name.empty() ? "unnamed" : info.name.c_str(), info.architecture.c_str(), params.c_str(),
               (*engine)->context_length(),
               slots > 1 ? absl::StrCat(" in each of ", slots, " slots").c_str() : "");
  ReportRepack(info);
  if (!info.kernels.empty()) std::fprintf(stderr, "kernels: %s\n", info.kernels.c_str());
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

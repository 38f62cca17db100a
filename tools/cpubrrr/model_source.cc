// -m resolution: file path, then Ollama store, with clear errors for each.
#include "tools/cpubrrr/model_source.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "runtime/ollama/ollama_store.h"
#include "tools/cpubrrr/default_model.h"

namespace cpubrrr {

absl::StatusOr<ModelSource> ResolveModelSource(const std::string& model) {
  if (model.empty()) {
    absl::StatusOr<std::string> path = EnsureDefaultModel();
    if (!path.ok()) return path.status();
    return ModelSource{*path, /*default_model=*/true};
  }
  std::error_code ec;
  if (std::filesystem::exists(model, ec)) return ModelSource{model};
  const bool looks_like_path = absl::EndsWith(model, ".gguf") || absl::StartsWith(model, "/") ||
                               absl::StartsWith(model, "./") || absl::StartsWith(model, "../");
  if (looks_like_path) {
    return absl::NotFoundError(absl::StrCat(model, ": no such file"));
  }
  absl::StatusOr<OllamaName> name = ParseOllamaName(model);
  if (!name.ok()) {
    return absl::NotFoundError(absl::StrCat(model, ": no such file, nor an Ollama model name"));
  }
  absl::StatusOr<OllamaModel> found = ResolveOllamaModel(OllamaStoreRoot(), *name);
  if (!found.ok()) return found.status();
  return ModelSource{found->gguf_path};
}

}  // namespace cpubrrr

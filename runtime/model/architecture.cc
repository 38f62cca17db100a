// GGUF file -> its architecture's entry -> Model.
#include "runtime/model/architecture.h"

#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace cpubrrr {

absl::StatusOr<std::string> ArchitectureName(const GgufFile& file) {
  absl::StatusOr<std::string_view> name = file.GetString("general.architecture");
  if (!name.ok()) return name.status();
  if (*name == "gptoss") return std::string("gpt-oss");
  return std::string(*name);
}

absl::StatusOr<const Architecture*> FindArchitecture(const GgufFile& file, absl::Span<const Architecture> linked) {
  absl::StatusOr<std::string> name = ArchitectureName(file);
  if (!name.ok()) return name.status();
  std::vector<std::string> runs;
  const Architecture* found = nullptr;
  for (const Architecture& architecture : linked) {
    if (architecture.name == *name) found = &architecture;
    if (architecture.open) runs.push_back(architecture.name);
  }
  if (found != nullptr && found->open) return found;
  const std::string runs_text = runs.empty() ? "none" : absl::StrJoin(runs, ", ");
  if (found != nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("the ", *name, " forward pass is not built into this binary (it runs: ", runs_text, ")"));
  }
  return absl::UnimplementedError(absl::StrCat("unknown architecture '", *name, "' (this binary runs: ", runs_text, ")"));
}

absl::StatusOr<ModelFile> OpenModelFile(const std::string& path, absl::Span<const Architecture> linked) {
  absl::StatusOr<GgufFile> file = OpenGguf(path);
  if (!file.ok()) {
    const std::string message(file.status().message());
    if (message.find("unsupported type id 4") != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(message, " (type 4 is how Ollama's gpt-oss blobs pulled before October 2025 stored "
                                "MXFP4; run `ollama pull gpt-oss` to get the current layout)"));
    }
    return file.status();
  }
  absl::StatusOr<const Architecture*> architecture = FindArchitecture(*file, linked);
  if (!architecture.ok()) {
    return absl::Status(architecture.status().code(), absl::StrCat(path, ": ", architecture.status().message()));
  }
  return ModelFile{*std::move(file), *architecture};
}

absl::StatusOr<std::unique_ptr<Model>> OpenModel(const std::string& path, absl::Span<const Architecture> linked,
                                                 const ModelOptions& options) {
  absl::StatusOr<ModelFile> model_file = OpenModelFile(path, linked);
  if (!model_file.ok()) return model_file.status();
  return model_file->architecture->open(std::move(model_file->file), options);
}

}  // namespace cpubrrr

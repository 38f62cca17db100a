// Model file -> architecture -> factory -> Model + tokenizer -> Engine.
#include "runtime/engine/engine_loader.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/engine/chat_format.h"
#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

absl::StatusOr<const ArchitectureFactory*> FindFactory(
    const std::string& architecture, absl::Span<const ArchitectureFactory> factories) {
  for (const ArchitectureFactory& factory : factories) {
    if (factory.architecture == architecture) return &factory;
  }
  std::vector<std::string> built;
  for (const ArchitectureFactory& factory : factories) built.push_back(factory.architecture);
  const std::string runs = built.empty() ? "none" : absl::StrJoin(built, ", ");
  if (!ChatFormatFor(architecture).ok()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown architecture '", architecture,
                                                   "' (this binary runs: ", runs, ")"));
  }
  return absl::UnimplementedError(absl::StrCat("the ", architecture,
                                               " forward pass is not built into this binary "
                                               "(it runs: ", runs, ")"));
}

absl::StatusOr<std::unique_ptr<Engine>> LoadEngine(const std::string& path,
                                                   absl::Span<const ArchitectureFactory> factories,
                                                   const LoadEngineOptions& options) {
  absl::StatusOr<GgufFile> file = OpenGguf(path);
  if (!file.ok()) return file.status();
  absl::StatusOr<std::string> architecture = GgufArchitecture(*file);
  if (!architecture.ok()) return architecture.status();
  absl::StatusOr<const ArchitectureFactory*> factory = FindFactory(*architecture, factories);
  if (!factory.ok()) {
    return absl::Status(factory.status().code(), absl::StrCat(path, ": ", factory.status().message()));
  }
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tokenizer = TokenizerFromGguf(*file);
  if (!tokenizer.ok()) return tokenizer.status();
  absl::StatusOr<std::unique_ptr<Model>> model = (*factory)->load(path, options.model);
  if (!model.ok()) return model.status();
  EngineOptions engine = options.engine;
  if (absl::StatusOr<std::string_view> chat_template = file->GetString("tokenizer.chat_template"); chat_template.ok()) {
    engine.chat_template = std::string(*chat_template);
  }
  return Engine::Create(*std::move(model), *std::move(tokenizer), engine);
}

}  // namespace cpubrrr

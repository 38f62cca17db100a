// Model file -> its architecture's entry -> Model + tokenizer -> Engine.
#include "runtime/engine/engine_loader.h"

#include <utility>

#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<Engine>> LoadEngine(const std::string& path,
                                                   absl::Span<const Architecture> architectures,
                                                   const LoadEngineOptions& options) {
  absl::StatusOr<ModelFile> model_file = OpenModelFile(path, architectures);
  if (!model_file.ok()) return model_file.status();
  const GgufFile& file = model_file->file;
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tokenizer = TokenizerFromGguf(file);
  if (!tokenizer.ok()) return tokenizer.status();
  EngineOptions engine = options.engine;
  engine.chat_format = model_file->architecture->chat_format;
  if (absl::StatusOr<std::string_view> chat_template = file.GetString("tokenizer.chat_template"); chat_template.ok()) {
    engine.chat_template = std::string(*chat_template);
  }
  absl::StatusOr<std::unique_ptr<Model>> model =
      model_file->architecture->open(std::move(model_file->file), options.model);
  if (!model.ok()) return model.status();
  return Engine::Create(*std::move(model), *std::move(tokenizer), engine);
}

}  // namespace cpubrrr

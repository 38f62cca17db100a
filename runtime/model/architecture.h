// The architectures a binary runs, keyed by general.architecture: each one's chat format
// family and how it makes a Model from an already-open GGUF file.
#ifndef CPUBRRR_RUNTIME_MODEL_ARCHITECTURE_H_
#define CPUBRRR_RUNTIME_MODEL_ARCHITECTURE_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/chat/chat_format_id.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/model/model.h"
#include "runtime/model/model_options.h"

namespace cpubrrr {

struct Architecture {
  std::string name;        // general.architecture as ArchitectureName gives it
  ChatFormat chat_format;  // its template family (a template may refine it: ChatFormatOfTemplate)
  // Binds `file`'s tensors and returns the model that owns the file; null in an entry that
  // only names an architecture this binary was built without.
  std::function<absl::StatusOr<std::unique_ptr<Model>>(GgufFile file, const ModelOptions& options)> open;
};

// Returns `file`'s general.architecture with Ollama's names mapped to llama.cpp's
// ("gptoss" is "gpt-oss"): the one place an architecture's names become one value.
absl::StatusOr<std::string> ArchitectureName(const GgufFile& file);

// Returns `file`'s entry among `linked`, or Unimplemented naming the architecture and the
// ones this binary runs (saying the forward pass is not built in when `linked` names it
// without `open`).
absl::StatusOr<const Architecture*> FindArchitecture(const GgufFile& file, absl::Span<const Architecture> linked);

// A mapped model file and its architecture's entry.
struct ModelFile {
  GgufFile file;
  const Architecture* architecture;
};

// Maps the GGUF at `path` (as OpenGguf, with a hint for the errors an old Ollama blob
// gives) and finds its entry among `linked` (FindArchitecture, the error prefixed with the
// path).
absl::StatusOr<ModelFile> OpenModelFile(const std::string& path, absl::Span<const Architecture> linked);

// Opens the model at `path` with the entry of its architecture among `linked`.
absl::StatusOr<std::unique_ptr<Model>> OpenModel(const std::string& path, absl::Span<const Architecture> linked,
                                                 const ModelOptions& options);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_MODEL_ARCHITECTURE_H_

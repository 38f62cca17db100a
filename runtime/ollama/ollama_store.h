// Resolves Ollama model names (`gpt-oss:20b`) to GGUF blobs in Ollama's local store.
#ifndef CPUBRRR_RUNTIME_OLLAMA_OLLAMA_STORE_H_
#define CPUBRRR_RUNTIME_OLLAMA_OLLAMA_STORE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cpubrrr {

// A parsed model reference: [host/][namespace/]model[:tag].
struct OllamaName {
  std::string host = "registry.ollama.ai";
  std::string name_space = "library";
  std::string model;
  std::string tag = "latest";

  // Returns the short form Ollama prints: "model:tag", with host and namespace only
  // when they are not the defaults.
  std::string Display() const;
};

// A model found in the store.
struct OllamaModel {
  OllamaName name;
  std::string manifest_path;
  std::string gguf_path;    // the blob with mediaType application/vnd.ollama.image.model
  uint64_t gguf_bytes = 0;
  std::string params_json;  // the application/vnd.ollama.image.params layer, or empty
};

// Parses `text` as an Ollama name; fails on empty parts, "..", or characters Ollama
// does not allow, so a name can never escape the store's folders.
absl::StatusOr<OllamaName> ParseOllamaName(const std::string& text);

// Returns the store root: $OLLAMA_MODELS, else ~/.ollama/models, else
// /usr/share/ollama/.ollama/models (the first that exists; the first candidate when
// none does).
std::string OllamaStoreRoot();

// Resolves `name` in the store at `root`; NotFound names the manifest it looked for.
absl::StatusOr<OllamaModel> ResolveOllamaModel(const std::string& root, const OllamaName& name);

// Lists every model whose manifest in `root` names a GGUF blob, sorted by name.
// Manifests that cannot be read are skipped; an absent store is an empty list.
std::vector<OllamaModel> ListOllamaModels(const std::string& root);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_OLLAMA_OLLAMA_STORE_H_

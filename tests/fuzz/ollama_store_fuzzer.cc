// libFuzzer target: any bytes as an Ollama model name, and as a manifest in a store on disk.
// A name that parses never escapes the store's folders and prints back as itself; a
// manifest that resolves names a blob inside the store. The first byte picks which.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/ollama/ollama_store.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace fs = std::filesystem;

std::string store;     // a store holding one blob, made once
std::string manifest;  // where the manifest of "fuzz:latest" goes

// Whether `part` is a safe single path component.
bool SafePart(const std::string& part) {
  return !part.empty() && part != "." && part != ".." && part.find('/') == std::string::npos &&
         part.find('\\') == std::string::npos && part.find('\0') == std::string::npos;
}

void CheckName(const std::string& text) {
  const absl::StatusOr<cpubrrr::OllamaName> name = cpubrrr::ParseOllamaName(text);
  if (!name.ok()) return;
  FuzzCheck(SafePart(name->host) && SafePart(name->name_space) && SafePart(name->model) && SafePart(name->tag),
            "a parsed name has a part that could leave the store");
  const absl::StatusOr<cpubrrr::OllamaName> again = cpubrrr::ParseOllamaName(name->Display());
  FuzzCheck(again.ok() && again->Display() == name->Display(), "a name does not parse back from its display");
}

void CheckManifest(const std::string& text) {
  std::ofstream(manifest, std::ios::binary | std::ios::trunc) << text;
  const absl::StatusOr<cpubrrr::OllamaModel> model =
      cpubrrr::ResolveOllamaModel(store, *cpubrrr::ParseOllamaName("fuzz"));
  if (!model.ok()) return;
  FuzzCheck(model->gguf_path.rfind(store + "/blobs/sha256-", 0) == 0 &&
                model->gguf_path.find("/..") == std::string::npos,
            "a resolved blob outside the store's blobs folder");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string pattern = std::string(tmp ? tmp : "/tmp") + "/ollama-store-XXXXXX";
  FuzzCheck(mkdtemp(pattern.data()) != nullptr, "cannot make the store folder");
  store = pattern;
  fs::create_directories(store + "/blobs");
  fs::create_directories(store + "/manifests/registry.ollama.ai/library/fuzz");
  std::ofstream(store + "/blobs/sha256-" + std::string(64, 'a')) << "GGUF";
  manifest = store + "/manifests/registry.ollama.ai/library/fuzz/latest";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    CheckManifest(rest);
  } else {
    CheckName(rest);
  }
  return 0;
}

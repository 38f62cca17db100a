// Ollama store layout: manifests/<host>/<namespace>/<model>/<tag> -> blobs/sha256-<hex>.
#include "runtime/ollama/ollama_store.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"

namespace cpubrrr {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kModelMediaType[] = "application/vnd.ollama.image.model";
constexpr char kParamsMediaType[] = "application/vnd.ollama.image.params";
// Manifests are a few kilobytes; a larger file is not a manifest.
constexpr uintmax_t kMaxManifestBytes = 1 << 20;

// Returns true for a non-empty path component of letters, digits, '-', '_' and '.'
// (and ':' where `allow_colon`, for a host's port) that is not "." or "..".
bool ValidPart(const std::string& part, bool allow_colon) {
  if (part.empty() || part == "." || part == "..") return false;
  return std::all_of(part.begin(), part.end(), [allow_colon](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.' || (allow_colon && c == ':');
  });
}

absl::StatusOr<std::string> ReadSmallFile(const fs::path& path) {
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  if (size > kMaxManifestBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path.string(), " is too large for a manifest"));
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Returns the blob path of a layer digest "sha256:<64 hex>", refusing anything else.
absl::StatusOr<fs::path> BlobPath(const fs::path& root, const std::string& digest) {
  const std::string prefix = "sha256:";
  const std::string hex = digest.substr(std::min(digest.size(), prefix.size()));
  const bool ok = digest.rfind(prefix, 0) == 0 && hex.size() == 64 &&
                  std::all_of(hex.begin(), hex.end(), [](char c) {
                    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                  });
  if (!ok) return absl::InvalidArgumentError(absl::StrCat("bad layer digest '", digest, "'"));
  return root / "blobs" / ("sha256-" + hex);
}

// Fails unless `path`, its symlinks followed, lies inside the store at `root` (whose own
// symlinks are followed too): a link in the store cannot lead out of it.
absl::Status CheckInsideStore(const fs::path& root, const fs::path& path) {
  std::error_code ec;
  const fs::path real_root = fs::canonical(root, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read the Ollama store ", root.string()));
  const fs::path real = fs::canonical(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  const auto [root_end, unused] = std::mismatch(real_root.begin(), real_root.end(), real.begin(), real.end());
  if (root_end != real_root.end()) {
    return absl::PermissionDeniedError(absl::StrCat(path.string(), " leads out of the Ollama store (to ",
                                                    real.string(), ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<OllamaModel> ReadManifest(const fs::path& root, const OllamaName& name,
                                         const fs::path& manifest) {
  if (absl::Status inside = CheckInsideStore(root, manifest); !inside.ok()) return inside;
  absl::StatusOr<std::string> text = ReadSmallFile(manifest);
  if (!text.ok()) return text.status();
  const json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("layers") || !doc["layers"].is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(manifest.string(), " is not an Ollama manifest"));
  }
  OllamaModel model{.name = name, .manifest_path = manifest.string()};
  for (const json& layer : doc["layers"]) {
    if (!layer.is_object() || !layer.contains("mediaType") || !layer.contains("digest") ||
        !layer["mediaType"].is_string() || !layer["digest"].is_string()) {
      continue;
    }
    const std::string media = layer["mediaType"].get<std::string>();
    if (media != kModelMediaType && media != kParamsMediaType) continue;
    absl::StatusOr<fs::path> blob = BlobPath(root, layer["digest"].get<std::string>());
    if (!blob.ok()) return blob.status();
    std::error_code exists;
    if (fs::exists(*blob, exists)) {
      if (absl::Status inside = CheckInsideStore(root, *blob); !inside.ok()) return inside;
    }
    if (media == kModelMediaType) {
      std::error_code ec;
      model.gguf_path = blob->string();
      model.gguf_bytes = fs::file_size(*blob, ec);
      if (ec) {
        return absl::NotFoundError(absl::StrCat("model ", name.Display(), ": its blob ",
                                                blob->string(), " is missing"));
      }
    } else {
      absl::StatusOr<std::string> params = ReadSmallFile(*blob);
      if (params.ok()) model.params_json = *std::move(params);
    }
  }
  if (model.gguf_path.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("model ", name.Display(), " has no GGUF layer"));
  }
  return model;
}

}  // namespace

std::string OllamaName::Display() const {
  std::string out;
  if (host != "registry.ollama.ai") absl::StrAppend(&out, host, "/");
  if (host != "registry.ollama.ai" || name_space != "library") absl::StrAppend(&out, name_space, "/");
  absl::StrAppend(&out, model, ":", tag);
  return out;
}

absl::StatusOr<OllamaName> ParseOllamaName(const std::string& text) {
  OllamaName name;
  std::string path = text;
  const size_t colon = text.rfind(':');
  const size_t slash = text.rfind('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    name.tag = text.substr(colon + 1);
    path = text.substr(0, colon);
  }
  std::vector<std::string> parts = absl::StrSplit(path, '/');
  if (parts.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not an Ollama model name"));
  }
  name.model = parts.back();
  if (parts.size() >= 2) name.name_space = parts[parts.size() - 2];
  if (parts.size() == 3) name.host = parts[0];
  for (const std::string* part : {&name.host, &name.name_space, &name.model, &name.tag}) {
    if (!ValidPart(*part, /*allow_colon=*/part == &name.host)) {
      return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not an Ollama model name"));
    }
  }
  return name;
}

std::string OllamaStoreRoot() {
  if (const char* env = std::getenv("OLLAMA_MODELS"); env && *env) return env;
  std::vector<std::string> candidates;
  if (const char* home = std::getenv("HOME"); home && *home) {
    candidates.push_back(std::string(home) + "/.ollama/models");
  }
  candidates.push_back("/usr/share/ollama/.ollama/models");
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (fs::is_directory(c, ec)) return c;
  }
  return candidates.front();
}

absl::StatusOr<OllamaModel> ResolveOllamaModel(const std::string& root, const OllamaName& name) {
  const fs::path manifest =
      fs::path(root) / "manifests" / name.host / name.name_space / name.model / name.tag;
  std::error_code ec;
  if (!fs::is_regular_file(manifest, ec)) {
    return absl::NotFoundError(absl::StrCat("model ", name.Display(), " is not in the Ollama store (",
                                            manifest.string(), " does not exist); `ollama pull ",
                                            name.Display(), "` fetches it"));
  }
  return ReadManifest(root, name, manifest);
}

std::vector<OllamaModel> ListOllamaModels(const std::string& root) {
  std::vector<OllamaModel> models;
  const fs::path manifests = fs::path(root) / "manifests";
  std::error_code ec;
  if (!fs::is_directory(manifests, ec)) return models;
  // Depth is fixed: host / namespace / model / tag.
  for (auto it = fs::recursive_directory_iterator(manifests, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() != 3 || !it->is_regular_file(ec)) continue;
    const fs::path rel = fs::relative(it->path(), manifests, ec);
    std::vector<std::string> parts;
    for (const fs::path& p : rel) parts.push_back(p.string());
    OllamaName name{.host = parts[0], .name_space = parts[1], .model = parts[2], .tag = parts[3]};
    absl::StatusOr<OllamaModel> model = ReadManifest(root, name, it->path());
    if (model.ok()) models.push_back(*std::move(model));
  }
  std::sort(models.begin(), models.end(), [](const OllamaModel& a, const OllamaModel& b) {
    return a.name.Display() < b.name.Display();
  });
  return models;
}

}  // namespace cpubrrr

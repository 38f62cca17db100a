// Logits dump, tokenizer dump and Ollama store listing.
#include "tools/cpubrrr/inspect_commands.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/ollama/ollama_store.h"
#include "tools/cpubrrr/cli_engine.h"
#include "tools/cpubrrr/model_source.h"

namespace cpubrrr {
namespace {

// Returns `text` as a JSON string; bytes that are not UTF-8 become U+FFFD.
std::string JsonString(std::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Returns `bytes` like "13.0 GB" (decimal units, as Ollama prints sizes).
std::string HumanBytes(uint64_t bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  double value = bytes;
  int unit = 0;
  while (value >= 1000 && unit < 4) {
    value /= 1000;
    ++unit;
  }
  return unit == 0 ? absl::StrCat(bytes, " B") : absl::StrFormat("%.1f %s", value, units[unit]);
}

}  // namespace

absl::Status LogitsCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  absl::StatusOr<std::string> prompt = ReadPrompt(options);
  if (!prompt.ok()) return prompt.status();
  absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(options, architectures);
  if (!engine.ok()) return engine.status();
  GenerateRequest request;
  request.raw_prompt = *prompt;
  absl::StatusOr<std::vector<int32_t>> tokens = (*engine)->TokenizePrompt(request);
  if (!tokens.ok()) return tokens.status();
  absl::StatusOr<std::vector<float>> logits = (*engine)->PromptLogits(*tokens);
  if (!logits.ok()) return logits.status();

  std::vector<int32_t> order(logits->size());
  std::iota(order.begin(), order.end(), 0);
  size_t n = order.size();
  if (options.top_logits > 0) {
    n = std::min<size_t>(n, options.top_logits);
    std::partial_sort(order.begin(), order.begin() + n, order.end(), [&](int32_t a, int32_t b) {
      return (*logits)[a] > (*logits)[b] || ((*logits)[a] == (*logits)[b] && a < b);
    });
  }
  const BpeTokenizer& tokenizer = (*engine)->tokenizer();
  if (options.json) {
    std::vector<std::string> entries;
    for (size_t i = 0; i < n; ++i) {
      entries.push_back(absl::StrFormat("{\"id\": %d, \"logit\": %.9g, \"piece\": %s}", order[i],
                                        (*logits)[order[i]], JsonString(tokenizer.TokenBytes(order[i]))));
    }
    std::printf("{\"tokens\": [%s], \"n_vocab\": %zu, \"logits\": [\n  %s\n]}\n",
                absl::StrJoin(*tokens, ", ").c_str(), logits->size(),
                absl::StrJoin(entries, ",\n  ").c_str());
  } else {
    for (size_t i = 0; i < n; ++i) {
      std::printf("%d %.9g %s\n", order[i], (*logits)[order[i]],
                  JsonString(tokenizer.TokenBytes(order[i])).c_str());
    }
  }
  return absl::OkStatus();
}

absl::Status TokenizeCommand(const CliOptions& options) {
  absl::StatusOr<std::string> text = ReadPrompt(options);
  if (!text.ok()) return text.status();
  absl::StatusOr<ModelSource> source = ResolveModelSource(options.model);
  if (!source.ok()) return source.status();
  absl::StatusOr<GgufFile> file = OpenGguf(source->path);
  if (!file.ok()) return file.status();
  absl::StatusOr<std::unique_ptr<BpeTokenizer>> tokenizer = TokenizerFromGguf(*file);
  if (!tokenizer.ok()) return tokenizer.status();
  const std::vector<int32_t> ids =
      (*tokenizer)->Encode(*text, /*add_special=*/true, options.parse_special);
  if (options.ids_only) {
    std::printf("[%s]\n", absl::StrJoin(ids, ", ").c_str());
    return absl::OkStatus();
  }
  for (int32_t id : ids) {
    const std::string_view piece = (*tokenizer)->TokenBytes(id);
    std::printf("%6d -> '%.*s'\n", id, static_cast<int>(piece.size()), piece.data());
  }
  return absl::OkStatus();
}

absl::Status ModelsCommand(const CliOptions& options) {
  const std::string root = OllamaStoreRoot();
  const std::vector<OllamaModel> models = ListOllamaModels(root);
  if (models.empty()) {
    std::fprintf(stderr, "no models in the Ollama store at %s\n", root.c_str());
    return absl::OkStatus();
  }
  size_t width = 4;
  for (const OllamaModel& m : models) width = std::max(width, m.name.Display().size());
  std::printf("%-*s  %9s  %s\n", static_cast<int>(width), "NAME", "SIZE", "PATH");
  for (const OllamaModel& m : models) {
    std::printf("%-*s  %9s  %s\n", static_cast<int>(width), m.name.Display().c_str(),
                HumanBytes(m.gguf_bytes).c_str(), m.gguf_path.c_str());
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr

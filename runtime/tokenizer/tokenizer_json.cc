// Converts tokenizer.json's model.vocab, model.merges and added_tokens to GGUF arrays.
#include "runtime/tokenizer/tokenizer_json.h"

#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace cpubrrr {
namespace {

using nlohmann::json;

absl::Status PlaceToken(BpeVocab& vocab, std::vector<bool>& seen, int64_t id,
                        const std::string& text, int32_t type) {
  if (id < 0 || id >= static_cast<int64_t>(vocab.tokens.size())) {
    return absl::InvalidArgumentError(absl::StrCat("token id ", id, " out of range"));
  }
  vocab.tokens[id] = text;
  vocab.token_types[id] = type;
  seen[id] = true;
  return absl::OkStatus();
}

// Accepts both merge spellings: "a b" strings and ["a", "b"] pairs.
absl::StatusOr<std::string> MergeText(const json& merge) {
  if (merge.is_string()) return merge.get<std::string>();
  if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
    return merge[0].get<std::string>() + " " + merge[1].get<std::string>();
  }
  return absl::InvalidArgumentError("a merge is neither \"a b\" nor [\"a\", \"b\"]");
}

absl::StatusOr<BpeVocab> ParseVocab(const json& doc, size_t rows) {
  const json& model = doc.at("model");
  if (model.value("type", "") != "BPE") {
    return absl::InvalidArgumentError("tokenizer.json: model.type is not BPE");
  }
  const json& vocab_json = model.at("vocab");
  const json& added = doc.value("added_tokens", json::array());
  int64_t max_id = -1;
  for (const auto& [text, id] : vocab_json.items()) max_id = std::max<int64_t>(max_id, id);
  for (const json& t : added) max_id = std::max<int64_t>(max_id, t.at("id").get<int64_t>());
  const size_t n = static_cast<size_t>(max_id + 1);
  if (rows != 0 && n > rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("tokenizer has ", n, " tokens, more than the model's ", rows, " rows"));
  }
  BpeVocab vocab;
  vocab.tokens.resize(std::max(n, rows));
  vocab.token_types.resize(vocab.tokens.size(), kTokenUnused);
  std::vector<bool> seen(vocab.tokens.size(), false);
  for (const auto& [text, id] : vocab_json.items()) {
    absl::Status s = PlaceToken(vocab, seen, id.get<int64_t>(), text, kTokenNormal);
    if (!s.ok()) return s;
  }
  for (const json& t : added) {
    const int32_t type = t.value("special", false) ? kTokenControl : kTokenUserDefined;
    absl::Status s = PlaceToken(vocab, seen, t.at("id").get<int64_t>(),
                                t.at("content").get<std::string>(), type);
    if (!s.ok()) return s;
  }
  for (size_t id = 0; id < vocab.tokens.size(); ++id) {
    if (seen[id]) continue;
    if (id < n) return absl::InvalidArgumentError(absl::StrCat("token id ", id, " is missing"));
    vocab.tokens[id] = absl::StrCat("[PAD", id, "]");
  }
  for (const json& merge : model.at("merges")) {
    absl::StatusOr<std::string> text = MergeText(merge);
    if (!text.ok()) return text.status();
    vocab.merges.push_back(*std::move(text));
  }
  return vocab;
}

}  // namespace

absl::StatusOr<BpeVocab> ReadTokenizerJson(const std::string& path, size_t rows) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open tokenizer file ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  json doc = json::parse(buffer.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not valid JSON"));
  }
  try {
    return ParseVocab(doc, rows);
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", e.what()));
  }
}

absl::StatusOr<int32_t> FindToken(const BpeVocab& vocab, const std::string& text) {
  for (size_t id = 0; id < vocab.tokens.size(); ++id) {
    if (vocab.tokens[id] == text) return static_cast<int32_t>(id);
  }
  return absl::NotFoundError(absl::StrCat("token ", text, " is not in the vocabulary"));
}

}  // namespace cpubrrr

// Byte-level BPE encode (specials, pre-tokenizer, merges) and decode.
#include "runtime/tokenizer/bpe_tokenizer.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/tokenizer/bpe_word.h"
#include "runtime/tokenizer/byte_unicode.h"
#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<BpeTokenizer>> BpeTokenizer::Create(BpeVocab vocab,
                                                                   TokenizerConfig config) {
  if (vocab.tokens.size() != vocab.token_types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("tokenizer has ", vocab.tokens.size(),
                                                   " tokens but ", vocab.token_types.size(),
                                                   " token types"));
  }
  const int64_t n = static_cast<int64_t>(vocab.tokens.size());
  if (config.add_bos && (config.bos_id < 0 || config.bos_id >= n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("add_bos is set but the BOS id ", config.bos_id, " is not a token"));
  }
  absl::StatusOr<PreTokenizerKind> kind = PreTokenizerKindFor(config.pre, vocab.tokens.size());
  if (!kind.ok()) return kind.status();
  absl::StatusOr<PreTokenizer> pre = PreTokenizer::Create(*kind);
  if (!pre.ok()) return pre.status();
  std::unique_ptr<BpeTokenizer> t(
      new BpeTokenizer(std::move(vocab), std::move(config), *kind, *std::move(pre)));
  for (int b = 0; b < 256; ++b) {
    if (t->byte_ids_[b] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("byte 0x", absl::Hex(b), " has no token: not a byte-level BPE vocabulary"));
    }
  }
  return t;
}

BpeTokenizer::BpeTokenizer(BpeVocab vocab, TokenizerConfig config, PreTokenizerKind kind,
                           PreTokenizer pre_tokenizer)
    : vocab_(std::move(vocab)),
      config_(std::move(config)),
      kind_(kind),
      pre_tokenizer_(std::move(pre_tokenizer)),
      // llama.cpp takes whole-token words for llama-bpe; o200k (tiktoken) does the same,
      // and for gpt-oss's vocabulary it gives the same ids as merging (tested).
      ignore_merges_(kind == PreTokenizerKind::kLlama3 || kind == PreTokenizerKind::kGpt4o) {
  const size_t n = vocab_.tokens.size();
  bytes_.resize(n);
  ids_.reserve(n);
  absl::flat_hash_map<std::string_view, int32_t> normal_by_bytes;
  normal_by_bytes.reserve(n);
  for (int32_t& id : byte_ids_) id = -1;
  for (size_t id = 0; id < n; ++id) {
    const std::string& text = vocab_.tokens[id];
    ids_.try_emplace(text, static_cast<int32_t>(id));
    if (vocab_.token_types[id] != kTokenNormal) {
      if (vocab_.token_types[id] != kTokenUnused) bytes_[id] = text;
      continue;
    }
    if (!UnicodeToBytes(text, &bytes_[id])) bytes_[id] = text;
    normal_by_bytes.try_emplace(bytes_[id], static_cast<int32_t>(id));
  }
  for (int b = 0; b < 256; ++b) {
    const char byte = static_cast<char>(b);
    auto it = normal_by_bytes.find(std::string_view(&byte, 1));
    if (it != normal_by_bytes.end()) byte_ids_[b] = it->second;
  }
  merges_ = std::make_unique<BpeMerges>(vocab_.merges, ids_);
  specials_ = std::make_unique<SpecialTokenSplitter>(vocab_.tokens, vocab_.token_types);
  FindWholeWords(normal_by_bytes);
}

void BpeTokenizer::FindWholeWords(
    const absl::flat_hash_map<std::string_view, int32_t>& normal_by_bytes) {
  whole_words_.reserve(normal_by_bytes.size());
  BpeScratch scratch;
  std::vector<int32_t> symbols, merged;
  for (const auto& [bytes, id] : normal_by_bytes) {
    if (!ignore_merges_ && bytes.size() > 1) {
      symbols.clear();
      for (char c : bytes) symbols.push_back(byte_ids_[static_cast<uint8_t>(c)]);
      merged.clear();
      MergeWord(*merges_, symbols.data(), symbols.size(), &scratch, &merged);
      if (merged.size() != 1 || merged[0] != id) continue;
    }
    whole_words_.emplace(bytes, id);
  }
}

std::vector<int32_t> BpeTokenizer::Encode(std::string_view text, bool add_special,
                                          bool parse_special) const {
  std::vector<int32_t> out;
  out.reserve(text.size() / 3 + 2);
  if (add_special && config_.add_bos) out.push_back(config_.bos_id);
  std::string sanitized;
  if (!IsValidUtf8(text)) {
    sanitized = ReplaceInvalidUtf8(text);
    text = sanitized;
  }
  for (const TextFragment& f : specials_->Split(text, parse_special)) {
    if (f.id >= 0) {
      out.push_back(f.id);
    } else {
      EncodeText(f.text, &out);
    }
  }
  return out;
}

void BpeTokenizer::EncodeText(std::string_view text, std::vector<int32_t>* out) const {
  thread_local std::vector<std::string_view> words;
  thread_local std::vector<int32_t> symbols;
  thread_local BpeScratch scratch;
  words.clear();
  pre_tokenizer_.Split(text, &words);
  for (std::string_view word : words) {
    if (word.size() == 1) {
      out->push_back(byte_ids_[static_cast<uint8_t>(word[0])]);
      continue;
    }
    auto it = whole_words_.find(word);
    if (it != whole_words_.end()) {
      out->push_back(it->second);
      continue;
    }
    symbols.resize(word.size());
    for (size_t i = 0; i < word.size(); ++i) {
      symbols[i] = byte_ids_[static_cast<uint8_t>(word[i])];
    }
    MergeWord(*merges_, symbols.data(), symbols.size(), &scratch, out);
  }
}

std::string_view BpeTokenizer::TokenBytes(int32_t id, bool render_special) const {
  if (id < 0 || static_cast<size_t>(id) >= bytes_.size()) return {};
  if (!render_special && vocab_.token_types[id] == kTokenControl) return {};
  return bytes_[id];
}

std::string BpeTokenizer::Decode(absl::Span<const int32_t> ids, bool render_special) const {
  std::string out;
  for (int32_t id : ids) out.append(TokenBytes(id, render_special));
  return out;
}

}  // namespace cpubrrr

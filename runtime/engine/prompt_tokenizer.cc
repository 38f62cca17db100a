// Escape user text, render, split at template specials, unescape, tokenize each piece.
#include "runtime/engine/prompt_tokenizer.h"

#include <utility>

#include "runtime/tokenizer/utf8.h"

namespace cpubrrr {
namespace {

// U+E000 (private use): never part of a special token text in gpt-oss or Qwen3 vocabularies.
constexpr std::string_view kSentinel = "\xEE\x80\x80";

// Appends `text` with every kSentinel doubled.
void AppendDoubled(std::string_view text, std::string& out) {
  for (size_t at; (at = text.find(kSentinel)) != std::string_view::npos;) {
    out.append(text.substr(0, at + kSentinel.size()));
    out.append(kSentinel);
    text.remove_prefix(at + kSentinel.size());
  }
  out.append(text);
}

// Returns `text` with single sentinels dropped and doubled ones made single.
std::string Unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at; (at = text.find(kSentinel)) != std::string_view::npos;) {
    out.append(text.substr(0, at));
    text.remove_prefix(at + kSentinel.size());
    if (text.substr(0, kSentinel.size()) == kSentinel) {
      out.append(kSentinel);
      text.remove_prefix(kSentinel.size());
    }
  }
  out.append(text);
  return out;
}

// Calls `escape` on every string (keys included) inside `value`.
template <typename Escape>
nlohmann::ordered_json EscapeJson(const nlohmann::ordered_json& value, const Escape& escape) {
  if (value.is_string()) return escape(value.get<std::string>());
  if (value.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& element : value) out.push_back(EscapeJson(element, escape));
    return out;
  }
  if (value.is_object()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [key, element] : value.items()) out[escape(key)] = EscapeJson(element, escape);
    return out;
  }
  return value;
}

}  // namespace

PromptTokenizer::PromptTokenizer(const BpeTokenizer& tokenizer)
    : tokenizer_(tokenizer),
      splitter_(tokenizer.vocab().tokens, tokenizer.vocab().token_types) {}

std::string PromptTokenizer::Escape(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  for (const TextFragment& f : splitter_.Split(text, /*parse_special=*/true)) {
    if (f.id >= 0 && tokenizer_.vocab().token_types[f.id] == kTokenControl) {
      size_t first = Utf8SequenceLength(f.text, 0);
      if (first == 0) first = 1;
      out.append(f.text.substr(0, first));
      out.append(kSentinel);
      out.append(f.text.substr(first));
    } else {
      AppendDoubled(f.text, out);
    }
  }
  return out;
}

ChatRequest PromptTokenizer::EscapeRequest(const ChatRequest& request) const {
  ChatRequest out = request;
  auto escape = [this](const std::string& s) { return Escape(s); };
  for (ChatMessage& m : out.messages) {
    for (std::string* s : {&m.role, &m.content, &m.reasoning, &m.tool_call_id, &m.name}) {
      *s = Escape(*s);
    }
    for (ToolCall& call : m.tool_calls) {
      for (std::string* s : {&call.id, &call.name, &call.arguments}) *s = Escape(*s);
    }
  }
  for (nlohmann::ordered_json& tool : out.tools) tool = EscapeJson(tool, escape);
  out.model_identity = Escape(out.model_identity);
  return out;
}

absl::StatusOr<std::vector<int32_t>> PromptTokenizer::TokenizeChat(
    ChatFormat format, const ChatRequest& request) const {
  absl::StatusOr<std::string> text = RenderChatPrompt(format, EscapeRequest(request));
  if (!text.ok()) return text.status();
  std::vector<int32_t> ids;
  if (tokenizer_.config().add_bos) ids.push_back(tokenizer_.config().bos_id);
  for (const TextFragment& f : splitter_.Split(*text, /*parse_special=*/true)) {
    if (f.id >= 0) {
      ids.push_back(f.id);
      continue;
    }
    const std::vector<int32_t> piece =
        tokenizer_.Encode(Unescape(f.text), /*add_special=*/false, /*parse_special=*/false);
    ids.insert(ids.end(), piece.begin(), piece.end());
  }
  return ids;
}

std::vector<int32_t> PromptTokenizer::TokenizeRaw(std::string_view text) const {
  return tokenizer_.Encode(text, /*add_special=*/true, /*parse_special=*/true);
}

}  // namespace cpubrrr

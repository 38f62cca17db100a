// Special-token matching: one pass per token, longest tokens first.
#include "runtime/tokenizer/special_tokens.h"

#include <algorithm>

#include "runtime/tokenizer/tokenizer_json.h"

namespace cpubrrr {

SpecialTokenSplitter::SpecialTokenSplitter(const std::vector<std::string>& tokens,
                                           const std::vector<int32_t>& types) {
  for (size_t id = 0; id < tokens.size() && id < types.size(); ++id) {
    if (tokens[id].empty()) continue;
    if (types[id] == kTokenControl || types[id] == kTokenUserDefined) {
      specials_.push_back({tokens[id], static_cast<int32_t>(id), types[id] == kTokenControl});
    }
  }
  std::stable_sort(specials_.begin(), specials_.end(), [](const Special& a, const Special& b) {
    return a.text.size() > b.text.size();
  });
}

std::vector<TextFragment> SpecialTokenSplitter::Split(std::string_view text,
                                                      bool parse_special) const {
  std::vector<TextFragment> fragments;
  if (!text.empty()) fragments.push_back({text, -1});
  std::vector<TextFragment> next;
  for (const Special& special : specials_) {
    if (special.control && !parse_special) continue;
    bool found = false;
    for (const TextFragment& f : fragments) {
      if (f.id < 0 && f.text.find(special.text) != std::string_view::npos) found = true;
    }
    if (!found) continue;
    next.clear();
    for (const TextFragment& f : fragments) {
      if (f.id >= 0) {
        next.push_back(f);
        continue;
      }
      std::string_view rest = f.text;
      for (size_t at; (at = rest.find(special.text)) != std::string_view::npos;) {
        if (at > 0) next.push_back({rest.substr(0, at), -1});
        next.push_back({rest.substr(at, special.text.size()), special.id});
        rest.remove_prefix(at + special.text.size());
      }
      if (!rest.empty()) next.push_back({rest, -1});
    }
    fragments.swap(next);
  }
  return fragments;
}

}  // namespace cpubrrr

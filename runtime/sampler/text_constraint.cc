// The phases' byte matchers (sorted literal alternatives, a terminator window, a JSON
// scanner with a bit stack) and the vocabulary-wide mask.
#include "runtime/sampler/text_constraint.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace cpubrrr {
namespace {

// Modes of the JSON scanner.
enum JsonMode : uint8_t {
  kStart,          // before the top-level object
  kKeyOrClose,     // after '{'
  kKey,            // after ',' in an object
  kColon,          // after a key
  kValue,          // after ':' or ',' in an array
  kValueOrClose,   // after '['
  kAfterValue,     // after a value inside an object or array
  kString,
  kEscape,
  kUnicode,
  kMinus,          // number: after '-'
  kZero,           // number: a leading 0
  kInt,
  kDot,
  kFrac,
  kExpMark,        // after 'e'
  kExpSign,
  kExp,
  kTrue,
  kFalse,
  kNull,
};

constexpr int kMaxJsonDepth = 64;
// Enough for pretty-printed JSON; a small model left free to add spaces may never stop.
constexpr int kMaxJsonSpaces = 32;

bool IsSpace(unsigned char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsHex(unsigned char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

const char* Keyword(uint8_t mode) { return mode == kTrue ? "true" : mode == kFalse ? "false" : "null"; }

}  // namespace

TextConstraint::TextConstraint(std::vector<ConstraintPhase> phases, std::vector<std::string_view> token_bytes,
                               std::vector<bool> control)
    : phases_(std::move(phases)), token_bytes_(std::move(token_bytes)), control_(std::move(control)) {
  control_.resize(token_bytes_.size(), false);
  string_text_.resize(token_bytes_.size());
  for (size_t id = 0; id < token_bytes_.size(); ++id) {
    const std::string_view t = token_bytes_[id];
    string_text_[id] = !control_[id] && !t.empty() && std::none_of(t.begin(), t.end(), [](char c) {
      return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
  }
  for (ConstraintPhase& p : phases_) {
    std::erase_if(p.literals, [](const auto& l) { return l.first.empty(); });
    // std::string orders bytes as unsigned char, as FeedLiteral's search expects.
    std::sort(p.literals.begin(), p.literals.end());
    p.terminator.resize(std::min<size_t>(p.terminator.size(), sizeof(State::tail)));
  }
  Enter(state_, phases_.empty() ? -1 : 0);
}

void TextConstraint::Enter(State& s, int phase) const {
  s.phase = phase;
  s.spaces = 0;
  s.matched = 0;
  s.lo = 0;
  s.hi = phase >= 0 ? static_cast<uint32_t>(phases_[phase].literals.size()) : 0;
  s.tail_len = 0;
  s.json = kStart;
  s.json_key = false;
  s.json_aux = 0;
  s.json_spaces = 0;
  s.depth = 0;
  s.stack = 0;
}

bool TextConstraint::FeedLiteral(State& s, unsigned char c) const {
  const ConstraintPhase& p = phases_[s.phase];
  const auto& lits = p.literals;
  // Every literal in [lo, hi) is longer than `matched` and agrees on its first `matched`
  // bytes, so the range is sorted by the byte at `matched`.
  const auto byte_at = [&](const std::pair<std::string, int>& l) {
    return static_cast<unsigned char>(l.first[s.matched]);
  };
  const auto first = lits.begin() + s.lo, last = lits.begin() + s.hi;
  const auto lo_it = std::partition_point(first, last, [&](const auto& l) { return byte_at(l) < c; });
  const auto hi_it = std::partition_point(lo_it, last, [&](const auto& l) { return byte_at(l) == c; });
  const uint32_t lo = static_cast<uint32_t>(lo_it - lits.begin()), hi = static_cast<uint32_t>(hi_it - lits.begin());
  if (lo == hi) {
    if (s.matched == 0 && IsSpace(c) && s.spaces < p.max_leading_space) {
      ++s.spaces;
      return true;
    }
    return false;
  }
  s.lo = lo;
  s.hi = hi;
  ++s.matched;
  if (lits[lo].first.size() == s.matched) Enter(s, lits[lo].second);
  return true;
}

bool TextConstraint::FeedFree(State& s, unsigned char c) const {
  const std::string& term = phases_[s.phase].terminator;
  if (term.empty()) return false;
  if (s.tail_len == term.size()) {
    std::memmove(s.tail, s.tail + 1, s.tail_len - 1);
    --s.tail_len;
  }
  s.tail[s.tail_len++] = static_cast<char>(c);
  if (s.tail_len == term.size() && std::memcmp(s.tail, term.data(), term.size()) == 0) {
    Enter(s, phases_[s.phase].next);
    return true;
  }
  return false;
}

void TextConstraint::EndValue(State& s) const { Enter(s, phases_[s.phase].next); }

bool TextConstraint::CloseJson(State& s, unsigned char c) const {
  if (s.depth == 0) return false;
  const bool object = (s.stack >> (s.depth - 1)) & 1;
  if (object != (c == '}')) return false;
  --s.depth;
  s.stack &= ~(uint64_t{1} << s.depth);
  if (s.depth == 0) {
    EndValue(s);
  } else {
    s.json = kAfterValue;
  }
  return true;
}

TextConstraint::JsonStep TextConstraint::FeedJson(State& s, unsigned char c) const {
  using enum JsonStep;
  const auto step = [](bool ok) { return ok ? kTaken : kReject; };
  const ConstraintPhase::JsonType type = phases_[s.phase].json_type;
  const auto open = [&](bool object) {
    if (s.depth == kMaxJsonDepth) return kReject;
    if (object) s.stack |= uint64_t{1} << s.depth;
    ++s.depth;
    s.json = object ? kKeyOrClose : kValueOrClose;
    return kTaken;
  };
  // A string or keyword just ended: the phase's value, or one inside it.
  const auto value_done = [&]() {
    if (s.depth == 0) {
      EndValue(s);
    } else {
      s.json = kAfterValue;
    }
    return kTaken;
  };
  const auto start_value = [&]() {
    switch (c) {
      case '{': return open(true);
      case '[': return open(false);
      case '"': s.json = kString, s.json_key = false; return kTaken;
      case '-': s.json = kMinus; return kTaken;
      case '0': s.json = kZero; return kTaken;
      case 't': s.json = kTrue, s.json_aux = 1; return kTaken;
      case 'f': s.json = kFalse, s.json_aux = 1; return kTaken;
      case 'n': s.json = kNull, s.json_aux = 1; return kTaken;
      default:
        if (c >= '1' && c <= '9') return s.json = kInt, kTaken;
        return step(IsSpace(c));
    }
  };
  // A number ends at the first byte that cannot continue it, which then follows it.
  const auto end_number = [&]() {
    if (s.depth == 0) {
      EndValue(s);
      return kPassOn;
    }
    s.json = kAfterValue;
    return FeedJson(s, c);
  };
  // Only the phase's own value is typed, not the values inside it.
  const bool integer = type == ConstraintPhase::kInteger && s.depth == 0;
  switch (s.json) {
    case kStart: {
      if (IsSpace(c)) return kTaken;
      const bool number = c == '-' || IsDigit(c);
      const bool allowed = type == ConstraintPhase::kAnyValue || (type == ConstraintPhase::kObject && c == '{') ||
                           (type == ConstraintPhase::kArray && c == '[') ||
                           (type == ConstraintPhase::kString && c == '"') ||
                           ((type == ConstraintPhase::kInteger || type == ConstraintPhase::kNumber) && number);
      return allowed ? start_value() : kReject;
    }
    case kKeyOrClose:
      if (c == '}') return step(CloseJson(s, c));
      [[fallthrough]];
    case kKey:
      if (c == '"') return s.json = kString, s.json_key = true, kTaken;
      return step(IsSpace(c));
    case kColon:
      if (c == ':') return s.json = kValue, kTaken;
      return step(IsSpace(c));
    case kValueOrClose:
      if (c == ']') return step(CloseJson(s, c));
      [[fallthrough]];
    case kValue:
      return start_value();
    case kAfterValue:
      if (c == '}' || c == ']') return step(CloseJson(s, c));
      if (c == ',') return s.json = ((s.stack >> (s.depth - 1)) & 1) ? kKey : kValue, kTaken;
      return step(IsSpace(c));
    case kString:
      if (c == '"') return s.json_key ? (s.json = kColon, kTaken) : value_done();
      if (c == '\\') return s.json = kEscape, kTaken;
      return step(c >= 0x20);
    case kEscape:
      if (c == 'u') return s.json = kUnicode, s.json_aux = 0, kTaken;
      if (c != 0 && std::strchr("\"\\/bfnrt", c) != nullptr) return s.json = kString, kTaken;
      return kReject;
    case kUnicode:
      if (!IsHex(c)) return kReject;
      if (++s.json_aux == 4) s.json = kString;
      return kTaken;
    case kMinus:
      if (c == '0') return s.json = kZero, kTaken;
      if (c >= '1' && c <= '9') return s.json = kInt, kTaken;
      return kReject;
    case kZero:
    case kInt:
      if (s.json == kInt && IsDigit(c)) return kTaken;
      if (c == '.' || c == 'e' || c == 'E') {
        if (integer) return kReject;
        return s.json = c == '.' ? kDot : kExpMark, kTaken;
      }
      return end_number();
    case kDot:
      return IsDigit(c) ? (s.json = kFrac, kTaken) : kReject;
    case kFrac:
      if (IsDigit(c)) return kTaken;
      if (c == 'e' || c == 'E') return s.json = kExpMark, kTaken;
      return end_number();
    case kExpMark:
      if (c == '+' || c == '-') return s.json = kExpSign, kTaken;
      return IsDigit(c) ? (s.json = kExp, kTaken) : kReject;
    case kExpSign:
      return IsDigit(c) ? (s.json = kExp, kTaken) : kReject;
    case kExp:
      return IsDigit(c) ? kTaken : end_number();
    case kTrue:
    case kFalse:
    case kNull: {
      const char* word = Keyword(s.json);
      if (static_cast<unsigned char>(word[s.json_aux]) != c) return kReject;
      return word[++s.json_aux] == '\0' ? value_done() : kTaken;
    }
  }
  return kReject;
}

bool TextConstraint::Feed(State& s, std::string_view bytes, bool control) const {
  if (bytes.empty()) return false;
  // A control token inside free text must end it; inside JSON it is never allowed.
  bool control_in_free_text = false;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (s.phase < 0) return false;
    switch (phases_[s.phase].kind) {
      case ConstraintPhase::kLiterals:
        if (!FeedLiteral(s, c)) return false;
        break;
      case ConstraintPhase::kFreeText:
        control_in_free_text |= control;
        if (FeedFree(s, c)) control_in_free_text = false;
        break;
      case ConstraintPhase::kJson: {
        if (control) return false;  // not text, even where a string would take its bytes
        if (s.json != kString && s.json != kEscape && s.json != kUnicode) {
          s.json_spaces = IsSpace(c) ? s.json_spaces + 1 : 0;
          if (s.json_spaces > kMaxJsonSpaces) return false;
        }
        const JsonStep step = FeedJson(s, c);
        if (step == JsonStep::kReject) return false;
        if (step == JsonStep::kPassOn) --i;  // the byte after a number goes to the next phase
        break;
      }
    }
  }
  return !control_in_free_text;
}

size_t TextConstraint::Mask(std::span<float> logits) const {
  if (abandoned_) return 0;
  allowed_.assign(logits.size(), 0);
  size_t count = 0;
  const size_t n = std::min(logits.size(), token_bytes_.size());
  // Most tokens leave the state's mode as it is, which needs no simulation: any text
  // without quotes, escapes or control bytes inside a JSON string, any text without the
  // terminator's last byte inside free text.
  const ConstraintPhase* phase = state_.phase >= 0 ? &phases_[state_.phase] : nullptr;
  const bool in_string = phase != nullptr && phase->kind == ConstraintPhase::kJson && state_.json == kString;
  const bool in_free_text = phase != nullptr && phase->kind == ConstraintPhase::kFreeText && !phase->terminator.empty();
  const char last = in_free_text ? phase->terminator.back() : 0;
  for (size_t id = 0; id < n; ++id) {
    const std::string_view bytes = token_bytes_[id];
    if ((in_string && string_text_[id]) ||
        (in_free_text && !control_[id] && !bytes.empty() && bytes.find(last) == std::string_view::npos)) {
      allowed_[id] = 1, ++count;
      continue;
    }
    State t = state_;
    if (Feed(t, token_bytes_[id], control_[id])) allowed_[id] = 1, ++count;
  }
  if (count == 0) return 0;
  for (size_t id = 0; id < logits.size(); ++id) {
    if (!allowed_[id]) logits[id] = -std::numeric_limits<float>::infinity();
  }
  return count;
}

bool TextConstraint::Accept(int32_t token) {
  if (abandoned_) return false;
  State t = state_;
  if (token < 0 || static_cast<size_t>(token) >= token_bytes_.size() ||
      !Feed(t, token_bytes_[token], control_[token])) {
    abandoned_ = true;
    return false;
  }
  state_ = t;
  return true;
}

}  // namespace cpubrrr

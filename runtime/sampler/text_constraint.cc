// The phases' byte matchers (sorted literal alternatives, a terminator window, a JSON
// scanner with a bit stack) and the vocabulary-wide mask.
#include "runtime/sampler/text_constraint.h"

#include <algorithm>
#include <cmath>
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
  kLowBackslash,   // after a high surrogate escape: its low half's backslash
  kLowU,           // and its u
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
int HexValue(unsigned char c) { return IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

// UTF-8 as RFC 3629 has it (what JSON parsers accept): for a lead byte, how many
// continuation bytes follow and the range the first of them must fall in (which rules
// out overlong forms, surrogates and code points past U+10FFFF); need 0: not a lead byte.
struct Utf8Lead {
  uint8_t need = 0, lo = 0x80, hi = 0xBF;
};
Utf8Lead LeadOf(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF) return {1, 0x80, 0xBF};
  if (c == 0xE0) return {2, 0xA0, 0xBF};
  if (c == 0xED) return {2, 0x80, 0x9F};
  if (c >= 0xE1 && c <= 0xEF) return {2, 0x80, 0xBF};
  if (c == 0xF0) return {3, 0x90, 0xBF};
  if (c >= 0xF1 && c <= 0xF3) return {3, 0x80, 0xBF};
  if (c == 0xF4) return {3, 0x80, 0x8F};
  return {};
}

// Whether `t` is whole, valid UTF-8 characters without quotes, backslashes or control bytes.
bool PlainStringText(std::string_view t) {
  if (t.empty()) return false;
  for (size_t i = 0; i < t.size();) {
    const unsigned char c = static_cast<unsigned char>(t[i++]);
    if (c < 0x80) {
      if (c < 0x20 || c == '"' || c == '\\') return false;
      continue;
    }
    const Utf8Lead lead = LeadOf(c);
    if (lead.need == 0 || i + lead.need > t.size()) return false;
    for (int k = 0; k < lead.need; ++k) {
      const unsigned char n = static_cast<unsigned char>(t[i++]);
      if (n < (k == 0 ? lead.lo : 0x80) || n > (k == 0 ? lead.hi : 0xBF)) return false;
    }
  }
  return true;
}

}  // namespace

TokenTexts::TokenTexts(std::vector<std::string_view> bytes, std::vector<bool> control)
    : bytes_(std::move(bytes)), control_(control.begin(), control.end()) {
  control_.resize(bytes_.size(), 0);
  plain_string_text_.resize(bytes_.size());
  for (size_t id = 0; id < bytes_.size(); ++id) {
    plain_string_text_[id] = !control_[id] && PlainStringText(bytes_[id]);
  }
}

TextConstraint::TextConstraint(std::vector<ConstraintPhase> phases, const TokenTexts& texts)
    : phases_(std::move(phases)), texts_(texts) {
  for (ConstraintPhase& p : phases_) {
    std::erase_if(p.literals, [](const auto& l) { return l.first.empty(); });
    // std::string orders bytes as unsigned char, as FeedLiteral's search expects; of equal
    // texts the first in order stays.
    std::sort(p.literals.begin(), p.literals.end());
    p.literals.erase(std::unique(p.literals.begin(), p.literals.end(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; }),
                     p.literals.end());
    p.terminator.resize(std::min<size_t>(p.terminator.size(), sizeof(State::tail)));
    std::erase_if(p.forbidden, [](const std::string& f) { return f.empty() || f.size() > sizeof(State::tail); });
    std::string& stops = stop_bytes_.emplace_back();
    if (!p.terminator.empty()) stops += p.terminator.back();
    for (const std::string& f : p.forbidden) {
      if (stops.find(f.back()) == std::string::npos) stops += f.back();
    }
  }
  Enter(state_, phases_.empty() ? -1 : 0);
}

void TextConstraint::Enter(State& s, int phase) const {
  s.phase = phase;
  s.spaces = 0;
  s.matched = 0;
  s.lo = 0;
  s.hi = phase >= 0 ? static_cast<uint32_t>(phases_[phase].literals.size()) : 0;
  s.pending = kNoPending;
  s.tail_len = 0;
  s.json = kStart;
  s.json_key = false;
  s.json_aux = 0;
  s.json_code = 0;
  s.json_low = false;
  s.utf8_need = 0;
  s.json_spaces = 0;
  s.depth = 0;
  s.stack = 0;
}

TextConstraint::Step TextConstraint::FeedLiteral(State& s, unsigned char c) const {
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
    // No longer literal goes on with `c`: the one already matched whole stands.
    if (s.pending != kNoPending) {
      Enter(s, s.pending);
      return Step::kPassOn;
    }
    if (s.matched == 0 && IsSpace(c) && s.spaces < p.max_leading_space) {
      ++s.spaces;
      return Step::kTaken;
    }
    return Step::kReject;
  }
  s.lo = lo;
  s.hi = hi;
  s.pending = kNoPending;
  ++s.matched;
  // Sorted and unique, so a literal matched whole is the range's first and only such one.
  if (lits[lo].first.size() == s.matched) {
    if (hi - lo == 1) {
      Enter(s, lits[lo].second);
    } else {
      s.pending = lits[lo].second;
      ++s.lo;
    }
  }
  return Step::kTaken;
}

bool TextConstraint::TailEndsWith(const State& s, std::string_view text) const {
  return s.tail_len >= text.size() && std::memcmp(s.tail + s.tail_len - text.size(), text.data(), text.size()) == 0;
}

bool TextConstraint::PushTail(State& s, unsigned char c) const {
  if (s.tail_len == sizeof(s.tail)) {
    std::memmove(s.tail, s.tail + 1, s.tail_len - 1);
    --s.tail_len;
  }
  s.tail[s.tail_len++] = static_cast<char>(c);
  if (stop_bytes_[s.phase].find(static_cast<char>(c)) == std::string::npos) return true;
  const std::vector<std::string>& forbidden = phases_[s.phase].forbidden;
  return std::none_of(forbidden.begin(), forbidden.end(), [&](const std::string& f) { return TailEndsWith(s, f); });
}

TextConstraint::Step TextConstraint::FeedFree(State& s, unsigned char c) const {
  const ConstraintPhase& p = phases_[s.phase];
  if (p.terminator.empty()) return Step::kReject;
  const bool clean = PushTail(s, c);
  if (TailEndsWith(s, p.terminator)) {
    Enter(s, p.next);
    return Step::kEnded;
  }
  return clean ? Step::kTaken : Step::kReject;
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

TextConstraint::Step TextConstraint::EndEscape(State& s) const {
  const uint16_t code = s.json_code;
  const bool high = code >= 0xD800 && code <= 0xDBFF, low = code >= 0xDC00 && code <= 0xDFFF;
  if (s.json_low != low) return Step::kReject;  // a lone or misplaced surrogate half
  s.json = high ? kLowBackslash : kString;
  s.json_low = high;
  return Step::kTaken;
}

TextConstraint::Step TextConstraint::FeedStringByte(State& s, unsigned char c) const {
  const auto step = [](bool ok) { return ok ? Step::kTaken : Step::kReject; };
  if (s.utf8_need > 0) {
    if (c < s.utf8_lo || c > s.utf8_hi) return Step::kReject;
    --s.utf8_need;
    s.utf8_lo = 0x80, s.utf8_hi = 0xBF;
    return Step::kTaken;
  }
  if (c == '\\') return s.json = kEscape, Step::kTaken;
  if (c >= 0x80) {
    const Utf8Lead lead = LeadOf(c);
    s.utf8_need = lead.need, s.utf8_lo = lead.lo, s.utf8_hi = lead.hi;
    return step(lead.need > 0);
  }
  return step(c >= 0x20);
}

TextConstraint::Step TextConstraint::FeedJson(State& s, unsigned char c) const {
  using enum Step;
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
      if (c == '"' && s.utf8_need == 0) return s.json_key ? (s.json = kColon, kTaken) : value_done();
      return FeedStringByte(s, c);
    case kEscape:
      if (c == 'u') return s.json = kUnicode, s.json_aux = 0, s.json_code = 0, kTaken;
      if (c != 0 && std::strchr("\"\\/bfnrt", c) != nullptr) return s.json = kString, kTaken;
      return kReject;
    case kLowBackslash:
      return c == '\\' ? (s.json = kLowU, kTaken) : kReject;
    case kLowU:
      return c == 'u' ? (s.json = kUnicode, s.json_aux = 0, s.json_code = 0, kTaken) : kReject;
    case kUnicode:
      if (!IsHex(c)) return kReject;
      s.json_code = static_cast<uint16_t>(s.json_code << 4 | HexValue(c));
      if (++s.json_aux == 4) return EndEscape(s);
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
    Step step = Step::kReject;
    switch (phases_[s.phase].kind) {
      case ConstraintPhase::kLiterals:
        step = FeedLiteral(s, c);
        break;
      case ConstraintPhase::kFreeText:
        control_in_free_text |= control;
        step = FeedFree(s, c);
        if (step == Step::kEnded) control_in_free_text = false;
        break;
      case ConstraintPhase::kJson: {
        if (control) return false;  // not text, even where a string would take its bytes
        const bool in_string = s.json >= kString && s.json <= kLowU;
        if (!in_string) {
          s.json_spaces = IsSpace(c) ? s.json_spaces + 1 : 0;
          if (s.json_spaces > kMaxJsonSpaces) return false;
        }
        // The tail serves only to find forbidden texts here.
        if (!phases_[s.phase].forbidden.empty() && !PushTail(s, c)) return false;
        step = FeedJson(s, c);
        break;
      }
    }
    if (step == Step::kReject) return false;
    if (step == Step::kPassOn) --i;  // the next phase takes the byte
  }
  return !control_in_free_text;
}

size_t TextConstraint::Mask(std::span<float> logits) const {
  if (abandoned_) return 0;
  allowed_.assign(logits.size(), 0);
  size_t finite = 0;
  const size_t n = std::min(logits.size(), texts_.size());
  // Most tokens leave the state's mode as it is, which needs no simulation: whole
  // characters without quotes, escapes or control bytes inside a JSON string, any text
  // inside free text; in both, when the token holds no byte that could end the
  // terminator or a forbidden text.
  const ConstraintPhase* phase = state_.phase >= 0 ? &phases_[state_.phase] : nullptr;
  const bool in_string = phase != nullptr && phase->kind == ConstraintPhase::kJson && state_.json == kString &&
                         state_.utf8_need == 0;
  const bool in_free_text = phase != nullptr && phase->kind == ConstraintPhase::kFreeText && !phase->terminator.empty();
  const std::string_view stops = phase != nullptr ? std::string_view(stop_bytes_[state_.phase]) : std::string_view();
  const auto stays = [&](std::string_view bytes) {
    return std::all_of(stops.begin(), stops.end(), [&](char c) { return bytes.find(c) == std::string_view::npos; });
  };
  for (size_t id = 0; id < n; ++id) {
    const std::string_view bytes = texts_.bytes(id);
    const bool simple = (in_string && texts_.plain_string_text(id)) ||
                        (in_free_text && !texts_.control(id) && !bytes.empty());
    bool ok = simple && stays(bytes);
    if (!ok) {
      State t = state_;
      ok = Feed(t, bytes, texts_.control(id));
    }
    if (!ok) continue;
    allowed_[id] = 1;
    if (std::isfinite(logits[id])) ++finite;
  }
  if (finite == 0) return 0;
  for (size_t id = 0; id < logits.size(); ++id) {
    if (!allowed_[id]) logits[id] = -std::numeric_limits<float>::infinity();
  }
  return finite;
}

bool TextConstraint::Accept(int32_t token) {
  if (abandoned_) return false;
  State t = state_;
  if (token < 0 || static_cast<size_t>(token) >= texts_.size() || !Feed(t, texts_.bytes(token), texts_.control(token))) {
    abandoned_ = true;
    return false;
  }
  state_ = t;
  return true;
}

}  // namespace cpubrrr

// A token mask from a small text grammar (phases of literal alternatives, free text up to
// a terminator, JSON values), matched over the bytes each token spells: what forces a
// tool call when a request's tool_choice requires one.
#ifndef CPUBRRR_RUNTIME_SAMPLER_TEXT_CONSTRAINT_H_
#define CPUBRRR_RUNTIME_SAMPLER_TEXT_CONSTRAINT_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cpubrrr {

// One phase of a constraint program; phases are numbered by their index, and -1 is the
// end (nothing may follow).
struct ConstraintPhase {
  enum Kind { kLiterals, kFreeText, kJson };
  // What a kJson phase takes: one JSON value of this type (nested at most 64 deep, with
  // at most 32 whitespace bytes in a row between its tokens, leading ones included).
  enum JsonType { kAnyValue, kObject, kArray, kString, kInteger, kNumber };
  Kind kind = kLiterals;
  // kLiterals: exactly one of these texts, each with the phase after it; up to
  // `max_leading_space` whitespace bytes may come first. Where one literal is a prefix of
  // another, the next byte decides (the shorter one's phase then takes that byte).
  std::vector<std::pair<std::string, int>> literals;
  int max_leading_space = 0;
  // kFreeText: any text up to and including `terminator` (at most 16 bytes); a control
  // token may appear only as part of the terminator.
  std::string terminator;
  // kFreeText and kJson: texts (at most 16 bytes each) the phase's text may not contain,
  // such as the markers by which the chat format's parser ends a call, whatever tokens
  // spell them. The terminator ends free text before they are looked for.
  std::vector<std::string> forbidden;
  JsonType json_type = kAnyValue;
  // kFreeText and kJson: the phase after.
  int next = -1;

  static ConstraintPhase Literals(std::vector<std::pair<std::string, int>> literals, int max_leading_space = 0) {
    ConstraintPhase p;
    p.literals = std::move(literals);
    p.max_leading_space = max_leading_space;
    return p;
  }
  static ConstraintPhase FreeText(std::string terminator, int next) {
    ConstraintPhase p;
    p.kind = kFreeText;
    p.terminator = std::move(terminator);
    p.next = next;
    return p;
  }
  static ConstraintPhase Json(JsonType type, int next) {
    ConstraintPhase p;
    p.kind = kJson;
    p.json_type = type;
    p.next = next;
    return p;
  }
};

// What each token of a vocabulary spells, built once per tokenizer and shared by every
// constraint over it.
class TokenTexts {
 public:
  // `bytes[id]` is what token `id` spells (the views must outlive this); `control[id]`
  // marks control tokens.
  TokenTexts(std::vector<std::string_view> bytes, std::vector<bool> control);

  size_t size() const { return bytes_.size(); }
  std::string_view bytes(size_t id) const { return bytes_[id]; }
  bool control(size_t id) const { return control_[id]; }
  // Whether the token may go as it is inside a JSON string at a character boundary: text
  // of whole, valid UTF-8 characters without quotes, backslashes or control bytes.
  bool plain_string_text(size_t id) const { return plain_string_text_[id]; }

 private:
  std::vector<std::string_view> bytes_;
  std::vector<uint8_t> control_;
  std::vector<uint8_t> plain_string_text_;
};

// Restricts a sequence's next tokens to those that keep its generated text a prefix of
// the program's language, from phase 0. Tokens are matched by the bytes they spell,
// control tokens included (but never inside JSON, nor in free text but to end it); tokens
// that spell nothing never match. JSON strings must be valid UTF-8 with paired surrogate
// escapes, as JSON parsers demand. Not thread-safe.
class TextConstraint {
 public:
  // `texts` must outlive the constraint.
  TextConstraint(std::vector<ConstraintPhase> phases, const TokenTexts& texts);

  // Sets logits[id] to -inf for every token that cannot come next and returns how many
  // finite logits are left; when none would be, changes nothing and returns 0.
  size_t Mask(std::span<float> logits) const;
  // Advances past `token`; returns false when it could not come next (the text has left
  // the language: later calls to Mask change nothing).
  bool Accept(int32_t token);

 private:
  // Where the text is in the program; plain data, copied for every candidate token.
  struct State {
    int phase = 0;
    uint8_t spaces = 0;                 // kLiterals: leading whitespace seen
    uint32_t matched = 0, lo = 0, hi = 0;  // kLiterals: bytes matched, alternatives alive
    int pending = kNoPending;           // kLiterals: the phase of a literal matched whole
                                        // while longer ones are still alive
    uint8_t tail_len = 0;               // kFreeText, kJson: the phase's last bytes, to find
    char tail[16] = {};                 // the terminator and forbidden texts
    uint8_t json = 0;                   // kJson: the scanner's mode
    bool json_key = false;              // the string being scanned is an object key
    uint8_t json_aux = 0;               // the unicode-escape or keyword position
    uint16_t json_code = 0;             // the unicode escape's value so far
    bool json_low = false;              // the escape must be a low surrogate
    uint8_t utf8_need = 0;              // continuation bytes still due in a string
    uint8_t utf8_lo = 0, utf8_hi = 0;   // the range the next one must fall in
    uint8_t json_spaces = 0;            // whitespace bytes in a row
    uint8_t depth = 0;                  // the nesting depth, and per level a bit (1: object)
    uint64_t stack = 0;
  };
  static constexpr int kNoPending = -2;

  // What a byte did: rejected; taken; taken as the end of free text's terminator; or
  // ended the phase without being part of it (after a number, or a literal that no longer
  // one went on from), so that the next phase takes it.
  enum class Step { kReject, kTaken, kEnded, kPassOn };

  void Enter(State& s, int phase) const;
  // Feeds one token's bytes; returns false when they leave the language.
  bool Feed(State& s, std::string_view bytes, bool control) const;
  Step FeedLiteral(State& s, unsigned char c) const;
  // Appends `c` to the phase's tail; returns false when the tail then ends with one of
  // the phase's forbidden texts.
  bool PushTail(State& s, unsigned char c) const;
  bool TailEndsWith(const State& s, std::string_view text) const;
  // Returns kEnded when the terminator ended with `c` (the next phase has been entered).
  Step FeedFree(State& s, unsigned char c) const;
  Step FeedJson(State& s, unsigned char c) const;
  Step FeedStringByte(State& s, unsigned char c) const;
  Step EndEscape(State& s) const;
  bool CloseJson(State& s, unsigned char c) const;
  // A value at depth 0 is complete: enters the next phase.
  void EndValue(State& s) const;

  std::vector<ConstraintPhase> phases_;  // each kLiterals phase's literals sorted, unique
  // Per phase, the distinct bytes that may end its terminator or a forbidden text: a
  // token without them leaves free text or a JSON string where it was.
  std::vector<std::string> stop_bytes_;
  const TokenTexts& texts_;
  mutable std::vector<uint8_t> allowed_;  // Mask's scratch
  State state_;
  bool abandoned_ = false;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_TEXT_CONSTRAINT_H_

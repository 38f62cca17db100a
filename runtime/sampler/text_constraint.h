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
  // `max_leading_space` whitespace bytes may come first.
  std::vector<std::pair<std::string, int>> literals;
  int max_leading_space = 0;
  // kFreeText: any text up to and including `terminator` (at most 16 bytes); a control
  // token may appear only as part of the terminator.
  std::string terminator;
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

// Restricts a sequence's next tokens to those that keep its generated text a prefix of
// the program's language, from phase 0. Tokens are matched by the bytes they spell,
// control tokens included (but never inside JSON, nor in free text but to end it); tokens
// that spell nothing never match. Not thread-safe.
class TextConstraint {
 public:
  // `token_bytes[id]` is what token `id` spells (the views must outlive the constraint);
  // `control[id]` marks control tokens.
  TextConstraint(std::vector<ConstraintPhase> phases, std::vector<std::string_view> token_bytes,
                 std::vector<bool> control);

  // Sets logits[id] to -inf for every token that cannot come next and returns how many
  // can; when none can, changes nothing and returns 0.
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
    uint8_t tail_len = 0;               // kFreeText: the last bytes, to find the terminator
    char tail[16] = {};
    uint8_t json = 0;                   // kJson: the scanner's mode
    bool json_key = false;              // the string being scanned is an object key
    uint8_t json_aux = 0;               // the unicode-escape or keyword position
    uint8_t json_spaces = 0;            // whitespace bytes in a row
    uint8_t depth = 0;                  // the nesting depth, and per level a bit (1: object)
    uint64_t stack = 0;
  };

  void Enter(State& s, int phase) const;
  // Feeds one token's bytes; returns false when they leave the language.
  bool Feed(State& s, std::string_view bytes, bool control) const;
  bool FeedLiteral(State& s, unsigned char c) const;
  // Returns whether the terminator ended with `c` (the next phase has been entered).
  bool FeedFree(State& s, unsigned char c) const;
  // What a JSON byte did: rejected, taken, or ended a number that ends the phase (so the
  // next phase takes the byte).
  enum class JsonStep { kReject, kTaken, kPassOn };
  JsonStep FeedJson(State& s, unsigned char c) const;
  bool CloseJson(State& s, unsigned char c) const;
  // A value at depth 0 is complete: enters the next phase.
  void EndValue(State& s) const;

  std::vector<ConstraintPhase> phases_;  // each kLiterals phase's literals sorted
  std::vector<std::string_view> token_bytes_;
  std::vector<bool> control_;
  std::vector<bool> string_text_;  // may go inside a JSON string as it is
  mutable std::vector<uint8_t> allowed_;  // Mask's scratch
  State state_;
  bool abandoned_ = false;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_TEXT_CONSTRAINT_H_

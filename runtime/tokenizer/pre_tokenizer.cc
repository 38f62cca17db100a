// PCRE2 patterns of the supported pre-tokenizers and the split loop over their matches.
#include "runtime/tokenizer/pre_tokenizer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cpubrrr {
namespace {

// Contractions with ASCII-only case folding: (?i:...) under UCP would also let 's'
// match U+017F and 'k' the Kelvin sign, which llama.cpp does not.
#define CPUBRRR_CONTRACTIONS "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"

// GPT-2 as llama.cpp documents it (no final \s+ alternative; a lone unmatched
// whitespace character still becomes its own word through the gap rule of Split).
constexpr char kGpt2Pattern[] =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";

constexpr char kLlama3Pattern[] = CPUBRRR_CONTRACTIONS
    R"(|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

constexpr char kQwen2Pattern[] = CPUBRRR_CONTRACTIONS
    R"(|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// o200k as llama.cpp runs it: a letter is any \p{L}; only ASCII letters have a case
// ("upper" = a letter that is not a-z, "lower" = a letter that is not A-Z), and combining
// marks (\p{M}) are not part of words. See docs/TOKENIZER.md.
constexpr char kGpt4oPattern[] =
    R"([^\r\n\p{L}\p{N}]?(?:(?=\p{L})[^a-z])*(?:(?=\p{L})[^A-Z])+)" CPUBRRR_CONTRACTIONS
    R"(?|[^\r\n\p{L}\p{N}]?(?:(?=\p{L})[^a-z])+(?:(?=\p{L})[^A-Z])*)" CPUBRRR_CONTRACTIONS
    R"(?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

#undef CPUBRRR_CONTRACTIONS

// Largest JIT stack one Split may use; long runs of letters backtrack through it.
constexpr size_t kJitStackMax = 8 << 20;

std::string PcreError(int code) {
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(code, buffer, sizeof(buffer));
  return reinterpret_cast<const char*>(buffer);
}

// Holds per-thread match scratch: match data and a JIT stack, reused across calls.
struct ThreadScratch {
  pcre2_match_data* data = pcre2_match_data_create(1, nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  pcre2_jit_stack* stack = pcre2_jit_stack_create(32 << 10, kJitStackMax, nullptr);
  ThreadScratch() { pcre2_jit_stack_assign(context, nullptr, stack); }
  ~ThreadScratch() {
    pcre2_jit_stack_free(stack);
    pcre2_match_context_free(context);
    pcre2_match_data_free(data);
  }
};

}  // namespace

struct PreTokenizer::Code {
  pcre2_code* code = nullptr;
  bool jit = false;
  ~Code() { pcre2_code_free(code); }
};

absl::StatusOr<PreTokenizerKind> PreTokenizerKindFor(std::string_view pre, size_t n_vocab) {
  struct Alias {
    const char* name;
    PreTokenizerKind kind;
  };
  static constexpr Alias kAliases[] = {
      {"gpt-2", PreTokenizerKind::kGpt2},       {"phi-2", PreTokenizerKind::kGpt2},
      {"llama-bpe", PreTokenizerKind::kLlama3}, {"llama3", PreTokenizerKind::kLlama3},
      {"llama-v3", PreTokenizerKind::kLlama3},  {"qwen2", PreTokenizerKind::kQwen2},
      {"deepseek-r1-qwen", PreTokenizerKind::kQwen2}, {"gpt-4o", PreTokenizerKind::kGpt4o},
      {"llama4", PreTokenizerKind::kGpt4o},
  };
  for (const Alias& alias : kAliases) {
    if (pre == alias.name) return alias.kind;
  }
  if (n_vocab >= kO200kMinVocab) return PreTokenizerKind::kGpt4o;
  return absl::InvalidArgumentError(absl::StrCat(
      "unsupported pre-tokenizer \"", std::string(pre), "\" for a vocabulary of ", n_vocab, " tokens"));
}

const char* PreTokenizerPattern(PreTokenizerKind kind) {
  switch (kind) {
    case PreTokenizerKind::kGpt2: return kGpt2Pattern;
    case PreTokenizerKind::kLlama3: return kLlama3Pattern;
    case PreTokenizerKind::kQwen2: return kQwen2Pattern;
    case PreTokenizerKind::kGpt4o: return kGpt4oPattern;
  }
  return kGpt4oPattern;
}

absl::StatusOr<PreTokenizer> PreTokenizer::Create(PreTokenizerKind kind) {
  return FromPattern(PreTokenizerPattern(kind));
}

absl::StatusOr<PreTokenizer> PreTokenizer::FromPattern(const char* pattern) {
  auto code = std::make_shared<Code>();
  int error = 0;
  PCRE2_SIZE offset = 0;
  code->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern), PCRE2_ZERO_TERMINATED,
                             PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK, &error, &offset,
                             nullptr);
  if (code->code == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("pre-tokenizer pattern, offset ", offset, ": ", PcreError(error)));
  }
  code->jit = pcre2_jit_compile(code->code, PCRE2_JIT_COMPLETE) == 0;
  return PreTokenizer(std::move(code));
}

void PreTokenizer::Split(std::string_view text, std::vector<std::string_view>* words) const {
  thread_local ThreadScratch scratch;
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t pos = 0;       // where the next search starts
  size_t emitted = 0;   // end of the last word appended
  while (pos < text.size()) {
    int rc = code_->jit ? pcre2_jit_match(code_->code, subject, text.size(), pos, 0,
                                          scratch.data, scratch.context)
                        : PCRE2_ERROR_JIT_BADOPTION;
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
      // JIT stack exhausted (or no JIT): the interpreter keeps its frames on the heap.
      rc = pcre2_match(code_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK,
                       scratch.data, nullptr);
    }
    if (rc < 0) break;  // no further match (or the heap limit): the rest is one word
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(scratch.data);
    const size_t start = ovector[0];
    size_t end = ovector[1];
    if (end == start) {  // never produced by the built-in patterns; step one character
      end = start + 1;
      while (end < text.size() && (static_cast<uint8_t>(text[end]) & 0xC0) == 0x80) ++end;
    }
    if (start > emitted) words->push_back(text.substr(emitted, start - emitted));
    words->push_back(text.substr(start, end - start));
    emitted = pos = end;
  }
  if (emitted < text.size()) words->push_back(text.substr(emitted));
}

}  // namespace cpubrrr

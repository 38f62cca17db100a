// gpt-oss harmony output parsing as a small state machine over buffered text.
#include "runtime/chat/harmony_parser.h"

#include <cctype>
#include <vector>

#include "nlohmann/json.hpp"
#include "runtime/chat/marker_scan.h"

namespace cpubrrr {
namespace {

constexpr std::string_view kStart = "<|start|>";
constexpr std::string_view kEnd = "<|end|>";
constexpr std::string_view kMessage = "<|message|>";
constexpr std::string_view kChannel = "<|channel|>";
constexpr std::string_view kConstrain = "<|constrain|>";
constexpr std::string_view kReturn = "<|return|>";
constexpr std::string_view kCall = "<|call|>";

// (Debian's Abseil has its own string_view, so std::string_view helpers are used here.)
bool IsHeaderChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' ||
         c == '=' || c == '-' || c == ' ';
}

// Returns whether `header` (no trailing partial marker) can begin a harmony header:
// header characters and the <|channel|>/<|constrain|> tags only, bounded length; after an
// explicit <|start|> it opens with a role letter, at the start of output with a tag or " to=".
bool PlausibleHeader(std::string_view header, bool role_expected) {
  if (header.size() > HarmonyParser::kMaxHeader) return false;
  if (!header.empty()) {
    if (role_expected && !std::isalpha(static_cast<unsigned char>(header[0]))) return false;
    if (!role_expected && header[0] != '<' && header[0] != ' ') return false;
  }
  for (size_t i = 0; i < header.size();) {
    if (header.substr(i).starts_with(kChannel)) {
      i += kChannel.size();
    } else if (header.substr(i).starts_with(kConstrain)) {
      i += kConstrain.size();
    } else if (IsHeaderChar(header[i])) {
      ++i;
    } else {
      // A partial tag is only allowed at the very end, where the caller cut it off.
      return false;
    }
  }
  return true;
}

std::vector<std::string_view> Split(std::string_view text, std::string_view sep) {
  std::vector<std::string_view> parts;
  for (size_t pos; (pos = text.find(sep)) != std::string_view::npos; text.remove_prefix(pos + sep.size())) {
    parts.push_back(text.substr(0, pos));
  }
  parts.push_back(text);
  return parts;
}

}  // namespace

std::vector<std::string> HarmonyParser::Markers() {
  return {std::string(kStart),     std::string(kEnd),    std::string(kMessage), std::string(kChannel),
          std::string(kConstrain), std::string(kReturn), std::string(kCall)};
}

ChatDelta HarmonyParser::Feed(std::string_view piece) {
  ChatDelta out;
  if (state_ == State::kDone) return out;
  buf_.append(piece);
  Process(/*final=*/false, out);
  return out;
}

ChatDelta HarmonyParser::Finish() {
  ChatDelta out;
  if (state_ != State::kDone) Process(/*final=*/true, out);
  buf_.clear();
  return out;
}

void HarmonyParser::Process(bool final, ChatDelta& out) {
  for (;;) {
    switch (state_) {
      case State::kDone:
        buf_.clear();
        return;
      case State::kBetween:
        if (std::string_view(buf_).starts_with(kStart)) {
          buf_.erase(0, kStart.size());
          state_ = State::kHeader;
          role_expected_ = true;
        } else if (std::string_view(buf_).starts_with(kChannel)) {
          state_ = State::kHeader;  // "<|start|>assistant" left out: a header follows anyway
          role_expected_ = false;
        } else if (buf_.empty() || (!final && (kStart.starts_with(buf_) || kChannel.starts_with(buf_)))) {
          if (final) state_ = State::kDone;
          return;
        } else {
          state_ = State::kBody;  // text outside any message: pass it through
          kind_ = Kind::kContent;
        }
        break;
      case State::kHeader:
        if (!StepHeader(final, out)) return;
        break;
      case State::kBody:
        if (!StepBody(final, out)) return;
        break;
    }
  }
}

bool HarmonyParser::StepHeader(bool final, ChatDelta& out) {
  MarkerHit hit = FindFirstMarker(buf_, {kMessage, kEnd, kReturn, kCall, kStart});
  std::string_view candidate = buf_;
  if (hit.pos != std::string_view::npos) {
    candidate = candidate.substr(0, hit.pos);
  } else if (!final) {
    candidate.remove_suffix(
        PartialMarkerSuffix(candidate, {kMessage, kEnd, kReturn, kCall, kStart, kChannel, kConstrain}));
  }
  // Not harmony, a truncated header, or another marker interrupting the header: the text
  // up to the next marker is content.
  if (!PlausibleHeader(candidate, role_expected_) || (hit.pos == std::string_view::npos && final) ||
      (hit.pos != std::string_view::npos && hit.index != 0)) {
    FallBackToContent(out);
    return true;
  }
  if (hit.pos == std::string_view::npos) return false;
  StartBody(candidate);
  buf_.erase(0, hit.pos + hit.length);
  state_ = State::kBody;
  return true;
}

void HarmonyParser::FallBackToContent(ChatDelta& out) {
  state_ = State::kBody;
  kind_ = Kind::kContent;
  // The body would take a leading <|channel|> for a new header again; pass it through.
  if (std::string_view(buf_).starts_with(kChannel)) {
    out.content.append(kChannel);
    buf_.erase(0, kChannel.size());
  }
}

void HarmonyParser::StartBody(std::string_view header) {
  // Words before <|channel|>: [role] [to=R] [type]; after: channel [to=R] [type];
  // after <|constrain|>: type.
  std::string recipient;
  std::string channel;
  std::vector<std::string_view> parts = Split(header, kChannel);
  for (size_t p = 0; p < parts.size(); ++p) {
    std::string_view part = parts[p];
    if (size_t c = part.find(kConstrain); c != std::string_view::npos) part = part.substr(0, c);
    bool first = true;
    for (std::string_view word : Split(part, " ")) {
      if (word.empty()) continue;
      if (word.starts_with("to=")) {
        recipient = std::string(word.substr(3));
      } else if (first && p > 0 && channel.empty()) {
        channel = std::string(word);
      }
      first = false;
    }
  }
  tool_args_.clear();
  if (!recipient.empty() && recipient != "assistant") {
    kind_ = Kind::kToolCall;
    tool_name_ = recipient.starts_with("functions.") ? recipient.substr(10) : recipient;
  } else if (channel == "analysis") {
    kind_ = Kind::kReasoning;
  } else {
    kind_ = Kind::kContent;  // final, commentary preambles, and anything unexpected
  }
}

bool HarmonyParser::StepBody(bool final, ChatDelta& out) {
  MarkerHit hit = FindFirstMarker(buf_, {kEnd, kReturn, kCall, kStart, kChannel});
  if (hit.pos == std::string_view::npos) {
    size_t keep = final ? 0 : PartialMarkerSuffix(buf_, {kEnd, kReturn, kCall, kStart, kChannel});
    Emit(std::string_view(buf_).substr(0, buf_.size() - keep), out);
    buf_.erase(0, buf_.size() - keep);
    if (final) {
      EndMessage(out);
      state_ = State::kDone;
    }
    return false;
  }
  Emit(std::string_view(buf_).substr(0, hit.pos), out);
  EndMessage(out);
  if (hit.index == 4) {
    buf_.erase(0, hit.pos);  // <|channel|> without <|end|><|start|>assistant: a new header
    state_ = State::kHeader;
    role_expected_ = false;
    return true;
  }
  buf_.erase(0, hit.pos + hit.length);
  if (hit.index == 0) {
    state_ = State::kBetween;
  } else if (hit.index == 3) {
    state_ = State::kHeader;
    role_expected_ = true;
  } else {
    state_ = State::kDone;
  }
  return true;
}

void HarmonyParser::Emit(std::string_view text, ChatDelta& out) {
  switch (kind_) {
    case Kind::kReasoning:
      out.reasoning.append(text);
      break;
    case Kind::kContent:
      out.content.append(text);
      break;
    case Kind::kToolCall:
      tool_args_.append(text);
      break;
  }
}

void HarmonyParser::EndMessage(ChatDelta& out) {
  if (kind_ != Kind::kToolCall) return;
  kind_ = Kind::kContent;
  std::string_view args = tool_args_;
  while (!args.empty() && std::isspace(static_cast<unsigned char>(args.front()))) args.remove_prefix(1);
  while (!args.empty() && std::isspace(static_cast<unsigned char>(args.back()))) args.remove_suffix(1);
  auto parsed = nlohmann::json::parse(args, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    out.content.append(tool_args_);
  } else {
    out.tool_calls.push_back({"call_" + std::to_string(tool_calls_++), tool_name_, std::string(args)});
  }
  tool_args_.clear();
}

}  // namespace cpubrrr

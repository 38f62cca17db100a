// Qwen3 output parsing as a small state machine over buffered text.
#include "runtime/chat/qwen3_parser.h"

#include <cctype>

#include "nlohmann/json.hpp"
#include "runtime/chat/marker_scan.h"
#include "runtime/chat/py_json.h"

namespace cpubrrr {
namespace {

constexpr std::string_view kThink = "<think>";
constexpr std::string_view kThinkEnd = "</think>";
constexpr std::string_view kToolCall = "<tool_call>";
constexpr std::string_view kToolCallEnd = "</tool_call>";
constexpr std::string_view kImEnd = "<|im_end|>";
constexpr std::string_view kEndOfText = "<|endoftext|>";

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

std::string_view StripLeadingSpace(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  return s;
}

std::string_view StripSpace(std::string_view s) {
  s = StripLeadingSpace(s);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Returns the length of `text` without its trailing bytes for which `drop` holds.
template <typename Pred>
size_t TrimmedEnd(std::string_view text, Pred drop) {
  size_t end = text.size();
  while (end > 0 && drop(text[end - 1])) --end;
  return end;
}

}  // namespace

std::vector<std::string> Qwen3Parser::CallEndMarkers() {
  return {std::string(kToolCallEnd), std::string(kImEnd), std::string(kEndOfText)};
}

ChatDelta Qwen3Parser::Feed(std::string_view piece) {
  ChatDelta out;
  if (state_ == State::kDone) return out;
  buf_.append(piece);
  Process(/*final=*/false, out);
  return out;
}

ChatDelta Qwen3Parser::Finish() {
  ChatDelta out;
  if (state_ != State::kDone) Process(/*final=*/true, out);
  state_ = State::kDone;
  buf_.clear();
  return out;
}

void Qwen3Parser::Process(bool final, ChatDelta& out) {
  for (;;) {
    switch (state_) {
      case State::kDone:
        buf_.clear();
        return;
      case State::kStart: {
        std::string_view rest = StripLeadingSpace(buf_);
        if (rest.starts_with(kThink)) {
          buf_.erase(0, buf_.size() - rest.size() + kThink.size());
          state_ = State::kReasoning;
        } else if (!final && kThink.starts_with(rest)) {
          return;  // empty or a partial "<think>": wait
        } else {
          state_ = State::kContent;
        }
        break;
      }
      case State::kReasoning: {
        MarkerHit hit = FindFirstMarker(buf_, {kThinkEnd, kImEnd, kEndOfText});
        std::string_view text = std::string_view(buf_).substr(0, std::min(hit.pos, buf_.size()));
        size_t keep = 0;
        if (hit.pos == std::string_view::npos && !final) keep = PartialMarkerSuffix(text, {kThinkEnd, kImEnd, kEndOfText});
        text.remove_suffix(keep);
        // Trailing newlines wait (or, before </think> and at the end, are dropped).
        size_t end = TrimmedEnd(text, [](char c) { return c == '\n'; });
        std::string_view emit = text.substr(0, end);
        if (!reasoning_started_) emit.remove_prefix(std::min(emit.find_first_not_of('\n'), emit.size()));
        if (!emit.empty()) reasoning_started_ = true;
        out.reasoning.append(emit);
        if (hit.pos == std::string_view::npos) {
          buf_.erase(0, end);
          if (final) buf_.clear();
          return;
        }
        buf_.erase(0, hit.pos + hit.length);
        state_ = hit.index == 0 ? State::kContent : State::kDone;
        content_start_ = true;
        break;
      }
      case State::kContent: {
        MarkerHit hit = FindFirstMarker(buf_, {kToolCall, kImEnd, kEndOfText});
        if (hit.pos == std::string_view::npos) {
          std::string_view text = buf_;
          if (!final) {
            text.remove_suffix(PartialMarkerSuffix(text, {kToolCall, kImEnd, kEndOfText}));
            text = text.substr(0, TrimmedEnd(text, IsSpace));  // may precede a <tool_call>
          }
          EmitContent(text, out);
          buf_.erase(0, text.size());
          return;
        }
        std::string_view text = std::string_view(buf_).substr(0, hit.pos);
        if (hit.index == 0) text = text.substr(0, TrimmedEnd(text, IsSpace));
        EmitContent(text, out);
        buf_.erase(0, hit.pos + hit.length);
        state_ = hit.index == 0 ? State::kToolCall : State::kDone;
        break;
      }
      case State::kToolCall: {
        MarkerHit hit = FindFirstMarker(buf_, {kToolCallEnd, kImEnd, kEndOfText});
        if (hit.pos == std::string_view::npos) {
          if (!final) return;
          EndToolCall(buf_, /*closed=*/false, out);  // truncated
          buf_.clear();
          state_ = State::kDone;
          return;
        }
        std::string body = buf_.substr(0, hit.pos);
        buf_.erase(0, hit.pos + hit.length);
        EndToolCall(body, /*closed=*/hit.index == 0, out);
        state_ = hit.index == 0 ? State::kContent : State::kDone;
        break;
      }
    }
  }
}

void Qwen3Parser::EmitContent(std::string_view text, ChatDelta& out) {
  if (content_start_) {
    text = StripLeadingSpace(text);
    if (text.empty()) return;
    content_start_ = false;
  }
  out.content.append(text);
}

void Qwen3Parser::EndToolCall(std::string_view body, bool closed, ChatDelta& out) {
  auto parsed = nlohmann::ordered_json::parse(StripSpace(body), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("name") && parsed["name"].is_string()) {
    ToolCall call{"call_" + std::to_string(tool_calls_++), parsed["name"].get<std::string>(), "{}"};
    if (auto args = parsed.find("arguments"); args != parsed.end()) {
      call.arguments = args->is_string() ? args->get<std::string>() : PyJsonDumps(*args);
    }
    out.tool_calls.push_back(std::move(call));
    content_start_ = true;
    return;
  }
  if (std::optional<ToolCall> call = ParseXmlToolCall(body, strings_)) {
    call->id = "call_" + std::to_string(tool_calls_++);
    out.tool_calls.push_back(*std::move(call));
    content_start_ = true;
    return;
  }
  content_start_ = false;
  out.content.append(kToolCall);
  out.content.append(body);
  if (closed) out.content.append(kToolCallEnd);
}

}  // namespace cpubrrr

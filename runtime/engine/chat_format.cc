// Maps architectures to their chat renderer, output parser and end-of-turn tokens.
#include "runtime/engine/chat_format.h"

#include "absl/strings/str_cat.h"
#include "runtime/chat/harmony_parser.h"
#include "runtime/chat/harmony_renderer.h"
#include "runtime/chat/qwen3_parser.h"
#include "runtime/chat/qwen3_renderer.h"

namespace cpubrrr {

absl::StatusOr<ChatFormat> ChatFormatFor(std::string_view architecture) {
  if (architecture == "gpt-oss") return ChatFormat::kHarmony;
  if (architecture == "qwen3moe") return ChatFormat::kChatMl;
  return absl::InvalidArgumentError(
      absl::StrCat("no chat template for architecture '", std::string(architecture), "'"));
}

absl::StatusOr<std::string> RenderChatPrompt(ChatFormat format, const ChatRequest& request) {
  return format == ChatFormat::kHarmony ? RenderHarmonyPrompt(request)
                                        : RenderQwen3Prompt(request);
}

std::unique_ptr<ChatOutputParser> NewChatOutputParser(ChatFormat format) {
  if (format == ChatFormat::kHarmony) return std::make_unique<HarmonyParser>();
  return std::make_unique<Qwen3Parser>();
}

std::vector<std::string> StopTokenTexts(ChatFormat format) {
  if (format == ChatFormat::kHarmony) return {"<|return|>", "<|call|>"};
  return {"<|im_end|>", "<|endoftext|>"};
}

}  // namespace cpubrrr

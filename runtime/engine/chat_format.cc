// Maps chat template families (and Qwen3-Coder's template) to their renderer, output parser
// and end-of-turn tokens.
#include "runtime/engine/chat_format.h"

#include "absl/strings/str_cat.h"
#include "runtime/chat/harmony_parser.h"
#include "runtime/chat/harmony_renderer.h"
#include "runtime/chat/jinja_values.h"
#include "runtime/chat/qwen3_coder_renderer.h"
#include "runtime/chat/qwen3_parser.h"
#include "runtime/chat/qwen3_renderer.h"

namespace cpubrrr {

ChatFormat ChatFormatOfTemplate(ChatFormat family, std::string_view chat_template) {
  const bool xml_calls = chat_template.find("<function=") != std::string_view::npos &&
                         chat_template.find("<parameter=") != std::string_view::npos;
  return family == ChatFormat::kChatMl && xml_calls ? ChatFormat::kQwen3Coder : family;
}

namespace {

absl::Status CannotRender(const char* why) {
  return absl::InvalidArgumentError(absl::StrCat("the chat template cannot render the request: ", why));
}

}  // namespace

absl::StatusOr<std::string> RenderChatPrompt(ChatFormat format, const ChatRequest& request) {
  // Tool schemas come from the client as any JSON; a shape the template cannot walk is the
  // request's fault, as Jinja's error would be.
  try {
    switch (format) {
      case ChatFormat::kHarmony:
        return RenderHarmonyPrompt(request);
      case ChatFormat::kQwen3Coder:
        return RenderQwen3CoderPrompt(request);
      default:
        return RenderQwen3Prompt(request);
    }
  } catch (const JinjaError& e) {
    return CannotRender(e.what());
  } catch (const nlohmann::json::exception& e) {
    return CannotRender(e.what());
  }
}

std::unique_ptr<ChatOutputParser> NewChatOutputParser(ChatFormat format,
                                                      const std::vector<nlohmann::ordered_json>& tools) {
  if (format == ChatFormat::kHarmony) return std::make_unique<HarmonyParser>();
  return std::make_unique<Qwen3Parser>(/*thinking_forced_open=*/false, StringParametersOf(tools));
}

std::vector<std::string> StopTokenTexts(ChatFormat format) {
  if (format == ChatFormat::kHarmony) return {"<|return|>", "<|call|>"};
  return {"<|im_end|>", "<|endoftext|>"};
}

}  // namespace cpubrrr

// libFuzzer target: any bytes read as a chat request's JSON (messages, tools, reasoning
// settings) and, when accepted, rendered by the harmony, Qwen3 and Qwen3-Coder templates.
#include <cstdint>
#include <string>

#include "nlohmann/json.hpp"
#include "runtime/chat/chat_json.h"
#include "runtime/engine/chat_format.h"
#include "tests/fuzz/chat_formats.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return 0;
  const absl::StatusOr<cpubrrr::ChatRequest> request = cpubrrr::ChatRequestFromJson(json);
  if (!request.ok()) return 0;
  for (cpubrrr::ChatFormat format : kAllChatFormats) {
    const absl::StatusOr<std::string> prompt = cpubrrr::RenderChatPrompt(format, *request);
    FuzzCheck(prompt.ok() || prompt.status().code() == absl::StatusCode::kInvalidArgument,
              "a render failed other than as invalid input");
  }
  return 0;
}

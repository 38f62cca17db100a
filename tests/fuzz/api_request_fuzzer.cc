// libFuzzer target: any bytes as the body of every JSON route, read the way the server
// reads them (ParseBody's nesting and type checks, then the route's own parser: OpenAI chat
// and completions, Responses, Anthropic messages, Ollama chat and generate), then a chat
// request rendered by each template; and any bytes as the race pass-through's target URL.
// The first byte picks the route.
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/engine/chat_format.h"
#include "tests/fuzz/chat_formats.h"
#include "server/anthropic_api.h"
#include "server/ollama_api.h"
#include "server/openai_request.h"
#include "server/race_target.h"
#include "server/responses_api.h"
#include "server/server_state.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

namespace server = cpubrrr::server;

// A parse fails as a client's mistake (400) or an unsupported feature (501), never otherwise.
void CheckRefusal(const absl::Status& status) {
  FuzzCheck(status.code() == absl::StatusCode::kInvalidArgument || status.code() == absl::StatusCode::kUnimplemented,
            "a request refused other than as invalid or unsupported");
}

// Renders an accepted request's chat as every template would.
void Render(const cpubrrr::GenerateRequest& request) {
  if (request.raw_prompt.has_value()) return;
  for (cpubrrr::ChatFormat format : kAllChatFormats) {
    const absl::StatusOr<std::string> prompt = cpubrrr::RenderChatPrompt(format, request.chat);
    if (!prompt.ok()) CheckRefusal(prompt.status());
  }
}

template <typename Parsed>
void Check(const absl::StatusOr<Parsed>& parsed) {
  if (!parsed.ok()) return CheckRefusal(parsed.status());
  Render(parsed->generate);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const int route = data[0] % 7;
  if (route == 6) {
    for (const std::string& allowed : {std::string(), std::string("http://10.0.0.1:8080/v1")}) {
      const absl::StatusOr<server::RaceTarget> target = server::ParseRaceTarget(rest, allowed);
      if (!target.ok()) continue;
      FuzzCheck(target->port > 0 && target->port < 65536, "a race target port out of range");
      if (allowed.empty()) {
        FuzzCheck(target->host == "localhost" || target->host == "::1" || target->host.rfind("127.", 0) == 0,
                  "a race target off loopback");
      } else {
        FuzzCheck(target->host == "10.0.0.1" && target->port == 8080, "a race target other than the one allowed");
      }
    }
    return 0;
  }
  httplib::Request request;
  request.body = rest;
  const absl::StatusOr<server::Json> body = server::ParseBody(request);
  if (!body.ok()) return 0;
  switch (route) {
    case 0: Check(server::ParseChatCompletionRequest(*body)); break;
    case 1: Check(server::ParseCompletionRequest(*body)); break;
    case 2: Check(server::ParseAnthropicMessages(*body)); break;
    case 3: Check(server::ParseOllamaChat(*body)); break;
    case 4: Check(server::ParseOllamaGenerate(*body)); break;
    default: {
      const absl::StatusOr<server::Json> chat = server::ResponsesToChatBody(*body);
      if (chat.ok()) {
        Check(server::ParseChatCompletionRequest(*chat));
      } else {
        CheckRefusal(chat.status());
      }
    }
  }
  return 0;
}

// An error as each API reports it: OpenAI's envelope with llama-server's types, Ollama's.
#ifndef CPUBRRR_SERVER_API_ERROR_H_
#define CPUBRRR_SERVER_API_ERROR_H_

#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"

namespace cpubrrr::server {

struct ApiError {
  int http_status = 500;
  std::string type;     // llama-server's error type, e.g. "invalid_request_error"
  std::string message;
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  // more fields of the error

  // {"error": {"code": http_status, "message", "type", ...extra}}
  std::string OpenAiBody() const;
  // {"error": "message"}
  std::string OllamaBody() const;
  // {"type": "error", "error": {"type", "message"}} with Anthropic's types.
  std::string AnthropicBody() const;
};

ApiError InvalidRequest(const std::string& message);
ApiError NotFound(const std::string& message);
ApiError Unauthorized();
ApiError Unavailable(const std::string& message);
ApiError NotSupported(const std::string& message);
// A prompt that does not fit: 400 exceed_context_size_error with n_prompt_tokens, n_ctx.
ApiError ExceedsContext(uint32_t n_prompt_tokens, uint32_t n_ctx);

// Maps an engine or parsing status to the error a client sees (InvalidArgument -> 400,
// NotFound -> 404, PermissionDenied -> 403, Unavailable/ResourceExhausted -> 503,
// Unimplemented -> 501, else 500).
ApiError FromStatus(const absl::Status& status);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_API_ERROR_H_

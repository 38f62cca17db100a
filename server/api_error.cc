// Error envelopes and the status-to-HTTP mapping.
#include "server/api_error.h"

#include "server/json_fields.h"

namespace cpubrrr::server {

std::string ApiError::OpenAiBody() const {
  nlohmann::ordered_json error = {{"code", http_status}, {"message", message}, {"type", type}};
  for (const auto& [key, value] : extra.items()) error[key] = value;
  return Dump(Json{{"error", error}});
}

std::string ApiError::OllamaBody() const {
  return Dump(Json{{"error", message}});
}

std::string ApiError::AnthropicBody() const {
  const std::string anthropic_type = http_status == 401   ? "authentication_error"
                                     : http_status == 404 ? "not_found_error"
                                     : http_status == 503 ? "overloaded_error"
                                     : http_status >= 500 ? "api_error"
                                                          : "invalid_request_error";
  return Dump(Json{{"type", "error"}, {"error", {{"type", anthropic_type}, {"message", message}}}});
}

ApiError InvalidRequest(const std::string& message) { return {400, "invalid_request_error", message}; }
ApiError NotFound(const std::string& message) { return {404, "not_found_error", message}; }
ApiError Unauthorized() { return {401, "authentication_error", "Invalid API Key"}; }
ApiError Unavailable(const std::string& message) { return {503, "unavailable_error", message}; }
ApiError NotSupported(const std::string& message) { return {501, "not_supported_error", message}; }

ApiError ExceedsContext(uint32_t n_prompt_tokens, uint32_t n_ctx) {
  ApiError e{400, "exceed_context_size_error",
             "the request exceeds the available context size, try increasing it"};
  e.extra = {{"n_prompt_tokens", n_prompt_tokens}, {"n_ctx", n_ctx}};
  return e;
}

ApiError FromStatus(const absl::Status& status) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return InvalidRequest(message);
    case absl::StatusCode::kNotFound:
      return NotFound(message);
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kResourceExhausted:
      return Unavailable(message);
    case absl::StatusCode::kUnimplemented:
      return NotSupported(message);
    case absl::StatusCode::kPermissionDenied:
      return {403, "permission_error", message};
    default:
      return {500, "server_error", message};
  }
}

}  // namespace cpubrrr::server

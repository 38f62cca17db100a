// Shared helpers of the route handlers.
#include "server/server_state.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "absl/strings/str_cat.h"

namespace cpubrrr::server {

void SendOpenAiError(httplib::Response& res, const ApiError& error) {
  res.status = error.http_status;
  res.set_content(error.OpenAiBody(), "application/json; charset=utf-8");
}

void SendOllamaError(httplib::Response& res, const ApiError& error) {
  res.status = error.http_status;
  res.set_content(error.OllamaBody(), "application/json; charset=utf-8");
}

void SendAnthropicError(httplib::Response& res, const ApiError& error) {
  res.status = error.http_status;
  res.set_content(error.AnthropicBody(), "application/json; charset=utf-8");
}

void SendJson(httplib::Response& res, const Json& body) {
  res.status = 200;
  res.set_content(Dump(body), "application/json; charset=utf-8");
}

namespace {

// Returns the deepest nesting of arrays and objects in JSON text (strings skipped).
size_t NestingDepth(const std::string& text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// Deeper documents are refused: copying a JSON value recurses once per level.
constexpr size_t kMaxNesting = 64;

}  // namespace

absl::StatusOr<Json> ParseBody(const httplib::Request& req) {
  if (NestingDepth(req.body) > kMaxNesting) {
    return absl::InvalidArgumentError(absl::StrCat("the request body nests deeper than ", kMaxNesting, " levels"));
  }
  Json body = Json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return absl::InvalidArgumentError("the request body is not valid JSON");
  if (!body.is_object()) return absl::InvalidArgumentError("the request body must be a JSON object");
  return body;
}

absl::StatusOr<uint32_t> CheckPrompt(const Scheduler& queue, const GenerateRequest& request,
                                     ApiError* error) {
  absl::StatusOr<std::vector<int32_t>> prompt = queue.engine().TokenizePrompt(request);
  if (!prompt.ok()) {
    *error = FromStatus(prompt.status());
    return prompt.status();
  }
  const uint32_t n = static_cast<uint32_t>(prompt->size()), ctx = queue.engine().context_length();
  if (n == 0) {
    *error = InvalidRequest("the prompt is empty");
    return absl::InvalidArgumentError(error->message);
  }
  if (n > ctx) {
    *error = ExceedsContext(n, ctx);
    return absl::OutOfRangeError(error->message);
  }
  // Refused before a stream's 200 is sent, where the client can see a 503.
  if (!queue.HasRoom()) {
    *error = Unavailable("the server is busy: too many requests are waiting");
    return absl::UnavailableError(error->message);
  }
  return n;
}

int64_t UnixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string RandomId(const std::string& prefix) {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id = prefix;
  for (int i = 0; i < 32; ++i) id += kChars[rng() % (sizeof(kChars) - 1)];
  return id;
}

}  // namespace cpubrrr::server

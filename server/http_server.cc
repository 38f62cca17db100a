// Server setup: limits, timeouts, CORS, key check, error bodies, routes, start and stop.
#include "server/http_server.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

bool IsOllamaPath(const std::string& path) { return absl::StartsWith(path, "/api/"); }
bool IsAnthropicPath(const std::string& path) { return absl::StartsWith(path, "/v1/messages"); }

// Answers `error` in the envelope of the API `path` belongs to.
void SendError(const std::string& path, httplib::Response& res, const ApiError& error) {
  if (IsOllamaPath(path)) return SendOllamaError(res, error);
  if (IsAnthropicPath(path)) return SendAnthropicError(res, error);
  SendOpenAiError(res, error);
}

}  // namespace

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::string& longer = a.size() >= b.size() ? a : b;
  for (size_t i = 0; i < longer.size(); ++i) {
    const unsigned char x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

HttpServer::HttpServer(ServerOptions options) {
  state_.options = std::move(options);
  const ServerOptions& o = state_.options;
  // Waiting requests hold a handler thread each; keep some for the cheap routes.
  const size_t threads = o.max_waiting + 8;
  http_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_.set_payload_max_length(o.max_body_bytes);
  http_.set_read_timeout(o.timeout_seconds, 0);
  http_.set_write_timeout(o.timeout_seconds, 0);
  http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (HandleCors(req, res)) return httplib::Server::HandlerResponse::Handled;
    return CheckKey(req, res);
  });
  http_.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const ApiError error = res.status == 404 ? NotFound(absl::StrCat("no route ", req.method, " ", req.path))
                           : res.status == 413 ? ApiError{413, "invalid_request_error", "the request body is too large"}
                                               : ApiError{res.status, "invalid_request_error", "bad request"};
    SendError(req.path, res, error);
  });
  http_.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr) {
    SendError(req.path, res, ApiError{500, "server_error", "internal error"});
  });
  AddNativeRoutes(http_, state_);
  AddOpenAiRoutes(http_, state_);
  AddOllamaRoutes(http_, state_);
  AddAnthropicRoutes(http_, state_);
  AddResponsesRoutes(http_, state_);
  AddWebRoutes(http_, state_);
  AddRaceRoutes(http_, state_);
}

HttpServer::~HttpServer() { Stop(); }

bool HttpServer::HandleCors(const httplib::Request& req, httplib::Response& res) const {
  const std::vector<std::string>& allowed = state_.options.cors_origins;
  const std::string origin = req.get_header_value("Origin");
  if (allowed.empty() || origin.empty()) return false;
  const bool any = std::find(allowed.begin(), allowed.end(), "*") != allowed.end();
  if (!any && std::find(allowed.begin(), allowed.end(), origin) == allowed.end()) return false;
  res.set_header("Access-Control-Allow-Origin", any ? "*" : origin);
  res.set_header("Vary", "Origin");
  if (req.method != "OPTIONS" || !req.has_header("Access-Control-Request-Method")) return false;
  res.status = 204;
  res.set_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  res.set_header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Api-Key");
  res.set_header("Access-Control-Max-Age", "600");
  return true;
}

httplib::Server::HandlerResponse HttpServer::CheckKey(const httplib::Request& req, httplib::Response& res) {
  const std::vector<std::string>& keys = state_.options.api_keys;
  // The page's own files hold no data: a browser loads them, then sends the key it is given.
  const bool page = req.method == "GET" && (req.path == "/" || absl::StartsWith(req.path, "/web/"));
  if (keys.empty() || page || req.path == "/health" || req.path == "/v1/health") {
    return httplib::Server::HandlerResponse::Unhandled;
  }
  std::string given = req.get_header_value("X-Api-Key");
  const std::string auth = req.get_header_value("Authorization");
  if (absl::StartsWith(auth, "Bearer ")) given = auth.substr(7);
  bool ok = false;
  for (const std::string& key : keys) ok |= ConstantTimeEquals(given, key);
  if (ok) return httplib::Server::HandlerResponse::Unhandled;
  SendError(req.path, res, Unauthorized());
  return httplib::Server::HandlerResponse::Handled;
}

absl::Status HttpServer::Listen() {
  const ServerOptions& o = state_.options;
  if (o.port == 0) {
    port_ = http_.bind_to_any_port(o.host);
    if (port_ <= 0) return absl::UnavailableError(absl::StrCat("cannot listen on ", o.host));
  } else {
    if (!http_.bind_to_port(o.host, o.port)) {
      return absl::UnavailableError(absl::StrCat("cannot listen on ", o.host, ":", o.port, " (in use?)"));
    }
    port_ = o.port;
  }
  listener_ = std::thread([this] { http_.listen_after_bind(); });
  // stop() does nothing until the listener has started: wait for it.
  while (!http_.is_running()) std::this_thread::yield();
  return absl::OkStatus();
}

void HttpServer::Serve(std::unique_ptr<Scheduler> queue, ModelCard card) {
  state_.card = std::move(card);
  state_.owned_queue = std::move(queue);
  state_.queue.store(state_.owned_queue.get());
}

void HttpServer::Stop() {
  state_.stopping.store(true);
  if (listener_.joinable()) {
    http_.stop();
    listener_.join();
  }
}

}  // namespace cpubrrr::server

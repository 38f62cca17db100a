// The web page's race pass-through: /race/models and /race/chat/completions forwarded to the
// endpoint the page names in X-Race-Target (checked by ParseRaceTarget), so the browser
// needs no CORS on the other side.
#include <string>

#include "absl/strings/str_cat.h"
#include "server/race_target.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

constexpr size_t kMaxModelsBytes = 1u << 20;  // a model list is a few kB
constexpr size_t kMaxErrorBytes = 4096;       // of an error body quoted back to the page

struct Upstream {
  RaceTarget target;
  std::string url;
  httplib::Headers headers;
};

// Checks the caller and the target and gathers the headers to send; on failure answers
// and returns false.
bool Prepare(const ServerState& state, const httplib::Request& req, httplib::Response& res, Upstream& up) {
  if (absl::Status caller = CheckRaceCaller(req.get_header_value("Host"), req.get_header_value("Origin"),
                                            state.options.host, state.options.race_url);
      !caller.ok()) {
    SendOpenAiError(res, FromStatus(caller));
    return false;
  }
  up.url = req.get_header_value("X-Race-Target");
  absl::StatusOr<RaceTarget> target = ParseRaceTarget(up.url, state.options.race_url);
  if (!target.ok()) {
    SendOpenAiError(res, FromStatus(target.status()));
    return false;
  }
  up.target = *std::move(target);
  const std::string key = req.get_header_value("X-Race-Key");
  if (!key.empty()) up.headers.emplace("Authorization", "Bearer " + key);
  return true;
}

httplib::Client Connect(const Upstream& up, const ServerState& state) {
  httplib::Client client(up.target.host, up.target.port);
  client.set_connection_timeout(5, 0);
  client.set_read_timeout(state.options.timeout_seconds, 0);
  client.set_write_timeout(state.options.timeout_seconds, 0);
  return client;
}

ApiError Unreachable(const Upstream& up, const std::string& why) {
  return {502, "server_error", absl::StrCat("cannot reach ", up.url, ": ", why)};
}

void Models(const ServerState& state, const httplib::Request& req, httplib::Response& res) {
  Upstream up;
  if (!Prepare(state, req, res, up)) return;
  httplib::Client client = Connect(up, state);
  std::string body;
  httplib::Result r = client.Get(
      (up.target.base_path + "/models").c_str(), up.headers, [&](const char* data, size_t n) {
        body.append(data, n);
        return body.size() <= kMaxModelsBytes;
      });
  if (!r) return SendOpenAiError(res, Unreachable(up, httplib::to_string(r.error())));
  res.status = r->status;
  res.set_content(body, "application/json");
}

// Relays the endpoint's event stream into `sink`; failures become an error event, as a
// stream of this server's own reports them.
void RelayStream(const ServerState& state, const Upstream& up, const std::string& body, httplib::DataSink& sink) {
  httplib::Client client = Connect(up, state);
  httplib::Request forward;
  forward.method = "POST";
  forward.path = up.target.base_path + "/chat/completions";
  forward.headers = up.headers;
  forward.headers.emplace("Content-Type", "application/json");
  forward.headers.emplace("Accept", "text/event-stream");
  forward.body = body;
  int status = 0;
  bool gone = false;
  std::string error_body;
  forward.response_handler = [&](const httplib::Response& r) {
    status = r.status;
    return true;
  };
  forward.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
    if (status != 200) {
      error_body.append(data, std::min(n, kMaxErrorBytes - std::min(kMaxErrorBytes, error_body.size())));
      return error_body.size() < kMaxErrorBytes;  // enough to quote
    }
    if (!sink.write(data, n)) gone = true;
    return !gone && !state.stopping.load();
  };
  httplib::Response response;
  httplib::Error error = httplib::Error::Success;
  const bool sent = client.send(forward, response, error);
  if (gone) return;
  std::string failure;
  if (status != 0 && status != 200) {
    failure = absl::StrCat(up.url, " answered ", status, ": ", error_body.empty() ? response.body : error_body);
  } else if (!sent && status == 0) {
    failure = Unreachable(up, httplib::to_string(error)).message;
  } else if (!sent) {
    failure = absl::StrCat("the stream from ", up.url, " broke off: ", httplib::to_string(error));
  }
  if (!failure.empty()) {
    const std::string event = "data: " + ApiError{502, "server_error", failure}.OpenAiBody() + "\n\n";
    sink.write(event.data(), event.size());
  }
  sink.done();
}

void ChatCompletions(const ServerState& state, const httplib::Request& req, httplib::Response& res) {
  Upstream up;
  if (!Prepare(state, req, res, up)) return;
  absl::StatusOr<Json> body = ParseBody(req);
  if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
  const auto stream = body->is_object() ? body->find("stream") : body->end();
  if (stream == body->end() || !stream->is_boolean() || !stream->get<bool>()) {
    return SendOpenAiError(res, InvalidRequest("the race relays streams only: set 'stream': true"));
  }
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider("text/event-stream",
                                   [&state, up, body = req.body](size_t, httplib::DataSink& sink) {
                                     RelayStream(state, up, body, sink);
                                     return true;
                                   });
}

}  // namespace

void AddRaceRoutes(httplib::Server& http, ServerState& state) {
  http.Get("/race/models", [&state](const httplib::Request& req, httplib::Response& res) { Models(state, req, res); });
  http.Post("/race/chat/completions",
            [&state](const httplib::Request& req, httplib::Response& res) { ChatCompletions(state, req, res); });
}

}  // namespace cpubrrr::server

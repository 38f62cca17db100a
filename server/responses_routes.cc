// OpenAI's Responses API, stateless: POST /v1/responses answers whole or as its event
// stream, through the chat completion request it means.
#include <string>
#include <utility>

#include "server/client_connection.h"
#include "server/openai_request.h"
#include "server/responses_api.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

// Streams `r` as Responses events into `sink`, then ends the stream.
void Stream(ServerState& state, Scheduler& queue, const std::string& id, const Json& body, const OpenAiRequest& r,
            ClientConnection client, httplib::DataSink& sink) {
  bool gone = false;
  ResponsesEvents events(id, UnixSeconds(), state.options.alias, body, [&](const std::string& type, const Json& data) {
    const std::string text = "event: " + type + "\ndata: " + Dump(data) + "\n\n";
    if (!gone && !sink.write(text.data(), text.size())) gone = true;
  });
  events.Start();
  GenerateCallbacks callbacks;
  callbacks.on_delta = [&](const ChatDelta& d) { events.Delta(d); };
  callbacks.cancelled = CancelCheck(state.stopping, client, &gone);
  absl::StatusOr<GenerateResult> result = queue.Generate(r.generate, callbacks);
  if (result.ok()) {
    events.Finish(*result);
  } else if (!absl::IsCancelled(result.status())) {
    const ApiError error = FromStatus(result.status());
    events.Fail(error.type, error.message);
  }
  sink.done();
}

void Responses(ServerState& state, const httplib::Request& req, httplib::Response& res) {
  Scheduler* queue = state.queue.load();
  if (queue == nullptr) return SendOpenAiError(res, Unavailable("Loading model"));
  absl::StatusOr<Json> body = ParseBody(req);
  if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
  absl::StatusOr<Json> chat = ResponsesToChatBody(*body);
  if (!chat.ok()) return SendOpenAiError(res, FromStatus(chat.status()));
  absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(*chat);
  if (!r.ok()) return SendOpenAiError(res, FromStatus(r.status()));
  ApiError error;
  if (!CheckPrompt(*queue, r->generate, &error).ok()) return SendOpenAiError(res, error);
  const std::string id = RandomId("resp_");
  const ClientConnection client(req);
  if (r->stream) {
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider("text/event-stream", [&state, queue, id, client, body = *std::move(body),
                                                           request = *std::move(r)](size_t, httplib::DataSink& sink) {
      Stream(state, *queue, id, body, request, client, sink);
      return true;
    });
    return;
  }
  GenerateCallbacks callbacks;
  callbacks.cancelled = CancelCheck(state.stopping, client);
  absl::StatusOr<GenerateResult> result = queue->Generate(r->generate, callbacks);
  if (!result.ok()) return SendOpenAiError(res, FromStatus(result.status()));
  SendJson(res, ResponseObject(id, UnixSeconds(), state.options.alias, *body, *result));
}

}  // namespace

void AddResponsesRoutes(httplib::Server& http, ServerState& state) {
  auto route = [&state](const httplib::Request& req, httplib::Response& res) { Responses(state, req, res); };
  http.Post("/v1/responses", route);
  http.Post("/responses", route);
}

}  // namespace cpubrrr::server

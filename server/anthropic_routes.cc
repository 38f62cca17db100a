// Anthropic's Messages API: a whole message, or its event stream (message_start, content
// blocks with their deltas, message_delta, message_stop).
#include <string>
#include <utility>

#include "server/client_connection.h"
#include "server/anthropic_api.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

Json MessageShell(const ServerState& state, const std::string& id) {
  return {{"id", id}, {"type", "message"}, {"role", "assistant"}, {"model", state.options.alias},
          {"content", Json::array()}, {"stop_reason", nullptr}, {"stop_sequence", nullptr}};
}

// Streams `request` as server-sent events into `sink`, then ends the stream.
void Stream(ServerState& state, Scheduler& queue, const GenerateRequest& request, uint32_t n_prompt,
            ClientConnection client, httplib::DataSink& sink) {
  bool gone = false;
  auto send = [&](const char* event, const Json& data) {
    const std::string text = std::string("event: ") + event + "\ndata: " + Dump(data) + "\n\n";
    if (!gone && !sink.write(text.data(), text.size())) gone = true;
  };
  Json start = MessageShell(state, RandomId("msg_"));
  start["usage"] = {{"input_tokens", n_prompt}, {"output_tokens", 0}};
  send("message_start", {{"type", "message_start"}, {"message", start}});
  int index = -1;
  std::string open;  // the type of the open content block, "" when none
  auto close = [&] {
    if (!open.empty()) send("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
    open.clear();
  };
  auto delta = [&](const char* type, const char* field, const char* delta_type, const std::string& text) {
    if (open != type) {
      close();
      open = type;
      send("content_block_start", {{"type", "content_block_start"}, {"index", ++index},
                                   {"content_block", {{"type", type}, {field, ""}}}});
    }
    send("content_block_delta", {{"type", "content_block_delta"}, {"index", index},
                                 {"delta", {{"type", delta_type}, {field, text}}}});
  };
  GenerateCallbacks callbacks;
  callbacks.on_delta = [&](const ChatDelta& d) {
    if (!d.reasoning.empty()) delta("thinking", "thinking", "thinking_delta", d.reasoning);
    if (!d.content.empty()) delta("text", "text", "text_delta", d.content);
    for (const ToolCall& call : d.tool_calls) {
      close();
      Json block = AnthropicToolUse(call);
      const std::string input = Dump(block["input"]);
      block["input"] = Json::object();
      send("content_block_start", {{"type", "content_block_start"}, {"index", ++index}, {"content_block", block}});
      send("content_block_delta", {{"type", "content_block_delta"}, {"index", index},
                                   {"delta", {{"type", "input_json_delta"}, {"partial_json", input}}}});
      send("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
    }
  };
  callbacks.cancelled = CancelCheck(state.stopping, client, &gone);
  absl::StatusOr<GenerateResult> result = queue.Generate(request, callbacks);
  if (!result.ok()) {
    if (!absl::IsCancelled(result.status())) send("error", Json::parse(FromStatus(result.status()).AnthropicBody()));
  } else {
    if (index < 0) delta("text", "text", "text_delta", "");  // a message has at least one block
    close();
    send("message_delta", {{"type", "message_delta"},
                           {"delta", {{"stop_reason", AnthropicStopReason(*result)}, {"stop_sequence", nullptr}}},
                           {"usage", AnthropicUsage(result->timings)}});
    send("message_stop", {{"type", "message_stop"}});
  }
  sink.done();
}

void Messages(ServerState& state, const httplib::Request& req, httplib::Response& res) {
  Scheduler* queue = state.queue.load();
  if (queue == nullptr) return SendAnthropicError(res, Unavailable("Loading model"));
  absl::StatusOr<Json> body = ParseBody(req);
  if (!body.ok()) return SendAnthropicError(res, FromStatus(body.status()));
  absl::StatusOr<AnthropicRequest> r = ParseAnthropicMessages(*body);
  if (!r.ok()) return SendAnthropicError(res, FromStatus(r.status()));
  ApiError error;
  absl::StatusOr<uint32_t> n_prompt = CheckPrompt(*queue, r->generate, &error);
  if (!n_prompt.ok()) return SendAnthropicError(res, error);
  const ClientConnection client(req);
  if (r->stream) {
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream", [&state, queue, client, n = *n_prompt, request = std::move(r->generate)](size_t, httplib::DataSink& sink) {
          Stream(state, *queue, request, n, client, sink);
          return true;
        });
    return;
  }
  GenerateCallbacks callbacks;
  callbacks.cancelled = CancelCheck(state.stopping, client);
  absl::StatusOr<GenerateResult> result = queue->Generate(r->generate, callbacks);
  if (!result.ok()) return SendAnthropicError(res, FromStatus(result.status()));
  Json message = MessageShell(state, RandomId("msg_"));
  message["content"] = AnthropicContent(result->message);
  message["stop_reason"] = AnthropicStopReason(*result);
  message["usage"] = AnthropicUsage(result->timings);
  SendJson(res, message);
}

}  // namespace

void AddAnthropicRoutes(httplib::Server& http, ServerState& state) {
  http.Post("/v1/messages", [&state](const httplib::Request& req, httplib::Response& res) { Messages(state, req, res); });
}

}  // namespace cpubrrr::server

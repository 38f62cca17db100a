// OpenAI-compatible routes with llama-server's semantics: whole answers and SSE streams.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "server/client_connection.h"
#include "server/openai_request.h"
#include "server/openai_response.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

enum class Kind { kChat, kText };

// The timings of a stream so far, for `timings_per_token`: the prompt's once it is
// evaluated, the tokens sampled and the time since the first.
class StreamTimings {
 public:
  void Prompt(const GenerateTimings& t) {
    t_.prompt_tokens = t.prompt_tokens;
    t_.reused_tokens = t.reused_tokens;
    t_.prompt_seconds = t.prompt_seconds;
  }
  void Count() {
    if (t_.generated_tokens++ == 0) first_ = std::chrono::steady_clock::now();
  }
  bool started() const { return t_.generated_tokens > 0; }
  // llama-server's timings object (Timings()), decode time measured from the first token.
  Json Now() {
    if (t_.generated_tokens > 0) {
      t_.generation_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - first_).count();
    }
    return Timings(t_);
  }

 private:
  GenerateTimings t_;
  std::chrono::steady_clock::time_point first_;
};

// Runs `r` and returns the whole answer.
void Answer(ServerState& state, Scheduler& queue, Kind kind, const ResponseHeader& h, OpenAiRequest r,
            ClientConnection client, httplib::Response& res) {
  std::vector<SampleResult> samples;
  GenerateCallbacks callbacks;
  if (r.logprobs) callbacks.on_token = [&](const SampleResult& s) { samples.push_back(s); };
  callbacks.cancelled = CancelCheck(state.stopping, client);
  absl::StatusOr<GenerateResult> result = queue.Generate(r.generate, callbacks);
  if (!result.ok()) return SendOpenAiError(res, FromStatus(result.status()));
  const Json logprobs = r.logprobs ? LogprobsContent(samples, queue.engine().tokenizer()) : Json();
  SendJson(res, kind == Kind::kChat ? ChatCompletion(h, *result, logprobs) : TextCompletion(h, *result, logprobs));
}

// Runs `r` streaming server-sent events into `sink`, then ends the stream.
void Stream(ServerState& state, Scheduler& queue, Kind kind, const ResponseHeader& h, const OpenAiRequest& r,
            ClientConnection client, httplib::DataSink& sink) {
  bool gone = false;
  std::vector<SampleResult> pending;  // sampled tokens whose logprobs the next chunk carries
  StreamTimings clock;
  auto send = [&](Json chunk) {
    if (!pending.empty() && !chunk["choices"].empty()) {
      chunk["choices"][0]["logprobs"] = {{"content", LogprobsContent(pending, queue.engine().tokenizer())}};
      pending.clear();
    }
    if (r.timings_per_token && clock.started() && !chunk.contains("timings")) chunk["timings"] = clock.Now();
    const std::string event = "data: " + Dump(chunk) + "\n\n";
    if (!gone && !sink.write(event.data(), event.size())) gone = true;
  };
  size_t tool_index = 0;
  GenerateCallbacks callbacks;
  callbacks.on_token = [&](const SampleResult& s) {
    clock.Count();
    if (r.logprobs) pending.push_back(s);
  };
  callbacks.on_prompt = [&](const GenerateTimings& t) { clock.Prompt(t); };
  callbacks.cancelled = CancelCheck(state.stopping, client, &gone);
  if (kind == Kind::kChat) {
    send(ChatChunk(h, {{"role", "assistant"}, {"content", nullptr}}, nullptr));
    callbacks.on_delta = [&](const ChatDelta& d) {
      if (!d.reasoning.empty()) send(ChatChunk(h, {{"reasoning_content", d.reasoning}}, nullptr));
      if (!d.content.empty()) send(ChatChunk(h, {{"content", d.content}}, nullptr));
      if (!d.tool_calls.empty()) {
        send(ChatChunk(h, {{"tool_calls", ToolCallsJson(d.tool_calls, tool_index)}}, nullptr));
        tool_index += d.tool_calls.size();
      }
    };
  } else {
    callbacks.on_delta = [&](const ChatDelta& d) {
      if (!d.content.empty()) send(TextChunk(h, d.content, nullptr));
    };
  }
  absl::StatusOr<GenerateResult> result = queue.Generate(r.generate, callbacks);
  if (!result.ok()) {
    if (!absl::IsCancelled(result.status())) {
      const std::string event = "data: " + FromStatus(result.status()).OpenAiBody() + "\n\n";
      if (!gone) sink.write(event.data(), event.size());
    }
  } else {
    Json last = kind == Kind::kChat ? ChatChunk(h, Json::object(), OpenAiFinishReason(*result))
                                    : TextChunk(h, "", OpenAiFinishReason(*result));
    last["timings"] = Timings(result->timings);
    send(std::move(last));
    if (r.include_usage) {
      send(UsageChunk(h, kind == Kind::kChat ? "chat.completion.chunk" : "text_completion", result->timings));
    }
  }
  static constexpr char kDone[] = "data: [DONE]\n\n";
  if (!gone) sink.write(kDone, sizeof(kDone) - 1);
  sink.done();
}

void Generate(ServerState& state, Kind kind, const httplib::Request& req, httplib::Response& res) {
  Scheduler* queue = state.queue.load();
  if (queue == nullptr) return SendOpenAiError(res, Unavailable("Loading model"));
  absl::StatusOr<Json> body = ParseBody(req);
  if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
  absl::StatusOr<OpenAiRequest> r = kind == Kind::kChat ? ParseChatCompletionRequest(*body) : ParseCompletionRequest(*body);
  if (!r.ok()) return SendOpenAiError(res, FromStatus(r.status()));
  ApiError error;
  if (!CheckPrompt(*queue, r->generate, &error).ok()) return SendOpenAiError(res, error);
  const ResponseHeader h{RandomId(kind == Kind::kChat ? "chatcmpl-" : "cmpl-"), UnixSeconds(), state.options.alias};
  const ClientConnection client(req);
  if (!r->stream) return Answer(state, *queue, kind, h, *std::move(r), client, res);
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider(
      "text/event-stream", [&state, queue, kind, h, client, request = *std::move(r)](size_t, httplib::DataSink& sink) {
        Stream(state, *queue, kind, h, request, client, sink);
        return true;
      });
}

}  // namespace

void AddOpenAiRoutes(httplib::Server& http, ServerState& state) {
  auto models = [&state](const httplib::Request&, httplib::Response& res) {
    if (state.queue.load() == nullptr) return SendOpenAiError(res, Unavailable("Loading model"));
    const ModelCard& c = state.card;
    SendJson(res, {{"object", "list"},
                   {"data", Json::array({{{"id", state.options.alias},
                                          {"object", "model"},
                                          {"created", c.modified},
                                          {"owned_by", "cpubrrr"},
                                          {"meta", {{"n_vocab", c.n_vocab}, {"n_ctx_train", c.n_ctx_train},
                                                    {"n_params", c.n_params}, {"size", c.file_bytes}}}}})}});
  };
  auto chat = [&state](const httplib::Request& req, httplib::Response& res) { Generate(state, Kind::kChat, req, res); };
  auto text = [&state](const httplib::Request& req, httplib::Response& res) { Generate(state, Kind::kText, req, res); };
  for (const char* prefix : {"/v1", ""}) {
    const std::string p = prefix;
    http.Get(p + "/models", models);
    http.Post(p + "/chat/completions", chat);
    http.Post(p + "/completions", text);
  }
}

}  // namespace cpubrrr::server

// llama-server's own routes: health, properties, slots, tokenizer and template access,
// metrics.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/engine/chat_format.h"
#include "server/openai_request.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

// Returns the queue, or answers 503 and returns null while the model loads.
Scheduler* Ready(ServerState& state, httplib::Response& res) {
  Scheduler* queue = state.queue.load();
  if (queue == nullptr) SendOpenAiError(res, Unavailable("Loading model"));
  return queue;
}

std::string Metrics(const Scheduler& queue, const ModelCard& card) {
  const ServingStats s = queue.stats();
  std::string out;
  auto metric = [&out](const char* type, const char* name, const char* help, double value) {
    absl::StrAppend(&out, "# HELP ", name, " ", help, "\n# TYPE ", name, " ", type, "\n", name, " ",
                    absl::StrFormat("%.17g", value), "\n");
  };
  metric("counter", "llamacpp:prompt_tokens_total", "Number of prompt tokens processed.", s.prompt_tokens);
  metric("counter", "llamacpp:prompt_seconds_total", "Prompt process time", s.prompt_seconds);
  metric("counter", "llamacpp:tokens_predicted_total", "Number of generation tokens processed.", s.generated_tokens);
  metric("counter", "llamacpp:tokens_predicted_seconds_total", "Predict process time", s.generation_seconds);
  metric("gauge", "llamacpp:prompt_tokens_seconds", "Average prompt throughput in tokens/s.",
         s.prompt_seconds > 0 ? s.prompt_tokens / s.prompt_seconds : 0);
  metric("gauge", "llamacpp:predicted_tokens_seconds", "Average generation throughput in tokens/s.",
         s.generation_seconds > 0 ? s.generated_tokens / s.generation_seconds : 0);
  metric("gauge", "llamacpp:requests_processing", "Number of requests processing.", s.running);
  metric("gauge", "llamacpp:requests_deferred", "Number of requests deferred.", s.waiting);
  metric("counter", "cpubrrr:requests_total", "Generations finished.", s.requests);
  metric("counter", "cpubrrr:prompt_tokens_reused_total", "Prompt tokens taken from the KV cache.", s.reused_tokens);
  metric("gauge", "cpubrrr:weight_bytes_per_token", "Bytes of weights one decode step reads.",
         queue.engine().model().info().bytes_per_token);
  metric("gauge", "cpubrrr:memory_read_bytes_per_second", "Memory read bandwidth measured at start-up.",
         card.read_bytes_per_second);
  const double bytes_read = static_cast<double>(queue.engine().model().weight_bytes_read());
  metric("counter", "cpubrrr:weight_bytes_read_total", "Bytes of weights the passes read.", bytes_read);
  metric("counter", "cpubrrr:busy_seconds_total", "Time spent in forward passes.", s.step_seconds);
  metric("gauge", "cpubrrr:bandwidth_ceiling_share",
         "Weights read per busy second over the memory read bandwidth (1 = at the ceiling).",
         s.step_seconds > 0 && card.read_bytes_per_second > 0 ? bytes_read / s.step_seconds / card.read_bytes_per_second : 0);
  return out;
}

}  // namespace

void AddNativeRoutes(httplib::Server& http, ServerState& state) {
  auto health = [&state](const httplib::Request&, httplib::Response& res) {
    if (Ready(state, res)) SendJson(res, {{"status", "ok"}});
  };
  http.Get("/health", health);
  http.Get("/v1/health", health);
  http.Get("/props", [&state](const httplib::Request&, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (!queue) return;
    SendJson(res, {{"default_generation_settings", {{"n_ctx", state.card.n_ctx}}},
                   {"total_slots", queue->stats().slots},
                   {"model_alias", state.options.alias},
                   {"model_path", state.card.path},
                   {"model_info", {{"architecture", state.card.architecture},
                                   {"quantization", state.card.quantization},
                                   {"n_params", state.card.n_params},
                                   {"n_ctx_train", state.card.n_ctx_train},
                                   {"file_bytes", state.card.file_bytes}}},
                   {"build_info", "cpubrrr"}});
  });
  http.Get("/slots", [&state](const httplib::Request&, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (!queue) return;
    const ServingStats stats = queue->stats();
    Json slots = Json::array();
    for (size_t i = 0; i < stats.slot_busy.size(); ++i) {
      slots.push_back({{"id", i}, {"n_ctx", state.card.n_ctx}, {"is_processing", stats.slot_busy[i]}});
    }
    SendJson(res, slots);
  });
  http.Post("/tokenize", [&state](const httplib::Request& req, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (!queue) return;
    absl::StatusOr<Json> body = ParseBody(req);
    if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
    const JsonFields f(*body);
    std::string content;
    bool add_special = false, parse_special = true, with_pieces = false;
    for (const absl::Status& s : {f.String("content", content), f.Bool("add_special", add_special),
                                  f.Bool("parse_special", parse_special), f.Bool("with_pieces", with_pieces)}) {
      if (!s.ok()) return SendOpenAiError(res, FromStatus(s));
    }
    const BpeTokenizer& tok = queue->engine().tokenizer();
    Json tokens = Json::array();
    for (int32_t id : tok.Encode(content, add_special, parse_special)) {
      if (with_pieces) {
        tokens.push_back({{"id", id}, {"piece", std::string(tok.TokenBytes(id))}});
      } else {
        tokens.push_back(id);
      }
    }
    SendJson(res, {{"tokens", tokens}});
  });
  http.Post("/detokenize", [&state](const httplib::Request& req, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (!queue) return;
    absl::StatusOr<Json> body = ParseBody(req);
    if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
    const Json& tokens = (*body)["tokens"];
    if (!tokens.is_array()) return SendOpenAiError(res, InvalidRequest("'tokens' must be an array of token ids"));
    const uint32_t n_vocab = queue->engine().tokenizer().vocab_size();
    std::vector<int32_t> ids;
    for (const Json& t : tokens) {
      if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() >= n_vocab) {
        return SendOpenAiError(res, InvalidRequest(absl::StrCat("'tokens' must hold ids in [0, ", n_vocab, ")")));
      }
      ids.push_back(t.get<int32_t>());
    }
    SendJson(res, {{"content", queue->engine().tokenizer().Decode(ids)}});
  });
  http.Post("/apply-template", [&state](const httplib::Request& req, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (!queue) return;
    absl::StatusOr<Json> body = ParseBody(req);
    if (!body.ok()) return SendOpenAiError(res, FromStatus(body.status()));
    absl::StatusOr<OpenAiRequest> r = ParseChatCompletionRequest(*body);
    if (!r.ok()) return SendOpenAiError(res, FromStatus(r.status()));
    absl::StatusOr<std::string> prompt = RenderChatPrompt(queue->engine().chat_format(),
                                                           queue->engine().WithDefaults(r->generate.chat));
    if (!prompt.ok()) return SendOpenAiError(res, FromStatus(prompt.status()));
    SendJson(res, {{"prompt", *prompt}});
  });
  http.Get("/metrics", [&state](const httplib::Request&, httplib::Response& res) {
    Scheduler* queue = Ready(state, res);
    if (queue) res.set_content(Metrics(*queue, state.card), "text/plain; version=0.0.4");
  });
}

}  // namespace cpubrrr::server

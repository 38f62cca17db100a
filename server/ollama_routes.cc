// Ollama-compatible routes: listing (the served model and Ollama's store), show, and chat / generate as NDJSON streams.
#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/ollama/ollama_store.h"
#include "server/client_connection.h"
#include "server/ollama_api.h"
#include "server/routes.h"

namespace cpubrrr::server {
namespace {

constexpr char kOllamaVersion[] = "0.12.0";  // the Ollama API this server follows

// Ollama's family name of an architecture ("gptoss" for gpt-oss).
std::string Family(const std::string& architecture) {
  return architecture == "gpt-oss" ? "gptoss" : architecture;
}

Json Details(const ModelCard& c) {
  return {{"parent_model", ""}, {"format", "gguf"}, {"family", Family(c.architecture)},
          {"families", Json::array({Family(c.architecture)})},
          {"parameter_size", c.n_params >= 1e9 ? absl::StrFormat("%.1fB", c.n_params / 1e9)
                                                : absl::StrFormat("%.2fM", c.n_params / 1e6)},
          {"quantization_level", c.quantization}};
}

Json ListEntry(const ServerState& state) {
  const ModelCard& c = state.card;
  return {{"name", state.options.alias}, {"model", state.options.alias},
          {"modified_at", OllamaTime(c.modified)}, {"size", c.file_bytes}, {"digest", ""},
          {"details", Details(c)}};
}

// The models in the Ollama store but the served one, as /api/tags lists them (their
// details are the file's, unread: this server serves only the model it started with).
std::vector<Json> StoreEntries(const ServerState& state) {
  std::vector<Json> entries;
  for (const OllamaModel& m : ListOllamaModels(OllamaStoreRoot())) {
    const std::string name = m.name.Display();
    if (name == state.options.alias || m.gguf_path == state.card.path) continue;
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(m.manifest_path, ec);
    const int64_t modified = ec ? 0 : std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::file_clock::to_sys(mtime).time_since_epoch()).count();
    entries.push_back({{"name", name}, {"model", name}, {"modified_at", OllamaTime(modified)},
                       {"size", m.gguf_bytes}, {"digest", ""}, {"details", {{"format", "gguf"}}}});
  }
  return entries;
}

// Returns the 404 for a request naming `name`, which is not the served model: a model of
// the store says how to serve it.
ApiError NotServed(const ServerState& state, const std::string& name) {
  const absl::StatusOr<OllamaName> parsed = ParseOllamaName(name);
  if (parsed.ok() && ResolveOllamaModel(OllamaStoreRoot(), *parsed).ok()) {
    return NotFound(absl::StrCat("model '", name, "' is in the Ollama store, but this server serves only '",
                                 state.options.alias, "' (start it with -m ", parsed->Display(), ")"));
  }
  return NotFound("model '" + name + "' not found");
}

// Whether `name` (as a client lists it, with or without ":latest") is the served model.
bool IsServedModel(const ServerState& state, const std::string& name) {
  auto strip = [](std::string n) {
    if (n.size() > 7 && n.compare(n.size() - 7, 7, ":latest") == 0) n.resize(n.size() - 7);
    return n;
  };
  return strip(name) == strip(state.options.alias);
}

enum class Kind { kChat, kGenerate };

// One NDJSON line of a stream or the single body: the model, the time, then `fields`.
Json Line(const ServerState& state, Json fields) {
  Json line = {{"model", state.options.alias}, {"created_at", OllamaTimeNow()}};
  for (auto& [key, value] : fields.items()) line[key] = std::move(value);
  return line;
}

Json MessageJson(const ChatMessage& m) {
  Json message = {{"role", "assistant"}, {"content", m.content}};
  if (!m.reasoning.empty()) message["thinking"] = m.reasoning;
  if (!m.tool_calls.empty()) {
    message["tool_calls"] = Json::array();
    for (const ToolCall& c : m.tool_calls) message["tool_calls"].push_back(OllamaToolCall(c));
  }
  return message;
}

// The fields of one streamed delta.
Json DeltaFields(Kind kind, const ChatDelta& d) {
  if (kind == Kind::kGenerate) {
    Json fields = {{"response", d.content}, {"done", false}};
    if (!d.reasoning.empty()) fields["thinking"] = d.reasoning;
    return fields;
  }
  ChatMessage m;
  m.content = d.content;
  m.reasoning = d.reasoning;
  m.tool_calls = d.tool_calls;
  return {{"message", MessageJson(m)}, {"done", false}};
}

Json FinalFields(Kind kind, const GenerateResult* whole, const GenerateResult& result, double seconds) {
  Json fields = kind == Kind::kChat ? Json{{"message", MessageJson(whole ? whole->message : ChatMessage{})}}
                                    : Json{{"response", whole ? whole->message.content : ""}};
  if (kind == Kind::kGenerate && whole && !whole->message.reasoning.empty()) fields["thinking"] = whole->message.reasoning;
  const Json done = OllamaDoneFields(result, seconds);
  for (const auto& [key, value] : done.items()) fields[key] = value;
  return fields;
}

void Generate(ServerState& state, Kind kind, const httplib::Request& req, httplib::Response& res) {
  Scheduler* queue = state.queue.load();
  if (queue == nullptr) return SendOllamaError(res, Unavailable("the model is loading"));
  absl::StatusOr<Json> body = ParseBody(req);
  if (!body.ok()) return SendOllamaError(res, FromStatus(body.status()));
  absl::StatusOr<OllamaRequest> r = kind == Kind::kChat ? ParseOllamaChat(*body) : ParseOllamaGenerate(*body);
  if (!r.ok()) return SendOllamaError(res, FromStatus(r.status()));
  if (!IsServedModel(state, r->model)) return SendOllamaError(res, NotServed(state, r->model));
  if (r->load_only) {
    Json fields = kind == Kind::kChat ? Json{{"message", {{"role", "assistant"}, {"content", ""}}}} : Json{{"response", ""}};
    fields["done"] = true;
    fields["done_reason"] = "load";
    return SendJson(res, Line(state, fields));
  }
  ApiError error;
  if (!CheckPrompt(*queue, r->generate, &error).ok()) return SendOllamaError(res, error);
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const ClientConnection client(req);
  GenerateCallbacks callbacks;
  callbacks.cancelled = CancelCheck(state.stopping, client);
  if (!r->stream) {
    absl::StatusOr<GenerateResult> result = queue->Generate(r->generate, callbacks);
    if (!result.ok()) return SendOllamaError(res, FromStatus(result.status()));
    return SendJson(res, Line(state, FinalFields(kind, &*result, *result, seconds())));
  }
  res.set_chunked_content_provider(
      "application/x-ndjson", [&state, queue, kind, seconds, client, request = std::move(r->generate)](size_t, httplib::DataSink& sink) {
        bool gone = false;
        auto send = [&](const Json& line) {
          const std::string text = Dump(line) + "\n";
          if (!gone && !sink.write(text.data(), text.size())) gone = true;
        };
        GenerateCallbacks callbacks;
        callbacks.on_delta = [&](const ChatDelta& d) { send(Line(state, DeltaFields(kind, d))); };
        callbacks.cancelled = CancelCheck(state.stopping, client, &gone);
        absl::StatusOr<GenerateResult> result = queue->Generate(request, callbacks);
        if (result.ok()) {
          send(Line(state, FinalFields(kind, nullptr, *result, seconds())));
        } else if (!absl::IsCancelled(result.status())) {
          send(Json{{"error", std::string(result.status().message())}});
        }
        sink.done();
        return true;
      });
}

}  // namespace

void AddOllamaRoutes(httplib::Server& http, ServerState& state) {
  http.Get("/api/version", [](const httplib::Request&, httplib::Response& res) { SendJson(res, {{"version", kOllamaVersion}}); });
  // The card is filled when the model is loaded: until then the list is empty.
  http.Get("/api/tags", [&state](const httplib::Request&, httplib::Response& res) {
    Json models = Json::array();
    if (state.queue.load()) models.push_back(ListEntry(state));
    for (Json& entry : StoreEntries(state)) models.push_back(std::move(entry));
    SendJson(res, {{"models", models}});
  });
  http.Get("/api/ps", [&state](const httplib::Request&, httplib::Response& res) {
    if (state.queue.load() == nullptr) return SendJson(res, {{"models", Json::array()}});
    Json entry = ListEntry(state);
    entry["expires_at"] = OllamaTime(UnixSeconds() + 100LL * 365 * 86400);  // never unloaded
    entry["size_vram"] = 0;
    SendJson(res, {{"models", Json::array({entry})}});
  });
  http.Post("/api/show", [&state](const httplib::Request& req, httplib::Response& res) {
    if (state.queue.load() == nullptr) return SendOllamaError(res, Unavailable("the model is loading"));
    absl::StatusOr<Json> body = ParseBody(req);
    if (!body.ok()) return SendOllamaError(res, FromStatus(body.status()));
    std::string name;
    const JsonFields f(*body);
    if (absl::Status s = f.String("model", name); !s.ok()) return SendOllamaError(res, FromStatus(s));
    if (name.empty() && !f.String("name", name).ok()) name.clear();
    if (!IsServedModel(state, name)) return SendOllamaError(res, NotServed(state, name));
    const ModelCard& c = state.card;
    SendJson(res, {{"modelfile", ""}, {"parameters", ""}, {"template", ""}, {"details", Details(c)},
                   {"model_info", {{"general.architecture", Family(c.architecture)},
                                   {"general.parameter_count", c.n_params},
                                   {Family(c.architecture) + ".context_length", c.n_ctx_train}}},
                   {"capabilities", Json::array({"completion", "tools", "thinking"})},
                   {"modified_at", OllamaTime(c.modified)}});
  });
  http.Post("/api/chat", [&state](const httplib::Request& req, httplib::Response& res) { Generate(state, Kind::kChat, req, res); });
  http.Post("/api/generate", [&state](const httplib::Request& req, httplib::Response& res) { Generate(state, Kind::kGenerate, req, res); });
}

}  // namespace cpubrrr::server

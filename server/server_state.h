// What every route handler shares: the options, the model once loaded, and the helpers
// that answer in each API's envelope.
#ifndef CPUBRRR_SERVER_SERVER_STATE_H_
#define CPUBRRR_SERVER_SERVER_STATE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "httplib.h"
#include "runtime/serving/scheduler.h"
#include "server/api_error.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::vector<std::string> api_keys;  // empty: no key needed
  std::string alias;                  // the model's name in every API
  int timeout_seconds = 600;          // socket read and write timeout
  uint32_t max_waiting = 16;          // requests waiting beyond the running one
  size_t max_body_bytes = 32u << 20;
  std::string race_url;  // the one endpoint /race/ may reach; empty: any on loopback
  // Origins whose pages may call the API from a browser ("*": any); empty: no CORS headers.
  std::vector<std::string> cors_origins;
};

// The served model as the listing routes describe it.
struct ModelCard {
  std::string path;
  std::string architecture;   // "gpt-oss", "qwen3moe"
  std::string quantization;   // "MXFP4", "Q4_K_M", ... or "unknown"
  uint64_t file_bytes = 0;
  uint64_t n_params = 0;
  uint32_t n_vocab = 0;
  uint32_t n_ctx_train = 0;
  uint32_t n_ctx = 0;         // the context each request has
  int64_t modified = 0;       // the file's mtime, Unix seconds
  double read_bytes_per_second = 0;  // memory read bandwidth at the serving thread count
};

struct ServerState {
  ServerOptions options;
  ModelCard card;
  std::unique_ptr<Scheduler> owned_queue;
  std::atomic<Scheduler*> queue{nullptr};  // null while the model loads
  std::atomic<bool> stopping{false};
};

// Writes an error as JSON with its HTTP status.
void SendOpenAiError(httplib::Response& res, const ApiError& error);
void SendOllamaError(httplib::Response& res, const ApiError& error);
void SendAnthropicError(httplib::Response& res, const ApiError& error);
void SendJson(httplib::Response& res, const Json& body);

// Parses the request body as JSON; fails with InvalidArgument saying where it broke.
absl::StatusOr<Json> ParseBody(const httplib::Request& req);

// Returns the prompt's token count when it fits the context and the queue has room, else
// fails and sets the error to send.
absl::StatusOr<uint32_t> CheckPrompt(const Scheduler& queue, const GenerateRequest& request,
                                     ApiError* error);

int64_t UnixSeconds();

// Returns a random id: `prefix` then 32 letters and digits.
std::string RandomId(const std::string& prefix);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_SERVER_STATE_H_

// The HTTP server: listens first (so /health answers 503 while the model loads), then
// serves the OpenAI, Ollama and llama-server routes over one Scheduler.
#ifndef CPUBRRR_SERVER_HTTP_SERVER_H_
#define CPUBRRR_SERVER_HTTP_SERVER_H_

#include <memory>
#include <thread>

#include "absl/status/status.h"
#include "httplib.h"
#include "server/server_state.h"

namespace cpubrrr::server {

class HttpServer {
 public:
  explicit HttpServer(ServerOptions options);
  ~HttpServer();

  // Binds options.host:options.port (port 0: any free port) and starts accepting on a
  // background thread. Fails when the address cannot be bound.
  absl::Status Listen();
  // Returns the bound port.
  int port() const { return port_; }
  // Starts answering the model routes with `queue`, described by `card`.
  void Serve(std::unique_ptr<Scheduler> queue, ModelCard card);
  // Stops accepting, cancels running generations at their next token and returns when
  // every handler has finished.
  void Stop();

 private:
  // Answers 401 unless the request carries one of the keys (Bearer or X-Api-Key);
  // /health needs none.
  httplib::Server::HandlerResponse CheckKey(const httplib::Request& req, httplib::Response& res);
  // With --cors-origin: marks a response to an allowed origin as readable by its page, and
  // answers its preflight (no key: browsers send none there). Returns whether it answered.
  bool HandleCors(const httplib::Request& req, httplib::Response& res) const;

  ServerState state_;
  httplib::Server http_;
  std::thread listener_;
  int port_ = 0;
};

// Compares in time that depends only on the lengths, not on where the bytes differ.
bool ConstantTimeEquals(const std::string& a, const std::string& b);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_HTTP_SERVER_H_

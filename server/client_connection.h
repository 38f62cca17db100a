// The socket a request arrived on, found again (cpp-httplib 0.11 hands handlers no socket),
// so a handler can tell while it waits on the engine that the client has gone away.
#ifndef CPUBRRR_SERVER_CLIENT_CONNECTION_H_
#define CPUBRRR_SERVER_CLIENT_CONNECTION_H_

#include <atomic>
#include <functional>

#include "httplib.h"

namespace cpubrrr::server {

class ClientConnection {
 public:
  // Finds the open socket whose two ends are req's local and remote address and port. When
  // none matches, ClientGone() stays false (the request is then only ended by a failed write).
  explicit ClientConnection(const httplib::Request& req);

  // True once the client has closed the connection or it broke; a quick poll, no wait.
  bool ClientGone() const;
  bool found() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// The cancellation test of one request: the server stopping, its client gone, or (for a
// stream, when given) a write to the client that failed.
std::function<bool()> CancelCheck(const std::atomic<bool>& stopping, ClientConnection client,
                                  const bool* write_failed = nullptr);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_CLIENT_CONNECTION_H_

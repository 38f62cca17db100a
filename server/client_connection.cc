// Matches a request's addresses against this process's sockets; polls for the peer's hang-up.
#include "server/client_connection.h"

#include <dirent.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace cpubrrr::server {
namespace {

// Whether `address` is `host`:`port`, with the host in the numeric form httplib uses.
bool Is(const sockaddr_storage& address, socklen_t length, const std::string& host, int port) {
  char name[NI_MAXHOST];
  char service[NI_MAXSERV];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, name, sizeof(name), service,
                  sizeof(service), NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return false;
  }
  return host == name && port == std::atoi(service);
}

bool Matches(int fd, const httplib::Request& req) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) return false;
  sockaddr_storage local{}, peer{};
  socklen_t local_length = sizeof(local), peer_length = sizeof(peer);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_length) != 0) return false;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_length) != 0) return false;
  return Is(local, local_length, req.local_addr, req.local_port) &&
         Is(peer, peer_length, req.remote_addr, req.remote_port);
}

}  // namespace

ClientConnection::ClientConnection(const httplib::Request& req) {
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) return;
  const int own = dirfd(fds);
  while (const dirent* entry = readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name || fd == own) continue;
    if (Matches(static_cast<int>(fd), req)) {
      fd_ = static_cast<int>(fd);
      break;
    }
  }
  closedir(fds);
}

bool ClientConnection::ClientGone() const {
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLRDHUP, 0};
  if (poll(&p, 1, 0) <= 0) return false;
  return (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

std::function<bool()> CancelCheck(const std::atomic<bool>& stopping, ClientConnection client,
                                  const bool* write_failed) {
  return [&stopping, client, write_failed] {
    return stopping.load() || (write_failed != nullptr && *write_failed) || client.ClientGone();
  };
}

}  // namespace cpubrrr::server

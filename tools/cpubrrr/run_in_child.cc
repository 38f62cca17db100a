// fork + a pipe carrying the child's doubles back + waitpid.
#include "tools/cpubrrr/run_in_child.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace cpubrrr {
namespace {

// Writes or reads all `size` bytes, retrying short transfers; false on error or EOF.
template <typename Io, typename Buffer>
bool Transfer(Io io, int fd, Buffer data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = io(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<double>> RunInChild(const std::function<std::vector<double>()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    const std::vector<double> values = fn();
    const uint64_t count = values.size();
    const bool sent = Transfer(::write, fds[1], reinterpret_cast<const char*>(&count), sizeof(count)) &&
                      Transfer(::write, fds[1], reinterpret_cast<const char*>(values.data()),
                               count * sizeof(double));
    _exit(sent ? 0 : 1);
  }
  close(fds[1]);
  uint64_t count = 0;
  std::vector<double> values;
  bool received = Transfer(::read, fds[0], reinterpret_cast<char*>(&count), sizeof(count));
  if (received) {
    values.resize(count);
    received = Transfer(::read, fds[0], reinterpret_cast<char*>(values.data()), count * sizeof(double));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!received || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError("the measuring child process died before reporting");
  }
  return values;
}

}  // namespace cpubrrr

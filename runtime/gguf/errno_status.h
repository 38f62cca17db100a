// ErrnoError: an absl::Status for a failed system call on a file, named by what and path.
#ifndef CPUBRRR_RUNTIME_GGUF_ERRNO_STATUS_H_
#define CPUBRRR_RUNTIME_GGUF_ERRNO_STATUS_H_

#include <string_view>

#include "absl/status/status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

// Returns the status of errno `err` with the message "<what> <path>: <strerror(err)>"
// (absl::ErrnoToStatus appends the strerror text).
inline absl::Status ErrnoError(std::string_view what, std::string_view path, int err) {
  return absl::ErrnoToStatus(err, Cat(what, " ", path));
}

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_ERRNO_STATUS_H_

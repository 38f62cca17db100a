// A read-only memory mapping of a whole file.
#ifndef CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_
#define CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace cpubrrr {

// What tells one version of a file from another without reading it: replacing or
// rewriting the file changes at least one of these.
struct FileIdentity {
  uint64_t size = 0;
  uint64_t inode = 0;
  int64_t mtime_ns = 0;  // last modification, nanoseconds since the epoch

  bool operator==(const FileIdentity& o) const {
    return size == o.size && inode == o.inode && mtime_ns == o.mtime_ns;
  }
};

// Owns a private read-only mapping of a file; unmapped on destruction. The bytes stay
// valid while the object lives, unless another process truncates the file: a read past
// the new end then ends the process with a message naming the file (mapping_fault_guard.h).
class MappedFile {
 public:
  // Maps `path` read-only. An empty file gives an empty span and no mapping.
  static absl::StatusOr<std::unique_ptr<MappedFile>> Open(const std::string& path);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  absl::Span<const uint8_t> bytes() const { return {data_, size_}; }
  // Returns the path it was opened with.
  const std::string& path() const { return path_; }
  // Returns the file's identity when it was mapped.
  const FileIdentity& identity() const { return identity_; }

 private:
  MappedFile(std::string path, const uint8_t* data, size_t size, FileIdentity identity);

  std::string path_;
  const uint8_t* data_;
  size_t size_;
  FileIdentity identity_;
  int watch_slot_ = -1;  // in the fault guard's table
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_

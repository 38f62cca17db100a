// A read-only memory mapping of a whole file.
#ifndef CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_
#define CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace cpubrrr {

// Owns a private read-only mapping of a file; unmapped on destruction. The bytes stay
// valid while the object lives, unless another process truncates the file.
class MappedFile {
 public:
  // Maps `path` read-only. An empty file gives an empty span and no mapping.
  static absl::StatusOr<std::unique_ptr<MappedFile>> Open(const std::string& path);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  absl::Span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  MappedFile(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  const uint8_t* data_;
  size_t size_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_MAPPED_FILE_H_

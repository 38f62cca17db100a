// Bounds-checked little-endian reads from untrusted bytes, with offset-naming errors.
#ifndef CPUBRRR_RUNTIME_GGUF_BYTE_CURSOR_H_
#define CPUBRRR_RUNTIME_GGUF_BYTE_CURSOR_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace cpubrrr {

// Returns the project's error for a malformed file:
// InvalidArgument "malformed GGUF at byte offset <offset>: <message>".
absl::Status MalformedAt(uint64_t offset, std::string_view message);

// Reads fields in order from a byte range it does not own. Every read checks the
// bytes left first; on failure the cursor does not move and the error names `what`
// and the offset of the field.
class ByteCursor {
 public:
  // Precondition: `bytes` outlives the cursor and every view it returns.
  explicit ByteCursor(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}

  uint64_t offset() const { return offset_; }
  uint64_t remaining() const { return bytes_.size() - offset_; }

  // Reads one little-endian value.
  absl::StatusOr<uint32_t> ReadU32(std::string_view what);
  absl::StatusOr<uint64_t> ReadU64(std::string_view what);
  absl::StatusOr<int64_t> ReadI64(std::string_view what);

  // Returns a pointer to the next `n` bytes and skips them.
  absl::StatusOr<const uint8_t*> Take(uint64_t n, std::string_view what);

  // Reads a GGUF string (u64 length, then that many bytes) as a view into the input.
  absl::StatusOr<std::string_view> ReadString(std::string_view what);

 private:
  absl::Span<const uint8_t> bytes_;
  uint64_t offset_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_BYTE_CURSOR_H_

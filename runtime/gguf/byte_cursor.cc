// Bounds-checked little-endian reads from untrusted bytes.
#include "runtime/gguf/byte_cursor.h"

#include <cstring>

#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

absl::Status MalformedAt(uint64_t offset, std::string_view message) {
  return absl::InvalidArgumentError(Cat("malformed GGUF at byte offset ", offset, ": ", message));
}

absl::StatusOr<const uint8_t*> ByteCursor::Take(uint64_t n, std::string_view what) {
  if (n > remaining()) {
    return MalformedAt(offset_, Cat("truncated ", what, ": needs ", n, " bytes but only ",
                                    remaining(), " remain"));
  }
  const uint8_t* p = bytes_.data() + offset_;
  offset_ += n;
  return p;
}

absl::StatusOr<uint32_t> ByteCursor::ReadU32(std::string_view what) {
  absl::StatusOr<const uint8_t*> p = Take(4, what);
  if (!p.ok()) return p.status();
  uint32_t v;
  std::memcpy(&v, *p, 4);
  return v;
}

absl::StatusOr<uint64_t> ByteCursor::ReadU64(std::string_view what) {
  absl::StatusOr<const uint8_t*> p = Take(8, what);
  if (!p.ok()) return p.status();
  uint64_t v;
  std::memcpy(&v, *p, 8);
  return v;
}

absl::StatusOr<int64_t> ByteCursor::ReadI64(std::string_view what) {
  absl::StatusOr<uint64_t> v = ReadU64(what);
  if (!v.ok()) return v.status();
  return static_cast<int64_t>(*v);
}

absl::StatusOr<std::string_view> ByteCursor::ReadString(std::string_view what) {
  if (remaining() < 8) {
    return MalformedAt(offset_, Cat("truncated ", what, " length: needs 8 bytes but only ",
                                    remaining(), " remain"));
  }
  uint64_t len;
  std::memcpy(&len, bytes_.data() + offset_, 8);
  if (len > remaining() - 8) {
    return MalformedAt(offset_, Cat(what, " length ", len, " exceeds the ", remaining() - 8,
                                    " bytes left in the file"));
  }
  const char* p = reinterpret_cast<const char*>(bytes_.data() + offset_ + 8);
  offset_ += 8 + len;
  return std::string_view(p, len);
}

}  // namespace cpubrrr

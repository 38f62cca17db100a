// An opened GGUF file: validated metadata and zero-copy tensor views, with typed lookups.
#ifndef CPUBRRR_RUNTIME_GGUF_GGUF_FILE_H_
#define CPUBRRR_RUNTIME_GGUF_GGUF_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/gguf/gguf_parser.h"
#include "runtime/gguf/gguf_value.h"
#include "runtime/gguf/mapped_file.h"

namespace cpubrrr {

// A parsed GGUF file. Every view it hands out (names, strings, tensor data) points
// into the mapped file or the caller's buffer and stays valid while this object (or
// the object it was moved into) lives. Move-only; safe to read from many threads.
//
// Typed getters fail with NotFound when the key is missing, InvalidArgument when the
// stored type does not convert, and OutOfRange when an integer does not fit. Integer
// getters accept any stored integer type whose value fits the requested type.
class GgufFile {
 public:
  GgufFile(GgufFile&&) = default;
  GgufFile& operator=(GgufFile&&) = default;

  uint32_t version() const { return contents_.version; }
  uint32_t alignment() const { return contents_.alignment; }
  // Returns the file offset where tensor data starts (tensor offsets count from here).
  uint64_t data_offset() const { return contents_.data_offset; }
  const std::vector<GgufKv>& kvs() const { return contents_.kvs; }
  const std::vector<GgufTensor>& tensors() const { return contents_.tensors; }

  // Returns the value of `key`, or nullptr.
  const GgufValue* Find(std::string_view key) const;
  // Returns the tensor called `name`, or nullptr.
  const GgufTensor* FindTensor(std::string_view name) const;
  // Returns the tensor called `name`, or NotFound.
  absl::StatusOr<GgufTensor> GetTensor(std::string_view name) const;

  absl::StatusOr<uint8_t> GetU8(std::string_view key) const;
  absl::StatusOr<uint16_t> GetU16(std::string_view key) const;
  absl::StatusOr<uint32_t> GetU32(std::string_view key) const;
  absl::StatusOr<uint64_t> GetU64(std::string_view key) const;
  absl::StatusOr<int8_t> GetI8(std::string_view key) const;
  absl::StatusOr<int16_t> GetI16(std::string_view key) const;
  absl::StatusOr<int32_t> GetI32(std::string_view key) const;
  absl::StatusOr<int64_t> GetI64(std::string_view key) const;
  // Returns an f32 value (only f32 converts).
  absl::StatusOr<float> GetF32(std::string_view key) const;
  // Returns an f64 or f32 value.
  absl::StatusOr<double> GetF64(std::string_view key) const;
  absl::StatusOr<bool> GetBool(std::string_view key) const;
  absl::StatusOr<std::string_view> GetString(std::string_view key) const;

  // Returns the elements of an array of strings, as views into the file.
  absl::StatusOr<absl::Span<const std::string_view>> GetStringArray(std::string_view key) const;
  // Return the elements of an integer array, each converted when it fits.
  absl::StatusOr<std::vector<int32_t>> GetArrayI32(std::string_view key) const;
  absl::StatusOr<std::vector<uint32_t>> GetArrayU32(std::string_view key) const;
  absl::StatusOr<std::vector<int64_t>> GetArrayI64(std::string_view key) const;
  // Returns the elements of an f32 array.
  absl::StatusOr<std::vector<float>> GetArrayF32(std::string_view key) const;

  // Returns the mapping of the file, or null for a file opened from memory.
  const MappedFile* mapping() const { return mapping_.get(); }
  // Returns the whole mapped file (empty for a file opened from memory).
  absl::Span<const uint8_t> mapped_bytes() const {
    return mapping_ ? mapping_->bytes() : absl::Span<const uint8_t>();
  }

 private:
  friend absl::StatusOr<GgufFile> OpenGguf(const std::string& path);
  friend absl::StatusOr<GgufFile> OpenGgufFromMemory(absl::Span<const uint8_t> bytes);

  GgufFile(std::unique_ptr<MappedFile> mapping, GgufContents contents)
      : mapping_(std::move(mapping)), contents_(std::move(contents)) {}

  // Returns the value of `key` if it has type `type`.
  absl::StatusOr<const GgufValue*> FindTyped(std::string_view key, GgufValueType type) const;
  // Returns the value of `key` if it is an array of `elem_type` (any integer if
  // `elem_type` is an integer type).
  absl::StatusOr<const GgufValue*> FindArray(std::string_view key, GgufValueType elem_type) const;
  template <typename T>
  absl::StatusOr<T> GetInteger(std::string_view key) const;
  template <typename T>
  absl::StatusOr<std::vector<T>> GetIntegerArray(std::string_view key) const;

  std::unique_ptr<MappedFile> mapping_;  // null for files opened from memory
  GgufContents contents_;
};

// Maps `path` read-only and parses it. Errors from parsing are prefixed with the path.
absl::StatusOr<GgufFile> OpenGguf(const std::string& path);

// Parses a GGUF image held in memory, without copying it.
// Precondition: `bytes` outlives the returned file.
absl::StatusOr<GgufFile> OpenGgufFromMemory(absl::Span<const uint8_t> bytes);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_GGUF_FILE_H_

// Writes GGUF v3 files: metadata of every type and tensors streamed from producer callbacks.
#ifndef CPUBRRR_RUNTIME_GGUF_GGUF_WRITER_H_
#define CPUBRRR_RUNTIME_GGUF_GGUF_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "quant/ggml_type.h"
#include "runtime/gguf/gguf_value.h"

namespace cpubrrr {

// Returns the GGUF value type of C++ element type T (numbers and bool only).
template <typename T>
constexpr GgufValueType GgufTypeOf() {
  using V = GgufValueType;
  if constexpr (std::is_same_v<T, uint8_t>) {
    return V::kU8;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return V::kI8;
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return V::kU16;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return V::kI16;
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return V::kU32;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return V::kI32;
  } else if constexpr (std::is_same_v<T, float>) {
    return V::kF32;
  } else if constexpr (std::is_same_v<T, bool>) {
    return V::kBool;
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return V::kU64;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return V::kI64;
  } else if constexpr (std::is_same_v<T, double>) {
    return V::kF64;
  } else {
    static_assert(sizeof(T) == 0, "not a GGUF element type");
  }
}

// An encoded array value: set it as metadata or nest it in another array.
class GgufArray {
 public:
  // Returns an array of numbers or bools.
  template <typename T>
  static GgufArray Of(const std::vector<T>& values) {
    std::string bytes(values.size() * sizeof(T), '\0');
    for (size_t i = 0; i < values.size(); ++i) {
      const T x = values[i];
      std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
    }
    return GgufArray(GgufTypeOf<T>(), values.size(), std::move(bytes));
  }
  // Returns an array of strings.
  static GgufArray OfStrings(absl::Span<const std::string> values);
  // Returns an array whose elements are arrays (each may have its own element type).
  static GgufArray OfArrays(absl::Span<const GgufArray> values);

  GgufValueType elem_type() const { return elem_type_; }
  uint64_t count() const { return count_; }
  // Returns the encoded elements (without the element type and count).
  const std::string& elements() const { return elements_; }

 private:
  GgufArray(GgufValueType elem_type, uint64_t count, std::string elements)
      : elem_type_(elem_type), count_(count), elements_(std::move(elements)) {}

  GgufValueType elem_type_;
  uint64_t count_;
  std::string elements_;
};

// Fills dst[0, bytes) with one tensor's data at write time; an error aborts the write.
using GgufTensorProducer = std::function<absl::Status(uint8_t* dst, size_t bytes)>;

// Collects metadata and tensor descriptions, then writes a GGUF v3 file in one pass:
// keys and tensors in insertion order, tensor data at increasing offsets, each padded
// to the alignment. The alignment is 32 unless `general.alignment` is set (u32, a
// power of two). Tensor bytes come from the producers during the write, one tensor at
// a time, so memory use is one buffer of the largest tensor.
class GgufWriter {
 public:
  // Set a metadata value; setting an existing key replaces its value in place.
  void SetU8(std::string_view key, uint8_t v);
  void SetI8(std::string_view key, int8_t v);
  void SetU16(std::string_view key, uint16_t v);
  void SetI16(std::string_view key, int16_t v);
  void SetU32(std::string_view key, uint32_t v);
  void SetI32(std::string_view key, int32_t v);
  void SetF32(std::string_view key, float v);
  void SetBool(std::string_view key, bool v);
  void SetU64(std::string_view key, uint64_t v);
  void SetI64(std::string_view key, int64_t v);
  void SetF64(std::string_view key, double v);
  void SetString(std::string_view key, std::string_view v);
  void SetArray(std::string_view key, const GgufArray& v);
  void SetStringArray(std::string_view key, absl::Span<const std::string> v) {
    SetArray(key, GgufArray::OfStrings(v));
  }
  template <typename T>
  void SetArray(std::string_view key, const std::vector<T>& v) {
    SetArray(key, GgufArray::Of(v));
  }

  // Adds a tensor of `dims` elements (ne[0] first, 1 to 4 positive entries) whose
  // data is `bytes` long, produced by `producer` during the write. Fails when the
  // name is empty, longer than 63 bytes (llama.cpp's limit) or already used, the type
  // is unsupported, ne[0] is not a multiple of the block size, or `bytes` differs
  // from the size the type and dims imply.
  absl::Status AddTensor(std::string_view name, GgmlType type, std::vector<int64_t> dims,
                         uint64_t bytes, GgufTensorProducer producer);

  // Writes the file to `path + ".tmp"`, then renames it to `path`. On any error
  // (metadata, producer or I/O, e.g. a full disk) the temporary file is removed.
  absl::Status WriteFile(const std::string& path) const;

  // Returns the whole file as bytes (for tests and small files).
  absl::StatusOr<std::string> WriteToString() const;

 private:
  // Receives the file's bytes in order; an error stops the write.
  using Sink = std::function<absl::Status(const uint8_t* data, size_t n)>;
  struct Kv {
    std::string key;
    GgufValueType type;
    std::string payload;  // encoded value, without key and type
  };
  struct Tensor {
    std::string name;
    GgmlType type;
    std::vector<int64_t> dims;
    uint64_t bytes;
    GgufTensorProducer producer;
  };

  // Stores an encoded value under `key`.
  void Set(std::string_view key, GgufValueType type, std::string payload);
  // Returns the alignment the file will use, or an error for a bad general.alignment.
  absl::StatusOr<uint32_t> Alignment() const;
  // Sends `n` zero bytes (alignment padding) to `sink`.
  static absl::Status WriteZeros(const Sink& sink, uint64_t n);
  // Streams the whole file into `sink`.
  absl::Status WriteTo(const Sink& sink) const;

  std::vector<Kv> kvs_;
  absl::flat_hash_map<std::string, size_t> kv_index_;
  std::vector<Tensor> tensors_;
  absl::flat_hash_map<std::string, size_t> tensor_index_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_GGUF_WRITER_H_

// GGUF v3 writing: encoding of metadata and tensor infos, streaming of tensor data.
#include "runtime/gguf/gguf_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "runtime/gguf/errno_status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

constexpr uint32_t kVersion = 3;
constexpr uint32_t kDefaultAlignment = 32;
constexpr size_t kMaxTensorName = 63;  // llama.cpp keeps names in char[64]
constexpr char kAlignmentKey[] = "general.alignment";

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

void PutString(std::string* out, std::string_view s) {
  Put<uint64_t>(out, s.size());
  out->append(s);
}

template <typename T>
std::string Encode(T v) {
  std::string out;
  Put(&out, v);
  return out;
}

// Returns the bytes of an array value: element type, count, elements.
std::string EncodeArray(const GgufArray& a) {
  std::string out;
  Put<uint32_t>(&out, static_cast<uint32_t>(a.elem_type()));
  Put<uint64_t>(&out, a.count());
  out.append(a.elements());
  return out;
}

// Writes all of data[0, n) to `fd`, retrying short and interrupted writes.
absl::Status WriteAll(int fd, std::string_view path, const uint8_t* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("cannot write", path, errno);
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return absl::OkStatus();
}

}  // namespace

GgufArray GgufArray::OfStrings(absl::Span<const std::string> values) {
  std::string bytes;
  for (const std::string& s : values) PutString(&bytes, s);
  return GgufArray(GgufValueType::kString, values.size(), std::move(bytes));
}

GgufArray GgufArray::OfArrays(absl::Span<const GgufArray> values) {
  std::string bytes;
  for (const GgufArray& a : values) bytes.append(EncodeArray(a));
  return GgufArray(GgufValueType::kArray, values.size(), std::move(bytes));
}

void GgufWriter::Set(std::string_view key, GgufValueType type, std::string payload) {
  const auto [it, inserted] = kv_index_.emplace(std::string(key), kvs_.size());
  if (inserted) {
    kvs_.push_back(Kv{std::string(key), type, std::move(payload)});
  } else {
    kvs_[it->second].type = type;
    kvs_[it->second].payload = std::move(payload);
  }
}

void GgufWriter::SetU8(std::string_view key, uint8_t v) { Set(key, GgufValueType::kU8, Encode(v)); }
void GgufWriter::SetI8(std::string_view key, int8_t v) { Set(key, GgufValueType::kI8, Encode(v)); }
void GgufWriter::SetU16(std::string_view key, uint16_t v) {
  Set(key, GgufValueType::kU16, Encode(v));
}
void GgufWriter::SetI16(std::string_view key, int16_t v) {
  Set(key, GgufValueType::kI16, Encode(v));
}
void GgufWriter::SetU32(std::string_view key, uint32_t v) {
  Set(key, GgufValueType::kU32, Encode(v));
}
void GgufWriter::SetI32(std::string_view key, int32_t v) {
  Set(key, GgufValueType::kI32, Encode(v));
}
void GgufWriter::SetF32(std::string_view key, float v) { Set(key, GgufValueType::kF32, Encode(v)); }
void GgufWriter::SetBool(std::string_view key, bool v) {
  Set(key, GgufValueType::kBool, Encode<uint8_t>(v ? 1 : 0));
}
void GgufWriter::SetU64(std::string_view key, uint64_t v) {
  Set(key, GgufValueType::kU64, Encode(v));
}
void GgufWriter::SetI64(std::string_view key, int64_t v) {
  Set(key, GgufValueType::kI64, Encode(v));
}
void GgufWriter::SetF64(std::string_view key, double v) {
  Set(key, GgufValueType::kF64, Encode(v));
}

void GgufWriter::SetString(std::string_view key, std::string_view v) {
  std::string payload;
  PutString(&payload, v);
  Set(key, GgufValueType::kString, std::move(payload));
}

void GgufWriter::SetArray(std::string_view key, const GgufArray& v) {
  Set(key, GgufValueType::kArray, EncodeArray(v));
}

absl::Status GgufWriter::AddTensor(std::string_view name, GgmlType type, std::vector<int64_t> dims,
                                   uint64_t bytes, GgufTensorProducer producer) {
  const std::string who = Cat("tensor '", name, "'");
  if (name.empty()) return absl::InvalidArgumentError("tensor name is empty");
  if (name.size() > kMaxTensorName) {
    return absl::InvalidArgumentError(Cat(who, " name is longer than ", kMaxTensorName, " bytes"));
  }
  if (tensor_index_.contains(std::string(name))) {
    return absl::AlreadyExistsError(Cat(who, " was already added"));
  }
  if (dims.empty() || dims.size() > 4) {
    return absl::InvalidArgumentError(
        Cat(who, " has ", dims.size(), " dimensions, expected 1 to 4"));
  }
  uint64_t elements = 1;
  for (int64_t d : dims) {
    if (d <= 0) return absl::InvalidArgumentError(Cat(who, " has dimension ", d));
    if (static_cast<uint64_t>(d) > static_cast<uint64_t>(INT64_MAX) / elements) {
      return absl::InvalidArgumentError(Cat(who, " element count overflows"));
    }
    elements *= static_cast<uint64_t>(d);
  }
  const TypeGeometry g = GeometryOf(type);
  if (g.block_elems == 0) {
    return absl::InvalidArgumentError(
        Cat(who, " has unsupported type id ", static_cast<uint32_t>(type)));
  }
  if (dims[0] % g.block_elems != 0) {
    return absl::InvalidArgumentError(Cat(who, " row of ", dims[0],
                                          " elements is not a multiple of the ", TypeName(type),
                                          " block size ", g.block_elems));
  }
  const uint64_t blocks = elements / g.block_elems;
  if (blocks > SIZE_MAX / g.block_bytes || blocks * g.block_bytes != bytes) {
    return absl::InvalidArgumentError(Cat(who, " is given ", bytes, " bytes but its ",
                                          TypeName(type), " shape needs ", blocks, " blocks of ",
                                          g.block_bytes));
  }
  tensor_index_.emplace(std::string(name), tensors_.size());
  tensors_.push_back(Tensor{std::string(name), type, std::move(dims), bytes, std::move(producer)});
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GgufWriter::Alignment() const {
  const auto it = kv_index_.find(kAlignmentKey);
  if (it == kv_index_.end()) return kDefaultAlignment;
  const Kv& kv = kvs_[it->second];
  uint32_t a = 0;
  if (kv.type == GgufValueType::kU32) std::memcpy(&a, kv.payload.data(), sizeof(a));
  if (a == 0 || (a & (a - 1)) != 0) {
    return absl::InvalidArgumentError(Cat(kAlignmentKey, " must be a u32 power of two"));
  }
  return a;
}

absl::Status GgufWriter::WriteZeros(const Sink& sink, uint64_t n) {
  static constexpr uint8_t kZeros[4096] = {};
  while (n > 0) {
    const size_t chunk = n < sizeof(kZeros) ? n : sizeof(kZeros);
    absl::Status s = sink(kZeros, chunk);
    if (!s.ok()) return s;
    n -= chunk;
  }
  return absl::OkStatus();
}

absl::Status GgufWriter::WriteTo(const Sink& sink) const {
  absl::StatusOr<uint32_t> alignment = Alignment();
  if (!alignment.ok()) return alignment.status();
  const uint64_t align = *alignment;
  auto padded = [align](uint64_t n) { return (n + align - 1) / align * align; };

  std::string head;
  head.append("GGUF");
  Put<uint32_t>(&head, kVersion);
  Put<uint64_t>(&head, tensors_.size());
  Put<uint64_t>(&head, kvs_.size());
  for (size_t i = 0; i < kvs_.size(); ++i) {
    if (kvs_[i].key.empty()) {
      return absl::InvalidArgumentError(Cat("metadata key ", i, " is empty"));
    }
    PutString(&head, kvs_[i].key);
    Put<uint32_t>(&head, static_cast<uint32_t>(kvs_[i].type));
    head.append(kvs_[i].payload);
  }
  uint64_t offset = 0;
  for (const Tensor& t : tensors_) {
    PutString(&head, t.name);
    Put<uint32_t>(&head, static_cast<uint32_t>(t.dims.size()));
    for (int64_t d : t.dims) Put<int64_t>(&head, d);
    Put<uint32_t>(&head, static_cast<uint32_t>(t.type));
    Put<uint64_t>(&head, offset);
    offset = padded(offset + t.bytes);
  }
  if (!tensors_.empty()) head.resize(padded(head.size()), '\0');
  absl::Status s = sink(reinterpret_cast<const uint8_t*>(head.data()), head.size());
  if (!s.ok()) return s;

  std::vector<uint8_t> buffer;
  for (const Tensor& t : tensors_) {
    buffer.resize(t.bytes);
    s = t.producer(buffer.data(), buffer.size());
    if (!s.ok()) {
      return absl::Status(s.code(), Cat("producer of tensor '", t.name, "' failed: ", s.message()));
    }
    s = sink(buffer.data(), buffer.size());
    if (!s.ok()) return s;
    s = WriteZeros(sink, padded(t.bytes) - t.bytes);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> GgufWriter::WriteToString() const {
  std::string out;
  absl::Status s = WriteTo([&out](const uint8_t* data, size_t n) {
    out.append(reinterpret_cast<const char*>(data), n);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::Status GgufWriter::WriteFile(const std::string& path) const {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", tmp, errno);
  absl::Status s =
      WriteTo([fd, &tmp](const uint8_t* data, size_t n) { return WriteAll(fd, tmp, data, n); });
  if (s.ok() && ::fsync(fd) != 0) s = ErrnoError("cannot sync", tmp, errno);
  if (::close(fd) != 0 && s.ok()) s = ErrnoError("cannot close", tmp, errno);
  if (s.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    s = ErrnoError(Cat("cannot rename ", tmp, " to"), path, errno);
  }
  if (!s.ok()) ::unlink(tmp.c_str());
  return s;
}

}  // namespace cpubrrr

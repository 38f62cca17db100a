// GGUF v2/v3 parsing: header, metadata, tensor infos and data-section checks.
#include "runtime/gguf/gguf_parser.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "runtime/gguf/byte_cursor.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

// Smallest encodings, used to reject counts that the remaining bytes cannot hold
// before any per-item work: key (u64 length + 1 byte) + u32 type + 1-byte value;
// tensor info: name (u64 length + 1 byte) + u32 n_dims + one i64 dim + u32 type +
// u64 offset.
constexpr uint64_t kMinKvBytes = 8 + 1 + 4 + 1;
constexpr uint64_t kMinTensorInfoBytes = 8 + 1 + 4 + 8 + 4 + 8;
// An array value is at least its u32 element type and u64 count.
constexpr uint64_t kArrayHeaderBytes = 4 + 8;
// The format does not bound array nesting; recursion does need a bound.
constexpr int kMaxArrayDepth = 8;
constexpr uint32_t kMaxDims = 4;
constexpr char kAlignmentKey[] = "general.alignment";

// Returns the smallest encoded size of one element of `type`.
uint64_t MinEncodedSize(GgufValueType type) {
  if (type == GgufValueType::kString) return 8;
  if (type == GgufValueType::kArray) return kArrayHeaderBytes;
  return GgufFixedSize(type);
}

// Returns the first byte in [p, p + n) that is neither 0 nor 1, or -1.
int64_t FindBadBool(const uint8_t* p, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    if (p[i] > 1) return static_cast<int64_t>(i);
  }
  return -1;
}

// Reads one file front to back; every method returns an error naming the offset.
class Parser {
 public:
  explicit Parser(absl::Span<const uint8_t> bytes) : bytes_(bytes), cur_(bytes) {}

  absl::StatusOr<GgufContents> Run() {
    absl::Status s = ParseHeader();
    if (s.ok()) s = ParseKvs();
    if (s.ok()) s = ParseAlignment();
    if (s.ok()) s = ParseTensorInfos();
    if (s.ok()) s = PlaceTensorData();
    if (!s.ok()) return s;
    return std::move(out_);
  }

 private:
  absl::Status ParseHeader() {
    absl::StatusOr<const uint8_t*> magic = cur_.Take(4, "magic");
    if (!magic.ok()) return magic.status();
    if (std::memcmp(*magic, "GGUF", 4) != 0) {
      std::string shown;
      for (int i = 0; i < 4; ++i) absl::StrAppend(&shown, absl::Hex((*magic)[i], absl::kZeroPad2));
      return MalformedAt(0, Cat("bad magic 0x", shown, ", expected \"GGUF\""));
    }
    absl::StatusOr<uint32_t> version = cur_.ReadU32("version");
    if (!version.ok()) return version.status();
    if (*version == 1) {
      return MalformedAt(4,
                         "GGUF version 1 is not supported (only versions 2 and 3); "
                         "re-convert the model with a current llama.cpp");
    }
    if (*version != 2 && *version != 3) {
      std::string hint;
      if ((*version & 0xFFFF) == 0) hint = "; the file may be big-endian";
      return MalformedAt(
          4, Cat("unsupported GGUF version ", *version, " (only versions 2 and 3)", hint));
    }
    out_.version = *version;
    absl::StatusOr<uint64_t> n_tensors = cur_.ReadU64("tensor count");
    if (!n_tensors.ok()) return n_tensors.status();
    absl::StatusOr<uint64_t> n_kv = cur_.ReadU64("key-value count");
    if (!n_kv.ok()) return n_kv.status();
    const uint64_t left = cur_.remaining();
    if (*n_tensors > left / kMinTensorInfoBytes) {
      return MalformedAt(8, Cat("tensor count ", *n_tensors, " cannot fit in the ", left,
                                " bytes after the header"));
    }
    if (*n_kv > left / kMinKvBytes) {
      return MalformedAt(16, Cat("key-value count ", *n_kv, " cannot fit in the ", left,
                                 " bytes after the header"));
    }
    if (*n_tensors * kMinTensorInfoBytes + *n_kv * kMinKvBytes > left) {
      return MalformedAt(
          16, Cat(*n_tensors, " tensors and ", *n_kv, " key-value pairs cannot fit in the ", left,
                  " bytes after the header"));
    }
    n_tensors_ = *n_tensors;
    n_kv_ = *n_kv;
    return absl::OkStatus();
  }

  absl::Status ParseKvs() {
    key_offsets_.clear();
    for (uint64_t i = 0; i < n_kv_; ++i) {
      const uint64_t at = cur_.offset();
      absl::StatusOr<std::string_view> key = cur_.ReadString(Cat("key ", i));
      if (!key.ok()) return key.status();
      if (key->empty()) return MalformedAt(at, Cat("key ", i, " is empty"));
      const auto [it, inserted] = out_.key_index.emplace(*key, out_.kvs.size());
      if (!inserted) {
        return MalformedAt(at,
                           Cat("duplicate key '", *key, "' (keys ", it->second, " and ", i, ")"));
      }
      const uint64_t type_at = cur_.offset();
      absl::StatusOr<uint32_t> type = cur_.ReadU32("value type");
      if (!type.ok()) return type.status();
      if (!IsValidGgufValueType(*type)) {
        return MalformedAt(type_at, Cat("key '", *key, "' has unknown value type ", *type));
      }
      GgufKv kv;
      kv.key = *key;
      absl::Status s = ParseValue(*key, static_cast<GgufValueType>(*type), 0, &kv.value);
      if (!s.ok()) return s;
      out_.kvs.push_back(std::move(kv));
      key_offsets_.push_back(at);
    }
    return absl::OkStatus();
  }

  // Parses a value of a known-valid `type` at the cursor into `*v`.
  absl::Status ParseValue(std::string_view key, GgufValueType type, int depth, GgufValue* v) {
    v->type = type;
    const uint64_t at = cur_.offset();
    if (type == GgufValueType::kString) {
      absl::StatusOr<std::string_view> s = cur_.ReadString(Cat("string value of '", key, "'"));
      if (!s.ok()) return s.status();
      v->str = *s;
      return absl::OkStatus();
    }
    if (type == GgufValueType::kArray) return ParseArray(key, depth, v);
    absl::StatusOr<const uint8_t*> p = cur_.Take(GgufFixedSize(type), Cat("value of '", key, "'"));
    if (!p.ok()) return p.status();
    if (type == GgufValueType::kBool && **p > 1) {
      return MalformedAt(
          at, Cat("bool value of '", key, "' is ", static_cast<int>(**p), ", neither 0 nor 1"));
    }
    v->raw = *p;
    return absl::OkStatus();
  }

  absl::Status ParseArray(std::string_view key, int depth, GgufValue* v) {
    const uint64_t at = cur_.offset();
    if (depth >= kMaxArrayDepth) {
      return MalformedAt(at,
                         Cat("arrays in '", key, "' nest deeper than ", kMaxArrayDepth, " levels"));
    }
    absl::StatusOr<uint32_t> elem = cur_.ReadU32("array element type");
    if (!elem.ok()) return elem.status();
    if (!IsValidGgufValueType(*elem)) {
      return MalformedAt(at, Cat("array '", key, "' has unknown element type ", *elem));
    }
    const uint64_t count_at = cur_.offset();
    absl::StatusOr<uint64_t> count = cur_.ReadU64("array count");
    if (!count.ok()) return count.status();
    v->elem_type = static_cast<GgufValueType>(*elem);
    v->count = *count;
    const uint64_t min_size = MinEncodedSize(v->elem_type);
    if (*count > cur_.remaining() / min_size) {
      return MalformedAt(
          count_at,
          Cat("array '", key, "' of ", *count, " ", GgufValueTypeName(v->elem_type),
              " elements cannot fit in the ", cur_.remaining(), " bytes left in the file"));
    }
    if (v->elem_type == GgufValueType::kString) {
      for (uint64_t i = 0; i < *count; ++i) {
        absl::StatusOr<std::string_view> s =
            cur_.ReadString(Cat("string ", i, " of array '", key, "'"));
        if (!s.ok()) return s.status();
        v->strings.push_back(*s);
      }
      return absl::OkStatus();
    }
    if (v->elem_type == GgufValueType::kArray) {
      for (uint64_t i = 0; i < *count; ++i) {
        GgufValue item;
        item.type = GgufValueType::kArray;
        absl::Status s = ParseArray(key, depth + 1, &item);
        if (!s.ok()) return s;
        v->items.push_back(std::move(item));
      }
      return absl::OkStatus();
    }
    const uint64_t data_at = cur_.offset();
    absl::StatusOr<const uint8_t*> p = cur_.Take(*count * min_size, "array elements");
    if (!p.ok()) return p.status();
    if (v->elem_type == GgufValueType::kBool) {
      const int64_t bad = FindBadBool(*p, *count);
      if (bad >= 0) {
        return MalformedAt(data_at + bad, Cat("bool element ", bad, " of array '", key, "' is ",
                                              static_cast<int>((*p)[bad]), ", neither 0 nor 1"));
      }
    }
    v->raw = *p;
    return absl::OkStatus();
  }

  absl::Status ParseAlignment() {
    const auto it = out_.key_index.find(kAlignmentKey);
    if (it == out_.key_index.end()) return absl::OkStatus();
    const GgufValue& v = out_.kvs[it->second].value;
    const uint64_t at = key_offsets_[it->second];
    if (v.type != GgufValueType::kU32) {
      return MalformedAt(
          at, Cat(kAlignmentKey, " has type ", GgufValueTypeName(v.type), ", expected u32"));
    }
    const uint64_t a = ScalarBits(v);
    if (a == 0 || (a & (a - 1)) != 0) {
      return MalformedAt(at, Cat(kAlignmentKey, " ", a, " is not a power of two"));
    }
    out_.alignment = static_cast<uint32_t>(a);
    return absl::OkStatus();
  }

  absl::Status ParseTensorInfos() {
    const uint64_t left = cur_.remaining();
    if (n_tensors_ > left / kMinTensorInfoBytes) {
      return MalformedAt(8, Cat("tensor count ", n_tensors_, " cannot fit in the ", left,
                                " bytes after the metadata"));
    }
    for (uint64_t i = 0; i < n_tensors_; ++i) {
      GgufTensor t;
      absl::Status s = ParseTensorInfo(i, &t);
      if (!s.ok()) return s;
      out_.tensors.push_back(t);
    }
    return absl::OkStatus();
  }

  absl::Status ParseTensorInfo(uint64_t i, GgufTensor* t) {
    const uint64_t at = cur_.offset();
    absl::StatusOr<std::string_view> name = cur_.ReadString(Cat("tensor ", i, " name"));
    if (!name.ok()) return name.status();
    if (name->empty()) return MalformedAt(at, Cat("tensor ", i, " has an empty name"));
    const auto [it, inserted] = out_.tensor_index.emplace(*name, out_.tensors.size());
    if (!inserted) {
      return MalformedAt(
          at, Cat("duplicate tensor name '", *name, "' (tensors ", it->second, " and ", i, ")"));
    }
    t->name = *name;
    const uint64_t dims_at = cur_.offset();
    absl::StatusOr<uint32_t> n_dims = cur_.ReadU32("tensor dimension count");
    if (!n_dims.ok()) return n_dims.status();
    if (*n_dims < 1 || *n_dims > kMaxDims) {
      return MalformedAt(dims_at, Cat("tensor '", *name, "' has ", *n_dims,
                                      " dimensions, expected 1 to ", kMaxDims));
    }
    t->n_dims = *n_dims;
    uint64_t elements = 1;
    for (uint32_t d = 0; d < *n_dims; ++d) {
      const uint64_t dim_at = cur_.offset();
      absl::StatusOr<int64_t> ne = cur_.ReadI64("tensor dimension");
      if (!ne.ok()) return ne.status();
      if (*ne <= 0) {
        return MalformedAt(
            dim_at, Cat("tensor '", *name, "' dimension ", d, " is ", *ne, ", must be positive"));
      }
      if (static_cast<uint64_t>(*ne) > static_cast<uint64_t>(INT64_MAX) / elements) {
        return MalformedAt(
            dim_at, Cat("tensor '", *name, "' element count overflows 64 bits at dimension ", d));
      }
      elements *= static_cast<uint64_t>(*ne);
      t->dims[d] = *ne;
    }
    const uint64_t type_at = cur_.offset();
    absl::StatusOr<uint32_t> type = cur_.ReadU32("tensor type");
    if (!type.ok()) return type.status();
    t->type = static_cast<GgmlType>(*type);
    const TypeGeometry g = GeometryOf(t->type);
    if (g.block_elems == 0) {
      return MalformedAt(type_at,
                         Cat("tensor '", *name, "' has unknown or unsupported type id ", *type));
    }
    if (t->dims[0] % g.block_elems != 0) {
      return MalformedAt(type_at, Cat("tensor '", *name, "' row of ", t->dims[0],
                                      " elements is not a multiple of the ", TypeName(t->type),
                                      " block size ", g.block_elems));
    }
    const uint64_t blocks = elements / g.block_elems;
    if (blocks > SIZE_MAX / g.block_bytes) {
      return MalformedAt(type_at, Cat("tensor '", *name, "' byte size overflows"));
    }
    t->bytes = blocks * g.block_bytes;
    const uint64_t offset_at = cur_.offset();
    absl::StatusOr<uint64_t> offset = cur_.ReadU64("tensor data offset");
    if (!offset.ok()) return offset.status();
    if (*offset % out_.alignment != 0) {
      return MalformedAt(offset_at, Cat("tensor '", *name, "' data offset ", *offset,
                                        " is not a multiple of the alignment ", out_.alignment));
    }
    t->offset = *offset;
    info_offsets_.push_back(offset_at);
    return absl::OkStatus();
  }

  absl::Status PlaceTensorData() {
    const uint64_t end_of_infos = cur_.offset();
    if (out_.tensors.empty()) {
      out_.data_offset = end_of_infos;
      return absl::OkStatus();
    }
    const uint64_t pad = (out_.alignment - end_of_infos % out_.alignment) % out_.alignment;
    const uint64_t start = end_of_infos + pad;
    if (start > bytes_.size()) {
      return MalformedAt(end_of_infos,
                         Cat("data section starts at ", start, ", past the end of the file (",
                             bytes_.size(), " bytes)"));
    }
    out_.data_offset = start;
    const uint64_t room = bytes_.size() - start;
    for (size_t i = 0; i < out_.tensors.size(); ++i) {
      GgufTensor& t = out_.tensors[i];
      if (t.offset > room || t.bytes > room - t.offset) {
        return MalformedAt(info_offsets_[i],
                           Cat("tensor '", t.name, "' data of ", t.bytes, " bytes at offset ",
                               t.offset, " runs past the end of the ", room, "-byte data section"));
      }
      t.data = bytes_.data() + start + t.offset;
    }
    return CheckNoOverlap();
  }

  absl::Status CheckNoOverlap() {
    std::vector<size_t> order(out_.tensors.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [this](size_t a, size_t b) {
      return out_.tensors[a].offset < out_.tensors[b].offset;
    });
    for (size_t k = 1; k < order.size(); ++k) {
      const GgufTensor& prev = out_.tensors[order[k - 1]];
      const GgufTensor& next = out_.tensors[order[k]];
      if (prev.offset + prev.bytes > next.offset) {
        return MalformedAt(
            info_offsets_[order[k]],
            Cat("tensor '", next.name, "' data at ", next.offset, " overlaps tensor '", prev.name,
                "' data [", prev.offset, ", ", prev.offset + prev.bytes, ")"));
      }
    }
    return absl::OkStatus();
  }

  absl::Span<const uint8_t> bytes_;
  ByteCursor cur_;
  uint64_t n_tensors_ = 0;
  uint64_t n_kv_ = 0;
  std::vector<uint64_t> key_offsets_;   // file offset of each key, for later errors
  std::vector<uint64_t> info_offsets_;  // file offset of each tensor's offset field
  GgufContents out_;
};

}  // namespace

uint64_t GgufTensor::Elements() const {
  uint64_t n = 1;
  for (uint32_t d = 0; d < n_dims; ++d) n *= static_cast<uint64_t>(dims[d]);
  return n;
}

absl::StatusOr<GgufContents> ParseGguf(absl::Span<const uint8_t> bytes) {
  return Parser(bytes).Run();
}

}  // namespace cpubrrr

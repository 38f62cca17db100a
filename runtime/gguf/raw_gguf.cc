// Field-by-field GGUF encoding for tests, valid or deliberately not.
#include "runtime/gguf/raw_gguf.h"

namespace cpubrrr {

std::string RawInt(uint64_t v, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}

std::string RawString(std::string_view s) { return RawInt(s.size(), 8) + std::string(s); }

std::string RawU32Value(uint32_t v) { return RawInt(4, 4) + RawInt(v, 4); }

std::string RawStringValue(std::string_view s) { return RawInt(8, 4) + RawString(s); }

std::string RawArrayValue(uint32_t elem_type, uint64_t count, std::string_view elements) {
  return RawInt(9, 4) + RawInt(elem_type, 4) + RawInt(count, 8) + std::string(elements);
}

std::string RawGguf::Encode(RawOffsets* offsets) const {
  RawOffsets o;
  std::string out = magic;
  out += RawInt(version, 4);
  out += RawInt(n_tensors.value_or(tensors.size()), 8);
  out += RawInt(n_kv.value_or(kvs.size()), 8);
  for (const auto& [key, value] : kvs) {
    o.key.push_back(out.size());
    out += RawString(key);
    o.value.push_back(out.size());
    out += value;
  }
  for (const RawTensorInfo& t : tensors) {
    o.tensor.push_back(out.size());
    out += RawString(t.name);
    o.tensor_dims.push_back(out.size());
    out += RawInt(t.n_dims.value_or(t.dims.size()), 4);
    for (int64_t d : t.dims) out += RawInt(static_cast<uint64_t>(d), 8);
    o.tensor_type.push_back(out.size());
    out += RawInt(t.type, 4);
    o.tensor_offset.push_back(out.size());
    out += RawInt(t.offset, 8);
  }
  if (!tensors.empty()) out.resize((out.size() + pad_to - 1) / pad_to * pad_to, '\0');
  o.data = out.size();
  out += data;
  if (offsets != nullptr) *offsets = o;
  return out;
}

RawGguf ValidRawGguf() {
  RawGguf g;
  g.kvs.push_back({"general.architecture", RawStringValue("test")});
  g.kvs.push_back({"test.block_count", RawU32Value(2)});
  g.kvs.push_back({"test.eps", RawInt(6, 4) + RawInt(0x3f800000, 4)});  // f32 1.0
  g.kvs.push_back({"test.flag", RawInt(7, 4) + RawInt(1, 1)});
  g.kvs.push_back({"test.tokens", RawArrayValue(8, 2, RawString("a") + RawString("bc"))});
  g.kvs.push_back({"test.ids", RawArrayValue(5, 3, RawInt(1, 4) + RawInt(2, 4) + RawInt(3, 4))});
  g.kvs.push_back({"test.bools", RawArrayValue(7, 2, RawInt(0, 1) + RawInt(1, 1))});
  g.kvs.push_back({"test.nested", RawArrayValue(9, 1, RawInt(0, 4) + RawInt(2, 8) + "xy")});
  g.tensors.push_back({"a", {8, 2}, 0, 0, std::nullopt});    // f32: 64 bytes
  g.tensors.push_back({"b", {32, 2}, 8, 64, std::nullopt});  // q8_0: 2 blocks of 34 bytes
  g.data = std::string(64 + 68, '\x11');
  return g;
}

}  // namespace cpubrrr

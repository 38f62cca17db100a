// Writes a handful of valid GGUF files (every value type, every supported tensor type)
// into a folder: the seeds of tests/fuzz/gguf_reader_fuzzer.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/gguf/gguf_writer.h"

namespace cpubrrr {
namespace {

// Returns a producer that fills tensor bytes with a counter pattern.
GgufTensorProducer Pattern() {
  return [](uint8_t* dst, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) dst[i] = static_cast<uint8_t>(i * 7);
    return absl::OkStatus();
  };
}

// Sets one key of every scalar type, a string, and arrays including nested ones.
void SetAllValueTypes(GgufWriter& w) {
  w.SetString("general.architecture", "seed");
  w.SetU8("s.u8", 200);
  w.SetI8("s.i8", -3);
  w.SetU16("s.u16", 60000);
  w.SetI16("s.i16", -300);
  w.SetU32("s.u32", 4000000000u);
  w.SetI32("s.i32", -70000);
  w.SetF32("s.f32", 1e-5f);
  w.SetBool("s.bool", true);
  w.SetU64("s.u64", 1ull << 40);
  w.SetI64("s.i64", -(1ll << 40));
  w.SetF64("s.f64", 150000.0);
  w.SetStringArray("s.tokens", std::vector<std::string>{"<s>", "hello", ""});
  w.SetArray("s.scores", std::vector<float>{0.5f, -1.0f});
  w.SetArray("s.types", std::vector<int32_t>{1, 2, 3});
  w.SetArray("s.flags", std::vector<bool>{true, false});
  w.SetArray("s.nested", GgufArray::OfArrays({GgufArray::Of(std::vector<uint16_t>{1, 2}),
                                              GgufArray::OfStrings({"x"})}));
}

absl::Status WriteSeeds(const std::string& dir) {
  {
    GgufWriter w;
    SetAllValueTypes(w);
    absl::Status s = w.WriteFile(dir + "/metadata_only.gguf");
    if (!s.ok()) return s;
  }
  {
    GgufWriter w;
    SetAllValueTypes(w);
    struct Spec {
      const char* name;
      GgmlType type;
      int64_t ne0;
      uint64_t bytes;
    };
    const Spec specs[] = {
        {"f32", GgmlType::kF32, 4, 32},      {"f16", GgmlType::kF16, 4, 16},
        {"bf16", GgmlType::kBF16, 4, 16},    {"q8_0", GgmlType::kQ8_0, 32, 68},
        {"mxfp4", GgmlType::kMXFP4, 32, 34}, {"q4_k", GgmlType::kQ4_K, 256, 288},
        {"q6_k", GgmlType::kQ6_K, 256, 420}, {"q8_k", GgmlType::kQ8_K, 256, 584},
    };
    for (const Spec& t : specs) {
      absl::Status s = w.AddTensor(t.name, t.type, {t.ne0, 2}, t.bytes, Pattern());
      if (!s.ok()) return s;
    }
    absl::Status s = w.WriteFile(dir + "/all_tensor_types.gguf");
    if (!s.ok()) return s;
  }
  {
    GgufWriter w;
    w.SetU32("general.alignment", 64);
    absl::Status s = w.AddTensor("blk.0.w", GgmlType::kF32, {2, 3, 1, 2}, 48, Pattern());
    if (s.ok()) s = w.AddTensor("blk.1.w", GgmlType::kF16, {8}, 16, Pattern());
    if (s.ok()) s = w.WriteFile(dir + "/aligned64.gguf");
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const absl::Status s = cpubrrr::WriteSeeds(argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

// Cross-check with llama.cpp's gguf library: files we write read identically there, and
// files its writer makes read identically here.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ggml.h"
#include "gguf.h"
#include "gtest/gtest.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/gguf/gguf_writer.h"

namespace cpubrrr {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

struct GgufFree {
  void operator()(gguf_context* c) const { gguf_free(c); }
};
using RefFile = std::unique_ptr<gguf_context, GgufFree>;

RefFile OpenWithLlama(const std::string& path) {
  gguf_init_params params = {/*no_alloc=*/true, /*ctx=*/nullptr};
  return RefFile(gguf_init_from_file(path.c_str(), params));
}

// Expects the array `v` (not nested) to equal llama.cpp's key `id`.
void ExpectSameArray(const GgufValue& v, const gguf_context* ref, int64_t id) {
  ASSERT_EQ(static_cast<uint32_t>(gguf_get_arr_type(ref, id)), static_cast<uint32_t>(v.elem_type));
  ASSERT_EQ(gguf_get_arr_n(ref, id), v.count);
  if (v.elem_type == GgufValueType::kString) {
    for (uint64_t i = 0; i < v.count; ++i) {
      EXPECT_EQ(v.strings[i], gguf_get_arr_str(ref, id, i));
    }
    return;
  }
  const size_t bytes = v.count * GgufFixedSize(v.elem_type);
  if (bytes > 0) {
    EXPECT_EQ(std::memcmp(gguf_get_arr_data(ref, id), v.raw, bytes), 0);
  }
}

// Expects both readers to see the same version, alignment, data offset, keys, value
// types and bytes, and tensor names, types, dims, offsets and sizes.
void ExpectSameAsLlama(const GgufFile& ours, const gguf_context* ref) {
  EXPECT_EQ(ours.version(), gguf_get_version(ref));
  EXPECT_EQ(ours.alignment(), gguf_get_alignment(ref));
  EXPECT_EQ(ours.data_offset(), gguf_get_data_offset(ref));
  ASSERT_EQ(static_cast<int64_t>(ours.kvs().size()), gguf_get_n_kv(ref));
  for (size_t i = 0; i < ours.kvs().size(); ++i) {
    const GgufKv& kv = ours.kvs()[i];
    SCOPED_TRACE(std::string(kv.key));
    EXPECT_EQ(kv.key, gguf_get_key(ref, i));
    ASSERT_EQ(static_cast<uint32_t>(gguf_get_kv_type(ref, i)),
              static_cast<uint32_t>(kv.value.type));
    if (kv.value.type == GgufValueType::kArray) {
      ExpectSameArray(kv.value, ref, i);
    } else if (kv.value.type == GgufValueType::kString) {
      EXPECT_EQ(kv.value.str, gguf_get_val_str(ref, i));
    } else {
      EXPECT_EQ(std::memcmp(gguf_get_val_data(ref, i), kv.value.raw, GgufFixedSize(kv.value.type)),
                0);
    }
  }
  ASSERT_EQ(static_cast<int64_t>(ours.tensors().size()), gguf_get_n_tensors(ref));
  for (size_t i = 0; i < ours.tensors().size(); ++i) {
    const GgufTensor& t = ours.tensors()[i];
    SCOPED_TRACE(std::string(t.name));
    EXPECT_EQ(t.name, gguf_get_tensor_name(ref, i));
    EXPECT_EQ(static_cast<int>(t.type), static_cast<int>(gguf_get_tensor_type(ref, i)));
    const int64_t* ne = gguf_get_tensor_ne(ref, i);
    for (int d = 0; d < 4; ++d) EXPECT_EQ(t.dims[d], ne[d]) << "dim " << d;
    EXPECT_EQ(t.offset, gguf_get_tensor_offset(ref, i));
    EXPECT_EQ(t.bytes, gguf_get_tensor_size(ref, i));
    EXPECT_EQ(gguf_find_tensor(ref, std::string(t.name).c_str()), static_cast<int64_t>(i));
  }
}

GgufTensorProducer Pattern(uint8_t seed) {
  return [seed](uint8_t* dst, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) dst[i] = static_cast<uint8_t>(i * 13 + seed);
    return absl::OkStatus();
  };
}

void AddEveryValueType(GgufWriter& w) {
  w.SetString("general.architecture", "gpt-oss");
  w.SetU8("k.u8", 7);
  w.SetI8("k.i8", -7);
  w.SetU16("k.u16", 700);
  w.SetI16("k.i16", -700);
  w.SetU32("k.u32", 70000);
  w.SetI32("k.i32", -70000);
  w.SetF32("k.f32", 1e-5f);
  w.SetBool("k.bool", true);
  w.SetU64("k.u64", uint64_t{1} << 50);
  w.SetI64("k.i64", -(int64_t{1} << 50));
  w.SetF64("k.f64", 150000.5);
  w.SetStringArray("k.strs", std::vector<std::string>{"<|start|>", "", "\xc4\xa0the"});
  w.SetArray("k.u8s", std::vector<uint8_t>{1, 2});
  w.SetArray("k.i8s", std::vector<int8_t>{-1});
  w.SetArray("k.u16s", std::vector<uint16_t>{3});
  w.SetArray("k.i16s", std::vector<int16_t>{-3, 4});
  w.SetArray("k.u32s", std::vector<uint32_t>{5});
  w.SetArray("k.i32s", std::vector<int32_t>{-5, 6, 7});
  w.SetArray("k.f32s", std::vector<float>{0.5f, -0.25f});
  w.SetArray("k.bools", std::vector<bool>{false, true});
  w.SetArray("k.u64s", std::vector<uint64_t>{9});
  w.SetArray("k.i64s", std::vector<int64_t>{-9});
  w.SetArray("k.f64s", std::vector<double>{2.5});
  w.SetArray("k.empty", std::vector<float>{});
}

void AddEveryTensorType(GgufWriter& w) {
  struct Spec {
    const char* name;
    GgmlType type;
    std::vector<int64_t> dims;
    uint64_t bytes;
  };
  const std::vector<Spec> specs = {
      {"token_embd.weight", GgmlType::kBF16, {16, 3}, 96},
      {"blk.0.attn_norm.weight", GgmlType::kF32, {5}, 20},
      {"blk.0.attn_q.weight", GgmlType::kF16, {8, 2}, 32},
      {"blk.0.attn_k.weight", GgmlType::kQ8_0, {64, 2}, 136},
      {"blk.0.ffn_gate_exps.weight", GgmlType::kMXFP4, {32, 4, 1, 2}, 136},
      {"blk.0.ffn_up_exps.weight", GgmlType::kQ4_K, {256, 1, 2}, 288},
      {"blk.0.ffn_down_exps.weight", GgmlType::kQ6_K, {256}, 210},
      {"output.weight", GgmlType::kQ8_K, {256, 2}, 584},
  };
  uint8_t seed = 0;
  for (const Spec& s : specs) {
    ASSERT_TRUE(w.AddTensor(s.name, s.type, s.dims, s.bytes, Pattern(seed++)).ok()) << s.name;
  }
}

TEST(GgufLlamaRef, LlamaReadsOurFilesIdentically) {
  for (uint32_t alignment : {32u, 64u}) {
    GgufWriter w;
    AddEveryValueType(w);
    if (alignment != 32) w.SetU32("general.alignment", alignment);
    AddEveryTensorType(w);
    const std::string path = TempPath("ours_" + std::to_string(alignment) + ".gguf");
    ASSERT_TRUE(w.WriteFile(path).ok());
    RefFile ref = OpenWithLlama(path);
    ASSERT_NE(ref, nullptr) << "llama.cpp rejected " << path;
    absl::StatusOr<GgufFile> ours = OpenGguf(path);
    ASSERT_TRUE(ours.ok()) << ours.status();
    ExpectSameAsLlama(*ours, ref.get());
  }
}

TEST(GgufLlamaRef, WeReadLlamaWrittenFilesIdentically) {
  gguf_context* g = gguf_init_empty();
  gguf_set_val_str(g, "general.architecture", "qwen3moe");
  gguf_set_val_u8(g, "k.u8", 200);
  gguf_set_val_i8(g, "k.i8", -100);
  gguf_set_val_u16(g, "k.u16", 60000);
  gguf_set_val_i16(g, "k.i16", -30000);
  gguf_set_val_u32(g, "k.u32", 4000000000u);
  gguf_set_val_i32(g, "k.i32", -2000000000);
  gguf_set_val_f32(g, "k.f32", 0.125f);
  gguf_set_val_bool(g, "k.bool", true);
  gguf_set_val_u64(g, "k.u64", ~uint64_t{0});
  gguf_set_val_i64(g, "k.i64", INT64_MIN);
  gguf_set_val_f64(g, "k.f64", -2.5);
  const float scores[] = {0.0f, -1.5f, 3.0f};
  gguf_set_arr_data(g, "k.scores", GGUF_TYPE_FLOAT32, scores, 3);
  const int32_t types[] = {1, 1, 3};
  gguf_set_arr_data(g, "k.types", GGUF_TYPE_INT32, types, 3);
  const uint64_t u64s[] = {1, uint64_t{1} << 63};
  gguf_set_arr_data(g, "k.u64s", GGUF_TYPE_UINT64, u64s, 2);
  const char* tokens[] = {"a", "", "\xe2\x96\x81hello"};
  gguf_set_arr_str(g, "k.tokens", tokens, 3);

  ggml_init_params params = {/*mem_size=*/1 << 20, /*mem_buffer=*/nullptr, /*no_alloc=*/false};
  ggml_context* ctx = ggml_init(params);
  ASSERT_NE(ctx, nullptr);
  struct Spec {
    const char* name;
    ggml_type type;
    int n_dims;
    int64_t ne[4];
  };
  const Spec specs[] = {
      {"f32", GGML_TYPE_F32, 2, {4, 3, 1, 1}},      {"q8_0", GGML_TYPE_Q8_0, 2, {64, 2, 1, 1}},
      {"mxfp4", GGML_TYPE_MXFP4, 3, {32, 2, 3, 1}}, {"q4_k", GGML_TYPE_Q4_K, 1, {256, 1, 1, 1}},
      {"bf16", GGML_TYPE_BF16, 4, {2, 2, 2, 2}},
  };
  std::vector<std::vector<uint8_t>> sources;
  for (const Spec& s : specs) {
    ggml_tensor* t = ggml_new_tensor(ctx, s.type, s.n_dims, s.ne);
    ggml_set_name(t, s.name);
    std::vector<uint8_t> bytes(ggml_nbytes(t));
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<uint8_t>(i * 31 + sources.size());
    std::memcpy(t->data, bytes.data(), bytes.size());
    sources.push_back(std::move(bytes));
    gguf_add_tensor(g, t);
  }
  const std::string path = TempPath("theirs.gguf");
  ASSERT_TRUE(gguf_write_to_file(g, path.c_str(), /*only_meta=*/false));
  gguf_free(g);
  ggml_free(ctx);

  absl::StatusOr<GgufFile> ours = OpenGguf(path);
  ASSERT_TRUE(ours.ok()) << ours.status();
  RefFile ref = OpenWithLlama(path);
  ASSERT_NE(ref, nullptr);
  ExpectSameAsLlama(*ours, ref.get());
  EXPECT_EQ(*ours->GetU64("k.u64"), ~uint64_t{0});
  EXPECT_EQ(*ours->GetArrayF32("k.scores"), (std::vector<float>{0.0f, -1.5f, 3.0f}));
  EXPECT_EQ((*ours->GetStringArray("k.tokens"))[2], "\xe2\x96\x81hello");
  for (size_t i = 0; i < sources.size(); ++i) {
    const GgufTensor& t = ours->tensors()[i];
    ASSERT_EQ(t.bytes, sources[i].size()) << t.name;
    EXPECT_EQ(std::memcmp(t.data, sources[i].data(), t.bytes), 0) << t.name;
  }
}

}  // namespace
}  // namespace cpubrrr

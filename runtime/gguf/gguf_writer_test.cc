// GgufWriter: roundtrips through the reader, tensor validation, and I/O failure handling.
#include "runtime/gguf/gguf_writer.h"

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {
namespace {

absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Returns a producer that writes byte i as (i + seed) mod 256.
GgufTensorProducer Pattern(uint8_t seed) {
  return [seed](uint8_t* dst, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) dst[i] = static_cast<uint8_t>(i + seed);
    return absl::OkStatus();
  };
}

TEST(GgufWriter, RoundtripsEveryValueTypeInOrder) {
  GgufWriter w;
  w.SetU8("u8", 250);
  w.SetI8("i8", -120);
  w.SetU16("u16", 65000);
  w.SetI16("i16", -32000);
  w.SetU32("u32", 4000000000u);
  w.SetI32("i32", -2000000000);
  w.SetF32("f32", 0.25f);
  w.SetBool("bool", false);
  w.SetU64("u64", ~uint64_t{0});
  w.SetI64("i64", INT64_MIN);
  w.SetF64("f64", -1.5e300);
  w.SetString("str", std::string("with\0nul", 8));
  w.SetStringArray("strs", std::vector<std::string>{"a", "", "ccc"});
  w.SetArray("f32s", std::vector<float>{1.0f, -2.0f});
  w.SetArray("i32s", std::vector<int32_t>{-1, 7});
  w.SetArray("u8s", std::vector<uint8_t>{});
  w.SetArray("bools", std::vector<bool>{true, false, true});
  w.SetArray("f64s", std::vector<double>{3.5});
  absl::StatusOr<std::string> bytes = w.WriteToString();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(*bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->version(), 3u);
  std::vector<std::string> keys;
  for (const GgufKv& kv : f->kvs()) keys.emplace_back(kv.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool",
                                            "u64", "i64", "f64", "str", "strs", "f32s", "i32s",
                                            "u8s", "bools", "f64s"}));
  EXPECT_EQ(*f->GetU8("u8"), 250);
  EXPECT_EQ(*f->GetI8("i8"), -120);
  EXPECT_EQ(*f->GetU16("u16"), 65000);
  EXPECT_EQ(*f->GetI16("i16"), -32000);
  EXPECT_EQ(*f->GetU32("u32"), 4000000000u);
  EXPECT_EQ(*f->GetI32("i32"), -2000000000);
  EXPECT_EQ(*f->GetF32("f32"), 0.25f);
  EXPECT_FALSE(*f->GetBool("bool"));
  EXPECT_EQ(*f->GetU64("u64"), ~uint64_t{0});
  EXPECT_EQ(*f->GetI64("i64"), INT64_MIN);
  EXPECT_EQ(*f->GetF64("f64"), -1.5e300);
  EXPECT_EQ(*f->GetString("str"), std::string_view("with\0nul", 8));
  absl::StatusOr<absl::Span<const std::string_view>> strs = f->GetStringArray("strs");
  ASSERT_TRUE(strs.ok());
  EXPECT_EQ(std::vector<std::string_view>(strs->begin(), strs->end()),
            (std::vector<std::string_view>{"a", "", "ccc"}));
  EXPECT_EQ(*f->GetArrayF32("f32s"), (std::vector<float>{1.0f, -2.0f}));
  EXPECT_EQ(*f->GetArrayI32("i32s"), (std::vector<int32_t>{-1, 7}));
  EXPECT_TRUE(f->GetArrayI32("u8s")->empty());
  const GgufValue* bools = f->Find("bools");
  ASSERT_EQ(bools->count, 3u);
  EXPECT_EQ(bools->raw[0] + 2 * bools->raw[1] + 4 * bools->raw[2], 5);
  EXPECT_EQ(f->Find("f64s")->elem_type, GgufValueType::kF64);
}

TEST(GgufWriter, RoundtripsNestedArrays) {
  GgufWriter w;
  const GgufArray inner = GgufArray::OfArrays(
      {GgufArray::Of(std::vector<int16_t>{-1, 2}), GgufArray::OfStrings({"x", "yz"})});
  w.SetArray("nested", GgufArray::OfArrays({inner, GgufArray::Of(std::vector<uint64_t>{9})}));
  absl::StatusOr<std::string> bytes = w.WriteToString();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(*bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  const GgufValue* v = f->Find("nested");
  ASSERT_EQ(v->items.size(), 2u);
  ASSERT_EQ(v->items[0].items.size(), 2u);
  EXPECT_EQ(v->items[0].items[0].elem_type, GgufValueType::kI16);
  EXPECT_EQ(v->items[0].items[1].strings[1], "yz");
  EXPECT_EQ(v->items[1].elem_type, GgufValueType::kU64);
  EXPECT_EQ(v->items[1].raw[0], 9);
}

TEST(GgufWriter, SettingAKeyAgainReplacesItInPlace) {
  GgufWriter w;
  w.SetU32("a", 1);
  w.SetU32("b", 2);
  w.SetString("a", "now a string");
  absl::StatusOr<std::string> bytes = w.WriteToString();
  ASSERT_TRUE(bytes.ok());
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(*bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->kvs().size(), 2u);
  EXPECT_EQ(f->kvs()[0].key, "a");
  EXPECT_EQ(*f->GetString("a"), "now a string");
}

TEST(GgufWriter, StreamsTensorsInOrderAtAlignedOffsets) {
  for (uint32_t alignment : {32u, 64u, 4096u}) {
    GgufWriter w;
    if (alignment != 32) w.SetU32("general.alignment", alignment);
    std::vector<std::string> calls;
    auto counted = [&calls](std::string name, uint8_t seed) -> GgufTensorProducer {
      return [&calls, name, seed](uint8_t* dst, size_t bytes) {
        calls.push_back(name);
        return Pattern(seed)(dst, bytes);
      };
    };
    ASSERT_TRUE(w.AddTensor("z.f32", GgmlType::kF32, {3, 5}, 60, counted("z.f32", 1)).ok());
    ASSERT_TRUE(w.AddTensor("a.q8_0", GgmlType::kQ8_0, {64, 3}, 204, counted("a.q8_0", 2)).ok());
    ASSERT_TRUE(
        w.AddTensor("m.mxfp4", GgmlType::kMXFP4, {32, 2, 2, 2}, 136, counted("m.mxfp4", 3)).ok());
    ASSERT_TRUE(w.AddTensor("k.q4_K", GgmlType::kQ4_K, {256}, 144, counted("k.q4_K", 4)).ok());
    EXPECT_TRUE(calls.empty()) << "producers must run at write time only";
    absl::StatusOr<std::string> bytes = w.WriteToString();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(calls, (std::vector<std::string>{"z.f32", "a.q8_0", "m.mxfp4", "k.q4_K"}));
    absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(*bytes));
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_EQ(f->alignment(), alignment);
    EXPECT_EQ(f->data_offset() % alignment, 0u);
    ASSERT_EQ(f->tensors().size(), 4u);
    const std::vector<std::string> names = {"z.f32", "a.q8_0", "m.mxfp4", "k.q4_K"};
    uint64_t expected_offset = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const GgufTensor& t = f->tensors()[i];
      EXPECT_EQ(t.name, names[i]);
      EXPECT_EQ(t.offset, expected_offset);
      for (size_t j = 0; j < t.bytes; ++j) {
        ASSERT_EQ(t.data[j], static_cast<uint8_t>(j + i + 1)) << t.name << " byte " << j;
      }
      expected_offset += (t.bytes + alignment - 1) / alignment * alignment;
    }
    EXPECT_EQ(f->tensors()[2].dims, (std::array<int64_t, 4>{32, 2, 2, 2}));
    EXPECT_EQ(f->tensors()[2].type, GgmlType::kMXFP4);
    EXPECT_EQ(bytes->size(), f->data_offset() + expected_offset);
  }
}

TEST(GgufWriter, AddTensorRejectsBadDescriptions) {
  GgufWriter w;
  ASSERT_TRUE(w.AddTensor("t", GgmlType::kF32, {4}, 16, Pattern(0)).ok());
  EXPECT_EQ(w.AddTensor("t", GgmlType::kF32, {4}, 16, Pattern(0)).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_FALSE(w.AddTensor("", GgmlType::kF32, {4}, 16, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor(std::string(64, 'n'), GgmlType::kF32, {4}, 16, Pattern(0)).ok());
  EXPECT_TRUE(w.AddTensor(std::string(63, 'n'), GgmlType::kF32, {4}, 16, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("d0", GgmlType::kF32, {}, 4, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("d5", GgmlType::kF32, {1, 1, 1, 1, 1}, 4, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("zero", GgmlType::kF32, {4, 0}, 0, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("neg", GgmlType::kF32, {-4}, 16, Pattern(0)).ok());
  EXPECT_FALSE(
      w.AddTensor("big", GgmlType::kF32, {int64_t{1} << 32, int64_t{1} << 32}, 0, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("q4_0", GgmlType::kQ4_0, {32}, 18, Pattern(0)).ok());
  EXPECT_FALSE(w.AddTensor("row", GgmlType::kQ8_0, {48}, 51, Pattern(0)).ok());
  const absl::Status size = w.AddTensor("size", GgmlType::kQ8_0, {32}, 32, Pattern(0));
  EXPECT_NE(size.message().find("needs 1 blocks of 34"), std::string_view::npos) << size;
}

TEST(GgufWriter, RejectsBadAlignmentAndEmptyKeys) {
  GgufWriter w;
  w.SetU32("general.alignment", 48);
  EXPECT_EQ(w.WriteToString().status().code(), absl::StatusCode::kInvalidArgument);
  w.SetI32("general.alignment", 64);
  EXPECT_EQ(w.WriteToString().status().code(), absl::StatusCode::kInvalidArgument);
  GgufWriter e;
  e.SetU32("", 1);
  EXPECT_EQ(e.WriteToString().status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GgufWriter, WriteFileRenamesTheTemporaryFile) {
  GgufWriter w;
  w.SetString("general.architecture", "t");
  ASSERT_TRUE(w.AddTensor("t", GgmlType::kBF16, {8, 2}, 32, Pattern(5)).ok());
  const std::string path = TempPath("written.gguf");
  ASSERT_TRUE(w.WriteFile(path).ok());
  EXPECT_FALSE(Exists(path + ".tmp"));
  EXPECT_EQ(ReadAll(path), *w.WriteToString());
  absl::StatusOr<GgufFile> f = OpenGguf(path);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->FindTensor("t")->data[31], 36);
}

TEST(GgufWriter, ProducerErrorRemovesTheTemporaryFile) {
  GgufWriter w;
  ASSERT_TRUE(w.AddTensor("bad", GgmlType::kF32, {4}, 16, [](uint8_t*, size_t) {
                 return absl::DataLossError("source gone");
               }).ok());
  const std::string path = TempPath("producer_error.gguf");
  const absl::Status s = w.WriteFile(path);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("producer of tensor 'bad' failed: source gone"),
            std::string_view::npos)
      << s;
  EXPECT_FALSE(Exists(path));
  EXPECT_FALSE(Exists(path + ".tmp"));
}

TEST(GgufWriter, UncreatableFileIsAnError) {
  GgufWriter w;
  const absl::Status s = w.WriteFile(TempPath("no/such/dir/x.gguf"));
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
}

// A file-size limit makes write() fail with EFBIG part way, as a full disk does.
TEST(GgufWriter, FailedWriteRemovesTheTemporaryFile) {
  GgufWriter w;
  ASSERT_TRUE(w.AddTensor("big", GgmlType::kF32, {1 << 18}, 1 << 20, Pattern(0)).ok());
  const std::string path = TempPath("too_big.gguf");
  std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit old;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  struct rlimit limited = old;
  limited.rlim_cur = 64 << 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const absl::Status s = w.WriteFile(path);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot write"), std::string_view::npos) << s;
  EXPECT_FALSE(Exists(path));
  EXPECT_FALSE(Exists(path + ".tmp"));
}

}  // namespace
}  // namespace cpubrrr

// Reading valid GGUF files: metadata, typed getters with conversions, tensor views, mmap.
#include "runtime/gguf/gguf_file.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "runtime/gguf/raw_gguf.h"

namespace cpubrrr {
namespace {

absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(GgufFile, ReadsMetadataInFileOrder) {
  const std::string bytes = ValidRawGguf().Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->version(), 3u);
  EXPECT_EQ(f->alignment(), 32u);
  ASSERT_EQ(f->kvs().size(), 8u);
  EXPECT_EQ(f->kvs()[0].key, "general.architecture");
  EXPECT_EQ(f->kvs()[7].key, "test.nested");
  EXPECT_EQ(*f->GetString("general.architecture"), "test");
  EXPECT_EQ(*f->GetU32("test.block_count"), 2u);
  EXPECT_EQ(*f->GetF32("test.eps"), 1.0f);
  EXPECT_EQ(*f->GetF64("test.eps"), 1.0);
  EXPECT_TRUE(*f->GetBool("test.flag"));
  absl::StatusOr<absl::Span<const std::string_view>> tokens = f->GetStringArray("test.tokens");
  ASSERT_TRUE(tokens.ok());
  ASSERT_EQ(tokens->size(), 2u);
  EXPECT_EQ((*tokens)[0], "a");
  EXPECT_EQ((*tokens)[1], "bc");
  EXPECT_EQ(*f->GetArrayI32("test.ids"), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(*f->GetArrayI64("test.ids"), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(*f->GetArrayU32("test.ids"), (std::vector<uint32_t>{1, 2, 3}));
  const GgufValue* bools = f->Find("test.bools");
  ASSERT_NE(bools, nullptr);
  EXPECT_EQ(bools->elem_type, GgufValueType::kBool);
  EXPECT_EQ(bools->count, 2u);
  EXPECT_EQ(bools->raw[1], 1);
  const GgufValue* nested = f->Find("test.nested");
  ASSERT_NE(nested, nullptr);
  ASSERT_EQ(nested->items.size(), 1u);
  EXPECT_EQ(nested->items[0].elem_type, GgufValueType::kU8);
  EXPECT_EQ(nested->items[0].count, 2u);
  EXPECT_EQ(nested->items[0].raw[1], 'y');
}

TEST(GgufFile, IntegerGettersConvertWhenTheValueFits) {
  const std::string bytes = ValidRawGguf().Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f->GetU8("test.block_count"), 2);
  EXPECT_EQ(*f->GetI8("test.block_count"), 2);
  EXPECT_EQ(*f->GetU16("test.block_count"), 2);
  EXPECT_EQ(*f->GetI16("test.block_count"), 2);
  EXPECT_EQ(*f->GetI32("test.block_count"), 2);
  EXPECT_EQ(*f->GetU64("test.block_count"), 2u);
  EXPECT_EQ(*f->GetI64("test.block_count"), 2);
}

TEST(GgufFile, GettersReportMissingWrongTypeAndOutOfRange) {
  RawGguf g = ValidRawGguf();
  g.kvs.push_back({"neg", RawInt(11, 4) + RawInt(static_cast<uint64_t>(-5), 8)});  // i64 -5
  g.kvs.push_back({"big", RawInt(10, 4) + RawInt(~uint64_t{0}, 8)});               // u64 max
  g.kvs.push_back({"negs", RawArrayValue(3, 1, RawInt(static_cast<uint64_t>(-1), 2))});
  const std::string bytes = g.Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->GetU32("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(f->GetU32("general.architecture").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f->GetF32("test.block_count").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f->GetString("test.tokens").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f->GetStringArray("test.ids").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f->GetArrayF32("test.ids").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(f->GetU32("neg").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*f->GetI8("neg"), -5);
  EXPECT_EQ(f->GetI64("big").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(f->GetU32("big").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*f->GetU64("big"), ~uint64_t{0});
  EXPECT_EQ(*f->GetArrayI32("negs"), std::vector<int32_t>{-1});
  EXPECT_EQ(f->GetArrayU32("negs").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(f->GetU32("neg").status().message().find("'neg'"), std::string_view::npos);
}

TEST(GgufFile, TensorsAreViewsIntoTheFile) {
  const std::string bytes = ValidRawGguf().Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->tensors().size(), 2u);
  EXPECT_EQ(f->data_offset() % 32, 0u);
  EXPECT_EQ(f->data_offset() + 132, bytes.size());
  absl::StatusOr<GgufTensor> b = f->GetTensor("b");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->type, GgmlType::kQ8_0);
  EXPECT_EQ(b->n_dims, 2u);
  EXPECT_EQ(b->dims, (std::array<int64_t, 4>{32, 2, 1, 1}));
  EXPECT_EQ(b->Elements(), 64u);
  EXPECT_EQ(b->offset, 64u);
  EXPECT_EQ(b->bytes, 68u);
  EXPECT_EQ(b->data, reinterpret_cast<const uint8_t*>(bytes.data()) + f->data_offset() + 64);
  EXPECT_EQ(f->FindTensor("a")->bytes, 64u);
  EXPECT_EQ(f->FindTensor("c"), nullptr);
  EXPECT_EQ(f->GetTensor("c").status().code(), absl::StatusCode::kNotFound);
}

TEST(GgufFile, AcceptsVersion2) {
  RawGguf g = ValidRawGguf();
  g.version = 2;
  const std::string bytes = g.Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->version(), 2u);
}

TEST(GgufFile, HonoursGeneralAlignment) {
  RawGguf g = ValidRawGguf();
  g.kvs.push_back({"general.alignment", RawU32Value(128)});
  g.pad_to = 128;
  g.tensors[1].offset = 128;
  g.data = std::string(128 + 68, '\0');
  const std::string bytes = g.Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->alignment(), 128u);
  EXPECT_EQ(f->data_offset() % 128, 0u);
  EXPECT_EQ(f->FindTensor("b")->offset, 128u);
}

TEST(GgufFile, AcceptsAFileWithoutTensorsOrKeys) {
  RawGguf g;
  const std::string bytes = g.Encode();
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->kvs().empty());
  EXPECT_TRUE(f->tensors().empty());
  EXPECT_EQ(f->data_offset(), 24u);
}

TEST(GgufFile, OpensAMappedFile) {
  const std::string bytes = ValidRawGguf().Encode();
  const std::string path = TempPath("valid.gguf");
  WriteBytes(path, bytes);
  absl::StatusOr<GgufFile> f = OpenGguf(path);
  ASSERT_TRUE(f.ok()) << f.status();
  GgufFile moved = std::move(*f);
  const GgufTensor* a = moved.FindTensor("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->data[0], 0x11);
  EXPECT_EQ(*moved.GetString("general.architecture"), "test");
  std::remove(path.c_str());
}

TEST(GgufFile, ErrorsFromAFileNameThePath) {
  const std::string path = TempPath("empty.gguf");
  WriteBytes(path, "");
  absl::StatusOr<GgufFile> f = OpenGguf(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message().rfind(path + ": malformed GGUF at byte offset 0", 0), 0u)
      << f.status();
  std::remove(path.c_str());
  EXPECT_EQ(OpenGguf(TempPath("missing.gguf")).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace cpubrrr

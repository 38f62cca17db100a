// Malformed-file corpus: each test corrupts a valid file one way and checks the error.
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/gguf/raw_gguf.h"

namespace cpubrrr {
namespace {

absl::Span<const uint8_t> AsBytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// Returns success when `bytes` is rejected with InvalidArgument whose message names
// `problem` and "at byte offset <offset>".
testing::AssertionResult Rejects(const std::string& bytes, std::string_view problem,
                                 uint64_t offset) {
  absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes));
  if (f.ok()) return testing::AssertionFailure() << "accepted; expected '" << problem << "'";
  const std::string msg(f.status().message());
  const std::string where = absl::StrCat("at byte offset ", offset, ":");
  if (f.status().code() != absl::StatusCode::kInvalidArgument ||
      msg.find(problem) == std::string::npos || msg.find(where) == std::string::npos) {
    return testing::AssertionFailure()
           << "got '" << f.status() << "', expected '" << problem << "' " << where;
  }
  return testing::AssertionSuccess();
}

// Returns `bytes` with `replacement` written over it at `at`.
std::string Patch(std::string bytes, uint64_t at, const std::string& replacement) {
  bytes.replace(at, replacement.size(), replacement);
  return bytes;
}

constexpr uint64_t k2Pow40 = uint64_t{1} << 40;
constexpr uint64_t k2Pow60 = uint64_t{1} << 60;

TEST(GgufMalformed, ValidBaseIsAccepted) {
  const std::string bytes = ValidRawGguf().Encode();
  EXPECT_TRUE(OpenGgufFromMemory(AsBytes(bytes)).ok());
}

TEST(GgufMalformed, EmptyFile) { EXPECT_TRUE(Rejects("", "truncated magic", 0)); }

TEST(GgufMalformed, BadMagic) {
  RawGguf g = ValidRawGguf();
  g.magic = "GGUX";
  EXPECT_TRUE(Rejects(g.Encode(), "bad magic 0x47475558", 0));
}

TEST(GgufMalformed, Version1) {
  RawGguf g = ValidRawGguf();
  g.version = 1;
  EXPECT_TRUE(Rejects(g.Encode(), "GGUF version 1 is not supported", 4));
}

TEST(GgufMalformed, Version0) {
  RawGguf g = ValidRawGguf();
  g.version = 0;
  EXPECT_TRUE(Rejects(g.Encode(), "unsupported GGUF version 0", 4));
}

TEST(GgufMalformed, Version4) {
  RawGguf g = ValidRawGguf();
  g.version = 4;
  EXPECT_TRUE(Rejects(g.Encode(), "unsupported GGUF version 4", 4));
}

TEST(GgufMalformed, BigEndianVersion) {
  RawGguf g = ValidRawGguf();
  g.version = 0x03000000;
  EXPECT_TRUE(Rejects(g.Encode(), "may be big-endian", 4));
}

TEST(GgufMalformed, AbsurdTensorCount) {
  RawGguf g = ValidRawGguf();
  g.n_tensors = k2Pow60;
  EXPECT_TRUE(Rejects(g.Encode(), "tensor count 1152921504606846976 cannot fit", 8));
}

TEST(GgufMalformed, AbsurdKeyValueCount) {
  RawGguf g = ValidRawGguf();
  g.n_kv = k2Pow60;
  EXPECT_TRUE(Rejects(g.Encode(), "key-value count 1152921504606846976 cannot fit", 16));
}

TEST(GgufMalformed, EmptyKey) {
  RawGguf g = ValidRawGguf();
  g.kvs[1].first = "";
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "key 1 is empty", o.key[1]));
}

TEST(GgufMalformed, DuplicateKey) {
  RawGguf g = ValidRawGguf();
  g.kvs[2].first = g.kvs[1].first;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "duplicate key 'test.block_count' (keys 1 and 2)", o.key[2]));
}

TEST(GgufMalformed, HugeKeyLength) {
  RawOffsets o;
  const std::string bytes = ValidRawGguf().Encode(&o);
  EXPECT_TRUE(Rejects(Patch(bytes, o.key[0], RawInt(k2Pow40, 8)),
                      "key 0 length 1099511627776 exceeds", o.key[0]));
}

TEST(GgufMalformed, UnknownValueType) {
  RawGguf g = ValidRawGguf();
  g.kvs[1].second = RawInt(13, 4) + RawInt(0, 4);
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "key 'test.block_count' has unknown value type 13", o.value[1]));
}

TEST(GgufMalformed, HugeStringValue) {
  RawGguf g = ValidRawGguf();
  g.kvs[0].second = RawInt(8, 4) + RawInt(k2Pow40, 8);
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "string value of 'general.architecture' length 1099511627776",
                      o.value[0] + 4));
}

TEST(GgufMalformed, BoolValueNotZeroOrOne) {
  RawGguf g = ValidRawGguf();
  g.kvs[3].second = RawInt(7, 4) + RawInt(2, 1);
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "bool value of 'test.flag' is 2, neither 0 nor 1", o.value[3] + 4));
}

TEST(GgufMalformed, UnknownArrayElementType) {
  RawGguf g = ValidRawGguf();
  g.kvs[5].second = RawArrayValue(13, 0, "");
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "array 'test.ids' has unknown element type 13", o.value[5] + 4));
}

TEST(GgufMalformed, AbsurdArrayCount) {
  RawGguf g = ValidRawGguf();
  g.kvs[5].second = RawArrayValue(4, k2Pow60, "");
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "array 'test.ids' of 1152921504606846976 u32 elements cannot fit",
                      o.value[5] + 8));
}

TEST(GgufMalformed, AbsurdStringArrayCount) {
  RawGguf g = ValidRawGguf();
  g.kvs[4].second = RawArrayValue(8, k2Pow60, "");
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "of 1152921504606846976 string elements cannot fit", o.value[4] + 8));
}

TEST(GgufMalformed, HugeStringInArray) {
  RawGguf g = ValidRawGguf();
  g.kvs[4].second = RawArrayValue(8, 1, RawInt(k2Pow40, 8));
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "string 0 of array 'test.tokens' length 1099511627776", o.value[4] + 16));
}

TEST(GgufMalformed, ArraysNestedTooDeep) {
  std::string inner = RawInt(0, 4) + RawInt(0, 8);  // empty u8 array
  for (int level = 0; level < 10; ++level) inner = RawInt(9, 4) + RawInt(1, 8) + inner;
  RawGguf g = ValidRawGguf();
  g.kvs[7].second = RawInt(9, 4) + inner;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "arrays in 'test.nested' nest deeper than 8", o.value[7] + 4 + 12 * 8));
}

TEST(GgufMalformed, BoolArrayElementNotZeroOrOne) {
  RawGguf g = ValidRawGguf();
  g.kvs[6].second = RawArrayValue(7, 2, RawInt(0, 1) + RawInt(5, 1));
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "bool element 1 of array 'test.bools' is 5", o.value[6] + 16 + 1));
}

TEST(GgufMalformed, AlignmentOfWrongType) {
  RawGguf g = ValidRawGguf();
  g.kvs.push_back({"general.alignment", RawInt(5, 4) + RawInt(32, 4)});
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "general.alignment has type i32, expected u32", o.key.back()));
}

TEST(GgufMalformed, AlignmentNotPowerOfTwo) {
  RawGguf g = ValidRawGguf();
  g.kvs.push_back({"general.alignment", RawU32Value(48)});
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "general.alignment 48 is not a power of two", o.key.back()));
}

TEST(GgufMalformed, AlignmentZero) {
  RawGguf g = ValidRawGguf();
  g.kvs.push_back({"general.alignment", RawU32Value(0)});
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "general.alignment 0 is not a power of two", o.key.back()));
}

TEST(GgufMalformed, EmptyTensorName) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].name = "";
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 1 has an empty name", o.tensor[1]));
}

TEST(GgufMalformed, HugeTensorNameLength) {
  RawOffsets o;
  const std::string bytes = ValidRawGguf().Encode(&o);
  EXPECT_TRUE(Rejects(Patch(bytes, o.tensor[0], RawInt(k2Pow40, 8)),
                      "tensor 0 name length 1099511627776 exceeds", o.tensor[0]));
}

TEST(GgufMalformed, DuplicateTensorName) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].name = "a";
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "duplicate tensor name 'a' (tensors 0 and 1)", o.tensor[1]));
}

TEST(GgufMalformed, ZeroDimensionCount) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' has 0 dimensions, expected 1 to 4", o.tensor_dims[0]));
}

TEST(GgufMalformed, FiveDimensions) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {8, 2, 1, 1, 1};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' has 5 dimensions, expected 1 to 4", o.tensor_dims[0]));
}

TEST(GgufMalformed, ZeroDimension) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {8, 0};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "tensor 'a' dimension 1 is 0, must be positive", o.tensor_dims[0] + 4 + 8));
}

TEST(GgufMalformed, NegativeDimension) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {-8, 2};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "tensor 'a' dimension 0 is -8, must be positive", o.tensor_dims[0] + 4));
}

TEST(GgufMalformed, ElementCountOverflow) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {int64_t{1} << 32, int64_t{1} << 32};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' element count overflows 64 bits at dimension 1",
                      o.tensor_dims[0] + 4 + 8));
}

TEST(GgufMalformed, ByteSizeOverflow) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].dims = {int64_t{1} << 31, int64_t{1} << 31};  // 2^62 f32 = 2^64 bytes
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' byte size overflows", o.tensor_type[0]));
}

TEST(GgufMalformed, UnknownTensorType) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].type = 99;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' has unknown or unsupported type id 99", o.tensor_type[0]));
}

TEST(GgufMalformed, UnsupportedTensorType) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].type = 2;  // q4_0: a real GGML type this project does not read
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'a' has unknown or unsupported type id 2", o.tensor_type[0]));
}

TEST(GgufMalformed, RowNotMultipleOfBlock) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].dims = {33, 2};
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes,
                      "tensor 'b' row of 33 elements is not a multiple of the q8_0 block size 32",
                      o.tensor_type[1]));
}

TEST(GgufMalformed, MisalignedTensorOffset) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].offset = 65;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'b' data offset 65 is not a multiple of the alignment 32",
                      o.tensor_offset[1]));
}

TEST(GgufMalformed, TensorOffsetPastEnd) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].offset = k2Pow40;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes,
                      "tensor 'b' data of 68 bytes at offset 1099511627776 runs past the end",
                      o.tensor_offset[1]));
}

TEST(GgufMalformed, TensorOffsetNearUint64Max) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].offset = ~uint64_t{31};  // aligned, and offset + size wraps
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes, "tensor 'b' data of 68 bytes at offset 18446744073709551584 runs past",
                      o.tensor_offset[1]));
}

TEST(GgufMalformed, TensorDataTruncated) {
  RawGguf g = ValidRawGguf();
  g.data.resize(100);
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes,
                      "tensor 'b' data of 68 bytes at offset 64 runs past the end of the "
                      "100-byte data section",
                      o.tensor_offset[1]));
}

TEST(GgufMalformed, OverlappingTensors) {
  RawGguf g = ValidRawGguf();
  g.tensors[1].offset = 32;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "tensor 'b' data at 32 overlaps tensor 'a' data [0, 64)", o.tensor_offset[1]));
}

TEST(GgufMalformed, OverlapFoundWhateverTheInfoOrder) {
  RawGguf g = ValidRawGguf();
  g.tensors[0].offset = 64;  // 'a' [64, 128) after 'b' [0, 68)
  g.tensors[1].offset = 0;
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(
      Rejects(bytes, "tensor 'a' data at 64 overlaps tensor 'b' data [0, 68)", o.tensor_offset[0]));
}

TEST(GgufMalformed, DataSectionStartsPastEnd) {
  RawOffsets o;
  const std::string bytes = ValidRawGguf().Encode(&o);
  const uint64_t end_of_infos = o.tensor_offset.back() + 8;
  ASSERT_NE(end_of_infos % 32, 0u);
  EXPECT_TRUE(Rejects(bytes.substr(0, end_of_infos), "data section starts at", end_of_infos));
}

TEST(GgufMalformed, MoreKeysDeclaredThanPresent) {
  RawGguf g;
  g.n_kv = 2;
  g.kvs.push_back({"only.one", RawU32Value(1)});
  RawOffsets o;
  const std::string bytes = g.Encode(&o);
  EXPECT_TRUE(Rejects(bytes + std::string(6, '\0'), "truncated key 1 length", bytes.size()));
}

// Every strict prefix of a valid file must be rejected cleanly, with an offset that
// lies inside the prefix.
TEST(GgufMalformed, TruncationAtEveryOffset) {
  const std::string bytes = ValidRawGguf().Encode();
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(bytes.substr(0, cut)));
    ASSERT_FALSE(f.ok()) << "prefix of " << cut << " bytes accepted";
    const std::string msg(f.status().message());
    const std::string prefix = "malformed GGUF at byte offset ";
    ASSERT_EQ(msg.rfind(prefix, 0), 0u) << msg;
    const uint64_t at = std::stoull(msg.substr(prefix.size()));
    EXPECT_LE(at, cut) << msg;
  }
}

// Setting any single byte to each of a few values must never crash: accepted or
// rejected with a malformed-file error.
TEST(GgufMalformed, ByteOverwriteSweepNeverCrashes) {
  const std::string bytes = ValidRawGguf().Encode();
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (char c : {'\x00', '\x01', '\x7f', '\x80', '\xff'}) {
      std::string mutated = bytes;
      mutated[i] = c;
      absl::StatusOr<GgufFile> f = OpenGgufFromMemory(AsBytes(mutated));
      if (!f.ok()) {
        EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument) << f.status();
      }
    }
  }
}

}  // namespace
}  // namespace cpubrrr

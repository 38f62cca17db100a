// The repack cache file: what it maps back is what the repacks write, it maps only for the
// model version, layouts and matrices it was written for, and a failed write leaves nothing.
#include "models/common/repack_cache.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "models/common/repack_matrix.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q6_k.h"

namespace cpubrrr {
namespace {

namespace fs = std::filesystem;

// An MXFP4 expert pair, a Q4_K projection of 9 rows (a partial group) and a Q6_K output
// head over random bytes, and a directory of their own for the cache. A CPU that runs no
// repacked variant of these formats (aarch64 today) never repacks, so has no cache to test.
class RepackCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (GgmlType type : {GgmlType::kMXFP4, GgmlType::kQ4_K, GgmlType::kQ6_K}) {
      if (!RepackedHere(type)) GTEST_SKIP() << TypeName(type) << " has no repacked variant on this CPU";
    }
    std::mt19937 rng(11);
    auto matrix = [&](GgmlType type, int64_t rows, int64_t cols, size_t row_bytes, int64_t n_mat) {
      WeightMatrix m;
      m.type = type;
      m.rows = rows;
      m.cols = cols;
      m.n_mat = n_mat;
      m.row_bytes = row_bytes;
      std::vector<uint8_t>& bytes = storage_.emplace_back(m.bytes());
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
      m.data = bytes.data();
      return m;
    };
    mats_ = {matrix(GgmlType::kMXFP4, 16, 96, 3 * sizeof(BlockMxfp4), 2),
             matrix(GgmlType::kQ4_K, 9, 512, 2 * sizeof(BlockQ4K), 1),
             matrix(GgmlType::kQ6_K, 33, 768, 3 * sizeof(BlockQ6K), 1)};
    for (WeightMatrix& m : mats_) ptrs_.push_back(&m);
    dir_ = fs::path(std::getenv("TEST_TMPDIR")) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    path_ = RepackCachePath(dir_.string(), "/models/some-model.gguf");
    key_ = {{123456789, 42, 1700000000123456789}, RepackedLayoutFingerprint()};
  }

  // Returns the names of the files in the cache directory.
  std::vector<std::string> Files() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) out.push_back(e.path().filename());
    return out;
  }

  void ExpectNoCopies() const {
    for (const WeightMatrix& m : mats_) EXPECT_EQ(m.repacked, nullptr);
  }

  std::vector<std::vector<uint8_t>> storage_;
  std::vector<WeightMatrix> mats_;
  std::vector<WeightMatrix*> ptrs_;
  fs::path dir_;
  std::string path_;
  RepackCacheKey key_;
};

TEST_F(RepackCacheTest, MapsBackWhatTheRepacksWrite) {
  WorkerPool pool(2);
  std::vector<const WeightMatrix*> done;
  ASSERT_TRUE(WriteRepackCache(path_, key_, ptrs_, pool, [&](const WeightMatrix& m) { done.push_back(&m); }).ok());
  EXPECT_EQ(done, (std::vector<const WeightMatrix*>{&mats_[0], &mats_[1], &mats_[2]}));
  EXPECT_EQ(Files(), std::vector<std::string>{fs::path(path_).filename()});  // no temporary file left
  EXPECT_EQ(fs::file_size(path_), RepackCacheBytes(ptrs_));
  absl::StatusOr<std::unique_ptr<MappedFile>> cache = MapRepackCache(path_, key_, ptrs_);
  ASSERT_TRUE(cache.ok()) << cache.status();
  for (const WeightMatrix& m : mats_) {
    ASSERT_NE(m.repacked, nullptr);
    ASSERT_EQ(m.repacked_bytes, RepackedMatrixBytes(m));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m.repacked) % 64, 0u);
    for (int64_t e = 0; e < m.n_mat; ++e) {
      std::vector<uint8_t> want(m.repacked_bytes);
      RepackMatrix(m, e, want.data());
      EXPECT_EQ(std::memcmp(m.repacked + e * m.repacked_bytes, want.data(), want.size()), 0)
          << TypeName(m.type) << " matrix " << e;
    }
  }
}

TEST_F(RepackCacheTest, NotFoundWithoutAFile) {
  EXPECT_EQ(MapRepackCache(path_, key_, ptrs_).status().code(), absl::StatusCode::kNotFound);
  ExpectNoCopies();
}

TEST_F(RepackCacheTest, RejectsAnotherModelVersionLayoutOrMatrixList) {
  WorkerPool pool(1);
  ASSERT_TRUE(WriteRepackCache(path_, key_, ptrs_, pool, nullptr).ok());
  auto expect_stale = [&](const RepackCacheKey& key, absl::Span<WeightMatrix* const> matrices, const char* why) {
    absl::Status s = MapRepackCache(path_, key, matrices).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_NE(s.message().find(why), std::string::npos) << s;
    ExpectNoCopies();
  };
  for (int field = 0; field < 3; ++field) {
    RepackCacheKey other = key_;
    if (field == 0) other.model.size += 1;
    if (field == 1) other.model.inode += 1;
    if (field == 2) other.model.mtime_ns += 1;
    expect_stale(other, ptrs_, "another version of the model file");
  }
  RepackCacheKey other_layouts = key_;
  other_layouts.layouts ^= 1;
  expect_stale(other_layouts, ptrs_, "another version of cpubrrr");
  expect_stale(key_, {ptrs_.data(), 2}, "other matrices");
  mats_[2].rows = 32;
  expect_stale(key_, ptrs_, "other matrices");
  mats_[2].rows = 33;
  std::swap(ptrs_[1], ptrs_[2]);
  expect_stale(key_, ptrs_, "other matrices");
}

TEST_F(RepackCacheTest, RejectsADamagedFile) {
  WorkerPool pool(1);
  ASSERT_TRUE(WriteRepackCache(path_, key_, ptrs_, pool, nullptr).ok());
  fs::resize_file(path_, fs::file_size(path_) - 4096);
  absl::Status s = MapRepackCache(path_, key_, ptrs_).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("damaged"), std::string::npos) << s;
  fs::resize_file(path_, 20);
  EXPECT_EQ(MapRepackCache(path_, key_, ptrs_).status().code(), absl::StatusCode::kFailedPrecondition);
  std::ofstream(path_, std::ios::trunc) << std::string(8192, 'x');
  s = MapRepackCache(path_, key_, ptrs_).status();
  EXPECT_NE(s.message().find("is not a repack cache"), std::string::npos) << s;
  ExpectNoCopies();
}

TEST_F(RepackCacheTest, AFailedWriteLeavesNoFile) {
  WorkerPool pool(2);
  // A file size limit below the cache's size: the space reservation fails with EFBIG (the
  // signal it also raises is ignored here).
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  const sighandler_t old_handler = signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 64 << 10;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const absl::Status s = WriteRepackCache(path_, key_, ptrs_, pool, nullptr);
  setrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, old_handler);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(".tmp."), std::string::npos) << s;
  EXPECT_EQ(Files(), std::vector<std::string>{});
  EXPECT_EQ(MapRepackCache(path_, key_, ptrs_).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(RepackCacheTest, FailsWhereTheDirectoryCannotBe) {
  WorkerPool pool(1);
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  const std::string path = RepackCachePath((dir_ / "file" / "sub").string(), "/models/m.gguf");
  const absl::Status s = WriteRepackCache(path, key_, ptrs_, pool, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("is not a directory"), std::string::npos) << s;
}

TEST_F(RepackCacheTest, RemovesTemporaryFilesOfWritersThatAreGone) {
  fs::create_directories(dir_);
  const std::string gone = path_ + ".tmp.2147483646", running = path_ + ".tmp.1", other = dir_ / "other.tmp.2147483646";
  for (const std::string& p : {gone, running, other}) std::ofstream(p) << "partial";
  WorkerPool pool(1);
  ASSERT_TRUE(WriteRepackCache(path_, key_, ptrs_, pool, nullptr).ok());
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_TRUE(fs::exists(running));  // pid 1 is running: its writer may still be at work
  EXPECT_TRUE(fs::exists(other));    // another model's
}

TEST(RepackCachePath, NamesTheModelAndHashesItsPath) {
  const std::string a = RepackCachePath("/cache", "/models/a/qwen3.gguf");
  EXPECT_EQ(a.rfind("/cache/qwen3.gguf-", 0), 0u) << a;
  EXPECT_EQ(a.size(), std::string("/cache/qwen3.gguf-").size() + 16 + std::string(".repacked").size()) << a;
  EXPECT_EQ(a, RepackCachePath("/cache", "/models/a/qwen3.gguf"));
  EXPECT_NE(a, RepackCachePath("/cache", "/models/b/qwen3.gguf"));
  EXPECT_LE(RepackCachePath("/c", "/m/" + std::string(300, 'n')).size(), 3 + 100 + 1 + 16 + 9u);
}

TEST(CheckDiskRoom, RefusesWhatWouldNearlyFillTheDisk) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  EXPECT_TRUE(CheckDiskRoom(dir, 1).ok());
  const absl::Status s = CheckDiskRoom(dir, uint64_t{1} << 60);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("not enough free disk space"), std::string::npos) << s;
}

}  // namespace
}  // namespace cpubrrr

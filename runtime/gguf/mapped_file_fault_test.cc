// A mapped file truncated by someone else: reading past its new end exits with the guard's
// status and a message naming the file; a fault outside any watched mapping is not taken
// for one; a mapping no longer alive is no longer watched.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/gguf/mapped_file.h"
#include "runtime/gguf/mapping_fault_guard.h"

namespace cpubrrr {
namespace {

constexpr size_t kSize = size_t{1} << 20;

std::string WriteFile(const std::string& name) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::vector<char> bytes(kSize, 'x');
  out.write(bytes.data(), bytes.size());
  return path;
}

// Reads one byte the compiler cannot drop.
uint8_t Read(const uint8_t* p) { return *static_cast<const volatile uint8_t*>(p); }

bool NotTheGuardsExit(int status) {
  return !(WIFEXITED(status) && WEXITSTATUS(status) == kMappedFileFaultExit);
}

TEST(MappedFileFaultTest, ReadPastATruncationExitsNamingTheFile) {
  const std::string path = WriteFile("truncated_while_mapped.bin");
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const uint8_t* bytes = (*file)->bytes().data();
  ASSERT_EQ(Read(bytes + kSize - 1), 'x');
  EXPECT_EXIT(
      {
        ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
        Read(bytes + kSize / 2);
      },
      ::testing::ExitedWithCode(kMappedFileFaultExit),
      "truncated_while_mapped.bin changed on disk while in use: reading its byte 524288");
}

TEST(MappedFileFaultTest, AFaultInAnUnwatchedMappingIsNotTakenForOne) {
  const std::string path = WriteFile("not_watched.bin");
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  void* p = ::mmap(nullptr, kSize, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  ASSERT_NE(p, MAP_FAILED);
  // Installs the handler by watching some other mapping.
  auto other = MappedFile::Open(WriteFile("other.bin"));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_EXIT(
      {
        ASSERT_EQ(::truncate(path.c_str(), 0), 0);
        Read(static_cast<const uint8_t*>(p) + 8192);
      },
      NotTheGuardsExit, "");
  ::munmap(p, kSize);
}

TEST(MappedFileFaultTest, ManyMappingsComeAndGo) {
  const std::string path = WriteFile("many.bin");
  for (int round = 0; round < 200; ++round) {
    std::vector<std::unique_ptr<MappedFile>> files;
    for (int i = 0; i < 8; ++i) {
      auto file = MappedFile::Open(path);
      ASSERT_TRUE(file.ok()) << file.status();
      files.push_back(*std::move(file));
    }
  }
  // Every slot was given back: a fresh mapping is still watched.
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const uint8_t* bytes = (*file)->bytes().data();
  EXPECT_EXIT(
      {
        ASSERT_EQ(::truncate(path.c_str(), 0), 0);
        Read(bytes);
      },
      ::testing::ExitedWithCode(kMappedFileFaultExit), "many.bin changed on disk");
}

}  // namespace
}  // namespace cpubrrr

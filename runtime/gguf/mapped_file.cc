// Read-only mmap of a whole file, with errno-naming errors.
#include "runtime/gguf/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "absl/status/status.h"
#include "runtime/gguf/errno_status.h"
#include "runtime/gguf/mapping_fault_guard.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {

absl::StatusOr<std::unique_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoError("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(Cat(path, " is not a regular file"));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  const FileIdentity identity{size, static_cast<uint64_t>(st.st_ino),
                              int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec};
  if (size == 0) {
    ::close(fd);
    return std::unique_ptr<MappedFile>(new MappedFile(path, nullptr, 0, identity));
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int err = errno;
  ::close(fd);  // The mapping keeps the file alive.
  if (p == MAP_FAILED) return ErrnoError("cannot mmap", path, err);
  // Ask for 2 MiB page-cache folios mapped by PMDs (fewer TLB misses while streaming
  // weights); advisory, so a kernel without file THP simply ignores it.
  ::madvise(p, size, MADV_HUGEPAGE);
  return std::unique_ptr<MappedFile>(new MappedFile(path, static_cast<const uint8_t*>(p), size, identity));
}

MappedFile::MappedFile(std::string path, const uint8_t* data, size_t size, FileIdentity identity)
    : path_(std::move(path)), data_(data), size_(size), identity_(identity) {
  if (data_ != nullptr) watch_slot_ = WatchMapping(data_, size_, path_.c_str());
}

MappedFile::~MappedFile() {
  UnwatchMapping(watch_slot_);
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace cpubrrr

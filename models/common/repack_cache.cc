// The repack cache file: a header naming the model file version, the layouts and every
// matrix, then the copies, written through a temporary file and mapped read-only.
#include "models/common/repack_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "models/common/fnv1a.h"
#include "models/common/repack_matrix.h"
#include "runtime/gguf/errno_status.h"
#include "runtime/gguf/str_cat.h"

namespace cpubrrr {
namespace {

constexpr char kMagic[8] = {'C', 'P', 'B', 'R', 'R', 'P', 'K', '\n'};
constexpr uint32_t kVersion = 1;  // of Header's and Entry's format: bump when either changes
constexpr uint64_t kFirstAlign = uint64_t{2} << 20;  // the copies start on a 2 MiB folio,
// and each matrix on a cache line: the copies lie as RepackWeights lays them out in memory
// (research log: page-aligned matrices decoded no faster, if anything slower)
constexpr uint64_t kAlign = 64;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t n_matrices;
  uint64_t layouts;
  uint64_t model_size;
  uint64_t model_inode;
  int64_t model_mtime_ns;
  uint64_t file_bytes;
};

// One matrix (all its experts): what it is and where its copies are.
struct Entry {
  uint32_t type;
  uint32_t unused;
  int64_t rows;
  int64_t cols;
  int64_t n_mat;
  uint64_t matrix_bytes;  // of one expert's copy
  uint64_t offset;        // of the first expert's copy, from the start of the file
};

uint64_t RoundUp(uint64_t n, uint64_t align) { return (n + align - 1) / align * align; }

// Returns the entries of a cache file of `matrices`, and its size in `file_bytes`.
std::vector<Entry> Plan(absl::Span<WeightMatrix* const> matrices, uint64_t* file_bytes) {
  std::vector<Entry> entries;
  uint64_t at = RoundUp(sizeof(Header) + matrices.size() * sizeof(Entry), kFirstAlign);
  for (const WeightMatrix* m : matrices) {
    Entry e{};
    e.type = static_cast<uint32_t>(m->type);
    e.rows = m->rows;
    e.cols = m->cols;
    e.n_mat = m->n_mat;
    e.matrix_bytes = RepackedMatrixBytes(*m);
    e.offset = at;
    entries.push_back(e);
    at = RoundUp(at + static_cast<uint64_t>(m->n_mat) * e.matrix_bytes, kAlign);
  }
  *file_bytes = at;
  return entries;
}

std::string Dirname(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Creates `dir` and its missing parents.
absl::Status MakeDirs(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return absl::OkStatus();
    return absl::FailedPreconditionError(Cat(dir, " is not a directory"));
  }
  const std::string parent = Dirname(dir);
  if (parent != dir) {
    if (absl::Status s = MakeDirs(parent); !s.ok()) return s;
  }
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return ErrnoError("cannot create", dir, errno);
  return absl::OkStatus();
}

// Writes all `n` bytes of `data` at `offset`; returns 0 or the errno of the failure.
int PwriteAll(int fd, const uint8_t* data, uint64_t n, uint64_t offset) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, data, std::min<uint64_t>(n, uint64_t{1} << 30), static_cast<off_t>(offset));
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (w == 0) return EIO;
    data += w;
    offset += static_cast<uint64_t>(w);
    n -= static_cast<uint64_t>(w);
  }
  return 0;
}

// Writes a run of consecutive bytes of the file through a buffer, in pieces that end on
// 2 MiB boundaries of the file: a write that covers a whole 2 MiB range of it puts one
// large folio in the page cache, which the model's mapping then maps with one TLB entry
// (smaller writes leave 4 KiB pages).
class RunWriter {
 public:
  RunWriter(int fd, uint64_t offset) : fd_(fd), offset_(offset) { buffer_.reserve(kFlushAt + kFirstAlign); }

  // Returns where the next `bytes` appended go, to be filled before the next call.
  uint8_t* Append(uint64_t bytes) {
    const size_t at = buffer_.size();
    buffer_.resize(at + bytes);
    return buffer_.data() + at;
  }
  // Writes the buffer up to its last 2 MiB boundary once it holds kFlushAt bytes, or all of
  // it when `all`; returns 0 or the errno of a failed write.
  int Flush(bool all) {
    if (!all && buffer_.size() < kFlushAt) return 0;
    const uint64_t end = all ? offset_ + buffer_.size() : (offset_ + buffer_.size()) / kFirstAlign * kFirstAlign;
    const uint64_t n = end - offset_;
    if (const int err = PwriteAll(fd_, buffer_.data(), n, offset_); err != 0) return err;
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<ptrdiff_t>(n));
    offset_ = end;
    return 0;
  }

 private:
  static constexpr size_t kFlushAt = size_t{32} << 20;
  int fd_;
  uint64_t offset_;  // of the buffer's first byte
  std::vector<uint8_t> buffer_;
};

// The temporary file being written; removed unless Keep() renamed it into place.
class TempFile {
 public:
  TempFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) ::unlink(path_.c_str());
  }

  // Flushes the file to disk, closes it and renames it to `path`.
  absl::Status Keep(const std::string& path) {
    if (::fsync(fd_) != 0) return ErrnoError("cannot flush", path_, errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return ErrnoError("cannot close", path_, errno);
    if (::rename(path_.c_str(), path.c_str()) != 0) return ErrnoError("cannot rename to", path, errno);
    kept_ = true;
    // Make the rename itself durable; the file is whole either way.
    const int dir = ::open(Dirname(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
    return absl::OkStatus();
  }

 private:
  std::string path_;
  int fd_;
  bool kept_ = false;
};

// Removes temporary files of `path` left by writers that are no longer running (each
// takes as much disk as the cache).
void RemoveAbandonedTempFiles(const std::string& path) {
  const std::string dir = Dirname(path);
  const std::string prefix = path.substr(path.rfind('/') + 1) + ".tmp.";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;
  while (const dirent* entry = ::readdir(d)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid > 0 && pid <= INT_MAX && *end == '\0' && ::kill(static_cast<pid_t>(pid), 0) != 0 &&
        errno == ESRCH) {
      ::unlink(Cat(dir, "/", name).c_str());
    }
  }
  ::closedir(d);
}

}  // namespace

std::string RepackCachePath(const std::string& dir, const std::string& model_path) {
  char resolved[PATH_MAX];
  const std::string absolute = ::realpath(model_path.c_str(), resolved) != nullptr ? resolved : model_path;
  const uint64_t hash = Fnv1a(absolute.data(), absolute.size());
  const size_t slash = absolute.rfind('/');
  const std::string name = absolute.substr(slash == std::string::npos ? 0 : slash + 1, 100);
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(hash));
  return Cat(dir, "/", name, "-", hex, ".repacked");
}

absl::Status CheckDiskRoom(const std::string& dir, uint64_t bytes) {
  struct statvfs fs;
  if (::statvfs(dir.c_str(), &fs) != 0) return ErrnoError("cannot query the free space of", dir, errno);
  const uint64_t free = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  const uint64_t keep = std::max<uint64_t>(uint64_t{2} << 30, static_cast<uint64_t>(fs.f_blocks) * fs.f_frsize / 20);
  if (free >= bytes + keep) return absl::OkStatus();
  auto gib = [](uint64_t b) { return absl::StrFormat("%.1f GiB", b / double(uint64_t{1} << 30)); };
  return absl::FailedPreconditionError(Cat("not enough free disk space in ", dir, ": ", gib(free),
                                           " free, the copies take ", gib(bytes), " and ",
                                           gib(keep), " must stay free"));
}

uint64_t RepackCacheBytes(absl::Span<WeightMatrix* const> matrices) {
  uint64_t bytes = 0;
  Plan(matrices, &bytes);
  return bytes;
}

absl::Status WriteRepackCache(const std::string& path, const RepackCacheKey& key,
                              absl::Span<WeightMatrix* const> matrices, WorkerPool& pool,
                              const std::function<void(const WeightMatrix&)>& after_matrix) {
  uint64_t file_bytes = 0;
  const std::vector<Entry> entries = Plan(matrices, &file_bytes);
  const std::string dir = Dirname(path);
  if (absl::Status s = MakeDirs(dir); !s.ok()) return s;
  RemoveAbandonedTempFiles(path);
  if (absl::Status s = CheckDiskRoom(dir, file_bytes); !s.ok()) return s;
  const std::string tmp_path = Cat(path, ".tmp.", ::getpid());
  const int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", tmp_path, errno);
  TempFile tmp(tmp_path, fd);
  // Take the space first: a full disk fails here, before any copy is made.
  if (::fallocate(fd, 0, 0, static_cast<off_t>(file_bytes)) != 0 && errno != EOPNOTSUPP) {
    return ErrnoError("cannot reserve space for", tmp_path, errno);
  }
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.version = kVersion;
  h.n_matrices = static_cast<uint32_t>(entries.size());
  h.layouts = key.layouts;
  h.model_size = key.model.size;
  h.model_inode = key.model.inode;
  h.model_mtime_ns = key.model.mtime_ns;
  h.file_bytes = file_bytes;
  std::vector<uint8_t> head(sizeof(Header) + entries.size() * sizeof(Entry));
  std::memcpy(head.data(), &h, sizeof(h));
  std::memcpy(head.data() + sizeof(h), entries.data(), entries.size() * sizeof(Entry));
  if (const int err = PwriteAll(fd, head.data(), head.size(), 0); err != 0) {
    return ErrnoError("cannot write", tmp_path, err);
  }
  for (size_t i = 0; i < matrices.size(); ++i) {
    const WeightMatrix& m = *matrices[i];
    const Entry& e = entries[i];
    std::mutex mu;
    int first_error = 0;
    pool.Run([&](const WorkerContext& ctx) {
      const Range experts = ctx.Share(static_cast<size_t>(m.n_mat));
      RunWriter out(fd, e.offset + experts.begin * e.matrix_bytes);
      int err = 0;
      for (size_t x = experts.begin; x < experts.end && err == 0; ++x) {
        RepackMatrix(m, static_cast<int64_t>(x), out.Append(e.matrix_bytes));
        err = out.Flush(x + 1 == experts.end);
      }
      if (err != 0) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_error == 0) first_error = err;
      }
    });
    if (first_error != 0) return ErrnoError("cannot write", tmp_path, first_error);
    if (after_matrix) after_matrix(m);
  }
  // Without fallocate the last matrix's padding may not have been written.
  if (::ftruncate(fd, static_cast<off_t>(file_bytes)) != 0) return ErrnoError("cannot size", tmp_path, errno);
  return tmp.Keep(path);
}

absl::StatusOr<std::unique_ptr<MappedFile>> MapRepackCache(const std::string& path,
                                                           const RepackCacheKey& key,
                                                           absl::Span<WeightMatrix* const> matrices) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? absl::NotFoundError(Cat("no repack cache at ", path))
                           : ErrnoError("cannot stat", path, errno);
  }
  absl::StatusOr<std::unique_ptr<MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  const absl::Span<const uint8_t> bytes = (*file)->bytes();
  auto stale = [&path](const std::string& why) {
    return absl::FailedPreconditionError(Cat("repack cache ", path, " ", why));
  };
  Header h;
  if (bytes.size() < sizeof(h)) return stale("is too short to be one");
  std::memcpy(&h, bytes.data(), sizeof(h));
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0) return stale("is not a repack cache");
  if (h.version != kVersion || h.layouts != key.layouts) return stale("was written by another version of cpubrrr");
  if (!(FileIdentity{h.model_size, h.model_inode, h.model_mtime_ns} == key.model)) {
    return stale("was written for another version of the model file");
  }
  uint64_t file_bytes = 0;
  const std::vector<Entry> want = Plan(matrices, &file_bytes);
  if (h.n_matrices != want.size() || bytes.size() < sizeof(h) + want.size() * sizeof(Entry) ||
      std::memcmp(bytes.data() + sizeof(h), want.data(), want.size() * sizeof(Entry)) != 0) {
    return stale("holds other matrices");
  }
  if (h.file_bytes != file_bytes || bytes.size() != file_bytes) {
    return stale(Cat("has ", bytes.size(), " bytes, not ", file_bytes, " (damaged)"));
  }
  for (size_t i = 0; i < matrices.size(); ++i) {
    matrices[i]->repacked = bytes.data() + want[i].offset;
    matrices[i]->repacked_bytes = want[i].matrix_bytes;
  }
  return file;
}

}  // namespace cpubrrr

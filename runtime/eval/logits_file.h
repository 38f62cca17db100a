// The base-logits file of llama-perplexity --kl-divergence-base: a header, the evaluated
// tokens, then the stored log-probability rows of the scored half of every chunk.
#ifndef CPUBRRR_RUNTIME_EVAL_LOGITS_FILE_H_
#define CPUBRRR_RUNTIME_EVAL_LOGITS_FILE_H_

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace cpubrrr {

// Positions of a chunk of n_ctx tokens that are scored: the second half, less the last.
inline uint32_t ScoredPerChunk(uint32_t n_ctx) { return n_ctx - 1 - n_ctx / 2; }

struct LogitsFileHeader {
  uint32_t n_ctx = 0;
  uint32_t n_vocab = 0;
  uint32_t n_chunk = 0;
  std::vector<int32_t> tokens;  // n_chunk * n_ctx
};

class LogitsFileWriter {
 public:
  // Creates `path` and writes the header and tokens.
  static absl::StatusOr<LogitsFileWriter> Create(const std::string& path,
                                                 const LogitsFileHeader& header);
  // Appends one chunk's rows (ScoredPerChunk(n_ctx) * LogProbRowEntries(n_vocab)).
  absl::Status AppendChunk(absl::Span<const uint16_t> rows);
  // Flushes and closes; fails when the disk did not take every byte.
  absl::Status Close();

 private:
  LogitsFileWriter(std::string path, std::ofstream out) : path_(std::move(path)), out_(std::move(out)) {}
  std::string path_;
  std::ofstream out_;
};

class LogitsFileReader {
 public:
  // Opens `path` and reads the header and tokens; fails on a file of another kind or
  // one cut short.
  static absl::StatusOr<LogitsFileReader> Open(const std::string& path);
  const LogitsFileHeader& header() const { return header_; }
  // Reads the next chunk's rows into `rows` (resized).
  absl::Status ReadChunk(std::vector<uint16_t>& rows);

 private:
  LogitsFileReader(std::string path, std::ifstream in, LogitsFileHeader header)
      : path_(std::move(path)), in_(std::move(in)), header_(std::move(header)) {}
  std::string path_;
  std::ifstream in_;
  LogitsFileHeader header_;
  uint32_t chunks_read_ = 0;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_EVAL_LOGITS_FILE_H_

// Writes and reads llama-perplexity's base-logits files (little-endian, as it writes them).
#include "runtime/eval/logits_file.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/eval/token_log_probs.h"

namespace cpubrrr {
namespace {

constexpr char kMagic[8] = {'_', 'l', 'o', 'g', 'i', 't', 's', '_'};
// Larger headers than this are not files of a real run (2^31 tokens).
constexpr uint64_t kMaxTokens = uint64_t{1} << 31;
// Nor larger vocabularies (the header's n_vocab sizes every row).
constexpr int32_t kMaxVocab = 1 << 24;

size_t ChunkEntries(const LogitsFileHeader& h) {
  return size_t{ScoredPerChunk(h.n_ctx)} * LogProbRowEntries(h.n_vocab);
}

}  // namespace

absl::StatusOr<LogitsFileWriter> LogitsFileWriter::Create(const std::string& path,
                                                          const LogitsFileHeader& header) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot create ", path));
  const int32_t fields[3] = {static_cast<int32_t>(header.n_ctx), static_cast<int32_t>(header.n_vocab),
                             static_cast<int32_t>(header.n_chunk)};
  out.write(kMagic, sizeof(kMagic));
  out.write(reinterpret_cast<const char*>(fields), sizeof(fields));
  out.write(reinterpret_cast<const char*>(header.tokens.data()), header.tokens.size() * sizeof(int32_t));
  if (!out) return absl::ResourceExhaustedError(absl::StrCat("cannot write ", path));
  return LogitsFileWriter(path, std::move(out));
}

absl::Status LogitsFileWriter::AppendChunk(absl::Span<const uint16_t> rows) {
  out_.write(reinterpret_cast<const char*>(rows.data()), rows.size() * sizeof(uint16_t));
  if (!out_) return absl::ResourceExhaustedError(absl::StrCat("cannot write ", path_, " (disk full?)"));
  return absl::OkStatus();
}

absl::Status LogitsFileWriter::Close() {
  out_.close();
  if (!out_) return absl::ResourceExhaustedError(absl::StrCat("cannot finish writing ", path_));
  return absl::OkStatus();
}

absl::StatusOr<LogitsFileReader> LogitsFileReader::Open(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  char magic[8];
  int32_t fields[3];
  in.read(magic, sizeof(magic));
  if (!in || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not a logits file (no _logits_ header)"));
  }
  in.read(reinterpret_cast<char*>(fields), sizeof(fields));
  if (!in || fields[0] < 4 || fields[1] < 1 || fields[1] > kMaxVocab || fields[2] < 0 ||
      uint64_t(fields[0]) * uint64_t(fields[2]) > kMaxTokens) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": the header's context, vocabulary or chunk count is invalid"));
  }
  LogitsFileHeader h{static_cast<uint32_t>(fields[0]), static_cast<uint32_t>(fields[1]),
                     static_cast<uint32_t>(fields[2]), {}};
  // The header fixes the file's size; check it before allocating anything it names.
  const uint64_t expected = sizeof(kMagic) + sizeof(fields) + uint64_t{h.n_ctx} * h.n_chunk * sizeof(int32_t) +
                            uint64_t{h.n_chunk} * ChunkEntries(h) * sizeof(uint16_t);
  in.seekg(0, std::ios::end);
  const uint64_t actual = static_cast<uint64_t>(in.tellg());
  in.seekg(sizeof(kMagic) + sizeof(fields));
  if (actual < expected) {
    return absl::InvalidArgumentError(absl::StrCat(path, " holds ", actual, " bytes; its header (context ", h.n_ctx,
                                                   ", vocabulary ", h.n_vocab, ", ", h.n_chunk,
                                                   " chunks) needs ", expected));
  }
  h.tokens.resize(size_t{h.n_ctx} * h.n_chunk);
  in.read(reinterpret_cast<char*>(h.tokens.data()), h.tokens.size() * sizeof(int32_t));
  if (!in) return absl::InvalidArgumentError(absl::StrCat(path, " ends inside its token list"));
  return LogitsFileReader(path, std::move(in), std::move(h));
}

absl::Status LogitsFileReader::ReadChunk(std::vector<uint16_t>& rows) {
  rows.resize(ChunkEntries(header_));
  in_.read(reinterpret_cast<char*>(rows.data()), rows.size() * sizeof(uint16_t));
  if (!in_) {
    return absl::InvalidArgumentError(absl::StrCat(path_, " ends inside the log-probabilities of chunk ",
                                                   chunks_read_ + 1));
  }
  ++chunks_read_;
  return absl::OkStatus();
}

}  // namespace cpubrrr

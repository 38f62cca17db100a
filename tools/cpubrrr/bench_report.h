// The results of `cpubrrr bench` and their two printed forms: a markdown table in
// llama-bench's layout with a bandwidth ceiling per row, and JSON rows.
#ifndef CPUBRRR_TOOLS_CPUBRRR_BENCH_REPORT_H_
#define CPUBRRR_TOOLS_CPUBRRR_BENCH_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace cpubrrr {

// One model load at one thread count.
struct BenchLoad {
  int threads = 0;
  double read_gbs = 0;          // streaming read bandwidth of `threads` threads, GB/s
  double load_seconds = 0;
  uint64_t peak_rss_bytes = 0;  // getrusage's ru_maxrss right after the load
  uint64_t peak_rss_after_tests_bytes = 0;  // and after this thread count's tests (0: not taken)
};

// One test at one thread count.
struct BenchRow {
  std::string model;  // general.name, or the file name when the model has none
  std::string path;
  uint64_t file_bytes = 0;
  uint64_t n_params = 0;
  // Weight bytes per generated token: of a step of n_seq tokens, the measured bytes over
  // n_seq (ModelInfo::bytes_per_token when the model does not count).
  uint64_t bytes_per_token = 0;
  int threads = 0;
  int n_prompt = 0;  // ppN: N; 0 for tg rows
  int n_gen = 0;     // tgN: N; 0 for pp rows
  int n_seq = 1;     // sequences per step; t/s counts all of them
  int depth = 0;     // tokens already cached before the test
  std::vector<double> samples_ts;  // tokens per second of each repetition
  // Bytes the timed runs fetched from storage per token (a model larger than the page
  // cache reads its experts from disk); 0 when all came from memory.
  double storage_bytes_per_token = 0;
};

struct BenchReport {
  std::string cpu;
  int cores = 0;
  std::vector<BenchLoad> loads;  // one per thread count, in the order run
  std::vector<BenchRow> rows;
};

// Returns "pp512" or "tg128", with " x4" for 4 sequences and " @ d8192" at a depth.
std::string TestName(const BenchRow& row);

// Returns the decode ceiling of `row` in tokens per second: the read bandwidth over the
// bytes per token; 0 for pp rows and when either is unknown.
double CeilingTokensPerSecond(const BenchRow& row, double read_gbs);

// Returns the machine line, one load line per thread count, a blank line and the table:
// model | size | params | threads | test | t/s | GB/token | ceiling t/s | % of ceiling |
// spread | disk GB/token, with t/s as "mean ± stddev", "-" in the three ceiling columns of
// pp rows, the spread as the fastest repetition over the slowest ("1.07x"), and the bytes
// read from storage per token. A load line adds the peak RSS after the tests when taken.
std::string MarkdownReport(const BenchReport& report);

// Returns a JSON array of one object per row: the table's values as numbers (file_bytes
// and size_gib for the file), every sample, and llama-bench's names for the fields it
// shares (model_filename, model_n_params, n_threads, n_prompt, n_gen, n_depth, avg_ts,
// stddev_ts, samples_ts, cpu_info; not model_size, which llama-bench gives as tensor
// bytes), n_seq, median_ts, spread_ts, disk_gb_per_token and peak_rss_after_tests_bytes.
std::string JsonReport(const BenchReport& report);

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_BENCH_REPORT_H_

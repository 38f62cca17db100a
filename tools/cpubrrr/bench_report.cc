// Formats the bench results: padded markdown columns, or nlohmann JSON.
#include "tools/cpubrrr/bench_report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "tools/cpubrrr/bench_stats.h"

namespace cpubrrr {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

const BenchLoad* LoadAt(const BenchReport& report, int threads) {
  for (const BenchLoad& load : report.loads) {
    if (load.threads == threads) return &load;
  }
  return nullptr;
}

double ReadGbsAt(const BenchReport& report, int threads) {
  const BenchLoad* load = LoadAt(report, threads);
  return load ? load->read_gbs : 0;
}

std::string Threads(int n) { return absl::StrCat(n, n == 1 ? " thread" : " threads"); }

// Returns the table's cells of `row`, in column order.
std::vector<std::string> Cells(const BenchReport& report, const BenchRow& row) {
  const SampleStats ts = Summarize(row.samples_ts);
  const double ceiling = CeilingTokensPerSecond(row, ReadGbsAt(report, row.threads));
  return {absl::StrReplaceAll(row.model, {{"|", "\\|"}}),
          absl::StrFormat("%.2f GiB", row.file_bytes / kGiB),
          absl::StrFormat("%.2f B", row.n_params / 1e9),
          absl::StrCat(row.threads),
          TestName(row),
          absl::StrFormat("%.2f ± %.2f", ts.mean, ts.stddev),
          row.n_gen > 0 ? absl::StrFormat("%.3f", row.bytes_per_token / 1e9) : "-",
          ceiling > 0 ? absl::StrFormat("%.2f", ceiling) : "-",
          ceiling > 0 ? absl::StrFormat("%.1f%%", 100 * ts.mean / ceiling) : "-",
          ts.spread > 0 ? absl::StrFormat("%.2fx", ts.spread) : "-",
          absl::StrFormat("%.3f", row.storage_bytes_per_token / 1e9)};
}

// Returns the display width of `cell` (UTF-8 continuation bytes take no column).
size_t Width(const std::string& cell) {
  return std::count_if(cell.begin(), cell.end(), [](char c) { return (c & 0xc0) != 0x80; });
}

}  // namespace

std::string TestName(const BenchRow& row) {
  std::string name = row.n_prompt > 0 ? absl::StrCat("pp", row.n_prompt) : absl::StrCat("tg", row.n_gen);
  if (row.n_seq > 1) absl::StrAppend(&name, " x", row.n_seq);
  if (row.depth > 0) absl::StrAppend(&name, " @ d", row.depth);
  return name;
}

double CeilingTokensPerSecond(const BenchRow& row, double read_gbs) {
  if (row.n_gen == 0 || row.bytes_per_token == 0 || read_gbs <= 0) return 0;
  return read_gbs * 1e9 / row.bytes_per_token;
}

std::string MarkdownReport(const BenchReport& report) {
  std::vector<std::string> bandwidths;
  for (const BenchLoad& load : report.loads) {
    bandwidths.push_back(absl::StrFormat("%s %.1f GB/s", Threads(load.threads), load.read_gbs));
  }
  std::string out = absl::StrCat("machine: ", report.cpu, ", ", report.cores,
                                 report.cores == 1 ? " core" : " cores", "; read bandwidth: ",
                                 absl::StrJoin(bandwidths, ", "), "\n");
  for (const BenchLoad& load : report.loads) {
    absl::StrAppendFormat(&out, "load with %s: %.2f s, peak RSS %.2f GiB", Threads(load.threads),
                          load.load_seconds, load.peak_rss_bytes / kGiB);
    if (load.peak_rss_after_tests_bytes > 0) {
      absl::StrAppendFormat(&out, ", %.2f GiB after the tests", load.peak_rss_after_tests_bytes / kGiB);
    }
    out += "\n";
  }
  out += "\n";

  std::vector<std::vector<std::string>> table = {
      {"model", "size", "params", "threads", "test", "t/s", "GB/token", "ceiling t/s", "% of ceiling", "spread",
       "disk GB/token"}};
  for (const BenchRow& row : report.rows) table.push_back(Cells(report, row));
  std::vector<size_t> widths(table[0].size(), 3);
  for (const auto& cells : table) {
    for (size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], Width(cells[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - Width(cells[c]), ' ');
      absl::StrAppend(&out, "| ", c == 0 ? cells[c] + pad : pad + cells[c], " ");
    }
    out += "|\n";
  };
  line(table[0]);
  for (size_t c = 0; c < widths.size(); ++c) {
    absl::StrAppend(&out, "| ", c == 0 ? std::string(widths[c], '-') : std::string(widths[c] - 1, '-') + ":", " ");
  }
  out += "|\n";
  for (size_t r = 1; r < table.size(); ++r) line(table[r]);
  return out;
}

std::string JsonReport(const BenchReport& report) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const BenchRow& row : report.rows) {
    const SampleStats ts = Summarize(row.samples_ts);
    const BenchLoad* load = LoadAt(report, row.threads);
    const double read_gbs = load ? load->read_gbs : 0;
    const double ceiling = CeilingTokensPerSecond(row, read_gbs);
    nlohmann::ordered_json o = {
        {"model", row.model},
        {"model_filename", row.path},
        {"file_bytes", row.file_bytes},
        {"size_gib", row.file_bytes / kGiB},
        {"model_n_params", row.n_params},
        {"params_b", row.n_params / 1e9},
        {"n_threads", row.threads},
        {"test", TestName(row)},
        {"n_prompt", row.n_prompt},
        {"n_gen", row.n_gen},
        {"n_depth", row.depth},
        {"n_seq", row.n_seq},
        {"avg_ts", ts.mean},
        {"stddev_ts", ts.stddev},
        {"median_ts", ts.median},
        {"spread_ts", ts.spread > 0 ? nlohmann::ordered_json(ts.spread) : nlohmann::ordered_json()},
        {"samples_ts", row.samples_ts},
        {"gb_per_token", row.n_gen > 0 ? nlohmann::ordered_json(row.bytes_per_token / 1e9) : nlohmann::ordered_json()},
        {"read_gbs", read_gbs},
        {"ceiling_ts", ceiling > 0 ? nlohmann::ordered_json(ceiling) : nlohmann::ordered_json()},
        {"pct_of_ceiling", ceiling > 0 ? nlohmann::ordered_json(100 * ts.mean / ceiling) : nlohmann::ordered_json()},
        {"cpu_info", report.cpu},
        {"n_cores", report.cores},
        {"load_seconds", load ? load->load_seconds : 0},
        {"peak_rss_bytes", load ? load->peak_rss_bytes : 0},
        {"peak_rss_after_tests_bytes", load ? load->peak_rss_after_tests_bytes : 0},
        {"disk_gb_per_token", row.storage_bytes_per_token / 1e9},
    };
    rows.push_back(std::move(o));
  }
  return rows.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace cpubrrr

// Checks the markdown table's layout and numbers, and the JSON rows' fields.
#include "tools/cpubrrr/bench_report.h"

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace cpubrrr {
namespace {

// Two thread counts, a pp and a tg row each: 20 GB/s and 30 GB/s; 0.5 GB per token.
BenchReport Example() {
  BenchReport report;
  report.cpu = "Test CPU 9000";
  report.cores = 2;
  report.loads.resize(2);
  report.loads[0] = {.threads = 1, .read_gbs = 20, .load_seconds = 1.5, .peak_rss_bytes = uint64_t{3} << 29};
  report.loads[1] = {.threads = 2, .read_gbs = 30, .load_seconds = 0.25, .peak_rss_bytes = uint64_t{2} << 30,
                     .peak_rss_after_tests_bytes = uint64_t{5} << 29};
  BenchRow row;
  row.model = "gpt|oss";
  row.path = "/m/x.gguf";
  row.file_bytes = uint64_t{12} << 30;
  row.n_params = 20'910'000'000;
  row.bytes_per_token = 500'000'000;
  row.storage_bytes_per_token = 1'250'000;
  for (int threads : {1, 2}) {
    row.threads = threads;
    row.n_prompt = 512;
    row.n_gen = 0;
    row.samples_ts = {100, 110, 120};  // mean 110, stddev 10
    report.rows.push_back(row);
    row.n_prompt = 0;
    row.n_gen = 128;
    row.samples_ts = {10, 10};  // mean 10, stddev 0
    report.rows.push_back(row);
  }
  return report;
}

std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  for (absl::string_view cell : absl::StrSplit(line, " | ")) cells.emplace_back(cell);
  return cells;
}

TEST(BenchReport, TestNamesAndCeiling) {
  BenchRow row;
  row.bytes_per_token = 500'000'000;
  row.n_gen = 128;
  EXPECT_EQ(TestName(row), "tg128");
  EXPECT_DOUBLE_EQ(CeilingTokensPerSecond(row, 20), 40.0);
  EXPECT_DOUBLE_EQ(CeilingTokensPerSecond(row, 0), 0.0);
  row.n_gen = 0;
  row.n_prompt = 16;
  EXPECT_EQ(TestName(row), "pp16");
  EXPECT_DOUBLE_EQ(CeilingTokensPerSecond(row, 20), 0.0);
}

TEST(BenchReport, MarkdownHeaderLinesAndTable) {
  const std::vector<std::string> lines = absl::StrSplit(MarkdownReport(Example()), '\n');
  ASSERT_EQ(lines.size(), 11u);  // 3 header lines, a blank, header, rule, 4 rows, ""
  EXPECT_EQ(lines[0], "machine: Test CPU 9000, 2 cores; read bandwidth: 1 thread 20.0 GB/s, 2 threads 30.0 GB/s");
  EXPECT_EQ(lines[1], "load with 1 thread: 1.50 s, peak RSS 1.50 GiB");
  EXPECT_EQ(lines[2], "load with 2 threads: 0.25 s, peak RSS 2.00 GiB, 2.50 GiB after the tests");
  EXPECT_EQ(lines[3], "");
  EXPECT_EQ(lines[4].substr(0, 13), "| model    | ");
  for (const char* column :
       {"size", "params", "threads", "test", "t/s", "GB/token", "ceiling t/s", "% of ceiling", "spread",
        "disk GB/token"}) {
    EXPECT_NE(lines[4].find(column), std::string::npos) << column;
  }
  EXPECT_EQ(lines[5].substr(0, 25), "| -------- | --------: | ");
  EXPECT_EQ(lines[5].back(), '|');
  // Every line of the table is as wide as the header (in characters; "±" is 2 bytes).
  for (int i = 6; i < 10; ++i) EXPECT_EQ(lines[i].size() - 1, lines[4].size()) << lines[i];

  EXPECT_EQ(Cells(lines[6]), (std::vector<std::string>{"| gpt\\|oss", "12.00 GiB", "20.91 B", "      1",
                                                       "pp512", "110.00 ± 10.00", "       -",
                                                       "          -", "           -", " 1.20x",
                                                       "        0.001 |"}));
  EXPECT_EQ(Cells(lines[7]), (std::vector<std::string>{"| gpt\\|oss", "12.00 GiB", "20.91 B", "      1",
                                                       "tg128", "  10.00 ± 0.00", "   0.500",
                                                       "      40.00", "       25.0%", " 1.00x",
                                                       "        0.001 |"}));
  // 2 threads: 30 GB/s / 0.5 GB = 60 t/s ceiling, 10 / 60 = 16.7 %.
  EXPECT_EQ(Cells(lines[9])[7], "      60.00");
  EXPECT_EQ(Cells(lines[9])[8], "       16.7%");
}

TEST(BenchReport, JsonRows) {
  const nlohmann::json rows = nlohmann::json::parse(JsonReport(Example()));
  ASSERT_EQ(rows.size(), 4u);
  const nlohmann::json& pp = rows[0];
  EXPECT_EQ(pp["model"], "gpt|oss");
  EXPECT_EQ(pp["model_filename"], "/m/x.gguf");
  EXPECT_EQ(pp["file_bytes"], uint64_t{12} << 30);
  EXPECT_FALSE(pp.contains("model_size"));  // llama-bench's model_size counts tensor bytes only
  EXPECT_DOUBLE_EQ(pp["size_gib"].get<double>(), 12.0);
  EXPECT_EQ(pp["model_n_params"], 20'910'000'000u);
  EXPECT_EQ(pp["n_threads"], 1);
  EXPECT_EQ(pp["test"], "pp512");
  EXPECT_EQ(pp["n_prompt"], 512);
  EXPECT_EQ(pp["n_gen"], 0);
  EXPECT_DOUBLE_EQ(pp["avg_ts"].get<double>(), 110.0);
  EXPECT_DOUBLE_EQ(pp["stddev_ts"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(pp["median_ts"].get<double>(), 110.0);
  EXPECT_DOUBLE_EQ(pp["spread_ts"].get<double>(), 1.2);
  EXPECT_EQ(pp["samples_ts"], (std::vector<double>{100, 110, 120}));
  EXPECT_TRUE(pp["gb_per_token"].is_null());
  EXPECT_TRUE(pp["ceiling_ts"].is_null());
  EXPECT_TRUE(pp["pct_of_ceiling"].is_null());
  EXPECT_EQ(pp["cpu_info"], "Test CPU 9000");
  EXPECT_DOUBLE_EQ(pp["load_seconds"].get<double>(), 1.5);

  const nlohmann::json& tg = rows[3];
  EXPECT_EQ(tg["test"], "tg128");
  EXPECT_EQ(tg["n_threads"], 2);
  EXPECT_DOUBLE_EQ(tg["gb_per_token"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(tg["read_gbs"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(tg["ceiling_ts"].get<double>(), 60.0);
  EXPECT_NEAR(tg["pct_of_ceiling"].get<double>(), 100.0 / 6, 1e-12);
  EXPECT_EQ(tg["peak_rss_bytes"], uint64_t{2} << 30);
  EXPECT_EQ(tg["peak_rss_after_tests_bytes"], uint64_t{5} << 29);
  EXPECT_DOUBLE_EQ(tg["disk_gb_per_token"].get<double>(), 0.00125);
}

}  // namespace
}  // namespace cpubrrr

// Starts the server, loads the model behind it and waits for a stop signal.
#include "tools/cpubrrr/serve_command.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "kernels/common/parallel_read_bandwidth.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/threading/physical_cores.h"
#include "server/http_server.h"
#include "tools/cpubrrr/cli_engine.h"

namespace cpubrrr {
namespace {

// llama.cpp's names of general.file_type values (llama_ftype) the engine can run.
std::string QuantizationName(const std::string& path) {
  absl::StatusOr<GgufFile> file = OpenGguf(path);
  if (!file.ok()) return "unknown";
  absl::StatusOr<uint32_t> type = file->GetU32("general.file_type");
  if (!type.ok()) return "unknown";
  switch (*type) {
    case 0: return "F32";
    case 1: return "F16";
    case 7: return "Q8_0";
    case 15: return "Q4_K_M";
    case 17: return "Q5_K_M";
    case 18: return "Q6_K";
    case 32: return "BF16";
    case 38: return "MXFP4";
    default: return "unknown";
  }
}

// The name clients use: --alias, else -m as given when it is an Ollama name, else the
// file name without .gguf.
std::string Alias(const CliOptions& options, const std::string& path) {
  if (!options.alias.empty()) return options.alias;
  if (options.model.empty()) return "gpt-oss-tiny-brown";
  if (options.model == path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (absl::EndsWith(name, ".gguf")) name.resize(name.size() - 5);
    return name;
  }
  return options.model;
}

absl::Status ReadKeyFile(const std::string& path, std::vector<std::string>& keys) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot read the API key file " + path);
  for (std::string line; std::getline(in, line);) {
    const std::string key(absl::StripAsciiWhitespace(line));
    if (!key.empty()) keys.push_back(key);
  }
  if (keys.empty()) return absl::InvalidArgumentError("the API key file " + path + " holds no key");
  return absl::OkStatus();
}

}  // namespace

absl::Status ServeCommand(const CliOptions& options, absl::Span<const Architecture> architectures) {
  // Signals go to one waiting thread: block them before any other thread starts.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a vanished client is a failed write, not the end

  absl::StatusOr<ModelSource> source = ResolveCliModel(options);
  if (!source.ok()) return source.status();
  server::ServerOptions so;
  so.host = options.host;
  so.port = options.port >= 0 ? options.port : options.ollama ? 11434 : 8080;
  so.api_keys = options.api_keys;
  if (!options.api_key_file.empty()) {
    if (absl::Status s = ReadKeyFile(options.api_key_file, so.api_keys); !s.ok()) return s;
  }
  so.alias = Alias(options, source->path);
  so.timeout_seconds = options.timeout_seconds;
  so.race_url = options.race_url;
  so.cors_origins = options.cors_origins;
  server::HttpServer http(so);
  if (absl::Status s = http.Listen(); !s.ok()) return s;
  // A stop signal while the model loads ends the process at once (nothing is served yet);
  // later it stops the server.
  // serving: the model is up; abandoned: the signal thread is to return without acting.
  std::atomic<bool> serving{false}, abandoned{false};
  std::promise<int> stop;
  std::thread waiter([&] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    if (abandoned.load()) return;
    if (!serving.load()) {
      std::fprintf(stderr, "serve: signal %d while loading: exiting\n", signal_number);
      std::_Exit(0);
    }
    stop.set_value(signal_number);
    // A second signal while stopping ends the process at once.
    sigwait(&stop_signals, &signal_number);
    if (abandoned.load()) return;
    std::fprintf(stderr, "serve: signal %d again: exiting now\n", signal_number);
    std::_Exit(1);
  });
  std::fprintf(stderr, "serve: listening on http://%s:%d (model loading)\n", so.host.c_str(), http.port());

  // The web page's share of the bandwidth ceiling: a short measurement before the model
  // takes the memory.
  const int threads = options.threads > 0 ? options.threads : PhysicalCoreCount();
  const double read_gbs = MeasureParallelReadBandwidthGBs(size_t{256} << 20, {threads}, 3)[0];

  CliOptions model_options = options;
  model_options.model = source->path;
  absl::StatusOr<std::unique_ptr<Engine>> engine = OpenCliEngine(model_options, architectures, options.parallel);
  if (!engine.ok()) {
    abandoned.store(true);
    kill(getpid(), SIGTERM);  // releases the signal thread
    waiter.join();
    return engine.status();
  }
  server::ModelCard card;
  card.path = source->path;
  const ModelInfo& info = (*engine)->model().info();
  card.architecture = info.architecture;
  card.quantization = QuantizationName(source->path);
  card.file_bytes = info.file_bytes;
  card.n_params = info.n_params;
  card.n_vocab = info.n_vocab;
  card.n_ctx_train = info.n_ctx_train;
  card.n_ctx = (*engine)->context_length();
  card.read_bytes_per_second = read_gbs * 1e9;
  struct stat st;
  if (stat(source->path.c_str(), &st) == 0) card.modified = st.st_mtime;
  http.Serve(std::make_unique<Scheduler>(*std::move(engine), SchedulerOptions{.max_waiting = so.max_waiting}), card);
  serving.store(true);
  std::fprintf(stderr, "serve: ready: %s as '%s', context %u\n", source->path.c_str(), so.alias.c_str(), card.n_ctx);

  const int signal_number = stop.get_future().get();
  std::fprintf(stderr, "serve: signal %d: stopping\n", signal_number);
  http.Stop();
  abandoned.store(true);
  kill(getpid(), SIGTERM);  // releases the signal thread from its second wait
  waiter.join();
  return absl::OkStatus();
}

}  // namespace cpubrrr

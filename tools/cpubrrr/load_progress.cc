// Redraws "loading NAME  42%  1.3 s" (or a spinner) on stderr until the model is loaded.
#include "tools/cpubrrr/load_progress.h"

#include <unistd.h>

#include <cstdio>

namespace cpubrrr {

LoadProgress::LoadProgress(std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), tty_(isatty(2)) {
  if (!tty_) return;  // the "loaded" line only, so a failed load prints just its error
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
      Draw(false);
    }
  });
}

LoadProgress::~LoadProgress() {
  Stop();
  if (tty_ && !done_) std::fputs("\r\x1b[K", stderr);  // clear the unfinished line
}

void LoadProgress::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LoadProgress::Draw(bool final) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (final) {
    std::fprintf(stderr, "%sloaded %s in %.1f s\n", tty_ ? "\r\x1b[K" : "", label_.c_str(), seconds);
    return;
  }
  const double fraction = fraction_.load();
  if (fraction >= 0) {
    std::fprintf(stderr, "\r\x1b[Kloading %s  %3.0f%%  %.1f s", label_.c_str(), 100 * fraction, seconds);
  } else {
    static constexpr char kSpinner[] = "|/-\\";
    std::fprintf(stderr, "\r\x1b[Kloading %s %c %.1f s", label_.c_str(), kSpinner[frame_++ % 4], seconds);
  }
  std::fflush(stderr);
}

void LoadProgress::Done() {
  Stop();
  done_ = true;
  Draw(true);
}

}  // namespace cpubrrr

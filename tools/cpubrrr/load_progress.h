// The stderr display while a model loads: percent when the loader reports it, else a
// spinner with the elapsed time.
#ifndef CPUBRRR_TOOLS_CPUBRRR_LOAD_PROGRESS_H_
#define CPUBRRR_TOOLS_CPUBRRR_LOAD_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace cpubrrr {

class LoadProgress {
 public:
  // Starts the display: on a terminal a thread redraws one line ten times a second;
  // elsewhere nothing is shown until Done.
  explicit LoadProgress(std::string label);
  // Stops the display (as Done without the final line, when Done was not called).
  ~LoadProgress();

  // Records that `fraction` (0..1) of the model is loaded. Thread-safe.
  void Update(double fraction) { fraction_.store(fraction); }
  // Stops the display and prints how long loading took.
  void Done();

 private:
  void Stop();
  void Draw(bool final);

  std::string label_;
  const std::chrono::steady_clock::time_point start_;
  const bool tty_;
  std::atomic<double> fraction_{-1.0};  // < 0: never reported
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool done_ = false;
  int frame_ = 0;
  std::thread thread_;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_TOOLS_CPUBRRR_LOAD_PROGRESS_H_

// A lock-free table of watched mappings and the SIGBUS handler that reads it.
#include "runtime/gguf/mapping_fault_guard.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace cpubrrr {
namespace {

// Slots are claimed and released by the owning thread; the handler only reads them.
struct WatchedMapping {
  std::atomic<bool> claimed{false};
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // 0 while the slot is not ready
  std::atomic<const char*> path{nullptr};
};

constexpr int kSlots = 64;
WatchedMapping g_watched[kSlots];
struct sigaction g_previous;

void WriteText(const char* text) {
  size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<size_t>(w);
  }
}

void WriteNumber(uint64_t value) {
  char digits[24];
  int i = sizeof(digits) - 1;
  digits[i] = '\0';
  do {
    digits[--i] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  WriteText(digits + i);
}

void OnBusError(int signal, siginfo_t* info, void* context) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (WatchedMapping& w : g_watched) {
    const uintptr_t end = w.end.load(std::memory_order_acquire);
    const uintptr_t begin = w.begin.load(std::memory_order_relaxed);
    if (end == 0 || address < begin || address >= end) continue;
    const char* path = w.path.load(std::memory_order_relaxed);
    WriteText("cpubrrr: the file ");
    WriteText(path != nullptr ? path : "?");
    WriteText(" changed on disk while in use: reading its byte ");
    WriteNumber(address - begin);
    WriteText(" failed (it was truncated or rewritten by another program). Exiting; start "
              "again to load the file as it is now.\n");
    ::_exit(kMappedFileFaultExit);
  }
  // Not a watched mapping: hand the fault to whoever handled it before, or die of it as
  // the default action would (the signal stays pending until the handler returns).
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) return g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    return g_previous.sa_handler(signal);
  }
  ::signal(SIGBUS, SIG_DFL);
  ::raise(SIGBUS);
}

void InstallHandler() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = OnBusError;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

int WatchMapping(const uint8_t* data, size_t size, const char* path) {
  static std::once_flag installed;
  std::call_once(installed, InstallHandler);
  for (int i = 0; i < kSlots; ++i) {
    WatchedMapping& w = g_watched[i];
    bool expected = false;
    if (!w.claimed.compare_exchange_strong(expected, true)) continue;
    w.path.store(path, std::memory_order_relaxed);
    w.begin.store(reinterpret_cast<uintptr_t>(data), std::memory_order_relaxed);
    w.end.store(reinterpret_cast<uintptr_t>(data) + size, std::memory_order_release);
    return i;
  }
  return -1;
}

void UnwatchMapping(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  WatchedMapping& w = g_watched[slot];
  w.end.store(0, std::memory_order_release);
  w.claimed.store(false, std::memory_order_release);
}

}  // namespace cpubrrr

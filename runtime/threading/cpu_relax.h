// A spin-wait hint to the CPU (pause on x86, yield on Arm).
#ifndef CPUBRRR_RUNTIME_THREADING_CPU_RELAX_H_
#define CPUBRRR_RUNTIME_THREADING_CPU_RELAX_H_

namespace cpubrrr {

// Tells the core this thread is spinning, saving power and the sibling thread's slots.
inline void CpuRelax() {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_THREADING_CPU_RELAX_H_

// Measures the int8 multiply-accumulate peak of vpdpbusd on this core, for gemm efficiency.
#ifndef CPUBRRR_KERNELS_BENCH_VNNI_PEAK_H_
#define CPUBRRR_KERNELS_BENCH_VNNI_PEAK_H_

namespace cpubrrr {

// Returns the best of `repeats` timed runs of independent vpdpbusd chains (zmm and ymm,
// whichever is faster), in int8 multiply-accumulates per second of thread CPU time.
// Precondition: the CPU has AVX-512 VNNI (DetectCpuFeatures); returns 0 off x86-64.
double MeasureVnniPeakMacsPerSecond(int repeats);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_BENCH_VNNI_PEAK_H_

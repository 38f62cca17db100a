// Measures the int8 multiply-accumulate peak of one core with AVX-512 VNNI (vpdpbusd).
#ifndef CPUBRRR_KERNELS_KQUANT_VNNI_PEAK_H_
#define CPUBRRR_KERNELS_KQUANT_VNNI_PEAK_H_

namespace cpubrrr {

// Returns the best of `repeats` timings of a loop of independent 512-bit vpdpbusd
// instructions (64 u8 x s8 multiply-adds each), in 1e9 multiply-adds per second.
// Precondition: the CPU has AVX-512 F/BW/VNNI.
double MeasureVnniPeakGmacs(int repeats);

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_KQUANT_VNNI_PEAK_H_

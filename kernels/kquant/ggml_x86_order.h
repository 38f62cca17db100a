// ggml's x86 float order for the K-quant dots (ggml_vec_dot_q{4,5,6}_K_q8_K, AVX2 path of a
// zen4 build), shared by the AVX-512 Q4_K, Q5_K and Q6_K gemv and gemm.
//
// Per (row, token) ggml keeps eight int32 lanes per 256-value super-block: lane u holds the
// scaled products of values 32c + 4u .. 32c + 4u + 3 over the eight 32-value chunks c (Q6_K:
// minus 32 * (bsum_2u * sc_2u + bsum_2u+1 * sc_2u+1), the offset of sub-blocks 2u and
// 2u + 1). Each super-block then does acc_u = fma(x.d * d, float(lane_u), acc_u) on eight
// float lanes from acc = +0. Q4_K also keeps four min lanes, k = 0..3: m_2k * P_2k +
// m_2k+1 * P_2k+1 with P_j = bsum_2j + bsum_2j+1, and does accm_k = fma(-x.d * dmin,
// float(min_k), accm_k). The result is Sum8(acc) (+ Sum4(accm) for Q4_K).
//
// Q5_K (ggml_vec_dot_q5_K_q8_K, the same AVX2 path in every x86 build from haswell up) has
// the eight lanes of Q4_K, 5-bit values in place of nibbles, but keeps its mins in one float
// per row: per super-block the integer msum = sum_j m_j * P_j, then summs =
// fma(-x.d * dmin, float(msum), summs) (a scalar multiply-add the compiler fused in the
// shipped libraries), from summs = +0. The result is Sum8(acc) + summs.
#ifndef CPUBRRR_KERNELS_KQUANT_GGML_X86_ORDER_H_
#define CPUBRRR_KERNELS_KQUANT_GGML_X86_ORDER_H_

namespace cpubrrr::ggml_x86 {

// ggml's hsum_float_8: the upper four lanes added to the lower four, then lanes {0, 2} and
// {1, 3} added, then those two.
inline float Sum8(const float* a) {
  const float r0 = a[0] + a[4], r1 = a[1] + a[5], r2 = a[2] + a[6], r3 = a[3] + a[7];
  return (r0 + r2) + (r1 + r3);
}

// ggml's 4-lane tree for the Q4_K mins: lanes {0, 2} and {1, 3} added, then those two.
inline float Sum4(const float* m) { return (m[0] + m[2]) + (m[1] + m[3]); }

}  // namespace cpubrrr::ggml_x86

#endif  // CPUBRRR_KERNELS_KQUANT_GGML_X86_ORDER_H_

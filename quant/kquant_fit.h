// The scale-and-min super-block encoder shared by the Q4_K and Q5_K reference quantizers.
#ifndef CPUBRRR_QUANT_KQUANT_FIT_H_
#define CPUBRRR_QUANT_KQUANT_FIT_H_

#include <cstdint>

namespace cpubrrr {

// The grid search of one format: per 32-value sub-block, the plain min/max grid with
// q_max steps, then steps + 1 grids of (q_max + first_offset + 0.1 s) / (max - lo) for
// s = 0 .. steps. Q4_K: {15, -1, 20}; Q5_K: {31, -0.5, 15}.
struct ScaleMinSearch {
  int q_max;
  float first_offset;
  int steps;
};

// Encodes the 256 values x of one super-block as ggml's Q4_K / Q5_K reference encoders do:
// per sub-block j a weighted least-squares fit v ~= scale_j * q + lo_j (lo_j <= 0, weights
// RMS + |v|), 6-bit codes sc[j] and m[j] of scale_j and -lo_j against the block maxima,
// d and dmin (fp16 bits) = maxima / 63, and the quants q[i] in 0..q_max requantized
// against the stored scales (a sub-block whose d * sc rounds to zero keeps its fit's
// quants). Precondition: every x is finite.
void QuantizeScaleMinSuperBlock(const float* x, const ScaleMinSearch& search, uint8_t sc[8],
                                uint8_t m[8], uint16_t* d, uint16_t* dmin, uint8_t q[256]);

}  // namespace cpubrrr

#endif  // CPUBRRR_QUANT_KQUANT_FIT_H_

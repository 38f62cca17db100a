// FMOPA tile core (see sme_int8_tile.h): inline asm that enters and leaves streaming mode in
// one block, touching only its operands, memory and the registers it clobbers
// (sme_tile_asm.h).
#include "kernels/tiles/sme_int8_tile.h"

#include "kernels/tiles/sme_tile_asm.h"

namespace cpubrrr {

size_t SmeTileSide() {
  uint64_t svl_bytes = 0;
  asm volatile(
      ".arch_extension sme\n"
      "rdsvl %0, #1\n"
      : "=r"(svl_bytes));
  return svl_bytes / 4;
}

void SmeInt8BlockTile(const int8_t* wq, const float* ws, const int8_t* xq, const float* xs,
                      size_t n_blocks, float* out) {
  const uint64_t n = SmeTileSide();
  asm volatile(
      CPUBRRR_SME_TILE_BEGIN
      // Block dots of all (row, token) pairs: ZA0.S[i][j] = sum over 16 chunks of the
      // 2-way fp16 products of w row i and x token j (int8 -> int16 -> fp16, exact).
      "zero {za0.s}\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #0, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #0, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #1, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #1, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #2, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #2, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #3, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #3, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #4, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #4, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #5, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #5, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #6, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #6, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #7, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #7, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "addvl %[wq], %[wq], #4\n"
      "addvl %[xq], %[xq], #4\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #0, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #0, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #1, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #1, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #2, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #2, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #3, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #3, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #4, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #4, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #5, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #5, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #6, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #6, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "ld1sb {z0.h}, p0/z, [%[wq], #7, mul vl]\n"
      "ld1sb {z1.h}, p0/z, [%[xq], #7, mul vl]\n"
      "scvtf z0.h, p0/m, z0.h\n"
      "scvtf z1.h, p0/m, z1.h\n"
      "fmopa za0.s, p0/m, p0/m, z0.h, z1.h\n"
      "addvl %[wq], %[wq], #4\n"
      "addvl %[xq], %[xq], #4\n"
      // Token scales d_x[j], then per row i: s = d_w[i] * d_x, acc[i] += s * float(isum[i]).
      "ld1w {z4.s}, p0/z, [%[xs]]\n"
      "addvl %[xs], %[xs], #1\n"
      "mov w12, #0\n"
      "2:\n"
      "add x13, %[ws], x12, lsl #2\n"
      "ld1rw {z5.s}, p0/z, [x13]\n"
      "fmul z5.s, z5.s, z4.s\n"
      "mova z6.s, p0/m, za0h.s[w12, 0]\n"
      "fmul z6.s, z5.s, z6.s\n"
      "mova z7.s, p0/m, za1h.s[w12, 0]\n"
      "fadd z7.s, z7.s, z6.s\n"
      "mova za1h.s[w12, 0], p0/m, z7.s\n"
      "add w12, w12, #1\n"
      "cmp x12, %[n]\n"
      "b.lo 2b\n"
      "addvl %[ws], %[ws], #1\n"
      CPUBRRR_SME_TILE_END("1")
      : [wq] "+r"(wq), [ws] "+r"(ws), [xq] "+r"(xq), [xs] "+r"(xs), [nb] "+r"(n_blocks),
        [out] "+r"(out)
      : [n] "r"(n)
      : CPUBRRR_SME_TILE_CLOBBERS);
}

}  // namespace cpubrrr

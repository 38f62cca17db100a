// K-quant FMOPA tile and Q8_K activation packing (see sme_kquant_tile.h), inline asm built
// from sme_tile_asm.h.
#include "kernels/tiles/sme_kquant_tile.h"

#include "kernels/tiles/sme_tile_asm.h"

namespace cpubrrr {

void SmePackQ8K(const BlockQ8K& x, size_t j, size_t n, const SmeKQuantShape& shape, int16_t* p) {
  const size_t step = SmeChunkInt16s(n);
  for (size_t c = 0; c < kSmeQ8KQuantChunks; ++c) {
    p[c * step + 2 * j] = x.qs[2 * c];
    p[c * step + 2 * j + 1] = x.qs[2 * c + 1];
  }
  if (shape.x_chunks == kSmeQ8KQuantChunks) return;
  int16_t* bsums = p + kSmeQ8KQuantChunks * step;
  for (size_t c = 0; c < kSmeQ8KBsumChunks; ++c) {
    bsums[c * step + 2 * j] = x.bsums[2 * c];
    bsums[c * step + 2 * j + 1] = x.bsums[2 * c + 1];
  }
}

// Sum T of a block: %[cT] widening FMOPAs into ZA<T>.S of the next weight chunks (wq moves
// on) against the activation chunks from xq + %[oT] bytes; int16 -> fp16 with scvtf (exact).
#define SME_KQUANT_SUM(T)                      \
  "cbz %[c" T "], 6" T "f\n"                   \
  "mov x15, %[c" T "]\n"                       \
  "add x14, %[xq], %[o" T "]\n"                \
  "5" T ":\n"                                  \
  "ld1h {z0.h}, p0/z, [%[wq]]\n"               \
  "ld1h {z1.h}, p0/z, [x14]\n"                 \
  "scvtf z0.h, p0/m, z0.h\n"                   \
  "scvtf z1.h, p0/m, z1.h\n"                   \
  "fmopa za" T ".s, p0/m, p0/m, z0.h, z1.h\n" \
  "addvl %[wq], %[wq], #1\n"                   \
  "addvl x14, x14, #1\n"                       \
  "subs x15, x15, #1\n"                        \
  "b.ne 5" T "b\n"                             \
  "6" T ":\n"

void SmeKQuantBlockTile(const int16_t* wq, const float* wd, const float* wdmin, const int16_t* xq,
                        const float* xd, size_t n_blocks, const SmeKQuantShape& shape, float* out) {
  const uint64_t n = SmeTileSide();
  const uint64_t chunk_bytes = 4 * n;  // SVL: n lanes x 2 int16
  const uint64_t x_step = shape.x_chunks * chunk_bytes;
  const uint64_t o0 = shape.x_first[0] * chunk_bytes, o1 = shape.x_first[1] * chunk_bytes,
                 o2 = shape.x_first[2] * chunk_bytes;
  asm volatile(
      CPUBRRR_SME_TILE_BEGIN
      "zero {za0.s, za1.s, za2.s}\n"
      SME_KQUANT_SUM("0") SME_KQUANT_SUM("1") SME_KQUANT_SUM("2")
      "add %[xq], %[xq], %[x_step]\n"
      // Token scales x.d[j], then per row i: ZA3[i] += x.d * (d[i] * (S0 + S1) - dmin[i] * S2).
      "ld1w {z4.s}, p0/z, [%[xd]]\n"
      "addvl %[xd], %[xd], #1\n"
      "mov w12, #0\n"
      "2:\n"
      "add x13, %[wd], x12, lsl #2\n"
      "ld1rw {z5.s}, p0/z, [x13]\n"
      "add x13, %[wdmin], x12, lsl #2\n"
      "ld1rw {z6.s}, p0/z, [x13]\n"
      "mova z0.s, p0/m, za0h.s[w12, 0]\n"
      "mova z1.s, p0/m, za1h.s[w12, 0]\n"
      "fadd z0.s, z0.s, z1.s\n"
      "fmul z0.s, z5.s, z0.s\n"
      "mova z1.s, p0/m, za2h.s[w12, 0]\n"
      "fmul z1.s, z6.s, z1.s\n"
      "fsub z0.s, z0.s, z1.s\n"
      "fmul z0.s, z4.s, z0.s\n"
      "mova z1.s, p0/m, za3h.s[w12, 0]\n"
      "fadd z1.s, z1.s, z0.s\n"
      "mova za3h.s[w12, 0], p0/m, z1.s\n"
      "add w12, w12, #1\n"
      "cmp x12, %[n]\n"
      "b.lo 2b\n"
      "addvl %[wd], %[wd], #1\n"
      "addvl %[wdmin], %[wdmin], #1\n"
      CPUBRRR_SME_TILE_END("3")
      : [wq] "+r"(wq), [wd] "+r"(wd), [wdmin] "+r"(wdmin), [xq] "+r"(xq), [xd] "+r"(xd),
        [nb] "+r"(n_blocks), [out] "+r"(out)
      : [n] "r"(n), [x_step] "r"(x_step), [c0] "r"(shape.w_chunks[0]),
        [c1] "r"(shape.w_chunks[1]), [c2] "r"(shape.w_chunks[2]), [o0] "r"(o0), [o1] "r"(o1),
        [o2] "r"(o2)
      : CPUBRRR_SME_TILE_CLOBBERS);
}

#undef SME_KQUANT_SUM

}  // namespace cpubrrr

// Inline-asm pieces shared by the SME block tiles (sme_int8_tile.cc, sme_kquant_tile.cc).
//
// A tile's asm names its block count %[nb] ("+r"), its output %[out] ("+r") and the tile
// side %[n], and puts its per-block body between CPUBRRR_SME_TILE_BEGIN and
// CPUBRRR_SME_TILE_END, which own the labels 1 (block loop), 3 and 4; w12/x12 and x13-x15
// are scratch. gcc 12 has no arm_sme.h, hence strings.
#ifndef CPUBRRR_KERNELS_TILES_SME_TILE_ASM_H_
#define CPUBRRR_KERNELS_TILES_SME_TILE_ASM_H_

// Enters streaming mode with ZA zeroed and p0 all true, then starts the block loop.
#define CPUBRRR_SME_TILE_BEGIN \
  ".arch_extension sme\n"      \
  "smstart\n"                  \
  "ptrue p0.b\n"               \
  "zero {za}\n"                \
  "cbz %[nb], 3f\n"            \
  "1:\n"

// Ends the block loop, stores row i of the float tile ZA<T>.S to out[i * n] and leaves
// streaming mode.
#define CPUBRRR_SME_TILE_END(T)              \
  "subs %[nb], %[nb], #1\n"                  \
  "b.ne 1b\n"                                \
  "3:\n"                                     \
  "mov w12, #0\n"                            \
  "4:\n"                                     \
  "st1w {za" T "h.s[w12, 0]}, p0, [%[out]]\n" \
  "addvl %[out], %[out], #1\n"               \
  "add w12, w12, #1\n"                       \
  "cmp x12, %[n]\n"                          \
  "b.lo 4b\n"                                \
  "smstop\n"

// smstart and smstop zero z0-z31 and p0-p15, so all are clobbered, with the scratch
// registers (d8-d15 being callee-saved, the compiler saves them).
#define CPUBRRR_SME_TILE_CLOBBERS                                                           \
  "memory", "cc", "x12", "x13", "x14", "x15", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", \
      "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", \
      "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "p0", "p1", \
      "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", \
      "ffr"

#endif  // CPUBRRR_KERNELS_TILES_SME_TILE_ASM_H_

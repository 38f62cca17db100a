// AVX-512 VNNI Q4_K x Q8_K gemv on the repacked layout (kernels/q4_k/q4_k_repacked.h): the
// GGUF gemv's tile (q4_k_gemv_tile_avx512-inl.h) on one group of four rows at a time, so
// one stream instead of eight and the four headers in one load; the same bits. And the
// gemm: below Avx512LaneTileFrom() tokens the tile on a few tokens at once, from it on
// the lane tile of q4_k_repacked_gemm_avx512.cc.
#include <immintrin.h>

#include "kernels/common/few_tokens.h"
#include "kernels/common/prefetch.h"
#include "kernels/q4_k/q4_k_gemv_tile_avx512-inl.h"
#include "kernels/q4_k/q4_k_kernels.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/tiles/token_tiles.h"

namespace cpubrrr {
namespace {

using q4_k_gemv::FewTokensTile;
using q4_k_gemv::GemvTile;
using q4_k_gemv::GemvX;

constexpr size_t kUnitBytes = kQ4KRepackedUnitBytes;

// How far ahead in the stream the lines read now prefetch theirs: 8 KiB, the header line
// as a unit starts and each row's two quant lines as that row is read (not the unit's
// nine lines at its start). On Zen 5, against the sampled yardstick, per row 8 KiB ahead
// read cold memory a little faster than the nine lines at the start (8 or 10 KiB ahead),
// and per row 10 or 12 KiB ahead a little slower. Stopping the prefetches at the call's
// last line and asking for its first 8 KiB up front helped a little more. Two groups per
// tile (two streams) read clearly slower however they prefetched, though their compute
// ran faster hot (research log).
constexpr size_t kPrefetchBytes = size_t{8} << 10;

// The rows of the group at `group` for GemvTile (rows past the matrix are zero), each line
// prefetching the one kPrefetchBytes on, up to the call's last line (the next groups'
// past the group's end).
struct GroupRows {
  const uint8_t* group;
  const uint8_t* last_line;

  __m512i Headers(size_t b, int) const {
    return _mm512_load_si512(group + kUnitBytes * b + Q4KRepackedHeaderOffset(0));
  }
  const uint8_t* Quants(int r, size_t b) const {
    return group + kUnitBytes * b + Q4KRepackedQuantsOffset(r);
  }
  void Prefetch(size_t b) const {
    PrefetchLineUpTo(group + kUnitBytes * b + Q4KRepackedHeaderOffset(0) + kPrefetchBytes, last_line);
  }
  void PrefetchRow(int r, size_t b) const {
    const uint8_t* ahead = Quants(r, b) + kPrefetchBytes;
    PrefetchLineUpTo(ahead, last_line);
    PrefetchLineUpTo(ahead + 64, last_line);
  }
};

template <int R>
void Group(const GroupRows& rows, const GemvX* xp, size_t n_blocks, float* y) {
  GemvTile<R>(rows, xp, n_blocks, y);
}

using GroupFn = void (*)(const GroupRows&, const GemvX*, size_t, float*);

// Index r - 1 handles a group of r rows below the matrix end.
constexpr GroupFn kGroups[kRepackedRows] = {Group<1>, Group<2>, Group<3>, Group<4>};

}  // namespace

void Q4KRepackedGemvAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x, float* y) {
  const size_t group_bytes = shape.GroupBytes();
  const size_t group_end = GroupRangeEnd(shape, group_begin, n_groups);
  if (group_end <= group_begin) return;
  const uint8_t* first = packed + group_begin * group_bytes;
  const uint8_t* end = packed + group_end * group_bytes;
  PrefetchFirstLines(first, end, kPrefetchBytes);
  const GemvX* xp = q4_k_gemv::PackGemvX(x, shape.n_blocks);
  ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
    kGroups[valid_rows - 1](GroupRows{packed + g * group_bytes, end - 64}, xp, shape.n_blocks,
                            y + (g - group_begin) * kRepackedRows);
  });
}

void Q4KRepackedGemmAvx512(const uint8_t* packed, const Q4KRepackedShape& shape,
                           size_t group_begin, size_t n_groups, const BlockQ8K* x,
                           size_t x_stride, size_t n_tokens, float* y, size_t y_stride) {
  if (n_tokens >= Avx512LaneTileFrom()) {
    Q4KRepackedLaneGemmAvx512(packed, shape, group_begin, n_groups, x, x_stride, n_tokens, y, y_stride);
    return;
  }
  const size_t group_bytes = shape.GroupBytes();
  const size_t group_end = GroupRangeEnd(shape, group_begin, n_groups);
  if (group_end <= group_begin) return;
  const uint8_t* end = packed + group_end * group_bytes;
  PrefetchFirstLines(packed + group_begin * group_bytes, end, kPrefetchBytes);
  const size_t n_blocks = shape.n_blocks;
  const GemvX* xp = q4_k_gemv::PackGemvX(x, x_stride, n_tokens, n_blocks);
  WithCount<kAvx512FewTokensMax>(n_tokens, [&](auto tokens) {
    ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
      WithCount<kRepackedRows>(valid_rows, [&](auto group_rows) {
        FewTokensTile<decltype(group_rows)::value, decltype(tokens)::value>(
            GroupRows{packed + g * group_bytes, end - 64}, xp, n_blocks, n_blocks,
            y + (g - group_begin) * kRepackedRows, y_stride);
      });
    });
  });
}

}  // namespace cpubrrr

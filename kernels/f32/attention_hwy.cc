// Highway attention loops (foreach_target + dynamic dispatch), f32 and f16 caches.
#include "kernels/f32/attention.h"

#include <algorithm>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f32/attention_hwy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/f32/ggml_order-inl.h"

HWY_BEFORE_NAMESPACE();
namespace cpubrrr {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Loads Lanes(d) cache values starting at p as floats.
template <class D>
HWY_INLINE hn::Vec<D> LoadAsFloat(D d, const float* p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadAsFloat(D d, const hwy::float16_t* p) {
  const hn::Rebind<hwy::float16_t, D> dh;
  return hn::PromoteTo(d, hn::LoadU(dh, p));
}

// One horizontal sum per key: the float steps where DotChunk's batched sums do not apply.
void DotRowsOneByOne(const float* q, const float* k, size_t k_stride, size_t n_rows, size_t dim,
                     float scale, float* out) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  for (size_t j = 0; j < n_rows; ++j) {
    const float* row = k + j * k_stride;
    auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
    size_t i = 0;
    for (; i + 4 * L <= dim; i += 4 * L) {
      a0 = hn::MulAdd(hn::LoadU(d, q + i), hn::LoadU(d, row + i), a0);
      a1 = hn::MulAdd(hn::LoadU(d, q + i + L), hn::LoadU(d, row + i + L), a1);
      a2 = hn::MulAdd(hn::LoadU(d, q + i + 2 * L), hn::LoadU(d, row + i + 2 * L), a2);
      a3 = hn::MulAdd(hn::LoadU(d, q + i + 3 * L), hn::LoadU(d, row + i + 3 * L), a3);
    }
    for (; i + L <= dim; i += L) {
      a0 = hn::MulAdd(hn::LoadU(d, q + i), hn::LoadU(d, row + i), a0);
    }
    auto t = hn::Zero(d1);
    for (; i < dim; ++i) t = hn::MulAdd(hn::LoadU(d1, q + i), hn::LoadU(d1, row + i), t);
    const auto all = hn::Add(hn::Add(a0, a1), hn::Add(a2, a3));
    out[j] = scale * (hn::GetLane(hn::SumOfLanes(d, all)) + hn::GetLane(t));
  }
}

// Accumulates the value rows into out[i0 .. i0 + Lanes(d)).
template <class D, typename T>
HWY_INLINE void AxpyColumns(D d, const float* w, const T* v, size_t v_stride,
                            size_t n_rows, size_t i0, float* out) {
  auto acc = hn::LoadU(d, out + i0);
  for (size_t j = 0; j < n_rows; ++j) {
    acc = hn::MulAdd(hn::Set(d, w[j]), LoadAsFloat(d, v + j * v_stride + i0), acc);
  }
  hn::StoreU(acc, d, out + i0);
}

template <typename T>
void AxpyRowsT(const float* w, const T* v, size_t v_stride, size_t n_rows, size_t dim,
               float* out) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  size_t i = 0;
  // Four vectors of output stay in registers while every value row streams past once.
  for (; i + 4 * L <= dim; i += 4 * L) {
    auto a0 = hn::LoadU(d, out + i), a1 = hn::LoadU(d, out + i + L);
    auto a2 = hn::LoadU(d, out + i + 2 * L), a3 = hn::LoadU(d, out + i + 3 * L);
    for (size_t j = 0; j < n_rows; ++j) {
      const T* row = v + j * v_stride + i;
      const auto wj = hn::Set(d, w[j]);
      a0 = hn::MulAdd(wj, LoadAsFloat(d, row), a0);
      a1 = hn::MulAdd(wj, LoadAsFloat(d, row + L), a1);
      a2 = hn::MulAdd(wj, LoadAsFloat(d, row + 2 * L), a2);
      a3 = hn::MulAdd(wj, LoadAsFloat(d, row + 3 * L), a3);
    }
    hn::StoreU(a0, d, out + i);
    hn::StoreU(a1, d, out + i + L);
    hn::StoreU(a2, d, out + i + 2 * L);
    hn::StoreU(a3, d, out + i + 3 * L);
  }
  for (; i + L <= dim; i += L) AxpyColumns(d, w, v, v_stride, n_rows, i, out);
  for (; i < dim; ++i) AxpyColumns(d1, w, v, v_stride, n_rows, i, out);
}

void DotRowsImpl(const float* q, const float* k, size_t k_stride, size_t n_rows,
                 size_t dim, float scale, float* out) {
  for (size_t j = 0; j < n_rows; ++j) out[j] = scale * ggml_order::Dot(q, k + j * k_stride, dim);
}

// Adds w[j] * v_j into lane row (pos0 + j) % 64 of `lanes` (64 rows of dim floats) with
// one fused multiply-add per value; a row's first term is stored (fma with +0 but for
// the sign of a zero), which `touched` records.
void AxpyRowsToLanesImpl(const float* w, const float* v, size_t v_stride, size_t n_rows,
                         size_t dim, size_t pos0, float* lanes, uint64_t* touched) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  for (size_t j = 0; j < n_rows; ++j) {
    const size_t lane = (pos0 + j) % 64;
    const float* row = v + j * v_stride;
    float* acc = lanes + lane * dim;
    const bool first = (*touched >> lane & 1) == 0;
    *touched |= uint64_t{1} << lane;
    size_t i = 0;
    if (first) {
      const auto wj = hn::Set(d, w[j]);
      const auto wj1 = hn::Set(d1, w[j]);
      for (; i + L <= dim; i += L) hn::StoreU(hn::Mul(wj, hn::LoadU(d, row + i)), d, acc + i);
      for (; i < dim; ++i) hn::StoreU(hn::Mul(wj1, hn::LoadU(d1, row + i)), d1, acc + i);
      continue;
    }
    const auto wj = hn::Set(d, w[j]);
    const auto wj1 = hn::Set(d1, w[j]);
    for (; i + L <= dim; i += L) {
      hn::StoreU(hn::MulAdd(hn::LoadU(d, row + i), wj, hn::LoadU(d, acc + i)), d, acc + i);
    }
    for (; i < dim; ++i) {
      hn::StoreU(hn::MulAdd(hn::LoadU(d1, row + i), wj1, hn::LoadU(d1, acc + i)), d1, acc + i);
    }
  }
}

// out[i] = the 64 lane rows summed column by column in ggml_order::Sum64's tree
// (untouched rows count as zero).
void SumLanesImpl(const float* lanes, uint64_t touched, size_t dim, float* out) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  auto at = [&](auto dd, int lane, size_t i) {
    return (touched >> lane & 1) ? hn::LoadU(dd, lanes + lane * dim + i) : hn::Zero(dd);
  };
  // The tree as nested calls (SVE vectors cannot live in arrays): level 1 adds lanes l,
  // 16 + l, 32 + l, 48 + l; level 2 folds l + 8 onto l; level 3 l + 4 onto l.
  auto column = [&](auto dd, size_t i) {
    auto level1 = [&](int l) {
      return hn::Add(hn::Add(at(dd, l, i), at(dd, 32 + l, i)),
                     hn::Add(at(dd, 16 + l, i), at(dd, 48 + l, i)));
    };
    auto level2 = [&](int l) { return hn::Add(level1(l + 8), level1(l)); };
    auto level3 = [&](int l) { return hn::Add(level2(l + 4), level2(l)); };
    hn::StoreU(hn::Add(hn::Add(level3(0), level3(2)), hn::Add(level3(1), level3(3))), dd,
               out + i);
  };
  size_t i = 0;
  for (; i + L <= dim; i += L) column(d, i);
  for (; i < dim; ++i) column(d1, i);
}

void AxpyRowsImpl(const float* w, const float* v, size_t v_stride, size_t n_rows,
                  size_t dim, float* out) {
  AxpyRowsT(w, v, v_stride, n_rows, dim, out);
}

void AxpyRowsF16Impl(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                     size_t dim, float* out) {
  AxpyRowsT(w, reinterpret_cast<const hwy::float16_t*>(v), v_stride, n_rows, dim, out);
}

// Rows of the cache converted per chunk for the grouped functions (a chunk of fp16 rows
// as floats stays in L1).
constexpr size_t kGroupChunkRows = 32;

// How many rows ahead the conversion asks for a cache row: a head's row is a few lines
// a whole KV row apart, a stride the hardware prefetchers follow too late (research log).
constexpr size_t kPrefetchRowsAhead = 16;

// Writes the n_rows x dim fp16 values at v (rows v_stride apart) as floats, rows dim apart,
// prefetching the rows kPrefetchRowsAhead on while fewer than `rows_left` from v.
void F16RowsToFloat(const hwy::float16_t* v, size_t v_stride, size_t n_rows, size_t rows_left,
                    size_t dim, float* out) {
  const hn::ScalableTag<float> d;
  const hn::CappedTag<float, 1> d1;
  const size_t L = hn::Lanes(d);
  for (size_t j = 0; j < n_rows; ++j) {
    if (j + kPrefetchRowsAhead < rows_left) {
      const uintptr_t ahead = reinterpret_cast<uintptr_t>(v + (j + kPrefetchRowsAhead) * v_stride);
      const uintptr_t last = ahead + dim * sizeof(hwy::float16_t) - 1;
      for (uintptr_t line = ahead & ~uintptr_t{63}; line <= last; line += 64) {
        hwy::Prefetch(reinterpret_cast<const char*>(line));
      }
    }
    size_t i = 0;
    for (; i + L <= dim; i += L) hn::StoreU(LoadAsFloat(d, v + j * v_stride + i), d, out + j * dim + i);
    for (; i < dim; ++i) hn::StoreU(LoadAsFloat(d1, v + j * v_stride + i), d1, out + j * dim + i);
  }
}

// Calls fn(rows, j0, chunk) for consecutive chunks of up to kGroupChunkRows of the n_rows
// fp16 rows at `src` (src_stride apart), each converted to float into `rows` (dim apart).
template <typename Fn>
void ForEachF16Chunk(const uint16_t* src, size_t src_stride, size_t n_rows, size_t dim, Fn fn) {
  alignas(64) float rows[kGroupChunkRows * kMaxGroupDim];
  const auto* src16 = reinterpret_cast<const hwy::float16_t*>(src);
  for (size_t j0 = 0; j0 < n_rows; j0 += kGroupChunkRows) {
    const size_t chunk = std::min(kGroupChunkRows, n_rows - j0);
    F16RowsToFloat(src16 + j0 * src_stride, src_stride, chunk, n_rows - j0, dim, rows);
    fn(static_cast<const float*>(rows), j0, chunk);
  }
}

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// The products of q and the key at `row` in one vector: q's first L lanes times the
// key's, then a fused step per further L (n_blocks vectors; kBlocks when nonzero, so the
// loop unrolls and q stays in registers).
template <size_t kBlocks, class D>
HWY_INLINE hn::Vec<D> KeyProducts(D d, const float* q, const float* row, size_t n_blocks) {
  constexpr size_t L = hn::MaxLanes(D());
  const size_t blocks = kBlocks != 0 ? kBlocks : n_blocks;
  auto p = hn::Mul(hn::LoadU(d, q), hn::LoadU(d, row));
#pragma GCC unroll 16
  for (size_t b = 1; b < blocks; ++b) p = hn::MulAdd(hn::LoadU(d, q + b * L), hn::LoadU(d, row + b * L), p);
  return p;
}

// Returns, in lane i < N, the lane sum of KeyProducts for key j + i (keys at `rows`, dim
// apart; zero from key n_keys on): each level adds adjacent lanes of two vectors and packs
// the two halves side by side, so L keys cost L - 1 such steps instead of L horizontal
// sums. A key's sum is a fixed tree over its own vector's lanes whatever the keys beside it.
template <size_t N, size_t kBlocks, class D>
HWY_INLINE hn::Vec<D> LaneSumsOfKeys(D d, const float* q, const float* rows, size_t n_blocks, size_t j,
                                     size_t n_keys) {
  if constexpr (N == 1) {
    if (j >= n_keys) return hn::Zero(d);
    return KeyProducts<kBlocks>(d, q, rows + j * n_blocks * hn::MaxLanes(d), n_blocks);
  } else {
    const auto lo = LaneSumsOfKeys<N / 2, kBlocks>(d, q, rows, n_blocks, j, n_keys);
    const auto hi = LaneSumsOfKeys<N / 2, kBlocks>(d, q, rows, n_blocks, j + N / 2, n_keys);
    return hn::Add(hn::ConcatEven(d, hi, lo), hn::ConcatOdd(d, hi, lo));
  }
}

// DotChunk's batched path for dim = n_blocks * L.
template <size_t kBlocks>
void DotChunkBatched(const float* q, const float* rows, size_t n_rows, size_t n_blocks, float scale,
                     float* out) {
  const hn::ScalableTag<float> d;
  constexpr size_t L = hn::MaxLanes(d);
  const auto s = hn::Set(d, scale);
  size_t j = 0;
  for (; j + L <= n_rows; j += L) {
    hn::StoreU(hn::Mul(s, LaneSumsOfKeys<L, kBlocks>(d, q, rows, n_blocks, j, n_rows)), d, out + j);
  }
  if (j < n_rows) {
    alignas(64) float tail[L];
    hn::Store(hn::Mul(s, LaneSumsOfKeys<L, kBlocks>(d, q, rows, n_blocks, j, n_rows)), d, tail);
    std::copy(tail, tail + (n_rows - j), out + j);
  }
}
#endif

// out[j] = scale * dot(q, rows + j * dim) for the n_rows float rows of a chunk: with a
// fixed lane count of at least 4 dividing dim, DotChunkBatched (L keys summed at once);
// otherwise DotRowsOneByOne's float steps.
void DotChunk(const float* q, const float* rows, size_t n_rows, size_t dim, float scale,
              float* out) {
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  constexpr size_t L = hn::MaxLanes(hn::ScalableTag<float>());
  if constexpr (L >= 4) {
    if (dim % L == 0) {
      switch (dim / L) {
        case 4: return DotChunkBatched<4>(q, rows, n_rows, 4, scale, out);
        case 8: return DotChunkBatched<8>(q, rows, n_rows, 8, scale, out);
        case 16: return DotChunkBatched<16>(q, rows, n_rows, 16, scale, out);
        default: return DotChunkBatched<0>(q, rows, n_rows, dim / L, scale, out);
      }
    }
  }
#endif
  DotRowsOneByOne(q, rows, dim, n_rows, dim, scale, out);
}

// The fp16 promotion is exact, so the float steps on the converted rows are those on the
// fp16 values; AxpyRowsT over consecutive chunks of rows continues each lane's chain
// through `out` unchanged. DotRowsF16 is this with one query.
void DotRowsF16GroupImpl(const float* q, size_t q_stride, size_t n_q, const uint16_t* k,
                         size_t k_stride, size_t n_rows, size_t dim, float scale, float* out,
                         size_t out_stride) {
  ForEachF16Chunk(k, k_stride, n_rows, dim, [&](const float* rows, size_t j0, size_t chunk) {
    for (size_t g = 0; g < n_q; ++g) {
      DotChunk(q + g * q_stride, rows, chunk, dim, scale, out + g * out_stride + j0);
    }
  });
}

void DotRowsF16Impl(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                    size_t dim, float scale, float* out) {
  DotRowsF16GroupImpl(q, dim, 1, k, k_stride, n_rows, dim, scale, out, n_rows);
}

void AxpyRowsF16GroupImpl(const float* w, size_t w_stride, size_t n_q, const uint16_t* v,
                          size_t v_stride, size_t n_rows, size_t dim, float* out,
                          size_t out_stride) {
  ForEachF16Chunk(v, v_stride, n_rows, dim, [&](const float* rows, size_t j0, size_t chunk) {
    for (size_t g = 0; g < n_q; ++g) {
      AxpyRowsT(w + g * w_stride + j0, rows, dim, chunk, dim, out + g * out_stride);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace cpubrrr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cpubrrr {

HWY_EXPORT(DotRowsImpl);
HWY_EXPORT(DotRowsF16Impl);
HWY_EXPORT(AxpyRowsImpl);
HWY_EXPORT(AxpyRowsF16Impl);
HWY_EXPORT(AxpyRowsToLanesImpl);
HWY_EXPORT(SumLanesImpl);
HWY_EXPORT(DotRowsF16GroupImpl);
HWY_EXPORT(AxpyRowsF16GroupImpl);

void DotRowsF16Group(const float* q, size_t q_stride, size_t n_q, const uint16_t* k,
                     size_t k_stride, size_t n_rows, size_t dim, float scale, float* out,
                     size_t out_stride) {
  HWY_DYNAMIC_DISPATCH(DotRowsF16GroupImpl)(q, q_stride, n_q, k, k_stride, n_rows, dim, scale,
                                            out, out_stride);
}

void AxpyRowsF16Group(const float* w, size_t w_stride, size_t n_q, const uint16_t* v,
                      size_t v_stride, size_t n_rows, size_t dim, float* out, size_t out_stride) {
  HWY_DYNAMIC_DISPATCH(AxpyRowsF16GroupImpl)(w, w_stride, n_q, v, v_stride, n_rows, dim, out,
                                             out_stride);
}

void DotRows(const float* q, const float* k, size_t k_stride, size_t n_rows,
             size_t dim, float scale, float* out) {
  HWY_DYNAMIC_DISPATCH(DotRowsImpl)(q, k, k_stride, n_rows, dim, scale, out);
}

void DotRowsF16(const float* q, const uint16_t* k, size_t k_stride, size_t n_rows,
                size_t dim, float scale, float* out) {
  HWY_DYNAMIC_DISPATCH(DotRowsF16Impl)(q, k, k_stride, n_rows, dim, scale, out);
}

void AxpyRows(const float* w, const float* v, size_t v_stride, size_t n_rows,
              size_t dim, float* out) {
  HWY_DYNAMIC_DISPATCH(AxpyRowsImpl)(w, v, v_stride, n_rows, dim, out);
}

void AxpyRowsF16(const float* w, const uint16_t* v, size_t v_stride, size_t n_rows,
                 size_t dim, float* out) {
  HWY_DYNAMIC_DISPATCH(AxpyRowsF16Impl)(w, v, v_stride, n_rows, dim, out);
}

void AxpyRowsToLanes(const float* w, const float* v, size_t v_stride, size_t n_rows,
                     size_t dim, size_t pos0, float* lanes, uint64_t* touched) {
  HWY_DYNAMIC_DISPATCH(AxpyRowsToLanesImpl)(w, v, v_stride, n_rows, dim, pos0, lanes, touched);
}

void SumLanes64(const float* lanes, uint64_t touched, size_t dim, float* out) {
  HWY_DYNAMIC_DISPATCH(SumLanesImpl)(lanes, touched, dim, out);
}

}  // namespace cpubrrr
#endif  // HWY_ONCE

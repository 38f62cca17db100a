// Google Benchmark of the float helper ops, reference and Highway, at gpt-oss / Qwen3 sizes.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/common/huge_pages.h"
#include "kernels/f32/attention.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope.h"
#include "kernels/f32/rope_table.h"
#include "kernels/f32/softmax.h"
#include "kernels/f32/swiglu.h"
#include "kernels/f32/vec.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

std::vector<float> Normal(size_t n, float sigma) {
  std::mt19937 rng(1234);
  std::normal_distribution<float> dist(0.0f, sigma);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// Reports bytes per iteration as the GB/s counter (1e9 bytes per second).
void SetBytes(benchmark::State& state, double bytes) {
  state.counters["GB/s"] = benchmark::Counter(bytes * state.iterations() / 1e9,
                                              benchmark::Counter::kIsRate);
}

using RmsNormFn = void (*)(const float*, const float*, size_t, float, float*);
void BM_RmsNorm(benchmark::State& state, RmsNormFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> x = Normal(n, 1), w = Normal(n, 1);
  std::vector<float> y(n);
  for (auto _ : state) {
    fn(x.data(), w.data(), n, 1e-5f, y.data());
    benchmark::DoNotOptimize(y.data());
  }
  SetBytes(state, 12.0 * n);  // read x and w, write y
}
BENCHMARK_CAPTURE(BM_RmsNorm, ref, RmsNormRef)->Arg(2880)->Arg(2048);
BENCHMARK_CAPTURE(BM_RmsNorm, hwy, RmsNorm)->Arg(2880)->Arg(2048);

using SoftmaxFn = void (*)(float*, size_t);
void BM_Softmax(benchmark::State& state, SoftmaxFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> x0 = Normal(n, 8);
  std::vector<float> x = x0;
  for (auto _ : state) {
    state.PauseTiming();
    x = x0;
    state.ResumeTiming();
    fn(x.data(), n);
    benchmark::DoNotOptimize(x.data());
  }
  SetBytes(state, 12.0 * n);  // read (max), read + write (exp), read + write (scale)
}
BENCHMARK_CAPTURE(BM_Softmax, ref, SoftmaxRef)->Arg(201088)->Arg(4096);
BENCHMARK_CAPTURE(BM_Softmax, hwy, Softmax)->Arg(201088)->Arg(4096);

using SinkFn = void (*)(float*, size_t, float);
void BM_SoftmaxSink(benchmark::State& state, SinkFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> x0 = Normal(n, 3);
  std::vector<float> x = x0;
  for (auto _ : state) {
    x = x0;  // a 4096-float copy: small next to the softmax, counted in the time
    fn(x.data(), n, 1.5f);
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK_CAPTURE(BM_SoftmaxSink, ref, SoftmaxWithSinkRef)->Arg(128)->Arg(4096);
BENCHMARK_CAPTURE(BM_SoftmaxSink, hwy, SoftmaxWithSink)->Arg(128)->Arg(4096);

using RopeFn = void (*)(float*, size_t, size_t, size_t, const float*, const float*);
// 64 query heads of 64 (gpt-oss) or 32 heads of 128 (Qwen3), table precomputed.
void BM_Rope(benchmark::State& state, RopeFn fn) {
  const size_t heads = state.range(0), hd = state.range(1);
  std::vector<float> x = Normal(heads * hd, 1), c(hd / 2), s(hd / 2);
  RopeTable(YarnRopeParams(hd, 150000, 32, 4096, 32, 1, 1), 1000, c.data(), s.data());
  for (auto _ : state) {
    fn(x.data(), heads, hd, hd, c.data(), s.data());
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK_CAPTURE(BM_Rope, ref, RopeNeoxRef)->Args({64, 64})->Args({32, 128});
BENCHMARK_CAPTURE(BM_Rope, hwy, RopeNeox)->Args({64, 64})->Args({32, 128});

void BM_RopeTable(benchmark::State& state) {
  const int hd = state.range(0);
  std::vector<float> c(hd / 2), s(hd / 2);
  const RopeParams p = YarnRopeParams(hd, 150000, 32, 4096, 32, 1, 1);
  int64_t pos = 0;
  for (auto _ : state) {
    RopeTable(p, pos++ & 65535, c.data(), s.data());
    benchmark::DoNotOptimize(c.data());
  }
}
BENCHMARK(BM_RopeTable)->Arg(64)->Arg(128);

using SwigluOaiFn = void (*)(const float*, const float*, size_t, float, float, float*);
void BM_SwigluOai(benchmark::State& state, SwigluOaiFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> g = Normal(n, 3), u = Normal(n, 3);
  std::vector<float> h(n);
  for (auto _ : state) {
    fn(g.data(), u.data(), n, 1.702f, 7.0f, h.data());
    benchmark::DoNotOptimize(h.data());
  }
}
BENCHMARK_CAPTURE(BM_SwigluOai, ref, SwigluOaiRef)->Arg(2880);
BENCHMARK_CAPTURE(BM_SwigluOai, hwy, SwigluOai)->Arg(2880);

using SwigluFn = void (*)(const float*, const float*, size_t, float*);
void BM_Swiglu(benchmark::State& state, SwigluFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> g = Normal(n, 3), u = Normal(n, 3);
  std::vector<float> h(n);
  for (auto _ : state) {
    fn(g.data(), u.data(), n, h.data());
    benchmark::DoNotOptimize(h.data());
  }
}
BENCHMARK_CAPTURE(BM_Swiglu, ref, SwigluRef)->Arg(768);
BENCHMARK_CAPTURE(BM_Swiglu, hwy, Swiglu)->Arg(768);

// One query head against 4096 cached positions of head_dim 64 (gpt-oss), f32 or f16.
constexpr size_t kPos = 4096, kHd = 64;

template <typename T, typename Fn>
void BM_Dot(benchmark::State& state, Fn fn) {
  const std::vector<float> q = Normal(kHd, 1), kf = Normal(kPos * kHd, 1);
  std::vector<T> k(kf.size());
  for (size_t i = 0; i < k.size(); ++i) {
    if constexpr (sizeof(T) == 2) {
      k[i] = Fp32ToFp16(kf[i]);
    } else {
      k[i] = kf[i];
    }
  }
  std::vector<float> out(kPos);
  for (auto _ : state) {
    fn(q.data(), k.data(), kHd, kPos, kHd, 0.125f, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  SetBytes(state, double{sizeof(T)} * kPos * kHd);
}
void BM_DotF32(benchmark::State& state, decltype(&DotRows) fn) { BM_Dot<float>(state, fn); }
void BM_DotF16(benchmark::State& state, decltype(&DotRowsF16) fn) {
  BM_Dot<uint16_t>(state, fn);
}
BENCHMARK_CAPTURE(BM_DotF32, ref, DotRowsRef);
BENCHMARK_CAPTURE(BM_DotF32, hwy, DotRows);
BENCHMARK_CAPTURE(BM_DotF16, ref, DotRowsF16Ref);
BENCHMARK_CAPTURE(BM_DotF16, hwy, DotRowsF16);

template <typename T, typename Fn>
void BM_Axpy(benchmark::State& state, Fn fn) {
  const std::vector<float> w = Normal(kPos, 0.01f), vf = Normal(kPos * kHd, 1);
  std::vector<T> v(vf.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (sizeof(T) == 2) {
      v[i] = Fp32ToFp16(vf[i]);
    } else {
      v[i] = vf[i];
    }
  }
  std::vector<float> out(kHd);
  for (auto _ : state) {
    fn(w.data(), v.data(), kHd, kPos, kHd, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  SetBytes(state, double{sizeof(T)} * kPos * kHd);
}
void BM_AxpyF32(benchmark::State& state, decltype(&AxpyRows) fn) { BM_Axpy<float>(state, fn); }
void BM_AxpyF16(benchmark::State& state, decltype(&AxpyRowsF16) fn) {
  BM_Axpy<uint16_t>(state, fn);
}
BENCHMARK_CAPTURE(BM_AxpyF32, ref, AxpyRowsRef);
BENCHMARK_CAPTURE(BM_AxpyF32, hwy, AxpyRows);
BENCHMARK_CAPTURE(BM_AxpyF16, ref, AxpyRowsF16Ref);
BENCHMARK_CAPTURE(BM_AxpyF16, hwy, AxpyRowsF16);

// The decode attention of one KV head at 4096 cached positions: its 8 query heads
// against the f16 cache (keys, then values), head_dim 64 (gpt-oss) or 128 (Qwen3), rows a
// KV row apart in huge pages, as in the cache. Hot: the same head's slice every call (in
// L2); cold: the next of 32 caches (128 MiB) each call, read from memory as at depth.
constexpr size_t kGroupQueries = 8, kKvRow = 4 * 128, kCacheElems = kPos * kKvRow;
std::unique_ptr<uint16_t[], HugePagesFree> F16Caches(size_t copies) {
  const std::vector<float> f = Normal(kCacheElems, 1);
  auto h = AllocateHugeArray<uint16_t>(copies * kCacheElems);
  for (size_t i = 0; i < kCacheElems; ++i) h[i] = Fp32ToFp16(f[i]);
  for (size_t c = 1; c < copies; ++c) std::copy(h.get(), h.get() + kCacheElems, h.get() + c * kCacheElems);
  return h;
}
// Calls pass(cache) each iteration on the hot cache or the next cold one (state.range(1)),
// counting the head's keys or values of head dim state.range(0) read.
template <typename Pass>
void RunOverF16Caches(benchmark::State& state, Pass pass) {
  const size_t copies = state.range(1) != 0 ? 32 : 1;
  const auto caches = F16Caches(copies);
  size_t c = 0;
  for (auto _ : state) {
    pass(caches.get() + c * kCacheElems);
    c = (c + 1) % copies;
  }
  SetBytes(state, 2.0 * kPos * state.range(0));
}
void BM_DotF16Group(benchmark::State& state) {
  const size_t hd = state.range(0);
  const std::vector<float> q = Normal(kGroupQueries * hd, 1);
  std::vector<float> out(kGroupQueries * kPos);
  RunOverF16Caches(state, [&](const uint16_t* k) {
    DotRowsF16Group(q.data(), hd, kGroupQueries, k, kKvRow, kPos, hd, 0.125f, out.data(), kPos);
    benchmark::DoNotOptimize(out.data());
  });
}
BENCHMARK(BM_DotF16Group)->ArgNames({"hd", "cold"})->ArgsProduct({{64, 128}, {0, 1}});
void BM_AxpyF16Group(benchmark::State& state) {
  const size_t hd = state.range(0);
  const std::vector<float> w = Normal(kGroupQueries * kPos, 0.01f);
  std::vector<float> out(kGroupQueries * hd);
  RunOverF16Caches(state, [&](const uint16_t* v) {
    AxpyRowsF16Group(w.data(), kPos, kGroupQueries, v, kKvRow, kPos, hd, out.data(), hd);
    benchmark::DoNotOptimize(out.data());
  });
}
BENCHMARK(BM_AxpyF16Group)->ArgNames({"hd", "cold"})->ArgsProduct({{64, 128}, {0, 1}});

using ScaleAddFn = void (*)(float*, float, const float*, size_t);
void BM_ScaleAdd(benchmark::State& state, ScaleAddFn fn) {
  const size_t n = state.range(0);
  const std::vector<float> x = Normal(n, 1);
  std::vector<float> y = Normal(n, 1);
  for (auto _ : state) {
    fn(y.data(), 1e-3f, x.data(), n);
    benchmark::DoNotOptimize(y.data());
  }
  SetBytes(state, 12.0 * n);
}
BENCHMARK_CAPTURE(BM_ScaleAdd, ref, ScaleAddToRef)->Arg(2880);
BENCHMARK_CAPTURE(BM_ScaleAdd, hwy, ScaleAddTo)->Arg(2880);

}  // namespace
}  // namespace cpubrrr

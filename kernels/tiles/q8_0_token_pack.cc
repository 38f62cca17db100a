// PackQ8_0Tokens: portable code (no ISA flags), so the AVX-512 and AVX2 tiles share one
// definition; a block's 32 quant adds are cheap beside the gemm that reads them per row.
#include "kernels/tiles/q8_0_token_pack.h"

#include <cstring>

#include "quant/fp16.h"

namespace cpubrrr {

void PackQ8_0Tokens(const BlockQ8_0* x, size_t x_stride, size_t n_tokens, size_t n_blocks, int32_t offset,
                    std::vector<Q8_0TokenView>& views) {
  const size_t q_bytes = (n_blocks * 32 + 63) / 64 * 64;
  const size_t terms_bytes = (n_blocks * 4 + 63) / 64 * 64;
  const size_t token_bytes = q_bytes + 2 * terms_bytes;
  struct alignas(64) Line {
    char bytes[64];
  };
  thread_local std::vector<Line> buffer;
  if (buffer.size() * 64 < n_tokens * token_bytes) buffer.resize(n_tokens * token_bytes / 64);
  views.resize(n_tokens);
  char* base = reinterpret_cast<char*>(buffer.data());
  for (size_t t = 0; t < n_tokens; ++t) {
    char* at = base + t * token_bytes;
    int8_t* q = reinterpret_cast<int8_t*>(at);
    int32_t* seed = reinterpret_cast<int32_t*>(at + q_bytes);
    float* d = reinterpret_cast<float*>(at + q_bytes + terms_bytes);
    for (size_t b = 0; b < n_blocks; ++b) {
      const BlockQ8_0& xb = x[t * x_stride + b];
      std::memcpy(q + 32 * b, xb.qs, 32);
      int32_t sum = 0;
      for (int i = 0; i < 32; ++i) sum += xb.qs[i];
      seed[b] = -offset * sum;
      d[b] = Fp16ToFp32(xb.d);
    }
    views[t] = {q, seed, d};
  }
}

}  // namespace cpubrrr

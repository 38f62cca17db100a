// Highway target iteration, random floats and error-bound helpers for float-kernel tests.
#include "kernels/f32/test_util.h"

#include "gtest/gtest.h"
#include "hwy/targets.h"

namespace cpubrrr::testing {

double Gamma(double k) { return k * kU / (1.0 - k * kU); }

void ForEachHwyTarget(const std::function<void()>& body) {
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
}

std::vector<float> RandomNormal(size_t n, float sigma, std::mt19937& rng) {
  std::normal_distribution<float> dist(0.0f, sigma);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

std::vector<float> RandomUniform(size_t n, float lo, float hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

}  // namespace cpubrrr::testing

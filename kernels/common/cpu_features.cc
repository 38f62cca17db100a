// CPUID (x86-64) and auxiliary-vector (aarch64 Linux) feature detection.
#include "kernels/common/cpu_features.h"

#include <cstdlib>
#include <cstring>

#include "hwy/targets.h"

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace cpubrrr {
namespace {

#if defined(__x86_64__)
bool Bit(uint32_t reg, int bit) { return (reg >> bit) & 1u; }

// Returns true when the OS saves the register state selected by `mask` (XCR0).
bool OsSavesState(uint64_t mask) {
  uint32_t eax, edx;
  __asm__("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  const uint64_t xcr0 = (uint64_t{edx} << 32) | eax;
  return (xcr0 & mask) == mask;
}

CpuFeatures DetectX86() {
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return kCpuNone;
  const bool osxsave = Bit(c, 27), fma = Bit(c, 12), f16c = Bit(c, 29);
  if (!osxsave || !OsSavesState(0x6)) return kCpuNone;  // XMM and YMM state
  CpuFeatures f = kCpuNone;
  uint32_t b7 = 0, c7 = 0, d7 = 0;
  __get_cpuid_count(7, 0, &a, &b7, &c7, &d7);
  if (Bit(b7, 5) && fma && f16c) f |= kCpuAvx2;
  uint32_t a7_1 = 0, unused;
  __get_cpuid_count(7, 1, &a7_1, &unused, &unused, &unused);
  if ((f & kCpuAvx2) && Bit(a7_1, 4)) f |= kCpuAvxVnni;
  // AVX-512 needs opmask, ZMM0-15 upper halves and ZMM16-31 state (XCR0 bits 5-7).
  if (OsSavesState(0xE6) && Bit(b7, 16) && Bit(b7, 17) && Bit(b7, 30) && Bit(b7, 31)) {
    f |= kCpuAvx512;
    if (Bit(c7, 11)) f |= kCpuAvx512Vnni;
  }
  return f;
}
#endif

#if defined(__aarch64__)
CpuFeatures DetectArm() {
  // Bit positions from Linux's uapi asm/hwcap.h.
  constexpr unsigned long kHwcapAsimddp = 1ul << 20;
  constexpr unsigned long kHwcap2Sme = 1ul << 23;
  const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
  CpuFeatures f = kCpuNeon;
  if (hw & kHwcapAsimddp) f |= kCpuNeonDot;
  if (hw2 & kHwcap2Sme) f |= kCpuSme;
  return f;
}
#endif

CpuFeatures Detect() {
  CpuFeatures f = kCpuNone;
#if defined(__x86_64__)
  f = DetectX86();
#elif defined(__aarch64__)
  f = DetectArm();
#endif
  if (const char* mask = std::getenv("CPUBRRR_CPU_MASK")) {
    f &= static_cast<CpuFeatures>(std::strtoul(mask, nullptr, 16));
#if defined(__x86_64__)
    // Highway picks its targets itself: keep it off AVX-512 too, so a masked run takes
    // the path a CPU without AVX-512 takes.
    if (!(f & kCpuAvx512)) hwy::DisableTargets(HWY_AVX3 | HWY_AVX3_DL);
#endif
  }
  return f;
}

}  // namespace

CpuFeatures DetectCpuFeatures() {
  static const CpuFeatures features = Detect();
  return features;
}

std::string CpuVendor() {
#if defined(__x86_64__)
  uint32_t a, b, c, d;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return "";
  char vendor[12];
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  return std::string(vendor, sizeof(vendor));
#else
  return "";
#endif
}

std::string CpuFeatureNames(CpuFeatures features) {
  static constexpr struct {
    CpuFeature bit;
    const char* name;
  } kNames[] = {{kCpuAvx2, "avx2"}, {kCpuAvx512, "avx512"}, {kCpuAvx512Vnni, "avx512vnni"},
                {kCpuAvxVnni, "avxvnni"},
                {kCpuNeon, "neon"}, {kCpuNeonDot, "dotprod"}, {kCpuSme, "sme"}};
  std::string out;
  for (const auto& n : kNames) {
    if (features & n.bit) {
      if (!out.empty()) out += ' ';
      out += n.name;
    }
  }
  return out.empty() ? "none" : out;
}

}  // namespace cpubrrr

// Names a function after the x86 variant its translation unit is compiled for, so one
// source builds both the AVX2 variant and the AVX2 + AVX-VNNI one (kernel_variant's
// "avx2" and "avx_vnni"), and gives the inline helpers of the AVX2 headers a namespace
// per build, so the two builds never share a symbol (the linker could otherwise keep the
// AVX-VNNI copy of a helper for the AVX2 variant).
#ifndef CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_
#define CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_

// CPUBRRR_AVX2_VARIANT_NAME(Foo) is FooAvxVnni under -mavxvnni, FooAvx2 otherwise;
// CPUBRRR_AVX2_VARIANT_NAMESPACE is avx_vnni or avx2 likewise, for an inline namespace.
#if defined(__AVXVNNI__)
#define CPUBRRR_AVX2_VARIANT_NAME(name) name##AvxVnni
#define CPUBRRR_AVX2_VARIANT_NAMESPACE avx_vnni
#else
#define CPUBRRR_AVX2_VARIANT_NAME(name) name##Avx2
#define CPUBRRR_AVX2_VARIANT_NAMESPACE avx2
#endif

#endif  // CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_

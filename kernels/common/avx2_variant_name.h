// Names a function after the x86 variant its translation unit is compiled for, so one
// source builds both the AVX2 variant and the AVX2 + AVX-VNNI one (kernel_variant's
// "avx2" and "avx_vnni").
#ifndef CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_
#define CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_

// CPUBRRR_AVX2_VARIANT_NAME(Foo) is FooAvxVnni under -mavxvnni, FooAvx2 otherwise.
#if defined(__AVXVNNI__)
#define CPUBRRR_AVX2_VARIANT_NAME(name) name##AvxVnni
#else
#define CPUBRRR_AVX2_VARIANT_NAME(name) name##Avx2
#endif

#endif  // CPUBRRR_KERNELS_COMMON_AVX2_VARIANT_NAME_H_

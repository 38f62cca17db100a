# The per-ISA kernel library: its sources compile only on the architecture that can run
# them (the library is empty elsewhere, and the registries leave it out there), with the
# ISA's flags, defined once here for every kernels folder.
load("@rules_cc//cc:defs.bzl", "cc_library")

_AARCH64 = "//third_party/toolchains/aarch64:cpu_aarch64"

# The oracle's float steps must stay separate roundings (aarch64 gcc fuses by default):
# for oracles and for every kernel that promises the oracle's bits.
ORACLE_COPTS = ["-ffp-contract=off"]

_AVX512 = [
    "-mavx512f",
    "-mavx512bw",
    "-mavx512vl",
    "-mfma",
    "-mf16c",
    "-Wno-maybe-uninitialized",
    "-Wno-uninitialized",
]

# Each ISA's flags and the architecture it builds on. GCC 12 warns falsely about the
# deliberately undefined vectors inside its AVX-512 helpers. The NEON kernels use the
# dot product and fp16 conversions; SME kernels are inline asm with `.arch_extension sme`,
# so they need no flag.
_ISAS = {
    "avx2": struct(arm = False, copts = ["-mavx2", "-mfma", "-mf16c"]),
    "avx_vnni": struct(arm = False, copts = ["-mavx2", "-mfma", "-mf16c", "-mavxvnni"]),
    "avx512": struct(arm = False, copts = _AVX512),
    "avx512_vnni": struct(arm = False, copts = _AVX512 + ["-mavx512vnni"]),
    "neon": struct(arm = True, copts = ["-march=armv8.2-a+dotprod+fp16"]),
    "sme": struct(arm = True, copts = []),
}

def _on(isa, value, otherwise):
    """`value` on the ISA's architecture, `otherwise` on the other."""
    if _ISAS[isa].arm:
        return select({_AARCH64: value, "//conditions:default": otherwise})
    return select({_AARCH64: otherwise, "//conditions:default": value})

def isa_copts(isa):
    """The ISA's flags on its architecture, none elsewhere: for a target whose sources build
    everywhere and use the ISA only where it exists (a benchmark's timing loop, a test's calls)."""
    return _on(isa, _ISAS[isa].copts, [])

def kernel_variant(name, isa, srcs, oracle_order = False, copts = [], **kwargs):
    """A cc_library of one ISA variant: `srcs` and the ISA's flags on its architecture only.

    Args:
      name: the target, by convention <format>[_repacked][_gemm]_<isa>.
      isa: "avx2", "avx_vnni", "avx512", "avx512_vnni", "neon" or "sme" (a variant compiled for an ISA
        must be picked only on CPUs that have it: the compiler may use any of it).
      srcs: sources compiled only where the ISA runs.
      oracle_order: adds ORACLE_COPTS (the kernel promises the oracle's float order).
      copts: further flags, on the ISA's architecture only.
      **kwargs: the rest of cc_library's attributes (hdrs, deps, visibility).
    """
    flags = _ISAS[isa].copts + (ORACLE_COPTS if oracle_order else []) + copts
    cc_library(
        name = name,
        srcs = _on(isa, srcs, []),
        copts = _on(isa, flags, []),
        **kwargs
    )

def avx2_and_vnni_variants(name, **kwargs):
    """kernel_variant `name` for ISA "avx2" and its twin for "avx_vnni" from the same sources.

    The twin's name is `name` with "avx2" replaced by "avx_vnni"; the sources name their
    functions with CPUBRRR_AVX2_VARIANT_NAME (kernels/common/avx2_variant_name.h), so the
    two libraries define different symbols.

    Args:
      name: the AVX2 target, containing "avx2".
      **kwargs: kernel_variant's other arguments, for both.
    """
    kernel_variant(name = name, isa = "avx2", **kwargs)
    kernel_variant(name = name.replace("avx2", "avx_vnni"), isa = "avx_vnni", **kwargs)

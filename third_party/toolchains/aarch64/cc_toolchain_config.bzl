# cc_toolchain_config for Debian's aarch64-linux-gnu gcc cross compiler (--config=aarch64).
load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
]
_CXX = [ACTION_NAMES.cpp_compile, ACTION_NAMES.cpp_header_parsing, ACTION_NAMES.cpp_module_compile]
_LINK = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

def _flags(actions, flags, features = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def _impl(ctx):
    prefix = "/usr/bin/aarch64-linux-gnu-"
    tools = ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    features = [
        # Generic Armv8-A; a kernel variant opts into dotprod/i8mm/SVE/SME with its own copts,
        # which come after these flags on the command line.
        feature(name = "default_compile_flags", enabled = True, flag_sets = [
            _flags(_COMPILE, ["-march=armv8-a", "-fno-omit-frame-pointer", "-U_FORTIFY_SOURCE"]),
            _flags(_CXX, ["-std=c++20"]),
            _flags(_COMPILE, ["-g", "-O0"], ["dbg"]),
            _flags(_COMPILE, ["-O2", "-DNDEBUG", "-ffunction-sections", "-fdata-sections"], ["opt"]),
        ]),
        feature(name = "default_link_flags", enabled = True, flag_sets = [
            _flags(_LINK, ["-lstdc++", "-lm", "-pthread"]),
            _flags(_LINK, ["-Wl,--gc-sections"], ["opt"]),
        ]),
        feature(name = "dbg"),
        feature(name = "opt"),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "aarch64-linux-gnu-gcc",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "aarch64-linux-gnu",
        target_cpu = "aarch64",
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "aarch64",
        abi_libc_version = "glibc",
        tool_paths = [tool_path(name = t, path = prefix + t) for t in tools],
        # What `aarch64-linux-gnu-g++ -E -v` searches; /usr/include holds the arch-independent
        # headers of gtest, absl, hwy, benchmark (their arm64 .so/.a are in the multiarch dir).
        cxx_builtin_include_directories = [
            "/usr/aarch64-linux-gnu/include",
            "/usr/lib/gcc-cross/aarch64-linux-gnu",
            "/usr/include/aarch64-linux-gnu",
            "/usr/include",
        ],
        features = features,
    )

aarch64_cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {},
    provides = [CcToolchainConfigInfo],
)

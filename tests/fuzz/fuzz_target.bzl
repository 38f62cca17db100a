"""fuzz_target: one libFuzzer entry point built two ways (docs/FUZZING.md)."""

def fuzz_target(name, srcs, deps, data = [], args = []):
    """`NAME` links libFuzzer under --config=fuzz (clang, scripts/fuzz.sh; tagged manual so
    a gcc build of //... skips it); `NAME_seeds_test` runs every file of seeds/NAME (the
    committed corpus and each crash found, kept as a regression) through the same entry
    point as a plain test."""
    native.cc_binary(
        name = name,
        srcs = srcs,
        deps = deps,
        data = data,
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
    )
    native.cc_test(
        name = name + "_seeds_test",
        srcs = srcs,
        deps = deps + [":seed_runner_main"],
        data = data + native.glob(["seeds/%s/**" % name]),
        args = args + ["tests/fuzz/seeds/" + name],
    )

# Runs a kernel test binary again under each value of CPUBRRR_LANE_TILE_FROM given, so both
# switch points the AVX-512 gemms of MXFP4, Q4_K and Q6_K may take on some CPU class
# (kernels/common/few_tokens.h) are tested on any machine.

def lane_tile_from_tests(test, values = [4, 5]):
    for value in values:
        native.sh_test(
            name = "%s_lane_tile_from_%s" % (test, value),
            size = "small",
            srcs = ["//kernels/testing:run_test.sh"],
            args = ["$(rootpath :%s)" % test],
            data = [":" + test],
            env = {"CPUBRRR_LANE_TILE_FROM": str(value)},
            tags = ["x86_only"],
        )

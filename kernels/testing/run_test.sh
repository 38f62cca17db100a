#!/bin/bash
# Runs the test binary given as the first argument with the rest as its arguments, under
# the environment the calling sh_test sets (lane_tile_from.bzl).
exec "$@"

#!/usr/bin/env python3
# Compares cpubrrr's speed with llama-bench builds, running the engines alternately.
"""Compares `cpubrrr bench` with llama-bench builds (peers) on the same models, alternating engines.

For each model and thread count it runs the engines in turn, round after round, every
other round in reverse (cpubrrr, peer 1, peer 2, peer 2, peer 1, cpubrrr, cpubrrr, ...: a
slow drift of the machine then weighs on every engine alike, where a fixed order favoured
whichever binary ran second in A/B runs on the CI VM), each with `-o json`, pools the per-run
samples (`samples_ts`) of every round, and prints one markdown table per model: engine,
flags, threads, test, median t/s, spread (the fastest run over the slowest), and cpubrrr's
median over the engine's. It runs only the
binaries it is given; it never builds a peer. See docs/BENCHMARKS.md.

  scripts/compare_bench.py --model M.gguf --cpubrrr bazel-bin/tools/cpubrrr/cpubrrr \\
      --peer "llama.cpp=/work/peers/llama.cpp/build/bin/llama-bench:-fa 1" --threads 1,2
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
from dataclasses import dataclass, field

CPUBRRR = "cpubrrr"


@dataclass
class Engine:
    name: str
    command: list  # the binary and, for cpubrrr, the subcommand
    flags: list = field(default_factory=list)  # extra flags after the common ones


def parse_peer(spec):
    """Returns the Engine of a NAME=PATH[:EXTRA FLAGS] argument."""
    name, eq, rest = spec.partition("=")
    path, _, flags = rest.partition(":")
    if not eq or not name or not path:
        raise argparse.ArgumentTypeError(f"--peer {spec!r} is not NAME=PATH[:FLAGS]")
    if name == CPUBRRR:
        raise argparse.ArgumentTypeError(f"--peer: the name {CPUBRRR!r} is taken by --cpubrrr")
    return Engine(name, [path], shlex.split(flags))


def int_list(text):
    """Returns text checked to be a comma-separated list of integers >= 0."""
    items = text.split(",")
    if not all(item.isdigit() for item in items):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of integers")
    return text


def test_name(row):
    """Returns the name of a JSON row's test: its "test" field (cpubrrr's and ik_llama.cpp's
    rows, whose tg128@pp512 is not a pp+tg test), else llama-bench's name from the token
    counts: pp512, tg128, pp512+tg128, ... @ d4096."""
    if "test" in row:
        return row["test"]
    n_prompt, n_gen = row["n_prompt"], row["n_gen"]
    if n_gen == 0:
        name = f"pp{n_prompt}"
    elif n_prompt == 0:
        name = f"tg{n_gen}"
    else:
        name = f"pp{n_prompt}+tg{n_gen}"
    if row.get("n_depth", 0) > 0:
        name += f" @ d{row['n_depth']}"
    return name


def bench_command(engine, model, threads, args):
    """Returns the argv of one engine run on one model at one thread count."""
    return engine.command + ["-m", model, "-p", args.p, "-n", args.n, "-t", str(threads),
                             "-r", str(args.r), "-o", "json"] + engine.flags


def run_engine(engine, model, threads, args):
    """Runs one engine and returns its JSON rows; exits with its stderr when it fails."""
    argv = bench_command(engine, model, threads, args)
    print("running: " + shlex.join(argv), file=sys.stderr, flush=True)
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"compare_bench: {engine.name} failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    try:
        rows = json.loads(done.stdout)
    except json.JSONDecodeError as e:
        sys.exit(f"compare_bench: {engine.name} did not print JSON ({e}):\n{done.stdout[:2000]}")
    return rows


def drop_page_cache(model):
    """Asks the kernel to drop the model's pages from the page cache (pages a process still
    maps stay), so the next engine reads the file afresh: after another engine filled the
    memory, the cache can hold the file in 4 KiB pages, which slows every engine that maps it
    (docs/BENCHMARKS.md)."""
    try:
        fd = os.open(model, os.O_RDONLY)
    except OSError as e:
        sys.exit(f"compare_bench: cannot open {model} to drop it from the page cache: {e}")
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def default_repack_cache():
    """Returns the directory where cpubrrr keeps repacked weights by default (its CacheDir)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", ""), ".cache")
    return os.path.join(base, "cpubrrr", "repacked")


def repack_cache_files(directory):
    """Returns the repack cache files in `directory` (none if it does not exist)."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names if n.endswith(".repacked")]


def collect(engines, model, thread_counts, args, run=run_engine):
    """Runs the engines alternately for `args.rounds` rounds at each thread count, odd
    rounds in reverse order, each run after dropping the model, and cpubrrr's repack cache
    files, from the page cache when `args.drop_page_cache` is set.

    Returns {(engine name, threads, test): [samples_ts of every run]}, in first-seen order.
    """
    samples = {}
    for threads in thread_counts:
        for r in range(args.rounds):
            for engine in engines if r % 2 == 0 else engines[::-1]:
                if args.drop_page_cache:
                    for path in [model] + repack_cache_files(args.repack_cache):
                        drop_page_cache(path)
                for row in run(engine, model, threads, args):
                    key = (engine.name, row["n_threads"], test_name(row))
                    samples.setdefault(key, []).extend(row["samples_ts"])
    return samples


def spread(values):
    """The fastest sample over the slowest, as "1.07x" ("-" if one is not positive)."""
    return f"{max(values) / min(values):.2f}x" if min(values) > 0 else "-"


def table(engines, samples):
    """Returns the markdown table of one model: median t/s, spread and cpubrrr / engine per row."""
    flags = {e.name: " ".join(e.flags) for e in engines}
    medians = {key: statistics.median(values) for key, values in samples.items()}
    lines = ["| engine | flags | threads | test | median t/s | spread | cpubrrr / engine |",
             "| ------ | ----- | ------: | ---: | ---------: | -----: | ---------------: |"]
    order = {e.name: i for i, e in enumerate(engines)}
    for key in sorted(medians, key=lambda k: (k[1], order[k[0]])):
        name, threads, test = key
        ours = medians.get((CPUBRRR, threads, test))
        ratio = f"{ours / medians[key]:.2f}" if ours is not None and medians[key] > 0 else "-"
        lines.append(f"| {name} | {flags[name] or '-'} | {threads} | {test} | "
                     f"{medians[key]:.2f} | {spread(samples[key])} | {ratio} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", required=True, help="GGUF file (repeatable)")
    parser.add_argument("--cpubrrr", required=True, help="the cpubrrr binary")
    parser.add_argument("--peer", action="append", type=parse_peer, default=[],
                        help="NAME=PATH_TO_llama-bench[:EXTRA FLAGS] (repeatable)")
    parser.add_argument("--threads", type=int_list, default="1,2", help="thread counts (default 1,2)")
    parser.add_argument("-p", type=int_list, default="512", help="prompt lengths (default 512)")
    parser.add_argument("-n", type=int_list, default="128", help="generation lengths (default 128)")
    parser.add_argument("-r", type=int, default=5, help="repetitions per run (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each engine (default 3)")
    parser.add_argument("--drop-page-cache", action="store_true",
                        help="drop the model (and cpubrrr's repack cache files) from the page "
                        "cache before every engine run")
    parser.add_argument("--repack-cache", default=default_repack_cache(),
                        help="cpubrrr's --repack-cache (default: its own default, "
                        "~/.cache/cpubrrr/repacked)")
    args = parser.parse_args(argv)

    engines = [Engine(CPUBRRR, [args.cpubrrr, "bench", "--repack-cache", args.repack_cache])] + args.peer
    for engine in engines:
        if not os.access(engine.command[0], os.X_OK):
            sys.exit(f"compare_bench: {engine.name}: {engine.command[0]} is not an executable "
                     "(peers are built outside the repository: docs/BENCHMARKS.md)")
    thread_counts = [int(t) for t in args.threads.split(",")]
    for model in args.model:
        samples = collect(engines, model, thread_counts, args)
        print(f"\n## {os.path.basename(model)}\n")
        print(f"-p {args.p} -n {args.n} -r {args.r}, {args.rounds} rounds; "
              "median of every run of every round\n")
        print(table(engines, samples), end="")


if __name__ == "__main__":
    main()

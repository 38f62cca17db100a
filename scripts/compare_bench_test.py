#!/usr/bin/env python3
# Tests compare_bench.py against fake engines: the alternation order, the flags, the ratios.
import contextlib
import io
import os
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_bench  # noqa: E402

# A fake engine logs "NAME ARGS" and prints two llama-bench JSON rows for the -t it got:
# pp512 with samples [PP_STEP * k] and tg128 with samples TG, where k counts this
# engine's runs so far (1, 2, 3 at the first thread count, 4, 5, 6 at the second).
FAKE_ENGINE = r"""#!/bin/sh
echo "NAME $*" >> "LOG"
threads=0
while [ $# -gt 0 ]; do [ "$1" = -t ] && threads=$2; shift; done
k=$(grep -c "^NAME " "LOG")
cat <<EOF
[
  {"model_type": "fake", "n_prompt": 512, "n_gen": 0, "n_threads": $threads,
   "avg_ts": 0, "stddev_ts": 0, "samples_ts": [ $((PP_STEP * k)) ]},
  {"model_type": "fake", "n_prompt": 0, "n_gen": 128, "n_threads": $threads,
   "avg_ts": 0, "stddev_ts": 0, "samples_ts": [ TG ]}
]
EOF
"""


class CompareBenchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.log = os.path.join(self.dir, "log")

    def fake(self, name, pp_step, tg, fail=False):
        path = os.path.join(self.dir, name)
        script = (FAKE_ENGINE.replace("NAME", name).replace("PP_STEP", str(pp_step))
                  .replace("TG", tg).replace("LOG", self.log))
        if fail:
            script = '#!/bin/sh\necho "out of memory" >&2\nexit 3\n'
        with open(path, "w") as f:
            f.write(script)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def run_main(self, argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            compare_bench.main(argv)
        return out.getvalue()

    def logged(self):
        with open(self.log) as f:
            return [line.split() for line in f]

    def test_alternates_engines_forward_then_backward(self):
        argv = ["--model", "/m/a.gguf", "--cpubrrr", self.fake("ours", 10, "3, 5"),
                "--peer", "llama.cpp=" + self.fake("llama", 4, "8") + ":-fa 1",
                "--peer", "ik=" + self.fake("ik", 5, "2") + ":-rtr 1 -fa 1",
                "--threads", "1,2", "-p", "512", "-n", "128", "-r", "2", "--rounds", "3"]
        out = self.run_main(argv)
        runs = self.logged()
        forward, backward = ["ours", "llama", "ik"], ["ik", "llama", "ours"]
        self.assertEqual([r[0] for r in runs], (forward + backward + forward) * 2)
        self.assertEqual([r[r.index("-t") + 1] for r in runs], ["1"] * 9 + ["2"] * 9)
        common = ["-m", "/m/a.gguf", "-p", "512", "-n", "128", "-t", "1", "-r", "2", "-o", "json"]
        self.assertEqual(runs[0][1:], ["bench", "--repack-cache", compare_bench.default_repack_cache()] + common)
        self.assertEqual(runs[1][1:], common + ["-fa", "1"])
        self.assertEqual(runs[2][1:], common + ["-rtr", "1", "-fa", "1"])

        rows = [line for line in out.splitlines() if line.startswith("| ") and "---" not in line]
        self.assertEqual(rows[0], "| engine | flags | threads | test | median t/s | spread | cpubrrr / engine |")
        # Medians pool every round: ours pp at 1 thread [10, 20, 30] -> 20, llama.cpp's
        # [4, 8, 12] -> 8, ik's [5, 10, 15] -> 10; tg: ours [3, 5] x 3 -> 4, 8, 2. The spread
        # is the fastest sample over the slowest: 30 / 10, 5 / 3.
        self.assertEqual(rows[1:], [
            "| cpubrrr | - | 1 | pp512 | 20.00 | 3.00x | 1.00 |",
            "| cpubrrr | - | 1 | tg128 | 4.00 | 1.67x | 1.00 |",
            "| llama.cpp | -fa 1 | 1 | pp512 | 8.00 | 3.00x | 2.50 |",
            "| llama.cpp | -fa 1 | 1 | tg128 | 8.00 | 1.00x | 0.50 |",
            "| ik | -rtr 1 -fa 1 | 1 | pp512 | 10.00 | 3.00x | 2.00 |",
            "| ik | -rtr 1 -fa 1 | 1 | tg128 | 2.00 | 1.00x | 2.00 |",
            # 2 threads: runs 4-6: ours [40, 50, 60] -> 50, llama.cpp [16, 20, 24] -> 20.
            "| cpubrrr | - | 2 | pp512 | 50.00 | 1.50x | 1.00 |",
            "| cpubrrr | - | 2 | tg128 | 4.00 | 1.67x | 1.00 |",
            "| llama.cpp | -fa 1 | 2 | pp512 | 20.00 | 1.50x | 2.50 |",
            "| llama.cpp | -fa 1 | 2 | tg128 | 8.00 | 1.00x | 0.50 |",
            "| ik | -rtr 1 -fa 1 | 2 | pp512 | 25.00 | 1.50x | 2.00 |",
            "| ik | -rtr 1 -fa 1 | 2 | tg128 | 2.00 | 1.00x | 2.00 |",
        ])
        self.assertIn("## a.gguf", out)

    def test_drops_the_page_cache_before_every_run(self):
        logged_drops = []
        real_drop = compare_bench.drop_page_cache

        def drop(model):
            real_drop(model)  # must accept a real file
            with open(self.log, "a") as f:
                f.write(f"drop {model}\n")
            logged_drops.append(model)

        model = os.path.join(self.dir, "m.gguf")
        cache = os.path.join(self.dir, "cache")
        os.mkdir(cache)
        copies = os.path.join(cache, "m.gguf-0123456789abcdef.repacked")
        for path in [model, copies, os.path.join(cache, "notes.txt")]:
            with open(path, "wb") as f:
                f.write(b"GGUF")
        compare_bench.drop_page_cache = drop
        try:
            self.run_main(["--model", model, "--cpubrrr", self.fake("ours", 1, "1"),
                           "--peer", "llama=" + self.fake("llama", 1, "1"), "--threads", "1",
                           "--rounds", "2", "--drop-page-cache", "--repack-cache", cache])
        finally:
            compare_bench.drop_page_cache = real_drop
        self.assertEqual([r[0] for r in self.logged()],
                         ["drop", "drop", "ours", "drop", "drop", "llama", "drop", "drop", "llama",
                          "drop", "drop", "ours"])
        self.assertEqual(logged_drops, [model, copies] * 4)
        ours = [r for r in self.logged() if r[0] == "ours"][0]
        self.assertEqual(ours[ours.index("--repack-cache") + 1], cache)

    def test_page_cache_is_kept_by_default(self):
        drops = []
        real_drop = compare_bench.drop_page_cache
        compare_bench.drop_page_cache = drops.append
        try:
            self.run_main(["--model", "/m/a.gguf", "--cpubrrr", self.fake("ours", 1, "1"),
                           "--threads", "1", "--rounds", "1"])
        finally:
            compare_bench.drop_page_cache = real_drop
        self.assertEqual(drops, [])
        self.assertEqual([r[0] for r in self.logged()], ["ours"])

    def test_drop_of_a_missing_model_is_a_clear_error(self):
        with self.assertRaises(SystemExit) as e:
            compare_bench.drop_page_cache(os.path.join(self.dir, "missing.gguf"))
        self.assertIn("cannot open", str(e.exception))

    def test_one_table_per_model(self):
        out = self.run_main(["--model", "/m/a.gguf", "--model", "/m/b.gguf",
                             "--cpubrrr", self.fake("ours", 1, "1"), "--threads", "1", "--rounds", "1"])
        self.assertEqual([r[r.index("-m") + 1] for r in self.logged()], ["/m/a.gguf", "/m/b.gguf"])
        self.assertIn("## a.gguf", out)
        self.assertIn("## b.gguf", out)

    def test_missing_peer_is_not_built_or_run(self):
        with self.assertRaises(SystemExit) as e:
            self.run_main(["--model", "/m/a.gguf", "--cpubrrr", self.fake("ours", 1, "1"),
                           "--peer", "llama.cpp=" + os.path.join(self.dir, "none")])
        self.assertIn("is not an executable", str(e.exception.code))
        self.assertFalse(os.path.exists(self.log))

    def test_a_failing_engine_stops_with_its_error(self):
        with self.assertRaises(SystemExit) as e:
            self.run_main(["--model", "/m/a.gguf", "--cpubrrr", self.fake("ours", 1, "1"),
                           "--peer", "bad=" + self.fake("bad", 1, "1", fail=True)])
        self.assertIn("bad failed (exit 3)", str(e.exception.code))
        self.assertIn("out of memory", str(e.exception.code))

    def test_peer_specs_and_test_names(self):
        peer = compare_bench.parse_peer("ik_llama.cpp=/p/llama-bench:-rtr 1 -fa 1")
        self.assertEqual((peer.name, peer.command, peer.flags),
                         ("ik_llama.cpp", ["/p/llama-bench"], ["-rtr", "1", "-fa", "1"]))
        self.assertEqual(compare_bench.parse_peer("x=/p/b").flags, [])
        for bad in ["/p/b", "=/p/b", "x=", "cpubrrr=/p/b"]:
            with self.assertRaises(Exception):
                compare_bench.parse_peer(bad)
        name = compare_bench.test_name
        self.assertEqual(name({"n_prompt": 512, "n_gen": 0}), "pp512")
        self.assertEqual(name({"n_prompt": 0, "n_gen": 128}), "tg128")
        self.assertEqual(name({"n_prompt": 512, "n_gen": 128}), "pp512+tg128")
        self.assertEqual(name({"n_prompt": 0, "n_gen": 128, "n_depth": 4096}), "tg128 @ d4096")
        self.assertEqual(name({"n_prompt": 512, "n_gen": 128, "test": "tg128@pp512"}), "tg128@pp512")


if __name__ == "__main__":
    unittest.main()

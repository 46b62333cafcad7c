#!/usr/bin/python3
"""The Mantaflow peer's driver without Blender or firelab_bench: its options (each bad one exits 2 naming the option,
the value and what is allowed), the 95 % intervals and the paired ratio, the parsing of both sides' output, and
peer.csv and peer.md written whole or not at all.

    /usr/bin/python3 tests/report/mantaflow_peer_test.py
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "peers")
sys.path.insert(0, HERE)
import mantaflow_peer as peer  # noqa: E402

SCRIPT = os.path.join(HERE, "mantaflow_peer.py")


def rows(mantaflow, firelab):
    out = []
    for r, (m, f) in enumerate(zip(mantaflow, firelab), start=1):
        out += [(r, "mantaflow", m), (r, "firelab", f)]
    return out


def blender_stdout(frames, warmup, ms=50.0, flame=0.9):
    lines = ["Blender 3.4.1", "PEER_INFO blender_version 3.4.1", "PEER_INFO cells 32x32x32"]
    for f in range(1, frames + 1):
        if f <= warmup:
            lines.append(f"WARMUP_MS {f} {3 * ms:.4f}")
        else:
            lines += [f"STEP_MS {f} {ms + f:.4f}", f"STEP_CPU_MS {f} {2 * (ms + f):.4f}"]
    lines += [f"PEER_CHECK flame_max {flame} density_max 0.04", "Blender quit"]
    return "\n".join(lines) + "\n"


class Options(unittest.TestCase):
    def test_the_defaults(self):
        a = peer.parse_args([])
        self.assertEqual((a.grid, a.threads, a.rounds, a.frames, a.warmup, a.install), (64, 2, 5, 40, 10, False))
        self.assertEqual(a.filter, "^BM_FluidStep/cpu/mgpcg/N:64/threads:2(/manual_time)?$")
        self.assertEqual(a.out, os.path.join(peer.ROOT, "results", "fluid", "peer"))
        self.assertTrue(a.firelab_bench.startswith(peer.ROOT) and a.firelab_bench.endswith("firelab_bench"))

    def test_given_paths_are_the_callers(self):
        a = peer.parse_args(["--out", "peer-out", "--firelab-bench", "bin/firelab_bench"])
        self.assertEqual(a.out, os.path.abspath("peer-out"))
        self.assertEqual(a.firelab_bench, os.path.abspath("bin/firelab_bench"))

    def test_the_default_filter_takes_the_one_benchmark_of_the_grid_and_threads(self):
        f = re.compile(peer.parse_args(["--grid", "32", "--threads", "1"]).filter)
        self.assertTrue(f.search("BM_FluidStep/cpu/mgpcg/N:32/threads:1/manual_time"))
        self.assertTrue(f.search("BM_FluidStep/cpu/mgpcg/N:32/threads:1"))
        for other in ("BM_FluidStep/cpu/mgpcg/N:320/threads:1/manual_time",
                      "BM_FluidStep/cpu/mgpcg/N:32/threads:12/manual_time",
                      "BM_FluidStep/cpu/pcg/N:32/threads:1/manual_time",
                      "BM_FluidStep/gpu/mgpcg/N:32/threads:1/manual_time"):
            self.assertIsNone(f.search(other), other)

    def test_a_filter_keeps_its_own_braces(self):
        self.assertEqual(peer.firelab_filter("N:{N}/t:{T}/x{2}", 16, 3), "N:16/t:3/x{2}")
        self.assertEqual(peer.parse_args(["--firelab-filter", "BM_X/{N}", "--grid", "8"]).filter, "BM_X/8")

    def test_each_bad_value_names_the_option_the_value_and_what_is_allowed(self):
        cases = [
            (["--grid", "7"], "--grid", "7", "8 to 512"),
            (["--grid", "513"], "--grid", "513", "8 to 512"),
            (["--grid", "sixty"], "--grid", "sixty", "whole number"),
            (["--threads", "0"], "--threads", "0", "1 to 1024"),
            (["--rounds", "1"], "--rounds", "1", "2 to 1000"),
            (["--frames", "1"], "--frames", "1", "2 to"),
            (["--warmup", "0"], "--warmup", "0", "1 to"),
            (["--frames", "20", "--warmup", "20"], "--warmup", "20", "shorter than the frames"),
            (["--firelab-min-time", "0"], "--firelab-min-time", "0", "above 0"),
            (["--firelab-min-time", "nan"], "--firelab-min-time", "nan", "above 0"),
            (["--firelab-filter", "BM_(open"], "--firelab-filter", "BM_(open", "regular expression"),
        ]
        for argv, option, value, allowed in cases:
            with self.subTest(argv=argv):
                with self.assertRaises(peer.UsageError) as cm:
                    peer.parse_args(argv)
                message = str(cm.exception)
                self.assertIn(option, message)
                self.assertIn(value, message)
                self.assertIn(allowed, message)

    def test_the_script_exits_2_on_a_bad_option_and_without_blender(self):
        bad = subprocess.run(["/usr/bin/python3", SCRIPT, "--rounds", "1"], capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--rounds", bad.stderr)
        missing = subprocess.run(["/usr/bin/python3", SCRIPT, "--blender", "/nonexistent/blender-peer-test"],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(missing.returncode, 2)
        self.assertIn("--install", missing.stderr)

    def test_a_missing_benchmark_binary_is_named(self):
        a = peer.parse_args(["--firelab-bench", "/nonexistent/firelab_bench"])
        with self.assertRaises(peer.UsageError) as cm:
            peer.check_bench(a)
        self.assertIn("--firelab-bench", str(cm.exception))
        self.assertIn("/nonexistent/firelab_bench", str(cm.exception))


class Intervals(unittest.TestCase):
    def test_t_by_degrees_of_freedom_errs_wide_between_rows(self):
        self.assertEqual(peer.t975(1), 12.706)
        self.assertEqual(peer.t975(4), 2.776)
        self.assertEqual(peer.t975(35), peer.t975(30))
        self.assertEqual(peer.t975(10 ** 6), 1.980)
        with self.assertRaises(ValueError):
            peer.t975(0)

    def test_the_mean_and_its_interval(self):
        mean, lo, hi = peer.mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
        half = 2.776 * math.sqrt(2.5) / math.sqrt(5)
        self.assertAlmostEqual(mean, 3.0)
        self.assertAlmostEqual(lo, 3.0 - half)
        self.assertAlmostEqual(hi, 3.0 + half)
        self.assertEqual(peer.mean_interval([7.0, 7.0, 7.0]), (7.0, 7.0, 7.0))
        with self.assertRaises(ValueError):
            peer.mean_interval([1.0])

    def test_the_ratio_is_the_mean_of_the_paired_rounds_ratios(self):
        s = peer.summarise(rows([10.0, 40.0], [5.0, 10.0]))  # ratios 2 and 4; the ratio of the means would be 10/3
        self.assertAlmostEqual(s["ratio"][0], 3.0)
        half = 12.706 * math.sqrt(2.0) / math.sqrt(2)
        self.assertAlmostEqual(s["ratio"][1], 3.0 - half)
        self.assertAlmostEqual(s["mantaflow"][0], 25.0)
        self.assertAlmostEqual(s["firelab"][0], 7.5)


class Parsing(unittest.TestCase):
    def test_a_blender_round_is_the_mean_of_the_frames_after_the_warm_up(self):
        r = peer.parse_blender(blender_stdout(frames=6, warmup=2, ms=50.0), frames=6, warmup=2)
        self.assertAlmostEqual(r["step_ms"], 50.0 + (3 + 4 + 5 + 6) / 4)
        self.assertAlmostEqual(r["cpu_per_wall"], 2.0)
        self.assertEqual(r["info"]["blender_version"], "3.4.1")
        self.assertEqual(r["info"]["cells"], "32x32x32")

    def test_a_blender_round_with_missing_frames_or_no_fire_fails(self):
        with self.assertRaises(peer.PeerError):
            peer.parse_blender(blender_stdout(frames=5, warmup=2), frames=6, warmup=2)
        with self.assertRaises(peer.PeerError) as cm:
            peer.parse_blender(blender_stdout(frames=6, warmup=2, flame=0), frames=6, warmup=2)
        self.assertIn("did not burn", str(cm.exception))
        with self.assertRaises(peer.PeerError):
            peer.parse_blender(blender_stdout(frames=6, warmup=2).replace("PEER_CHECK", "X"), frames=6, warmup=2)

    def test_firelab_json_real_time_in_its_unit(self):
        def data(unit, t, **extra):
            row = {"name": "BM_FluidStep/cpu/mgpcg/N:64/threads:2/manual_time", "run_type": "iteration",
                   "iterations": 12, "real_time": t, "cpu_time": 2 * t, "time_unit": unit}
            row.update(extra)
            return {"benchmarks": [row, {"name": "x_mean", "run_type": "aggregate", "real_time": 1.0,
                                         "time_unit": "ms"}]}
        self.assertEqual(peer.parse_bench_json(data("ms", 80.5), "n"), (80.5, 12))
        self.assertAlmostEqual(peer.parse_bench_json(data("us", 80500.0), "n")[0], 80.5)
        self.assertAlmostEqual(peer.parse_bench_json(data("ns", 8.05e7), "n")[0], 80.5)
        with self.assertRaises(peer.PeerError):
            peer.parse_bench_json(data("ms", 1.0, error_occurred=True, error_message="boom"), "n")
        with self.assertRaises(peer.PeerError):
            peer.parse_bench_json({"benchmarks": []}, "n")
        with self.assertRaises(peer.PeerError):
            peer.parse_bench_json(data("fortnights", 1.0), "n")


class Files(unittest.TestCase):
    META = {"grid": 64, "threads": 2, "frames": 40, "warmup": 10, "blender_version": "3.4.1",
            "blender_cells": "64x64x64", "cache_format": "OPENVDB NONE 32", "cache_place": "/dev/shm",
            "blender_cpu_per_wall": 1.9, "firelab_benchmark": "BM_FluidStep/cpu/mgpcg/N:64/threads:2/manual_time",
            "firelab_min_time": 2.0, "firelab_iterations": 30, "machine": "a test machine", "date": "today",
            "command": "scripts/peers/mantaflow_peer.py --grid 64"}

    def test_the_csv_holds_a_row_per_side_and_round(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sub", "peer.csv")
            peer.write_atomic(path, peer.csv_text(rows([400.0, 410.0, 405.0], [100.0, 101.0, 99.0])))
            with open(path, newline="") as f:
                got = list(csv.DictReader(f))
            self.assertEqual(list(got[0]), ["round", "peer", "step_ms"])
            self.assertEqual(len(got), 6)
            self.assertEqual((got[2]["round"], got[2]["peer"], float(got[2]["step_ms"])), ("2", "mantaflow", 410.0))
            self.assertEqual(os.listdir(os.path.dirname(path)), ["peer.csv"])  # no temporary file left

    def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "peer.csv")
            peer.write_atomic(path, "old\n")
            with mock.patch.object(peer.os, "replace", side_effect=OSError("disc full")):
                with self.assertRaises(OSError):
                    peer.write_atomic(path, peer.csv_text(rows([1.0, 2.0], [1.0, 2.0])))
            with open(path) as f:
                self.assertEqual(f.read(), "old\n")
            self.assertEqual(os.listdir(d), ["peer.csv"])

    def test_the_markdown_reports_both_sides_the_ratio_and_how(self):
        text = peer.markdown(rows([400.0, 410.0, 405.0], [100.0, 102.5, 101.25]), self.META)
        s = peer.summarise(rows([400.0, 410.0, 405.0], [100.0, 102.5, 101.25]))
        self.assertIn("64³", text)
        self.assertIn("Blender 3.4.1", text)
        self.assertIn("BM_FluidStep/cpu/mgpcg/N:64/threads:2/manual_time", text)
        self.assertIn(f"{s['ratio'][0]:.2f}×", text)
        self.assertIn(f"{s['ratio'][1]:.2f}–{s['ratio'][2]:.2f}", text)
        self.assertIn("Threads: 2", text)
        self.assertIn("`scripts/peers/mantaflow_peer.py --grid 64`", text)
        self.assertEqual(len(re.findall(r"^\| [123] \|", text, re.M)), 3)  # a row per round
        self.assertEqual(s["ratio"][0], 4.0)


if __name__ == "__main__":
    unittest.main()

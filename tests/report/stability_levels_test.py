#!/usr/bin/python3
"""scripts/stability.py's variance by level on sweeps drawn from a known model: frame times
log t = mu + process effect + round effect + frame noise, each normal with a stated standard deviation (seed
37). The method of moments must recover each level (tolerances below, about four standard errors at these
sizes), a ratio of two configurations drawn in alternation must lose the round and process effects they
share, the canary must explain a round effect it follows, and the rounds asked for a 5 % interval must be the
formula's. One folder without frames.csv exits 2."""
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import fixture  # noqa: E402
import stability  # noqa: E402

SCRIPT = os.path.join(fixture.ROOT, "scripts", "stability.py")
FRAME_COLUMNS = ["experiment", "run_key", "group_key", "process", "round", "cycle", "slot", "frame_ms", "cpu_ms",
                 "draw_ms"]
ROUND_HEADER = ["experiment", "run_key", "strategy", "particles", "frame_ms_median", "round", "process",
                "canary_cpu_ms", "canary_gl_ms", "status"]
KEYS = ["strategy=points;particles=1000", "strategy=billboards-cpu;particles=1000"]


def make(folder, processes, rounds, frames, sd_p, sd_r, sd_f, ratio=1.8, seed=37, canary=True):
    """A sweep folder: runs.csv (the fixture's), frames.csv of two configurations drawn in alternation (each
    cycle one frame of each, sharing the process's and the round's effects), rounds.csv with a canary that
    follows the round effect."""
    fixture.make_sweep(folder, scored=False, counts=[1000])
    rng = random.Random(seed)
    records, rounds_rows = [], []
    rnd = 0
    for p in range(1, processes + 1):
        e_p = rng.gauss(0, sd_p)
        for _ in range(rounds):
            rnd += 1
            e_r = rng.gauss(0, sd_r)
            for c in range(frames):
                for slot, (key, scale) in enumerate(zip(KEYS, (1.0, ratio))):
                    ms = 10.0 * scale * math.exp(e_p + e_r + rng.gauss(0, sd_f))
                    records.append({"experiment": "fixture", "run_key": key, "group_key": KEYS[0], "process": p,
                                    "round": rnd, "cycle": c, "slot": slot, "frame_ms": f"{ms:.6g}",
                                    "cpu_ms": f"{ms:.6g}", "draw_ms": f"{ms * 0.5:.6g}"})
            for key in KEYS:
                rounds_rows.append({"experiment": "fixture", "run_key": key, "strategy": key.split(";")[0][9:],
                                    "particles": "1000", "frame_ms_median": "10", "round": rnd, "process": p,
                                    "canary_cpu_ms": f"{2.0 * math.exp(e_p + e_r):.6g}" if canary else "",
                                    "canary_gl_ms": f"{3.0 * math.exp(e_p + e_r):.6g}" if canary else "",
                                    "status": "ok"})
    with open(os.path.join(folder, "frames.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FRAME_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(records)
    with open(os.path.join(folder, "rounds.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=ROUND_HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rounds_rows)


def levels(folder):
    out = subprocess.run([fixture.PYTHON, SCRIPT, folder, "--baseline", "strategy=points", "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    data = json.loads(out.stdout)["levels"][0]
    return ({c["key"]: c for c in data["configurations"]}, {c["key"]: c for c in data["ratios"]})


class VarianceByLevel(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.folder = os.path.join(self.tmp.name, "sweep")

    def tearDown(self):
        self.tmp.cleanup()

    def test_rounds_and_frames_recovered(self):
        make(self.folder, processes=1, rounds=30, frames=60, sd_p=0.0, sd_r=0.06, sd_f=0.10)
        configs, ratios = levels(self.folder)
        c = configs[KEYS[0]]
        self.assertEqual(c["P"], 1)
        self.assertIsNone(c["S_p2"])  # one process: no process level
        self.assertAlmostEqual(math.sqrt(c["S_f2"]), 0.10, delta=0.005)
        self.assertAlmostEqual(math.sqrt(c["S_r2"]), 0.06, delta=0.025)
        # The canary follows the round effect; the round means also hold the frames' noise (0.10 / sqrt(60)),
        # which it cannot explain: R^2 about 0.06^2 / (0.06^2 + 0.013^2) = 0.955.
        self.assertGreater(c["machine"], 0.90)
        r = ratios[KEYS[1]]
        self.assertEqual(r["paired_by"], "frames")
        self.assertAlmostEqual(math.sqrt(r["S_f2"]), 0.10 * math.sqrt(2), delta=0.008)
        self.assertLess(math.sqrt(r["S_r2"]), 0.012)  # shared by the pair: it cancels

    def test_processes_recovered_and_cancelled_in_ratios(self):
        make(self.folder, processes=12, rounds=4, frames=40, sd_p=0.08, sd_r=0.03, sd_f=0.05)
        configs, ratios = levels(self.folder)
        c = configs[KEYS[0]]
        self.assertEqual(c["P"], 12)
        self.assertAlmostEqual(math.sqrt(c["S_p2"]), 0.08, delta=0.04)
        self.assertLess(math.sqrt(ratios[KEYS[1]]["S_p2"]), 0.01)

    def test_rounds_needed_is_the_formula(self):
        c = {"S_p2": 0.0, "S_r2": 0.02 ** 2, "S_f2": 0.10 ** 2, "P": 1, "R": 4, "F": 40}
        need = (0.02 ** 2 + 0.10 ** 2 / 40) / (0.025 / 1.959964) ** 2
        self.assertEqual(stability.rounds_needed(c), (math.ceil(need), None))
        wide = dict(c, S_p2=0.03 ** 2, P=2)  # the process level alone exceeds +-2.5 %
        self.assertEqual(stability.rounds_needed(wide), (None, math.ceil(0.03 ** 2 / (0.025 / 1.959964) ** 2)))

    def test_without_frames_one_folder_is_refused(self):
        fixture.make_sweep(self.folder, scored=False, counts=[1000])
        out = subprocess.run([fixture.PYTHON, SCRIPT, self.folder], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("frames.csv", out.stderr)


if __name__ == "__main__":
    unittest.main()

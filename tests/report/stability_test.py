#!/usr/bin/python3
"""scripts/stability.py on two fixture sweeps (tests/report/fixture.py) that agree, that drift together, and
that disagree on a median, on a ratio and on a ranking; with and without intervals; its exit status and JSON."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import fixture  # noqa: E402
from firelab_runs import split_run_key  # noqa: E402

SCRIPT = os.path.join(fixture.ROOT, "scripts", "stability.py")


def rewrite(folder, change, name="runs.csv"):
    """Rewrites folder/NAME, calling change(row) on every row (a dict it may edit)."""
    path = os.path.join(folder, name)
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, rows = reader.fieldnames, list(reader)
    for row in rows:
        change(row)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def scale(row, factor, *columns):
    for c in columns:
        if row.get(c):
            row[c] = f"{float(row[c]) * factor:.6g}"


FRAME = ("frame_ms_median", "frame_ms_ci_low", "frame_ms_ci_high")


def set_median(key, ms):
    """A change that gives configuration `key` the median `ms`, its interval as the fixture draws it."""
    def change(row):
        if row["run_key"] == key:
            row["frame_ms_median"] = f"{ms:.6g}"
            if row.get("frame_ms_ci_low"):
                row["frame_ms_ci_low"] = f"{ms * fixture.CI_BELOW:.6g}"
                row["frame_ms_ci_high"] = f"{ms * fixture.CI_ABOVE:.6g}"
    return change


def add_cpu(folder, factor=1.5):
    """Gives every row of folder/runs.csv CPU-time columns: factor x its frame time and interval."""
    path = os.path.join(folder, "runs.csv")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header, rows = reader.fieldnames, list(reader)
    cpu = ["cpu_ms_median", "cpu_ms_ci_low", "cpu_ms_ci_high"]
    for row in rows:
        for frame, c in zip(FRAME, cpu):
            row[c] = f"{float(row[frame]) * factor:.6g}" if row.get(frame) else ""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header[:-1] + cpu + header[-1:], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


class StabilityTest(unittest.TestCase):
    def sweeps(self, rounds=5):
        tmp = tempfile.TemporaryDirectory(prefix="firelab-stability-")
        self.addCleanup(tmp.cleanup)
        a, b = os.path.join(tmp.name, "a"), os.path.join(tmp.name, "b")
        fixture.make_sweep(a, scored=False, rounds=rounds)
        fixture.make_sweep(b, scored=False, rounds=rounds)
        return a, b

    def run_script(self, a, b, *extra):
        proc = subprocess.run([fixture.PYTHON, SCRIPT, a, b, "--json", *extra], capture_output=True, text=True,
                              timeout=60)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        return proc.returncode, json.loads(proc.stdout)

    def test_two_equal_sweeps_agree_on_every_figure(self):
        a, b = self.sweeps()
        code, res = self.run_script(a, b)
        self.assertEqual(code, 0)
        self.assertTrue(res["stable"])
        n = len(fixture.STRATEGIES) * len(fixture.COUNTS)
        self.assertEqual(res["configurations"]["both"], n)
        m = res["medians"]
        self.assertEqual((m["with_intervals"], m["mutual"], m["within"]), (n, n, n))
        r = res["ratios"]
        self.assertEqual(r["baseline"], "strategy=points")
        self.assertEqual(r["source"], {"a": "runs.csv medians", "b": "runs.csv medians"})
        self.assertEqual((r["compared"], r["within"]), (n - len(fixture.COUNTS), n - len(fixture.COUNTS)))
        k = res["ranking"]
        self.assertEqual(k["axis"], "particles")
        self.assertEqual([v["value"] for v in k["values"]], [str(c) for c in fixture.COUNTS])
        self.assertEqual(k["same"], len(fixture.COUNTS))

    def test_metric_cpu_compares_cpu_time_where_the_wall_time_moved(self):
        # Issue 23: a loaded machine stretches the wall time (B's frames 30% slower) but not the CPU time a
        # frame costs; --metric cpu compares cpu_ms_median and its intervals instead.
        a, b = self.sweeps()
        add_cpu(a)
        add_cpu(b)
        rewrite(b, lambda row: scale(row, 1.3, *FRAME))
        code, wall = self.run_script(a, b)
        self.assertEqual(code, 1)
        self.assertEqual(wall["column"], "frame_ms_median")
        code, cpu = self.run_script(a, b, "--metric", "cpu")
        self.assertEqual(code, 0, cpu["reasons"])
        self.assertEqual(cpu["column"], "cpu_ms_median")
        m = cpu["medians"]
        self.assertEqual((m["within"], m["mutual"]), (m["compared"], m["with_intervals"]))
        self.assertAlmostEqual(m["worst"]["difference"], 0.0, places=6)  # the CPU time did not move

    def test_a_machine_slower_throughout_moves_the_medians_not_the_ratios(self):
        a, b = self.sweeps()
        rewrite(b, lambda row: scale(row, 1.07, *FRAME))  # B: 7% slower everywhere
        code, res = self.run_script(a, b)
        self.assertEqual(code, 0, res["reasons"])
        m = res["medians"]
        self.assertEqual(m["within"], m["compared"])
        self.assertAlmostEqual(m["worst"]["difference"], 0.07, places=4)
        # B's median (1.07 x A's) is inside A's interval (to 1.08 x A's); A's is not inside B's (from
        # 0.95 x 1.07 = 1.0165 x A's).
        self.assertEqual(m["a_interval_holds_b_median"], m["with_intervals"])
        self.assertEqual(m["b_interval_holds_a_median"], 0)
        self.assertEqual(m["mutual"], 0)
        self.assertLess(res["ratios"]["worst"]["difference"], 1e-4)

    def test_a_drifting_configuration_fails_the_median_and_ratio_figures(self):
        a, b = self.sweeps()
        key = "strategy=billboards-cpu;particles=100000"
        slow = fixture.median_ms("billboards-cpu", 100000) * 1.2
        rewrite(b, set_median(key, slow))
        code, res = self.run_script(a, b)
        self.assertEqual(code, 1)
        self.assertFalse(res["stable"])
        m, r = res["medians"], res["ratios"]
        self.assertEqual(m["within"], m["compared"] - 1)
        self.assertEqual(m["worst"]["run_key"], key)
        self.assertAlmostEqual(m["worst"]["difference"], 0.2, places=4)
        self.assertEqual(m["a_interval_holds_b_median"], m["with_intervals"] - 1)
        self.assertEqual(r["within"], r["compared"] - 1)
        self.assertEqual(r["worst"]["run_key"], key)
        self.assertEqual(res["ranking"]["same"], len(fixture.COUNTS))  # still the slowest: the ranking holds
        self.assertEqual(len(res["reasons"]), 2, res["reasons"])

    def test_a_flip_the_intervals_separate_is_a_ranking_disagreement(self):
        a, b = self.sweeps()
        # At 10k point-sprites (1.3 ms) is faster than billboards-instanced (1.5 ms) in A; in B it is slower,
        # and its interval (from 0.95 x 2.0 = 1.9) clears the other's (to 1.08 x 1.5 = 1.62).
        rewrite(b, set_median("strategy=point-sprites;particles=10000", 2.0))
        code, res = self.run_script(a, b, "--median-tolerance", "1", "--ratio-tolerance", "1")
        self.assertEqual(code, 1)
        at10k = next(v for v in res["ranking"]["values"] if v["value"] == "10000")
        self.assertEqual(at10k["disagreements"], [{"series": ["strategy=point-sprites", "strategy=billboards-instanced"],
                                                    "a": "<", "b": ">"}])
        self.assertEqual(res["ranking"]["same"], len(fixture.COUNTS) - 1)
        self.assertEqual(res["reasons"], ["the ranking differs at particles=10000"])

    def test_a_flip_within_overlapping_intervals_is_not_counted(self):
        a, b = self.sweeps()
        # 1.6 ms: slower than billboards-instanced's 1.5, but its interval (from 1.52) overlaps the other's.
        rewrite(b, set_median("strategy=point-sprites;particles=10000", 1.6))
        code, res = self.run_script(a, b, "--median-tolerance", "1", "--ratio-tolerance", "1")
        self.assertEqual(code, 0, res["reasons"])
        at10k = next(v for v in res["ranking"]["values"] if v["value"] == "10000")
        self.assertEqual(at10k["disagreements"], [])
        self.assertGreater(at10k["overlapping"], 0)

    def test_without_intervals_every_pair_counts(self):
        a, b = self.sweeps(rounds=None)
        rewrite(b, set_median("strategy=point-sprites;particles=10000", 1.6))
        code, res = self.run_script(a, b, "--median-tolerance", "1", "--ratio-tolerance", "1")
        self.assertEqual(code, 1)
        self.assertEqual(res["medians"]["with_intervals"], 0)
        at10k = next(v for v in res["ranking"]["values"] if v["value"] == "10000")
        self.assertEqual(at10k["overlapping"], 0)
        self.assertEqual(len(at10k["disagreements"]), 1)
        self.assertEqual(at10k["pairs"], len(fixture.STRATEGIES) * (len(fixture.STRATEGIES) - 1) // 2)

    def test_ratios_csv_is_used_when_made_against_the_same_baseline(self):
        a, b = self.sweeps()
        fixture.make_ratios(a)
        key = "strategy=billboards-instanced;particles=1000"
        rewrite(a, lambda row: scale(row, 1.1, "frame_ratio_median") if row["run_key"] == key else None,
                name="ratios.csv")
        code, res = self.run_script(a, b)
        self.assertEqual(code, 1)
        r = res["ratios"]
        self.assertEqual(r["source"], {"a": "ratios.csv", "b": "runs.csv medians"})
        self.assertEqual(r["worst"]["run_key"], key)
        self.assertAlmostEqual(r["worst"]["difference"], 0.1, places=4)
        self.assertEqual(res["medians"]["within"], res["medians"]["compared"])  # the medians agree
        # Against another baseline, ratios.csv (made against points) is not used.
        _, res = self.run_script(a, b, "--baseline", "strategy=billboards-cpu")
        self.assertEqual(res["ratios"]["source"]["a"], "runs.csv medians")
        self.assertEqual(res["ratios"]["within"], res["ratios"]["compared"])

    def test_the_text_report_names_the_figures_and_the_disagreements(self):
        a, b = self.sweeps()
        rewrite(b, set_median("strategy=point-sprites;particles=10000", 2.0))
        proc = subprocess.run([fixture.PYTHON, SCRIPT, a, b], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        out = proc.stdout
        self.assertIn("A's 95% interval holds B's median in 11/12", out)
        self.assertIn("within 10%: 11/12; worst strategy=point-sprites;particles=10000", out)
        self.assertIn("2. ratios to strategy=points", out)
        self.assertIn("particles=10000: strategy=point-sprites < strategy=billboards-instanced in A, > in B", out)
        self.assertIn("stable: no", out)

    def test_bad_input_exits_2(self):
        a, b = self.sweeps()
        rewrite(b, lambda row: row.update(experiment="other"))
        cases = [([a, os.path.join(a, "nothing")], "no runs.csv"),
                 ([a, b], "compare two sweeps of one experiment"),
                 ([a, a, "--baseline", "blend=alpha"], "'blend' is not swept in both sweeps; their axes: strategy, particles"),
                 ([a, a, "--baseline", "strategy=compute"], "'compute' is not among strategy's swept values"),
                 ([a, a, "--baseline", "points"], "not KEY=VALUE")]
        for args, message in cases:
            proc = subprocess.run([fixture.PYTHON, SCRIPT, *args], capture_output=True, text=True, timeout=60)
            self.assertEqual(proc.returncode, 2, (args, proc.stderr))
            self.assertIn(message, proc.stderr)


class SplitRunKeyTest(unittest.TestCase):
    def test_axis_names_keep_semicolons_in_values_and_guessing_joins_parts_without_a_name(self):
        self.assertEqual(split_run_key("strategy=points;label=a;b=c;particles=10", ["strategy", "label", "particles"]),
                         [("strategy", "points"), ("label", "a;b=c"), ("particles", "10")])
        self.assertEqual(split_run_key("texture=a;b.png;speed=0,1,0"),
                         [("texture", "a;b.png"), ("speed", "0,1,0")])
        self.assertEqual(split_run_key("single"), [])
        self.assertIsNone(split_run_key("particles=10;strategy=points", ["strategy", "particles"]))
        self.assertIsNone(split_run_key("points"))


if __name__ == "__main__":
    unittest.main()

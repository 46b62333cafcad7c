#!/usr/bin/python3
"""The grid fluid's figure scripts: scripts/fluid_cost.py on benchmark JSON written here (a cost growing exactly as
the cells reads k = 1.00, the medians of repetitions are the ones used), and scripts/fluid_figures.py on the
committed records of results/fluid (every figure and table it draws from them); both exit 2 naming what is missing."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
COST = os.path.join(ROOT, "scripts", "fluid_cost.py")
FIGURES = os.path.join(ROOT, "scripts", "fluid_figures.py")
RESULTS = os.path.join(ROOT, "results", "fluid")
PASSES = ["sources", "advect", "forces", "combust", "project", "readback"]


def run(*args):
    return subprocess.run(["/usr/bin/python3", *args], capture_output=True, text=True, timeout=300)


def step_row(device, solver, n, ms, aggregate=None):
    row = {"name": f"BM_FluidStep/{device}/{solver}/N:{n}/manual_time",
           "run_name": f"BM_FluidStep/{device}/{solver}/N:{n}/manual_time", "real_time": ms,
           "cells": float(n ** 3), "mib": n ** 3 * 1e-4, "residual": 0.1, "ns_per_cell": 1e6 * ms / n ** 3,
           "run_type": "iteration"}
    row.update({p + "_ms": ms / len(PASSES) for p in PASSES})
    if aggregate:
        row.update(run_type="aggregate", aggregate_name=aggregate)
    return row


class FluidCost(unittest.TestCase):
    def test_a_cost_growing_as_the_cells_reads_k_one(self):
        rows = []
        for device in ("cpu", "gpu"):
            for n in (16, 32, 64):
                base = 0.001 * n ** 3 * (1 if device == "cpu" else 3)
                rows.append(step_row(device, "pcg", n, base * 5.0))  # a repetition far off the median
                rows.append(step_row(device, "pcg", n, base, aggregate="median"))
        rows.append({"name": "BM_FluidProject/cpu/pcg/iterations:10/manual_time",
                     "run_name": "BM_FluidProject/cpu/pcg/iterations:10/manual_time", "real_time": 12.0,
                     "residual": 0.5, "run_type": "iteration"})
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bench.json")
            with open(path, "w") as f:
                json.dump({"context": {"host_name": "test", "num_cpus": 2}, "benchmarks": rows}, f)
            r = run(COST, path, "--out", d)
            self.assertEqual(r.returncode, 0, r.stderr)
            for name in ("cost_per_pass.png", "project_residual.png", "table.md"):
                self.assertGreater(os.path.getsize(os.path.join(d, name)), 1000 if name.endswith("png") else 100)
            with open(os.path.join(d, "table.md"), encoding="utf-8") as f:
                table = f.read()
            self.assertIn("- cpu pcg: k = 1.00", table)
            self.assertIn("- gpu pcg: k = 1.00", table)
            self.assertIn("| gpu | pcg | 1 | 64^3 | 262144 | 786.4 |", table)  # the median, not the far repetition
            self.assertIn("| cpu | pcg | 10 | 12.0 | 0.5 |", table)

    def test_missing_or_foreign_json_exits_2(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(COST, os.path.join(d, "none.json"), "--out", d)
            self.assertEqual(r.returncode, 2)
            self.assertIn("none.json", r.stderr)
            path = os.path.join(d, "other.json")
            with open(path, "w") as f:
                json.dump({"benchmarks": [{"name": "BM_Memcpy/N:10", "real_time": 1.0}]}, f)
            r = run(COST, path, "--out", d)
            self.assertEqual(r.returncode, 2)
            self.assertIn("no BM_FluidStep", r.stderr)


class FluidFigures(unittest.TestCase):
    def test_the_committed_records_draw_every_figure(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(FIGURES, RESULTS, "--out", d)
            self.assertEqual(r.returncode, 0, r.stderr)
            for name in ("puffing.png", "pareto.png", "side_by_side.png", "flame_height.png"):
                self.assertGreater(os.path.getsize(os.path.join(d, name)), 10000, name)
            with open(os.path.join(d, "table.md"), encoding="utf-8") as f:
                table = f.read()
            self.assertIn("## Flame height against power", table)

    def test_a_missing_record_exits_2_naming_it(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(FIGURES, d, "--puffing", os.path.join(d, "nothing"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("nothing", r.stderr)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
"""scripts/flipbook_figures.py on the committed records of results/flipbook: every figure and table.md from the
sweep's runs.csv and saved frames, the equal-quality lines per metric; a missing record exits 2 naming it."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIGURES = os.path.join(ROOT, "scripts", "flipbook_figures.py")
RESULTS = os.path.join(ROOT, "results", "flipbook")


def run(*args):
    return subprocess.run(["/usr/bin/python3", *args], capture_output=True, text=True, timeout=300)


class FlipbookFigures(unittest.TestCase):
    def test_the_committed_records_draw_every_figure(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(FIGURES, RESULTS, "--out", d)
            self.assertEqual(r.returncode, 0, r.stderr)
            for name in ("pareto.png", "flicker.png", "side_by_side.png"):
                self.assertGreater(os.path.getsize(os.path.join(d, name)), 10000, name)
            with open(os.path.join(d, "table.md"), encoding="utf-8") as f:
                table = f.read()
            self.assertIn("## At equal quality", table)
            for metric in ("- ꟻLIP:", "- SSIM:", "- PSNR (dB):"):
                self.assertIn(metric, table)
            self.assertIn("| sprites motion | 4 |", table)
            self.assertIn("| particles | 20000 |", table)

    def test_a_missing_record_exits_2_naming_it(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(FIGURES, os.path.join(d, "nothing"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("nothing", r.stderr)


if __name__ == "__main__":
    unittest.main()

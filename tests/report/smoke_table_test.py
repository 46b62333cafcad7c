#!/usr/bin/python3
"""scripts/smoke_table.py: the smoke experiment's tables (per scene, the transparency modes at one --lit with
frame time, interval, scores and memory; lit against unlit per mode; the lit cost's median ratio) and its plot,
from a sweep's runs.csv; depth-slices named by the layer order; exit 2 without scored runs."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import fixture  # noqa: E402
import smoke_table  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "scripts", "smoke_table.py")
HEADER = ["experiment", "run_key", "effect", "start_time", "sort", "layer_order", "lit", "frame_ms_median",
          "frame_ms_ci_low", "frame_ms_ci_high", "rounds", "reference", "flip_fire", "ssim_fire", "oit_mib",
          "abuffer_fragments", "abuffer_longest_list", "status"]
REFERENCE = "strategy=billboards-instanced;sort=abuffer;lit=pixel"

# (effect, start time, sort, layer order, lit, ms, flip, more)
RUNS = [("effects/explosion.toml", "6.3", "none", "layers", "pixel", 400, 0.13, {}),
        ("effects/explosion.toml", "6.3", "back-to-front", "depth-slices", "pixel", 450, 0.02, {}),
        ("effects/explosion.toml", "6.3", "none", "depth-slices", "pixel", 430, 0.05, {}),
        ("effects/explosion.toml", "6.3", "moment", "layers", "pixel", 700, 0.03, {"oit_mib": "31.640625"}),
        ("effects/explosion.toml", "6.3", "abuffer", "layers", "pixel", 900, 0.0,
         {"oit_mib": "259.5", "abuffer_fragments": "12500000", "abuffer_longest_list": "46"}),
        ("effects/explosion.toml", "6.3", "none", "layers", "none", 320, 0.2, {}),
        ("effects/explosion.toml", "6.3", "abuffer", "layers", "none", 720, 0.1, {}),
        ("effects/campfire.toml", "7.2", "none", "layers", "pixel", 300, 0.03, {}),
        ("effects/campfire.toml", "7.2", "none", "layers", "none", 250, 0.15, {})]


def write_runs(folder, runs, extra_rows=()):
    os.makedirs(folder, exist_ok=True)
    rows = []
    for effect, start, sort, order, lit, ms, flip, more in runs:
        row = dict.fromkeys(HEADER, "")
        row.update(experiment="smoke", run_key=f"effect={effect};sort={sort};layer-order={order};lit={lit}",
                   effect=effect, start_time=start, sort=sort, layer_order=order, lit=lit, frame_ms_median=str(ms),
                   frame_ms_ci_low=str(ms - 10), frame_ms_ci_high=str(ms + 20), rounds="3", reference=REFERENCE,
                   flip_fire=str(flip), ssim_fire="0.99", status="ok")
        row.update(more)
        rows.append(row)
    rows += extra_rows
    fixture.write_runs_csv(folder, HEADER, rows)


def run(*args):
    return subprocess.run([fixture.PYTHON, SCRIPT, *args], capture_output=True, text=True, timeout=120)


def table(text, title, after=""):
    """The body rows of the table under the bold title (followed by `after`), as lists of cells."""
    block = text.split(f"**{title}**{after}", 1)[1].split("\n\n", 2)[1]
    return [[c.strip() for c in l.strip("|").split("|")] for l in block.splitlines()[2:]]


class SmokeTableTest(unittest.TestCase):
    def folder(self):
        tmp = tempfile.TemporaryDirectory(prefix="firelab-smoke-test-")
        self.addCleanup(tmp.cleanup)
        return tmp.name

    def test_modes_in_order_with_intervals_memory_and_fragments(self):
        root = self.folder()
        failed = dict.fromkeys(HEADER, "")
        failed.update(effect="effects/explosion.toml", sort="wboit", lit="pixel", status="error: no GL context")
        write_runs(root, RUNS, [failed])
        proc = run(root)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = table(proc.stdout, "explosion @ 6.3 s")
        self.assertEqual([r[0] for r in rows],
                         ["none", "depth-slices (unsorted)", "depth-slices", "moment", "abuffer"])
        self.assertEqual(rows[0][1:3], ["400 [390, 420]", "0.13"])
        self.assertEqual(rows[3][4], "31.6")
        self.assertEqual(rows[4][4:], ["259.5", "12.50 M", "46"])
        lit_rows = table(proc.stdout, "explosion @ 6.3 s", ": --lit")
        self.assertEqual(lit_rows[0], ["none", "320", "0.2", "", "", "400", "0.13"])
        # none: 400/320 = 1.25 and 300/250 = 1.2; abuffer 900/720 = 1.25: the median of 1.2, 1.25, 1.25.
        self.assertIn("every scene and mode: pixel 1.25\n", proc.stdout)  # no vertex runs; none is the base
        self.assertTrue(os.path.isfile(os.path.join(root, "modes.png")))

    def test_mode_and_scene_names(self):
        self.assertEqual(smoke_table.mode_of({"sort": "wboit", "layer_order": "layers"}), "wboit")
        self.assertEqual(smoke_table.mode_of({"sort": "back-to-front", "layer_order": "depth-slices"}), "depth-slices")
        self.assertEqual(smoke_table.scene_of({"effect": "effects/campfire.toml", "start_time": "0"}), "campfire")
        self.assertEqual(smoke_table.scene_of({"effect": "", "start_time": "7.2"}), "flame @ 7.2 s")

    def test_no_scored_run_exits_two(self):
        root = self.folder()
        write_runs(root, [])
        proc = run(root)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no ok run with quality scores", proc.stderr)
        self.assertEqual(run(os.path.join(root, "missing")).returncode, 2)


if __name__ == "__main__":
    unittest.main()

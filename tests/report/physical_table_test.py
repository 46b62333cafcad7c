#!/usr/bin/python3
"""scripts/physical_table.py: the physical experiment's tables per fire (configurations named by strategy,
texture, grid and fill settings; the frontier marks; the cheapest at each quality floor; the volume's GPU
passes) and its Pareto plot, from the runs.csv of several sweep folders; exit 2 without scored runs."""
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
import physical_table  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "scripts", "physical_table.py")
REFERENCE = "strategy=volume-reference"
NEWER = ["effect", "volume_cell", "volume_slices", "gpu_splat_ms_median", "gpu_integrate_ms_median",
         "gpu_particles_ms_median"]
HEADER = (fixture.BASE_COLUMNS[:-1] + NEWER + fixture.QUALITY_COLUMNS + fixture.ROUND_COLUMNS + ["status"])

# (run_key, strategy, ms, (ci low, ci high), flip_fire, ssim_fire, more columns)
FLAME = [("strategy=points;texture=flame.png", "points", 10, (9, 11), 0.30, 0.80, {}),
         ("strategy=points;texture=gaussian.png", "points", 12, (11, 13), 0.28, 0.82, {}),
         ("strategy=billboards-instanced;texture=flame.png", "billboards-instanced", 40, (38, 43), 0.18, 0.93,
          {"gpu_particles_ms_median": "7"}),  # every strategy has a particles pass: not in the GPU table
         ("strategy=billboards-instanced;texture=gaussian.png", "billboards-instanced", 42, (40, 45), 0.12, 0.93,
          {})]
GPU = {"gpu_splat_ms_median": "1.5", "gpu_integrate_ms_median": "0.75", "gpu_particles_ms_median": "0.25",
       "gpu_ms_median": "3"}
FLAME_VOLUME = [("volume-cell=16", "volume", 30, (29, 39), 0.16, 0.94, dict(volume_cell="16", **GPU)),
                ("volume-cell=8", "volume", 60, (58, 63), 0.08, 0.985, dict(volume_cell="8", **GPU))]
CAMPFIRE = [("strategy=points", "points", 15, (14, 16), 0.35, 0.70, {}),
            ("strategy=billboards-instanced", "billboards-instanced", 20, (19, 21), 0.20, 0.90,
             {"particle_scale": "0.5"}),
            ("strategy=volume", "volume", 80, (75, 85), 0.12, 0.96, {})]


def write_folder(folder, runs, axes, settings=None, effect="", extra_rows=()):
    """folder/runs.csv of the runs (3 rounds each, scored against volume-reference) and a meta.json recording
    the sweep's axes and fixed settings."""
    os.makedirs(folder, exist_ok=True)
    rows = []
    for key, strategy, ms, (lo, hi), flip, ssim, more in runs:
        row = dict.fromkeys(HEADER, "")
        row.update(experiment="physical", run_key=key, strategy=strategy, effect=effect, particles="20000",
                   width="1280", height="720", particle_scale="1", hull="quad", upsample="nearest-depth",
                   filter="trilinear", volume_cell="8", volume_slices="64", frame_ms_median=str(ms),
                   frame_ms_ci_low=str(lo), frame_ms_ci_high=str(hi), round="", rounds="3", reference=REFERENCE,
                   psnr_fire_db=f"{30 - 20 * flip:.4g}", ssim_fire=str(ssim), flip_fire=str(flip),
                   fragments_shaded=str(int(ms * 1e6)), gl_renderer="llvmpipe (LLVM 15.0.6, 256 bits)",
                   status="ok")
        row.update(more)
        rows.append(row)
    rows += extra_rows
    fixture.write_runs_csv(folder, HEADER, rows)
    config = {"axes": axes, "settings": dict({"texture": "flame.png"}, **(settings or {}))}
    with open(os.path.join(folder, "meta.json"), "w", encoding="utf-8") as f:
        json.dump({"experiment": "physical", "timer_queries_meaningful": False, "config": config}, f)


def physical_folder(test):
    tmp = tempfile.TemporaryDirectory(prefix="firelab-physical-test-")
    test.addCleanup(tmp.cleanup)
    root = tmp.name
    write_folder(os.path.join(root, "flame"), FLAME,
                 {"strategy": ["points", "billboards-instanced"], "texture": ["flame.png", "gaussian.png"]})
    write_folder(os.path.join(root, "flame-volume"), FLAME_VOLUME, {"volume-cell": ["16", "8"]},
                 {"strategy": "volume", "texture": "flame.png"})
    unscored = dict.fromkeys(HEADER, "")
    unscored.update(run_key="strategy=compute-splat", strategy="compute-splat", effect="effects/campfire.toml",
                    frame_ms_median="5", status="ok")
    failed = dict(unscored, run_key="strategy=point-sprites", strategy="point-sprites", frame_ms_median="",
                  status="error: no GL context")
    write_folder(os.path.join(root, "campfire"), CAMPFIRE, {"strategy": ["points", "billboards-instanced", "volume"]},
                 effect="effects/campfire.toml", extra_rows=[unscored, failed])
    return root


def run(*args):
    return subprocess.run([fixture.PYTHON, SCRIPT, *args], capture_output=True, text=True, timeout=120)


def section(text, heading):
    return text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def table_rows(text):
    """The body rows of the first Markdown table in text, as lists of cells."""
    lines = text[text.index("| configuration"):].split("\n\n", 1)[0].splitlines()
    return [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]


def floor_items(text):
    return [l[2:] for l in text.splitlines() if l.startswith("- ")]


class PhysicalTableTest(unittest.TestCase):
    def test_tables_per_fire_with_the_frontier_and_the_floors(self):
        root = physical_folder(self)
        proc = run(root, "--max-flip", "0.05,0.10,0.15,0.20")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        flame = section(proc.stdout, "flame (the default fire)")
        campfire = section(proc.stdout, "campfire (effects/campfire.toml)")
        rows = table_rows(flame)
        self.assertEqual([r[0] for r in rows], ["points", "volume 16px/64", "billboards-instanced flame.png",
                                               "billboards-instanced gaussian.png", "volume 8px/64"])
        self.assertEqual(rows[0][1], "11 (median of 2)")  # points with two textures: one configuration
        self.assertEqual(rows[1][1:6], ["30 [29, 39]", "30 M", "26.8", "0.94", "0.16"])
        self.assertEqual([r[6] for r in rows], ["◆", "◆", "", "◆", "◆"])  # front ꟻLIP
        self.assertEqual([r[7] for r in rows], ["◆", "◆", "", "", "◆"])  # front SSIM: 0.93 is not enough
        self.assertIn("flame: points: 2 rows (flame), their medians shown", proc.stderr)
        self.assertIn("1 ok row(s) without quality scores left out", proc.stderr)
        self.assertEqual(floor_items(flame.split("GPU passes")[0]), [
            "flip_fire ≤ 0.05: none (best: volume 8px/64, 0.08)",
            "flip_fire ≤ 0.10: **volume 8px/64**, 60 [58, 63] ms (flip_fire 0.08)",
            "flip_fire ≤ 0.15: **billboards-instanced gaussian.png**, 42 [40, 45] ms (flip_fire 0.12)",
            "flip_fire ≤ 0.20: **volume 16px/64**, 30 [29, 39] ms (flip_fire 0.16); not told apart (intervals "
            "overlap): billboards-instanced flame.png",
            "ssim_fire ≥ 0.95: **volume 8px/64**, 60 [58, 63] ms (ssim_fire 0.985)",
            "ssim_fire ≥ 0.98: **volume 8px/64**, 60 [58, 63] ms (ssim_fire 0.985)"])
        gpu = flame.split("GPU passes", 1)[1]
        self.assertEqual([r[0] for r in table_rows(gpu)], ["volume 16px/64", "volume 8px/64"])
        self.assertIn("| volume 16px/64 | 30 | 1.5 | 0.75 | 0.25 | 3 |", gpu)
        self.assertIn("[^gpu]: GL timer queries are not meaningful on llvmpipe", proc.stdout)

        rows = table_rows(campfire)
        self.assertEqual([r[0] for r in rows], ["points", "billboards-instanced flame.png / particle_scale=0.5",
                                               "volume 8px/64"])
        self.assertEqual([r[6] for r in rows], ["◆", "◆", "◆"])
        self.assertIn("ssim_fire ≥ 0.98: none (best: volume 8px/64, 0.96)", floor_items(campfire))
        self.assertNotIn("GPU passes", campfire)
        self.assertIn("`strategy=volume-reference`", proc.stdout)
        with open(os.path.join(root, "pareto.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_out_names_the_plot(self):
        root = physical_folder(self)
        out = os.path.join(root, "plots", "physical.png")
        proc = run(root, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.getsize(out) > 10000)
        self.assertFalse(os.path.exists(os.path.join(root, "pareto.png")))
        self.assertEqual([f for f in os.listdir(os.path.dirname(out))], ["physical.png"])  # no temporary left

    def test_a_folder_without_runs_or_scores_exits_2(self):
        root = physical_folder(self)
        proc = run(os.path.join(root, "nowhere"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no such folder", proc.stderr)
        empty = os.path.join(root, "empty")
        os.makedirs(os.path.join(empty, "flame"))
        proc = run(empty)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no runs.csv in it or in its sub-folders", proc.stderr)
        unscored = os.path.join(root, "unscored")
        fixture.make_sweep(os.path.join(unscored, "flame"), scored=False)
        proc = run(unscored)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no ok run has quality scores", proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertFalse(os.path.exists(os.path.join(unscored, "pareto.png")))
        with open(os.path.join(empty, "flame", "runs.csv"), "w", encoding="utf-8") as f:
            f.write("a,b\n1,2\n")
        proc = run(empty)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("not a firelab runs.csv", proc.stderr)

    def test_configuration_names(self):
        def name(**row):
            base = {"strategy": "point-sprites", "particle_scale": "1", "hull": "quad", "upsample": "nearest-depth",
                    "filter": "trilinear", "volume_cell": "8", "volume_slices": "64"}
            texture = row.pop("texture", "flame.png")
            return physical_table.Run(dict(base, **row), "", texture, None, None).configuration()
        self.assertEqual(name(), "point-sprites flame.png")
        self.assertEqual(name(texture="gaussian.png", particle_scale="1.0", hull="8"),
                         "point-sprites gaussian.png / hull=8")
        self.assertEqual(name(strategy="points", texture="gaussian.png"), "points")
        self.assertEqual(name(strategy="volume", volume_cell="4", volume_slices="128", filter="bilinear"),
                         "volume 4px/128 / filter=bilinear")
        self.assertEqual(name(strategy="volume", volume_cell="", volume_slices=""), "volume 8px/64")
        self.assertEqual(name(strategy="volume-reference"), "volume-reference")
        meta = {"config": {"settings": {"texture": "textures/gaussian.png"}}}
        self.assertEqual(physical_table.texture_of({"run_key": "strategy=points"}, meta, None), "gaussian.png")
        self.assertEqual(physical_table.texture_of({"run_key": "strategy=points;texture=flame.png"}, meta, None),
                         "flame.png")
        self.assertEqual(physical_table.texture_of({"run_key": "single"}, None, None), "flame.png")
        self.assertEqual(physical_table.fire_name(""), "flame")
        self.assertEqual(physical_table.fire_name("effects/campfire.toml"), "campfire")


if __name__ == "__main__":
    unittest.main()

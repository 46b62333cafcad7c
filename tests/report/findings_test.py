#!/usr/bin/python3
"""scripts/findings.py: an experiment's [report] made into tables.md and plots from the CSVs alone. The committed
tables.md files and results/README.md's blocks are what the module makes of the committed CSVs; each verb on a
small fake finding (intervals as `median [low, high]`, the front, floors, ties, baselines, crossings, ratios);
a bad [report] exits 2 with one line naming the file and the key; after a sweep, the finding is written when
its sources are all there. No GL, no firelab: a unit test."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import findings  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "findings.py")
PYTHON = "/usr/bin/python3"  # Debian's, as firelab runs the scripts

HEADER = ["experiment", "run_key", "strategy", "effect", "particles", "hull", "particle_scale", "rounds",
          "frame_ms_median", "frame_ms_ci_low", "frame_ms_ci_high", "fragments_shaded", "reference", "ssim_fire",
          "flip_fire", "gl_renderer", "status"]
GROUPS = {"experiment": "identity", "run_key": "identity", "strategy": "setting", "effect": "setting",
          "particles": "setting", "hull": "setting", "particle_scale": "setting", "rounds": "record",
          "reference": "quality", "ssim_fire": "quality", "flip_fire": "quality", "fragments_shaded": "quality",
          "gl_renderer": "record", "status": "record"}
RULES = {"frame_ms_median": "median_interval", "frame_ms_ci_low": "interval_low", "frame_ms_ci_high": "interval_high"}
METRICS = [{"name": "ssim", "label": "SSIM", "better": "higher", "frame_column": "ssim", "fire_column": "ssim_fire"},
           {"name": "flip", "label": "ꟻLIP", "better": "lower", "frame_column": "flip", "fire_column": "flip_fire"},
           {"name": "hist", "label": "hist", "better": "lower", "frame_column": "hist", "fire_column": "hist_fire"}]

# (strategy, effect, particles, hull, ms, (ci low, ci high), ssim_fire, flip_fire, fragments)
RUNS_A = [("points", "", 1000, "quad", 10, (9, 11), 0.70, 0.30, 1e6),
          ("points", "", 4000, "quad", 40, (38, 42), 0.90, 0.20, 4e6),
          ("billboards-instanced", "", 1000, "quad", 30, (29, 31), 0.80, 0.10, 2e6),
          ("billboards-instanced", "", 4000, "quad", 120, (110, 130), 0.95, 0.05, 8e6),
          ("billboards-instanced", "", 4000, "8", 100, (95, 125), 0.95, 0.05, 3.5e6)]
RUNS_B = [("points", "effects/campfire.toml", 4000, "quad", 50, (45, 55), 0.85, 0.25, 5e6),
          ("billboards-instanced", "effects/campfire.toml", 4000, "quad", 140, (130, 150), 0.93, 0.08, 9e6)]


def write_source(folder, runs, name="report-fixture", started="2026-12-01T10:00:00Z", extra_rows=()):
    os.makedirs(folder, exist_ok=True)
    rows = []
    for strategy, effect, n, hull, ms, (lo, hi), ssim, flip, frags in runs:
        rows.append({"experiment": name, "run_key": f"strategy={strategy};particles={n};hull={hull}",
                     "strategy": strategy, "effect": effect, "particles": str(n), "hull": hull,
                     "particle_scale": "1", "rounds": "3", "frame_ms_median": str(ms), "frame_ms_ci_low": str(lo),
                     "frame_ms_ci_high": str(hi), "fragments_shaded": str(int(frags)), "reference": "strategy=ref",
                     "ssim_fire": str(ssim), "flip_fire": str(flip), "gl_renderer": "llvmpipe", "status": "ok"})
    rows += list(extra_rows)
    with open(os.path.join(folder, "runs.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=HEADER, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    columns = [{"name": c, "group": GROUPS.get(c, "timing"), "rule": RULES.get(c, "first")} for c in HEADER]
    meta = {"experiment": name, "git_commit": "0123456789abcdef-dirty", "started": started,
            "finished": started[:11] + "10:30:00Z", "machine": {"cpu": "Test CPU", "logical_cores": 2},
            "gl": {"renderer": "llvmpipe"}, "columns": columns, "metrics": METRICS,
            "config": {"axes": {"strategy": [], "particles": [], "hull": []}, "settings": {"texture": "flame.png"}},
            "command_line": "firelab sweep x.toml"}
    with open(os.path.join(folder, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f)


REPORT = """
[experiment]
name = "report-fixture"
question = "Which is cheapest?"

[report]
sources = ["a", "b"]

[[report.table]]
id = "configurations"
kind = "configurations"
group = ["effect"]
rows = ["strategy", "particles", "hull"]
columns = ["frame_ms_median [interval]", "fragments_shaded", "ssim_fire", "flip_fire"]
sort = "frame_ms_median"
front = { cost = "frame_ms_median", against = ["flip_fire"] }
baseline = { strategy = "points", particles = 1000 }
relative = ["frame_ms_median"]

[[report.table]]
id = "floors"
kind = "cheapest"
sources = ["a"]
rows = ["strategy", "particles", "hull"]
floors = [{ ssim_fire = 0.9 }, { flip_fire = 0.01 }]

[[report.table]]
id = "pivot"
kind = "pivot"
sources = ["a"]
where = { hull = "quad" }
rows = ["particles"]
columns = ["strategy"]
cells = ["frame_ms_median [interval]"]

[[report.table]]
id = "crossing"
kind = "crossing"
sources = ["a"]
where = { hull = "quad" }
x = "particles"
metric = "ssim_fire"
at = [0.85, 0.99]
cost = ["frame_ms_median"]

[[report.table]]
id = "ratio"
kind = "ratio"
setting = "strategy"
base = "points"
matched = ["effect", "particles", "hull"]
"""


class Finding:
    """A temporary finding folder (sources a and b) and its experiment file."""

    def __init__(self, test, report=REPORT, b=True):
        tmp = tempfile.TemporaryDirectory(prefix="firelab-findings-test-")
        test.addCleanup(tmp.cleanup)
        self.root = tmp.name
        self.folder = os.path.join(self.root, "results", "report-fixture")
        write_source(os.path.join(self.folder, "a"), RUNS_A)
        if b:
            write_source(os.path.join(self.folder, "b"), RUNS_B, started="2026-12-02T08:00:00Z")
        self.toml = os.path.join(self.root, "report-fixture.toml")
        with open(self.toml, "w", encoding="utf-8") as f:
            f.write(report)

    def run(self, *args):
        return subprocess.run([PYTHON, SCRIPT, *args], capture_output=True, text=True, timeout=120, cwd=self.root)

    def tables(self):
        proc = self.run(self.toml, "--folder", self.folder, "--no-plots")
        assert proc.returncode == 0, proc.stderr
        with open(os.path.join(self.folder, "tables.md"), encoding="utf-8") as f:
            return f.read()


def table_rows(text, ident, title=None):
    """The body rows of the first Markdown table in section ident (under the bold title when given)."""
    body = findings.sections(text)[ident]
    if title:
        body = body.split(f"**{title}**", 1)[1]
    lines = [l for l in body.split("\n\n") if l.startswith("|")][0].splitlines()
    return [[c.strip() for c in l.strip("|").split("|")] for l in lines[2:]]


class CommittedFindingsTest(unittest.TestCase):
    def test_every_committed_tables_md_and_the_readme_blocks_are_what_the_module_makes(self):
        proc = subprocess.run([PYTHON, SCRIPT, "--check", "--readme", os.path.join(ROOT, "results", "README.md")],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_a_changed_csv_or_a_stale_readme_block_is_found(self):
        tmp = tempfile.mkdtemp(prefix="firelab-findings-check-")
        self.addCleanup(shutil.rmtree, tmp)
        folder = os.path.join(tmp, "layer-order")
        shutil.copytree(os.path.join(ROOT, "results", "layer-order"), folder,
                        ignore=shutil.ignore_patterns("*.png", "frames", "*.html"))
        report = findings.Report(os.path.join(ROOT, "experiments", "layer-order.toml"))
        with open(os.path.join(folder, "tables.md"), encoding="utf-8") as f:
            committed = f.read()
        made = lambda: findings.make_tables(report, folder).replace(folder, "results/layer-order")  # noqa: E731
        self.assertEqual(made(), committed)
        path = os.path.join(folder, "runs.csv")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("0.128", "0.228", 1))  # one run's score
        self.assertNotEqual(made(), committed)
        readme = os.path.join(tmp, "README.md")
        with open(readme, "w", encoding="utf-8") as f:
            f.write("# x\n\n<!-- findings: layer-order/tables.md#cost -->\nold table\n<!-- end findings -->\n")
        text, filled = findings.filled_readme(readme)
        self.assertNotEqual(text, filled)
        self.assertIn(findings.sections(committed)["cost"], filled)
        with open(readme, "w", encoding="utf-8") as f:
            f.write(filled)
        self.assertEqual(*findings.filled_readme(readme))  # filled once, it stays


class VerbsTest(unittest.TestCase):
    def test_measured_names_each_source_its_time_commit_and_machine(self):
        text = Finding(self).tables()
        rows = table_rows(text, "measured")
        self.assertEqual([r[0] for r in rows], ["`a/`", "`b/`"])
        self.assertEqual(rows[0][1:6], ["5 of 5", "3", "2026-12-01 10:00:00 UTC to 10:30",
                                        "0123456 (with uncommitted changes)", "Test CPU, 2 logical cores"])
        self.assertIn("Scored against: `strategy=ref`.", findings.sections(text)["measured"])

    def test_configurations_per_group_sorted_with_intervals_front_and_baseline(self):
        text = Finding(self).tables()
        rows = table_rows(text, "configurations", "effect: default")
        self.assertEqual([r[0] for r in rows], ["points / particles=1000", "billboards-instanced / particles=1000",
                                               "points / particles=4000", "billboards-instanced / particles=4000 / "
                                               "hull=8", "billboards-instanced / particles=4000"])
        self.assertEqual(rows[0][1:4], ["10.0 [9.00, 11.0]", "1.000", "1.00 M"])
        self.assertEqual(rows[3][1:4], ["100 [95.0, 125]", "10.000", "3.50 M"])
        # the front of frame time against flip_fire: 10 ms 0.30, 30 ms 0.10, 100 ms 0.05 (120 ms 0.05 is not)
        self.assertEqual([r[-1] for r in rows], ["◆", "◆", "", "◆", ""])
        campfire = table_rows(text, "configurations", "effect: campfire")
        self.assertEqual([r[0] for r in campfire], ["points / particles=4000", "billboards-instanced / particles=4000"])
        self.assertEqual(campfire[0][2], "5.000")  # against the baseline, which is in group a

    def test_cheapest_at_each_floor_with_ties_and_a_floor_none_meets(self):
        rows = table_rows(Finding(self).tables(), "floors")
        self.assertEqual(rows[0][:3], ["ssim_fire ≥ 0.9", "points / particles=4000", "40.0 [38.0, 42.0]"])
        self.assertEqual(rows[0][-1], "")  # 100 [95, 125] does not overlap 40 [38, 42]
        self.assertTrue(rows[1][1].startswith("none (best: billboards-instanced / particles=4000"), rows[1])
        text = Finding(self, REPORT.replace("floors = [{ ssim_fire = 0.9 }, { flip_fire = 0.01 }]",
                                            "floors = [{ flip_fire = 0.05 }]")).tables()
        one = table_rows(text, "floors")
        self.assertEqual(one[0][0], "billboards-instanced / particles=4000 / hull=8")
        self.assertEqual(one[0][-1], "billboards-instanced / particles=4000")  # 120 [110, 130] overlaps

    def test_pivot_and_crossing(self):
        text = Finding(self).tables()
        self.assertEqual(table_rows(text, "pivot"), [["1000", "10.0 [9.00, 11.0]", "30.0 [29.0, 31.0]"],
                                                     ["4000", "40.0 [38.0, 42.0]", "120 [110, 130]"]])
        crossing = table_rows(text, "crossing")
        # points: ssim 0.70 at 1000, 0.90 at 4000: 0.85 three quarters of the way in log count: 1000 * 4^0.75
        self.assertEqual(crossing[0][:4], ["points", "0.9 (4,000)", "2,828", "28.3 [26.5, 30.0]"])  # ends: 9 to 38, 11 to 42, log-log
        self.assertEqual(crossing[0][4], "not reached")
        self.assertEqual(crossing[1][2], "1,587")  # billboards: 0.80 to 0.95, 0.85 a third of the way: 1000 * 4^(1/3)

    def test_ratio_matched_on_the_other_settings(self):
        rows = table_rows(Finding(self).tables(), "ratio")
        # billboards against points at the same effect, count and hull: 30/10, 120/40, 140/50 (hull 8: no pair)
        self.assertEqual(rows, [["billboards-instanced", "3", "3.000", "2.800", "3.000"]])


BAD = [  # (the change to REPORT, the key named, words of what is allowed)
    ('columns = ["frame_ms_median [interval]", "fragments_shaded"', 'columns = ["frame_ms_mediam", "fragments_shaded"',
     "[[report.table]] 1 columns", "is not a figure of runs.csv here; its figures are frame_ms_median"),
    ('rows = ["strategy", "particles", "hull"]\nfloors', 'rows = ["strategy", "particle"]\nfloors',
     "[[report.table]] 2 rows", "'particle' is not a setting of these runs; they have strategy, effect, particles"),
    ('"fragments_shaded", "ssim_fire"', '"fragments_shaded [interval]", "ssim_fire"',
     "[[report.table]] 1 columns", "'fragments_shaded' has no interval in runs.csv"),
    ("floors = [{ ssim_fire = 0.9 }, { flip_fire = 0.01 }]", "floors = [{ ssim_fire = 0.9 }, { hist_fire = 0.01 }]",
     "[[report.table]] 2 floors[2].hist_fire", "is not a metric of these runs; they are scored on ssim_fire, flip_fire"),
    ('id = "pivot"', 'id = "pivot"\ncolumnz = ["strategy"]', "[[report.table]] 3 columnz",
     "not a key of a pivot entry; it takes kind, id"),
    ('kind = "ratio"', 'kind = "histogram"', "[[report.table]] 5 kind",
     "'histogram' is not a verb; the verbs are configurations, cheapest, pivot, crossing, ratio, paired"),
    ('sources = ["a", "b"]', 'sources = ["a", "b"]\ntabels = 1', "[report] tabels",
     "not a key of [report]; it takes sources, table, plot"),
    ('at = [0.85, 0.99]', 'at = "0.85"', "[[report.table]] 4 at", "expected a number, got text"),
    ('where = { hull = "quad" }\nrows', 'where = { hull = "round" }\nrows', "[[report.table]] 3 where",
     "matches it"),
]


class BadInputTest(unittest.TestCase):
    def test_each_bad_report_exits_2_with_one_line_naming_the_file_and_the_key(self):
        for old, new, key, allowed in BAD:
            with self.subTest(key=key):
                self.assertIn(old, REPORT)
                f = Finding(self, REPORT.replace(old, new, 1))
                proc = f.run(f.toml, "--folder", f.folder, "--no-plots")
                self.assertEqual(proc.returncode, 2, proc.stderr)
                lines = proc.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, proc.stderr)
                self.assertTrue(lines[0].startswith(f"findings.py: {f.toml}: {key}: "), lines[0])
                self.assertIn(allowed, lines[0])
                self.assertFalse(os.path.exists(os.path.join(f.folder, "tables.md")))

    def test_a_missing_source_and_an_experiment_without_a_report(self):
        f = Finding(self, b=False)
        proc = f.run(f.toml, "--folder", f.folder)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("[report] sources: 'b': no such folder", proc.stderr)
        bare = os.path.join(f.root, "bare.toml")
        with open(bare, "w", encoding="utf-8") as out:
            out.write("[experiment]\nname = \"bare\"\n")
        proc = f.run(bare)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no [report] table", proc.stderr)


class AfterSweepTest(unittest.TestCase):
    def test_the_finding_is_written_once_its_sources_are_all_there(self):
        f = Finding(self, b=False)
        for folder in ("a",):
            with open(os.path.join(f.folder, folder, "meta.json"), encoding="utf-8") as src:
                meta = json.load(src)
            meta["command_line"] = f"firelab sweep {f.toml} --out {os.path.join(f.folder, folder)}"
            with open(os.path.join(f.folder, folder, "meta.json"), "w", encoding="utf-8") as out:
                json.dump(meta, out)
        proc = f.run("--sweep", os.path.join(f.folder, "a"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("lacks b", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(f.folder, "tables.md")))
        write_source(os.path.join(f.folder, "b"), RUNS_B)
        with open(os.path.join(f.folder, "b", "meta.json"), encoding="utf-8") as src:
            meta = json.load(src)
        meta["command_line"] = f"firelab sweep {f.toml}"
        with open(os.path.join(f.folder, "b", "meta.json"), "w", encoding="utf-8") as out:
            json.dump(meta, out)
        proc = f.run("--sweep", os.path.join(f.folder, "b"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(f.folder, "tables.md")), proc.stderr)

    def test_a_sweep_of_an_experiment_without_a_report_writes_nothing(self):
        f = Finding(self, REPORT.split("[report]")[0])
        with open(os.path.join(f.folder, "a", "meta.json"), encoding="utf-8") as src:
            meta = json.load(src)
        meta["command_line"] = f"firelab sweep {f.toml}"
        with open(os.path.join(f.folder, "a", "meta.json"), "w", encoding="utf-8") as out:
            json.dump(meta, out)
        proc = f.run("--sweep", os.path.join(f.folder, "a"))
        self.assertEqual((proc.returncode, proc.stderr), (0, ""))
        self.assertFalse(os.path.exists(os.path.join(f.folder, "tables.md")))


class PlotsTest(unittest.TestCase):
    def test_scatter_and_lines_write_their_pngs(self):
        report = REPORT + """
[[report.plot]]
kind = "scatter"
file = "front.png"
group = ["effect"]
rows = ["strategy", "particles", "hull"]
metrics = ["flip_fire", "ssim_fire"]

[[report.plot]]
kind = "lines"
file = "lines.png"
sources = ["a"]
where = { hull = "quad" }
x = "particles"
figures = ["ssim_fire", "frame_ms_median"]
at = { ssim_fire = [0.9] }
"""
        f = Finding(self, report)
        proc = f.run(f.toml, "--folder", f.folder)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in ("front.png", "lines.png"):
            with open(os.path.join(f.folder, name), "rb") as png:
                self.assertEqual(png.read(8), b"\x89PNG\r\n\x1a\n", name)
        bad = Finding(self, report.replace('metrics = ["flip_fire", "ssim_fire"]', 'metrics = ["flop"]'))
        proc = bad.run(bad.toml, "--folder", bad.folder)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("[[report.plot]] 1 metrics: 'flop' is not a figure", proc.stderr)


if __name__ == "__main__":
    unittest.main()

"""A small fake sweep folder for the report tests: runs.csv (with or without the quality columns, with or without
rounds and their intervals), meta.json, frame PNGs drawn by matplotlib and a ratios.csv as `firelab compare`
writes it, then scripts/plot.py run on it as firelab runs it."""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PLOT = os.path.join(ROOT, "scripts", "plot.py")
PYTHON = "/usr/bin/python3"  # Debian's, as firelab runs plot.py

BASE_COLUMNS = ["experiment", "label", "run_key", "strategy", "emitter", "distribution", "particles", "alive_mean",
                "width", "height", "blend", "sort", "facing", "flipbook", "particle_scale", "upsample", "edge_fixup",
                "hull", "filter", "hdr", "tonemap", "exposure", "soft", "seed", "dt", "warmup", "frames",
                "frame_ms_median", "frame_ms_mean", "frame_ms_p5", "frame_ms_p95", "frame_ms_p99",
                "frame_ms_stddev", "frame_ms_min", "frame_ms_max", "fps", "sim_ms_median", "upload_ms_median",
                "draw_ms_median", "gpu_ms_median", "harness_ms_mean", "gl_renderer", "gl_version", "threads",
                "started", "seconds", "status"]
QUALITY_COLUMNS = ["reference", "psnr_db", "ssim", "flip", "psnr_fire_db", "ssim_fire", "flip_fire",
                   "flicker_ratio", "fragments_shaded", "fragments_visible", "covered_fraction", "energy_scale",
                   "quality_frames", "frame_png", "reference_png"]

# Values that must reach the page as text, never as markup.
LABEL = '<b>"tricky" & label</b>'
REFERENCE = 'billboards-cpu --blend "alpha" <ref> & co'
FAILURE = 'error: shader "particle.geom" failed: <line 3> & more'
# A frame whose file name needs percent-encoding in a URL.
ODD_FRAME = "frames/point sprites #1.png"

# strategy -> (ms per 1k particles, fire FLIP, fire SSIM)
STRATEGIES = {"points": (0.02, 0.31, 0.72), "point-sprites": (0.03, 0.12, 0.86),
              "billboards-instanced": (0.05, 0.04, 0.95), "billboards-cpu": (0.09, 0.0, 1.0)}
COUNTS = [1000, 10000, 100000]
# --repetitions: the columns a sweep of several rounds fills, and the interval around each median.
ROUND_COLUMNS = ["round", "rounds", "frame_ms_ci_low", "frame_ms_ci_high"]
CI_BELOW, CI_ABOVE = 0.95, 1.08
# ratios.csv's header (src/harness/results/compare.h kRatioColumns, docs/csv.md).
RATIO_COLUMNS = ["experiment", "run_key", "series", "baseline", "baseline_key", "strategy", "particles", "inner_axis",
                 "inner_value", "rounds", "frame_ms", "baseline_frame_ms", "frame_ratio_median", "frame_ratio_ci_low",
                 "frame_ratio_ci_high", "draw_ratio_median", "draw_ratio_ci_low", "draw_ratio_ci_high", "note"]


def draw_frame(path, hue):
    """A 160x90 fire-like blob: enough colours to be told from a blank image."""
    import matplotlib
    matplotlib.use("Agg")
    import numpy as np
    from matplotlib import image
    y, x = np.mgrid[0:90, 0:160]
    r = np.hypot((x - 80) / 40.0, (y - 60) / (30.0 + 10 * hue))
    heat = np.clip(1.2 - r, 0, 1)
    rgb = np.stack([heat, heat ** (1.5 + hue), heat ** 4, np.ones_like(heat)], axis=-1)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    image.imsave(path, rgb)


def median_ms(strategy, count):
    """The fixture's frame_ms_median of a strategy at a count."""
    return 1.0 + STRATEGIES[strategy][0] * count / 1000.0


def schema(header, groups, metrics):
    """meta.json's "columns" (header order; a setting with its flag) and "metrics", as firelab writes them.
    groups: {column: group}; a column it does not name is a timing."""
    columns = []
    for name in header:
        entry = {"name": name, "group": groups.get(name, "timing"), "rule": "first"}
        if entry["group"] == "setting":
            entry["setting"] = name.replace("_", "-")
        columns.append(entry)
    return {"columns": columns, "metrics": metrics}


def make_sweep(folder, scored=True, rounds=None, meta_extra=None, counts=COUNTS):
    """Writes folder/runs.csv, folder/meta.json and (scored) folder/frames/*.png; returns the CSV's path.
    With `rounds`, the rows summarise that many rounds: the round columns are there, the intervals filled
    (CI_BELOW and CI_ABOVE times the median; the median itself for one round). meta_extra(header): more
    keys for meta.json (its "columns", "metrics", "question"). counts: the particle counts swept."""
    os.makedirs(folder, exist_ok=True)
    header = (BASE_COLUMNS[:-1] + (QUALITY_COLUMNS if scored else []) + (ROUND_COLUMNS if rounds else [])
              + ["status"])  # status after the new columns
    rows = []
    for i, (strategy, (ms, flip, ssim)) in enumerate(STRATEGIES.items()):
        for count in counts:
            frame_ms = median_ms(strategy, count)
            row = dict.fromkeys(header, "")
            row.update(experiment="fixture", label=LABEL if strategy == "points" else "",
                       run_key=f"strategy={strategy};particles={count}", strategy=strategy, emitter="circle",
                       distribution="normal", particles=str(count), width="160", height="90", blend="additive",
                       frame_ms_median=f"{frame_ms:.5g}", frame_ms_p5=f"{frame_ms * 0.9:.5g}",
                       frame_ms_p95=f"{frame_ms * 1.2:.5g}", fps=f"{1000 / frame_ms:.5g}",
                       sim_ms_median="0.2", upload_ms_median=f"{0.3 * frame_ms:.4g}",
                       draw_ms_median=f"{0.5 * frame_ms:.4g}", gpu_ms_median="0.1",
                       gl_renderer="llvmpipe (LLVM 15.0.6, 256 bits)", threads="1", status="ok")
            if rounds:
                spread = (CI_BELOW, CI_ABOVE) if rounds > 1 else (1, 1)
                row.update(rounds=str(rounds), frame_ms_ci_low=f"{frame_ms * spread[0]:.5g}",
                           frame_ms_ci_high=f"{frame_ms * spread[1]:.5g}")
            if scored:
                worse = 1 + count / 1e5  # more particles, more error
                row.update(reference=REFERENCE, psnr_db="31.5", ssim=f"{min(1, ssim + 0.02):.4g}",
                           flip=f"{flip * 0.5:.4g}", psnr_fire_db=f"{24 + 10 * ssim:.4g}",
                           ssim_fire=f"{1 - (1 - ssim) * worse:.4g}", flip_fire=f"{flip * worse:.4g}",
                           flicker_ratio="1.02", fragments_shaded=str(count * (40 + 10 * i)),
                           fragments_visible=str(count * 30), covered_fraction="0.21", energy_scale="1",
                           quality_frames="8")
                if count == counts[-1]:
                    frame = ODD_FRAME if strategy == "point-sprites" else f"frames/{strategy}_{count}.png"
                    row.update(frame_png=frame, reference_png=f"frames/reference_{count}.png")
                    draw_frame(os.path.join(folder, frame), i / 4)
                    draw_frame(os.path.join(folder, row["reference_png"]), 0.75)
            rows.append(row)
    failed = dict.fromkeys(header, "")
    failed.update(experiment="fixture", run_key="strategy=billboards-geometry;particles=1000",
                  strategy="billboards-geometry", particles="1000", status=FAILURE)
    rows.append(failed)
    with open(os.path.join(folder, "runs.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    meta = {"experiment": "fixture", "description": 'a fake sweep: <quotes "and"> & ampersands',
            "runs": {"planned": len(rows), "failed": 1},
            "gl": {"vendor": "Mesa", "renderer": "llvmpipe (LLVM 15.0.6, 256 bits)"},
            "timer_queries_meaningful": False, "tags": ["a", "<b>"]}
    meta.update(meta_extra(header) if meta_extra else {})
    with open(os.path.join(folder, "meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    return os.path.join(folder, "runs.csv")


def make_ratios(folder, baseline="points"):
    """Writes folder/ratios.csv: every other strategy against `baseline` at each count, over 5 rounds, its
    interval CI_BELOW and CI_ABOVE times the ratio; and one configuration whose baseline never ran ok.
    Returns the rows written (dicts)."""
    rows = []
    for strategy in STRATEGIES:
        if strategy == baseline:
            continue
        for count in COUNTS:
            ratio = median_ms(strategy, count) / median_ms(baseline, count)
            row = dict.fromkeys(RATIO_COLUMNS, "")
            row.update(experiment="fixture", run_key=f"strategy={strategy};particles={count}",
                       series=f"strategy={strategy}", baseline=f"strategy={baseline}",
                       baseline_key=f"strategy={baseline};particles={count}", strategy=strategy, particles=str(count),
                       inner_axis="particles", inner_value=str(count), rounds="5",
                       frame_ms=f"{median_ms(strategy, count):.6g}", baseline_frame_ms=f"{median_ms(baseline, count):.6g}",
                       frame_ratio_median=f"{ratio:.6g}", frame_ratio_ci_low=f"{ratio * CI_BELOW:.6g}",
                       frame_ratio_ci_high=f"{ratio * CI_ABOVE:.6g}", draw_ratio_median=f"{ratio:.6g}",
                       draw_ratio_ci_low=f"{ratio * CI_BELOW:.6g}", draw_ratio_ci_high=f"{ratio * CI_ABOVE:.6g}")
            rows.append(row)
    missing = dict.fromkeys(RATIO_COLUMNS, "")
    missing.update(experiment="fixture", run_key="strategy=billboards-geometry;particles=1000",
                   series="strategy=billboards-geometry", baseline=f"strategy={baseline}",
                   baseline_key=f"strategy={baseline};particles=1000", strategy="billboards-geometry",
                   particles="1000", inner_axis="particles", inner_value="1000", rounds="0",
                   note=f"baseline strategy={baseline};particles=1000 never ran ok")
    rows.append(missing)
    with open(os.path.join(folder, "ratios.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=RATIO_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return rows


def run_report(csv_path, out_dir):
    """Runs scripts/report.py alone (no plots drawn); returns the completed process (output captured)."""
    script = os.path.join(ROOT, "scripts", "report.py")
    return subprocess.run([PYTHON, script, csv_path, "--out", out_dir], capture_output=True, text=True, timeout=120)


def run_plot(csv_path, out_dir):
    """Runs scripts/plot.py as firelab does; returns the completed process (output captured)."""
    return subprocess.run([PYTHON, PLOT, csv_path, "--out", out_dir], capture_output=True, text=True, timeout=300)


if __name__ == "__main__":  # fixture.py DIR: a scored sweep and its report in DIR, to look at
    path = make_sweep(sys.argv[1])
    print(run_plot(path, sys.argv[1]).stdout)

"""A small fake sweep folder for the report tests: runs.csv (with or without the quality columns, with or without
rounds and their intervals), meta.json, frame PNGs drawn by matplotlib and a ratios.csv as `firelab compare`
writes it, then scripts/plot.py run on it as firelab runs it."""
import csv
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PLOT = os.path.join(ROOT, "scripts", "plot.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from firelab_runs import FALLBACK_GROUPS, FALLBACK_METRICS, FALLBACK_RULES, NEWER_SETTINGS  # noqa: E402
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


def ratio_columns():
    """ratios.csv's header as src/harness/results/compare.h declares it (kRatioColumns, docs/csv.md): read from
    the declaration, so that the fixture's ratios.csv is the one `firelab compare` writes whatever it gains."""
    with open(os.path.join(ROOT, "src", "harness", "results", "compare.h"), encoding="utf-8") as f:
        declared = re.search(r"kRatioColumns\{([^}]*)\}", f.read())
    if not declared:
        raise RuntimeError("src/harness/results/compare.h declares no kRatioColumns{...}")
    return re.findall(r'"([^"]+)"', declared.group(1))


RATIO_COLUMNS = ratio_columns()


def write_runs_csv(folder, header, rows):
    """folder/runs.csv with the header and the rows (dicts), as firelab writes it."""
    with open(os.path.join(folder, "runs.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


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
    return write_ratios(folder, rows)


def write_ratios(folder, rows):
    """folder/ratios.csv of the rows (dicts of RATIO_COLUMNS), as `firelab compare` writes it; returns the rows."""
    with open(os.path.join(folder, "ratios.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=RATIO_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return rows


# A sweep of the camera's distance at one count, 1280x720: strategy -> (ms, ms per megapixel the fire covers,
# fire SSIM at each distance). points is the cheaper at every distance but below 0.98 SSIM nearer than 18 m.
VIEW_STRATEGIES = {"points": (0.8, 4.0, (0.90, 0.975, 0.99)),
                   "billboards-instanced": (1.2, 10.0, (0.995, 0.99, 0.985))}
VIEW_DISTANCES = [2, 6, 18]
VIEW_COUNT = 20000
VIEW_SIZE = (1280, 720)
# The measured columns of a camera sweep: the fire's size on screen, particles behind the near plane, points
# larger than the largest point size (GL_POINTS strategies only).
VIEW_COLUMNS = ["fire_px", "behind_camera_fraction", "points_clamped_fraction"]


def view_figures(distance):
    """(fire_px, covered_fraction) of the fixture's fire seen from `distance` m: its projected diameter, and
    half of that disc's share of the frame."""
    fire_px = 1400.0 / distance
    return fire_px, min(1.0, 0.5 * math.pi * (fire_px / 2) ** 2 / (VIEW_SIZE[0] * VIEW_SIZE[1]))


def view_ms(strategy, distance):
    """The camera sweep's frame_ms_median of a strategy at a distance."""
    base, per_mpx, _ = VIEW_STRATEGIES[strategy]
    return base + per_mpx * view_figures(distance)[1] * VIEW_SIZE[0] * VIEW_SIZE[1] / 1e6


def view_ssim(strategy, distance):
    return VIEW_STRATEGIES[strategy][2][VIEW_DISTANCES.index(distance)]


def make_view_sweep(folder, scored=True, rounds=None, clamped=True, strategies=tuple(VIEW_STRATEGIES), meta=True):
    """Writes folder/runs.csv (and with `meta`, folder/meta.json listing the columns and the sweep's axes) of a
    sweep of strategies x VIEW_DISTANCES; returns the CSV's path. scored: the quality columns filled;
    rounds: as make_sweep's; clamped: points_clamped_fraction filled for points (else empty throughout)."""
    os.makedirs(folder, exist_ok=True)
    header = (BASE_COLUMNS[:-1] + NEWER_SETTINGS + VIEW_COLUMNS + QUALITY_COLUMNS
              + ROUND_COLUMNS * bool(rounds) + ["status"])
    rows = []
    for strategy in strategies:
        for distance in VIEW_DISTANCES:
            ms = view_ms(strategy, distance)
            fire_px, covered = view_figures(distance)
            row = dict.fromkeys(header, "")
            row.update(experiment="views", run_key=f"strategy={strategy};camera-distance={distance}",
                       strategy=strategy, particles=str(VIEW_COUNT), width=str(VIEW_SIZE[0]),
                       height=str(VIEW_SIZE[1]), blend="additive", particle_scale="1", hull="quad",
                       upsample="nearest-depth", filter="trilinear", camera="orbit", camera_distance=str(distance),
                       camera_height="1.5", camera_target="0,0.8,0", fov="45", camera_fade="0,0",
                       frame_ms_median=f"{ms:.6g}", frame_ms_p5=f"{ms * 0.9:.6g}", frame_ms_p95=f"{ms * 1.2:.6g}",
                       fps=f"{1000 / ms:.6g}", fire_px=f"{fire_px:.6g}",
                       behind_camera_fraction="0.04" if distance == VIEW_DISTANCES[0] else "0",
                       gl_renderer="llvmpipe (LLVM 15.0.6, 256 bits)", status="ok")
            if clamped and strategy == "points":
                row["points_clamped_fraction"] = {2: "0.6", 6: "0.05", 18: "0"}[distance]
            if rounds:
                spread = (CI_BELOW, CI_ABOVE) if rounds > 1 else (1, 1)
                row.update(rounds=str(rounds), frame_ms_ci_low=f"{ms * spread[0]:.6g}",
                           frame_ms_ci_high=f"{ms * spread[1]:.6g}")
            if scored:
                ssim = view_ssim(strategy, distance)
                row.update(ssim_fire=f"{ssim:.6g}", flip_fire=f"{(1 - ssim) * 2:.6g}",
                           psnr_fire_db=f"{20 + 20 * ssim:.6g}", covered_fraction=f"{covered:.6g}")
            rows.append(row)
    with open(os.path.join(folder, "runs.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    if meta:
        groups = {c: g for g, names in FALLBACK_GROUPS.items() for c in names}
        groups.update(dict.fromkeys(NEWER_SETTINGS, "setting"))
        about = schema(header, groups, FALLBACK_METRICS)
        for column in about["columns"]:
            column["rule"] = FALLBACK_RULES.get(column["name"], column["rule"])
        axes = {"strategy": list(strategies), "camera-distance": [str(d) for d in VIEW_DISTANCES]}
        about.update(experiment="views", gl={"renderer": "llvmpipe", "point_size_range": [1, 255]},
                     config={"axes": axes})
        with open(os.path.join(folder, "meta.json"), "w", encoding="utf-8") as f:
            json.dump(about, f, indent=2)
    return os.path.join(folder, "runs.csv")


def run_report(csv_path, out_dir, *options):
    """Runs scripts/report.py alone (no plots drawn), with more options (--metric cpu); returns the completed
    process (output captured)."""
    script = os.path.join(ROOT, "scripts", "report.py")
    return subprocess.run([PYTHON, script, csv_path, "--out", out_dir, *options], capture_output=True, text=True,
                          timeout=120)


def run_plot(csv_path, out_dir, *options):
    """Runs scripts/plot.py as firelab does, with more options (--metric cpu, as `firelab compare --metric cpu`
    passes it); returns the completed process (output captured)."""
    return subprocess.run([PYTHON, PLOT, csv_path, "--out", out_dir, *options], capture_output=True, text=True,
                          timeout=300)


if __name__ == "__main__":  # fixture.py DIR: a scored sweep and its report in DIR, to look at
    path = make_sweep(sys.argv[1])
    print(run_plot(path, sys.argv[1]).stdout)

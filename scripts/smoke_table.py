#!/usr/bin/python3
"""Tables and the plot of the "smoke" experiment (experiments/smoke.toml): per scene (an effect at a start
time), what each transparency mode costs and buys against the exact order with the smoke lit per pixel, what
lighting the smoke costs, and what each mode's structure holds.

Usage: scripts/smoke_table.py FOLDER [--out PNG] [--lit pixel]

FOLDER holds the sweep's runs.csv (results/smoke). A run's transparency mode is its `sort`, or `depth-slices`
when its layer_order is (every layer's particles sorted together on the CPU in view-depth slices; with sort
back-to-front within each slice, `depth-slices (unsorted)` with sort none). Prints Markdown:
- per scene, the modes at --lit (default pixel): frame time with its 95 % interval (wall time to the frame's
  fence: llvmpipe's timer queries do not measure its work), flip_fire and ssim_fire against the reference, the
  structure's memory and the abuffer's fragments;
- lit against unlit: per scene and mode, the frame time of --lit none, vertex and pixel, and flip_fire of each
  (the reference is lit per pixel: an unlit run's score is what not lighting costs in quality);
and writes the plot to --out (default FOLDER/modes.png): per scene, frame time against flip_fire at --lit, a
labelled point per mode with its interval as a bar. Exit status 2 when FOLDER holds no runs.csv, it is not a
runs.csv, or no ok row has quality scores.
"""
import argparse
import math
import os
import sys

from firelab_runs import fail, first_seen, median, num, ok_rows, read_runs, row_interval

MODES = ("none", "back-to-front", "depth-slices (unsorted)", "depth-slices", "wboit", "moment", "abuffer")
LITS = ("none", "vertex", "pixel")
FRAME_INTERVAL = ("frame_ms_ci_low", "frame_ms_ci_high")


def mode_of(row):
    """The run's transparency mode: its sort, or depth-slices (its layer order)."""
    if row.get("layer_order") == "depth-slices":
        return "depth-slices" if row.get("sort") == "back-to-front" else "depth-slices (unsorted)"
    return row.get("sort", "")


def scene_of(row):
    """The effect's name and the start time: 'explosion @ 6.3 s'."""
    effect = os.path.splitext(os.path.basename(row.get("effect", "")))[0] or "flame"
    start = num(row.get("start_time"))
    return f"{effect} @ {start:g} s" if start > 0 else effect


def fmt(v, digits=3):
    return "" if math.isnan(v) else f"{v:.{digits}g}"


def ms_cell(row):
    """Frame time with its interval: '412 [405, 420]'."""
    ms = num(row.get("frame_ms_median"))
    ci = row_interval(row, FRAME_INTERVAL)
    return fmt(ms) + (f" [{fmt(ci[0])}, {fmt(ci[1])}]" if ci else "")


def mib(row):
    v = num(row.get("oit_mib"))
    return "" if math.isnan(v) else f"{v:.1f}"


def index(rows):
    """{scene: {(mode, lit): row}}, scenes and modes in the sweep's order."""
    out = {}
    for r in rows:
        out.setdefault(scene_of(r), {})[(mode_of(r), r.get("lit", "none"))] = r
    return out


def modes_table(scene, cells, lit):
    lines = [f"**{scene}**, lit {lit}", "",
             "| mode | frame ms [95 % CI] | flip_fire | ssim_fire | memory MiB | fragments | longest list |",
             "|---|---|---|---|---|---|---|"]
    for mode in MODES:
        r = cells.get((mode, lit))
        if r is None:
            continue
        frags = num(r.get("abuffer_fragments"))
        longest = num(r.get("abuffer_longest_list"))
        lines.append(f"| {mode} | {ms_cell(r)} | {fmt(num(r.get('flip_fire')))} | {fmt(num(r.get('ssim_fire')), 4)} | {mib(r)} | "
                     f"{'' if math.isnan(frags) else f'{frags / 1e6:.2f} M'} | {fmt(longest)} |")
    return "\n".join(lines)


def lit_table(scene, cells):
    head = " | ".join(f"{lit} ms | {lit} flip" for lit in LITS)
    lines = [f"**{scene}**: --lit none, vertex, pixel", "", f"| mode | {head} |", "|---" * (1 + 2 * len(LITS)) + "|"]
    for mode in MODES:
        if not any((mode, lit) in cells for lit in LITS):
            continue
        parts = []
        for lit in LITS:
            r = cells.get((mode, lit))
            parts += ["", ""] if r is None else [fmt(num(r.get("frame_ms_median"))), fmt(num(r.get("flip_fire")))]
        lines.append(f"| {mode} | " + " | ".join(parts) + " |")
    return "\n".join(lines)


def lit_cost(scenes):
    """Per lit mode but none, the median over every scene and transparency mode of its frame time's ratio to
    unlit."""
    ratios = {lit: [] for lit in LITS if lit != "none"}
    for cells in scenes.values():
        for (mode, lit), r in cells.items():
            base = cells.get((mode, "none"))
            if base is not None and lit in ratios:
                ratios[lit].append(num(r.get("frame_ms_median")) / num(base.get("frame_ms_median")))
    return {lit: median(v) for lit, v in ratios.items()}


def plot(scenes, lit, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(scenes)
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.8 * rows), squeeze=False)
    colours = {m: plt.cm.tab10(i) for i, m in enumerate(MODES)}
    for ax in axes.flat[len(names):]:
        ax.axis("off")
    for ax, scene in zip(axes.flat, names):
        for mode in MODES:
            r = scenes[scene].get((mode, lit))
            if r is None:
                continue
            ms, flip = num(r.get("frame_ms_median")), num(r.get("flip_fire"))
            if math.isnan(ms) or math.isnan(flip):
                continue
            ci = row_interval(r, FRAME_INTERVAL)
            yerr = [[ms - ci[0]], [ci[1] - ms]] if ci else None
            ax.errorbar([flip], [ms], yerr=yerr, fmt="o", color=colours[mode], capsize=3, label=mode)
            ax.annotate(mode, (flip, ms), textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.set_title(f"{scene} (lit {lit})", fontsize=9)
        ax.set_xlabel("flip_fire against abuffer, lit per pixel (lower is better)")
        ax.set_ylabel("frame ms (llvmpipe)")
        ax.set_xscale("symlog", linthresh=1e-3)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--out", help="the plot (default FOLDER/modes.png)")
    ap.add_argument("--lit", default="pixel", choices=LITS, help="the lit mode of the modes' table and plot")
    a = ap.parse_args()
    path = os.path.join(a.folder, "runs.csv")
    if not os.path.isfile(path):
        fail(f"{a.folder}: no runs.csv")
    _, rows = read_runs(path)
    rows = [r for r in ok_rows(rows) if r.get("flip_fire", "").strip()]
    if not rows:
        fail(f"{path}: no ok run with quality scores")
    scenes = index(rows)
    print(f"Reference: {first_seen(r.get('reference', '') for r in rows)[0]}\n")
    for scene, cells in scenes.items():
        print(modes_table(scene, cells, a.lit) + "\n")
    for scene, cells in scenes.items():
        print(lit_table(scene, cells) + "\n")
    cost = lit_cost(scenes)
    print("Lit against unlit, the median frame-time ratio over every scene and mode: " +
          ", ".join(f"{lit} {fmt(v)}" for lit, v in cost.items() if not math.isnan(v)))
    plot(scenes, a.lit, a.out or os.path.join(a.folder, "modes.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

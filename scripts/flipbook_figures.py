#!/usr/bin/python3
"""Draws issue 35's production question from `firelab sweep experiments/flipbook.toml --out DIR/sweep`:
- pareto.png: the median frame time against each fire-region metric scored against volume-reference (ꟻLIP, SSIM,
  PSNR), one series per way of drawing (many small particles; a few large flipbook sprites by frame blend and
  atlas), each point labelled with its count, and the frontier of runs nothing beats on both;
- flicker.png: each run's flicker ratio (its frame-to-frame change over the reference's own; 1 moves as the fire
  does) against its cost;
- side_by_side.png: the scored frame of the cheapest particle run, of the 20000-particle run and of each sprite
  blend beside their volume-reference;
- table.md: a row per run (count, cost, fragments, quality, flicker, on which frontier), and for each metric the
  cheapest particle run that matches the best sprite run, or none.

Series and labels come from the runs' own `label` column (the experiment names each row) and `particles`. Shared
reading goes through scripts/firelab_runs.py (tests/report/imports_test.py: no script imports another).

Usage: scripts/flipbook_figures.py [DIR] [--out DIR]   (DIR default results/flipbook; its sweep/ holds runs.csv)
Exit status: 0; 2 when a record it needs is missing or is not firelab's, naming the file."""
import argparse
import os

from firelab_runs import fail, num, ok_rows, pareto_frontier, read_runs

DPI = 110
# The fire-region metrics, as firelab's schema names them (docs/csv.md): column, label, lower is better.
METRICS = [("flip_fire", "ꟻLIP", True), ("ssim_fire", "SSIM", False), ("psnr_fire_db", "PSNR (dB)", False)]


def series_of(row):
    return row["label"] or "unlabelled"


def error(row, column, lower):
    v = num(row.get(column, ""))
    return v if lower else -v  # the frontier takes an error: lower is better


def pareto(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(METRICS), figsize=(5.2 * len(METRICS), 4.8), dpi=DPI)
    names = sorted({series_of(r) for r in rows}, key=lambda s: (not s.startswith("particles"), s))
    markers = "osD^v<>p*h"
    for ax, (column, label, lower) in zip(axes, METRICS):
        points = [(error(r, column, lower), num(r["frame_ms_median"])) for r in rows]
        front = pareto_frontier(points)
        for k, name in enumerate(names):
            mine = sorted((r for r in rows if series_of(r) == name), key=lambda r: num(r["particles"]))
            xs = [num(r[column]) for r in mine]
            ys = [num(r["frame_ms_median"]) for r in mine]
            ax.plot(xs, ys, marker=markers[k % len(markers)], linestyle="-" if len(mine) > 1 else "none",
                    label=name, markersize=7)
            for r, x, y in zip(mine, xs, ys):
                ax.annotate(r["particles"], (x, y), textcoords="offset points", xytext=(5, 4), fontsize=8)
        fx = [num(rows[i][column]) for i in front]
        fy = [num(rows[i]["frame_ms_median"]) for i in front]
        ax.step(fx, fy, where="post", color="black", linestyle="--", linewidth=1, label="frontier")
        ax.set_yscale("log")
        ax.set_xlabel(f"{label}, fire region ({'lower' if lower else 'higher'} is better)")
        ax.set_ylabel("frame time, median (ms, log)")
        if not lower:
            ax.invert_xaxis()
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper right")
    fig.suptitle("A few large flipbook sprites or many small particles, against the fire's volume-reference "
                 "(lower-left is better)", fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "pareto.png"))
    plt.close(fig)


def flicker(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=DPI)
    for name in sorted({series_of(r) for r in rows}):
        mine = [r for r in rows if series_of(r) == name]
        ax.scatter([num(r["flicker_ratio"]) for r in mine], [num(r["frame_ms_median"]) for r in mine], label=name)
        for r in mine:
            ax.annotate(r["particles"], (num(r["flicker_ratio"]), num(r["frame_ms_median"])),
                        textcoords="offset points", xytext=(5, 3), fontsize=8)
    ax.axvline(1.0, color="black", linewidth=1, linestyle=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("flicker ratio: frame-to-frame change / the reference's (1: moves as the fire does)")
    ax.set_ylabel("frame time, median (ms, log)")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "flicker.png"))
    plt.close(fig)


def side_by_side(rows, sweep, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt
    picks = []
    particles = sorted((r for r in rows if series_of(r).startswith("particles")), key=lambda r: num(r["particles"]))
    if particles:
        picks += [particles[0], particles[-1]]
    for name in sorted({series_of(r) for r in rows if not series_of(r).startswith("particles")}):
        picks.append(min((r for r in rows if series_of(r) == name), key=lambda r: abs(num(r["particles"]) - 16)))
    picks = [r for r in picks if r.get("frame_png") and os.path.isfile(os.path.join(sweep, r["frame_png"]))]
    if not picks:
        return
    ref = picks[0].get("reference_png", "")
    cells = [("volume-reference", os.path.join(sweep, ref))] if ref else []
    cells += [(f"{series_of(r)} @ {r['particles']}\nꟻLIP {num(r['flip_fire']):.3f}, {num(r['frame_ms_median']):.1f} ms",
               os.path.join(sweep, r["frame_png"])) for r in picks]
    fig, axes = plt.subplots(1, len(cells), figsize=(3.2 * len(cells), 2.9), dpi=DPI)
    for ax, (title, path) in zip(axes, cells):
        ax.imshow(mpimg.imread(path))
        ax.set_title(title, fontsize=8)
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "side_by_side.png"))
    plt.close(fig)


def table(rows, out):
    lines = ["# A few large flipbook sprites or many small particles (experiments/flipbook.toml)", "",
             "Every run scored against volume-reference of the default fire (20000 particles); costs on this "
             "machine (meta.json says which). Frontier: no run both faster and better on that metric.", "",
             "| run | count | frame ms | fragments shaded | ꟻLIP | SSIM | PSNR dB | flicker | frontier |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    fronts = {column: {id(rows[i]) for i in pareto_frontier([(error(r, column, lower), num(r["frame_ms_median"]))
                                                             for r in rows])}
              for column, _, lower in METRICS}
    for r in sorted(rows, key=lambda r: (series_of(r), num(r["particles"]))):
        on = [label for column, label, _ in METRICS if id(r) in fronts[column]]
        lines.append(f"| {series_of(r)} | {r['particles']} | {num(r['frame_ms_median']):.2f} | "
                     f"{num(r['fragments_shaded']):.3g} | {num(r['flip_fire']):.3f} | {num(r['ssim_fire']):.3f} | "
                     f"{num(r['psnr_fire_db']):.1f} | {num(r['flicker_ratio']):.2f} | {', '.join(on) or '-'} |")
    lines += ["", "## At equal quality", ""]
    particles = [r for r in rows if series_of(r).startswith("particles")]
    sprites = [r for r in rows if not series_of(r).startswith("particles")]
    for column, label, lower in METRICS:
        if not particles or not sprites:
            break
        best = min(sprites, key=lambda r: error(r, column, lower))
        cheapest = min(sprites, key=lambda r: num(r["frame_ms_median"]))
        match = [r for r in particles if error(r, column, lower) <= error(best, column, lower)]
        if match:
            m = min(match, key=lambda r: num(r["frame_ms_median"]))
            lines.append(f"- {label}: the best sprite run ({series_of(best)} @ {best['particles']}, "
                         f"{num(best[column]):.3f}) is matched by {m['particles']} particles at "
                         f"{num(m['frame_ms_median']):.2f} ms; the cheapest sprite run takes "
                         f"{num(cheapest['frame_ms_median']):.2f} ms.")
        else:
            lines.append(f"- {label}: no particle run here comes as close to the reference as the best sprite run "
                         f"({series_of(best)} @ {best['particles']}, {num(best[column]):.3f}): every particle "
                         f"count measured, the cheapest at "
                         f"{min(num(r['frame_ms_median']) for r in particles):.2f} ms, is worse.")
    with open(os.path.join(out, "table.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", default="results/flipbook")
    ap.add_argument("--out", help="where the figures go (default: DIR)")
    a = ap.parse_args()
    sweep = os.path.join(a.dir, "sweep")
    out = a.out or a.dir
    _, rows = read_runs(os.path.join(sweep, "runs.csv"))
    rows = [r for r in ok_rows(rows) if r.get("flip_fire")]
    if not rows:
        fail(f"{os.path.join(sweep, 'runs.csv')}: no scored run (run the sweep with its [quality])")
    os.makedirs(out, exist_ok=True)
    pareto(rows, out)
    flicker(rows, out)
    side_by_side(rows, sweep, out)
    table(rows, out)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Equal-quality table of a scored sweep: for each series (strategy and blend, plus any other setting that
varies), the particle count at which a quality column first reaches a threshold, and what that costs.

Usage: scripts/iso_quality.py RUNS_CSV [--metric ssim_fire] [--thresholds 0.9,0.95] [--lower-is-better]

Whether higher or lower is better comes from the metric's entry in meta.json's "metrics" (or firelab_runs'
fallback: ꟻLIP lower, PSNR and SSIM higher); --lower-is-better says so for a column that is not a metric's.

Between two measured counts the crossing is interpolated linearly in log(count), and frame time and
fragments shaded at that count likewise (log-log). A series that never reaches a threshold says so, with
its best value. Prints a Markdown table. Exit status 2 when the file is missing or has no such column.
"""
import argparse
import math
import os
import sys

from firelab_runs import Columns, Settings, find_meta, num, read_runs, recorded_axes


def interpolate_log(x0, y0, x1, y1, x):
    """y at x on the straight line through (log x0, log y0) and (log x1, log y1)."""
    if x1 == x0:
        return y0
    f = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
    return math.exp(math.log(y0) + f * (math.log(y1) - math.log(y0)))


def crossing(points, threshold, higher_is_better):
    """points: [(count, quality, frame_ms, fragments)] sorted by count. Returns (count, ms, fragments) where
    quality first reaches threshold, or None."""
    ok = (lambda q: q >= threshold) if higher_is_better else (lambda q: q <= threshold)
    for i, (n, q, ms, frags) in enumerate(points):
        if not ok(q):
            continue
        if i == 0:
            return n, ms, frags
        n0, q0, ms0, f0 = points[i - 1]
        f = (threshold - q0) / (q - q0) if q != q0 else 1.0
        count = math.exp(math.log(n0) + f * (math.log(n) - math.log(n0)))
        return count, interpolate_log(n0, ms0, n, ms, count), interpolate_log(n0, f0, n, frags, count)
    return None


def higher_is_better(columns, column):
    """Whether the metric whose frame or fire-region column this is gets better as it rises (unknown: yes)."""
    metric = next((m for m in columns.metrics if column in (m.fire_column, m.frame_column)), None)
    return metric is None or metric.higher_is_better


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--metric", default="ssim_fire")
    ap.add_argument("--thresholds", default="0.9,0.95")
    ap.add_argument("--lower-is-better", action="store_true", help="for a column that is not a known metric's")
    a = ap.parse_args()
    header, rows = read_runs(a.csv)  # exits 2 for a missing file or one that is not a runs.csv
    rows = [r for r in rows if r.get("status") == "ok"]
    if not rows or a.metric not in header:
        print(f"iso_quality.py: {a.csv}: no ok rows with a {a.metric} column", file=sys.stderr)
        return 2
    meta, _ = find_meta(os.path.dirname(os.path.abspath(a.csv)))
    columns = Columns(meta)
    settings = Settings(rows, columns, recorded_axes(meta))
    thresholds = [float(t) for t in a.thresholds.split(",")]
    series = {}
    for r in rows:
        point = (num(r["particles"]), num(r[a.metric]), num(r["frame_ms_median"]), num(r["fragments_shaded"]))
        if all(math.isfinite(v) for v in point):
            series.setdefault(settings.label(r), []).append(point)
    higher = higher_is_better(columns, a.metric) and not a.lower_is_better
    print(f"| {' / '.join(['strategy', *settings.varying])} | best {a.metric} (at count) | " +
          " | ".join(f"{a.metric} {'≥' if higher else '≤'} {t}: particles, frame ms, fragments shaded"
                     for t in thresholds) + " |")
    print("|---|---|" + "---|" * len(thresholds))
    for key, points in series.items():
        points.sort()
        best = max(points, key=lambda p: p[1]) if higher else min(points, key=lambda p: p[1])
        cells = []
        for t in thresholds:
            c = crossing(points, t, higher)
            cells.append("not reached" if c is None else f"{c[0]:,.0f}, {c[1]:.0f} ms, {c[2] / 1e6:.1f} M")
        print(f"| {key} | {best[1]:.3f} ({best[0]:,.0f}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

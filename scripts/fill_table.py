#!/usr/bin/python3
"""Equal-quality table of a fill-rate sweep: every configuration that reaches the quality thresholds, cheapest
first, with its cost against a baseline configuration of the same sweep (today's frame: full resolution, quad
sprites), and the configurations that miss them.

Usage: scripts/fill_table.py RUNS_CSV [--ssim-fire 0.98] [--flip-fire 0.05]
                             [--baseline strategy=billboards-instanced,particle_scale=1,hull=quad,filter=trilinear] [--all]

The configurations are told apart by the strategy and the settings that vary (firelab_runs.Settings). The
baseline's frame time is the median of its rows (the sweep may hold it twice: upsample changes nothing at
full resolution). Prints Markdown. Exit status 2 when the file is missing, not a runs.csv, or has no baseline.
"""
import argparse
import os
import statistics
import sys

from firelab_runs import Columns, Settings, find_meta, num, read_runs, recorded_axes


def matches(row, selector):
    return all(k not in row or row[k] == v for k, v in selector.items())  # a column the CSV lacks: any


def parse_selector(text):
    out = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs_csv")
    ap.add_argument("--ssim-fire", type=float, default=0.98)
    ap.add_argument("--flip-fire", type=float, default=0.05)
    ap.add_argument("--baseline", default="strategy=billboards-instanced,particle_scale=1,hull=quad,filter=trilinear")
    ap.add_argument("--all", action="store_true", help="list the configurations that miss the thresholds too")
    args = ap.parse_args()
    _, rows = read_runs(args.runs_csv)
    rows = [r for r in rows if r.get("status") == "ok" and r.get("ssim_fire", "") != ""]
    if not rows:
        print(f"fill_table.py: {args.runs_csv}: no scored run (sweep with --quality)", file=sys.stderr)
        return 2
    selector = parse_selector(args.baseline)
    base = [r for r in rows if matches(r, selector)]
    if not base:
        print(f"fill_table.py: {args.runs_csv}: no row matches the baseline {args.baseline}", file=sys.stderr)
        return 2
    base_ms = statistics.median(num(r["frame_ms_median"]) for r in base)
    base_frags = statistics.median(num(r["fragments_shaded"]) for r in base)

    def good(r):
        return num(r["ssim_fire"]) >= args.ssim_fire and num(r["flip_fire"]) <= args.flip_fire

    shown = sorted((r for r in rows if args.all or good(r)), key=lambda r: num(r["frame_ms_median"]))
    meta, _ = find_meta(os.path.dirname(os.path.abspath(args.runs_csv)))
    cols = ["strategy", *Settings(rows, Columns(meta), recorded_axes(meta)).varying_columns()]
    print(f"Baseline ({args.baseline}): {base_ms:.1f} ms, {base_frags:.3g} fragments shaded. "
          f"Thresholds: ssim_fire >= {args.ssim_fire}, flip_fire <= {args.flip_fire}.\n")
    print("| " + " | ".join(cols) + " | frame ms | × baseline | fragments_shaded | × baseline | ssim_fire | "
          "flip_fire | meets |")
    print("|" + "---|" * (len(cols) + 7))
    for r in shown:
        ms, frags = num(r["frame_ms_median"]), num(r["fragments_shaded"])
        print("| " + " | ".join(r.get(c, "") for c in cols) +
              f" | {ms:.1f} | {ms / base_ms:.3f} | {frags:.3g} | {frags / base_frags:.3f} | "
              f"{num(r['ssim_fire']):.4f} | {num(r['flip_fire']):.4f} | {'yes' if good(r) else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

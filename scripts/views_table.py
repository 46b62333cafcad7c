#!/usr/bin/python3
"""Tables of a sweep of the camera's distance: per distance, each configuration's frame time with its 95 %
interval, how big the fire was on screen, what the view did to the particles and each configuration's SSIM
over the fire's region; the winner per distance, the cheapest and the cheapest at a quality floor; and the
GL_POINTS strategies' share of particles clamped to the largest point size.

Usage: scripts/views_table.py RUNS_CSV [RUNS_CSV...] [--min-ssim 0.98]

The files' ok rows are read together (the folders of one camera sweep run in parts, say). A configuration is
the strategy and those of its fill settings (particle_scale, hull, upsample, filter, camera_fade) that are
not firelab's default. Several rows of one configuration at one distance (the same run in two folders, or a
setting that is none of those) are reduced to the medians of their figures, without an interval, and a
warning names them. The fire's size and the particles behind the camera are the medians over the distance's
rows. Prints Markdown. Exit status 2 when a file is missing or not a runs.csv, or when no ok row has a camera
distance.
"""
import argparse
import os
import sys

from firelab_runs import (DISTANCE, FILL_DEFAULTS, VIEW_MEASURES, Columns, display_value, find_meta, first_seen,
                          is_default, median, num, ok_rows, read_runs, row_interval, warn)

CLAMPED = "points_clamped_fraction"  # filled for the GL_POINTS strategies only: a table of its own
# Per distance, what the view did (the same for every configuration, up to the strategy's own coverage).
VIEW_COLUMNS = [c for c in VIEW_MEASURES if c != CLAMPED]


def configuration(row):
    """The row's strategy and its fill settings that are not the default (points / hull=8)."""
    fill = [display_value(c, row[c].strip()) for c in FILL_DEFAULTS if not is_default(c, row.get(c, ""))]
    return " / ".join([row.get("strategy", "").strip() or "?"] + fill)


def read_view_rows(paths):
    """The ok rows of every file that have a camera distance, in file order; exits 2 when there is none."""
    rows = []
    for path in paths:
        _, file_rows = read_runs(path)
        rows += ok_rows(file_rows)
    seen = [r for r in rows if num(r.get(DISTANCE)) > 0]
    if len(seen) < len(rows):
        warn(f"{len(rows) - len(seen)} ok row(s) without a camera distance ({DISTANCE}) left out")
    if not seen:
        print(f"views_table.py: {', '.join(paths)}: no ok run has a camera distance (a camera sweep's runs.csv)",
              file=sys.stderr)
        sys.exit(2)
    return seen


class Cell:
    """One configuration's rows at one distance: the medians of their figures; the frame time's 95 % interval
    when it is one row that summarises several rounds."""

    def __init__(self, rows, ends):
        self.rows = rows
        self.interval = row_interval(rows[0], ends) if len(rows) == 1 else None

    def __getitem__(self, col):
        return median(num(r.get(col)) for r in self.rows)

    def ms_text(self):
        ms = self["frame_ms_median"]
        if not ms > 0:
            return ""
        return f"{ms:.4g}" + (f" [{self.interval[0]:.4g}, {self.interval[1]:.4g}]" if self.interval else "")

    def overlaps(self, other):
        """Whether both have intervals and they overlap: the rounds do not tell the two apart."""
        return bool(self.interval and other.interval and self.interval[0] <= other.interval[1]
                    and other.interval[0] <= self.interval[1])


class Views:
    """The rows by distance and configuration: cells[distance][configuration] is a Cell."""

    def __init__(self, rows, ends):
        self.rows = rows
        self.configurations = first_seen(configuration(r) for r in rows)
        self.distances = sorted({num(r[DISTANCE]) for r in rows})
        grouped = {}
        for r in rows:
            grouped.setdefault(num(r[DISTANCE]), {}).setdefault(configuration(r), []).append(r)
        self.cells = {d: {c: Cell(at[c], ends) for c in self.configurations if c in at}
                      for d, at in grouped.items()}
        for d, at in self.cells.items():
            for c, cell in at.items():
                if len(cell.rows) > 1:
                    warn(f"{c} at {d:g} m: {len(cell.rows)} rows, their medians shown")

    def at(self, distance):
        """The distance's cells in configuration order."""
        return self.cells[distance]

    def view(self, distance, col):
        """The median of a view column over the distance's rows."""
        return median(num(r.get(col)) for r in self.rows if num(r[DISTANCE]) == distance)


def number(value, digits=4):
    return "" if value != value else f"{value:.{digits}g}"  # NaN: empty


def print_table(head, body):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in body:
        print("| " + " | ".join(row) + " |")
    print()


def frame_table(views):
    """Per distance: each configuration's frame time [95 % interval], the view's columns, each configuration's
    ssim_fire (when some run is scored)."""
    scored = any(r.get("ssim_fire", "").strip() for r in views.rows)
    ssim_of = views.configurations if scored else []
    head = (["distance (m)"] + [f"{c} ms" for c in views.configurations] + VIEW_COLUMNS
            + [f"{c} ssim_fire" for c in ssim_of])
    body = []
    for d in views.distances:
        cells = views.at(d)
        body.append([f"{d:g}"] + [cells[c].ms_text() if c in cells else "" for c in views.configurations]
                    + [number(views.view(d, col)) for col in VIEW_COLUMNS]
                    + [number(cells[c]["ssim_fire"]) if c in cells else "" for c in ssim_of])
    print("## Frame time per camera distance\n")
    print("frame_ms_median [95% interval over rounds, when the sweep had several]; the view's columns are the "
          "medians over the distance's runs.\n")
    print_table(head, body)


def cheapest(cells):
    """The (configuration, Cell) with the lowest frame time among cells ({configuration: Cell}), or None."""
    timed = [(c, cell) for c, cell in cells.items() if cell["frame_ms_median"] > 0]
    return min(timed, key=lambda item: item[1]["frame_ms_median"], default=None)


def winners(views, min_ssim):
    """Per distance: (distance, the cheapest (configuration, Cell) or None, the configurations the rounds do
    not tell from it, the cheapest with ssim_fire >= min_ssim or None, the best ssim_fire there (configuration,
    value) or None when none is scored)."""
    out = []
    for d in views.distances:
        cells = views.at(d)
        best = cheapest(cells)
        ties = [c for c, cell in cells.items() if best and c != best[0] and cell.overlaps(best[1])]
        good = cheapest({c: cell for c, cell in cells.items() if cell["ssim_fire"] >= min_ssim})
        scored = [(c, cell["ssim_fire"]) for c, cell in cells.items() if cell["ssim_fire"] >= 0]
        out.append((d, best, ties, good, max(scored, key=lambda item: item[1], default=None)))
    return out


def winner_table(views, min_ssim):
    head = ["distance (m)", "cheapest", "ms", "not told apart (intervals overlap)",
            f"cheapest with ssim_fire ≥ {min_ssim:g}", "ms", "ssim_fire"]
    body = []
    for d, best, ties, good, top in winners(views, min_ssim):
        row = [f"{d:g}", best[0] if best else "", best[1].ms_text() if best else "", ", ".join(ties)]
        if good:
            row += [good[0], good[1].ms_text(), number(good[1]["ssim_fire"])]
        elif top:
            row += [f"none (best: {top[0]}, {number(top[1])})", "", ""]
        else:
            row += ["unscored", "", ""]
        body.append(row)
    print("## Winner per distance\n")
    print(f"The cheapest configuration by frame_ms_median, and the cheapest whose ssim_fire is at least "
          f"{min_ssim:g}.\n")
    print_table(head, body)


def clamped_table(views):
    """Per distance, each GL_POINTS configuration's points_clamped_fraction (the configurations that have it)."""
    points = [c for c in views.configurations
              if any(r.get(CLAMPED, "").strip() for r in views.rows if configuration(r) == c)]
    print("## Points clamped to the largest point size\n")
    if not points:
        print(f"No run has a {CLAMPED} (it is filled for the GL_POINTS strategies only).\n")
        return
    body = [[f"{d:g}", number(views.view(d, "fire_px"))]
            + [number(views.at(d)[c][CLAMPED]) if c in views.at(d) else "" for c in points]
            for d in views.distances]
    print(f"{CLAMPED}: the share of drawn particles larger than the implementation's largest point size.\n")
    print_table(["distance (m)", "fire_px"] + points, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs_csv", nargs="+", metavar="RUNS_CSV")
    ap.add_argument("--min-ssim", type=float, default=0.98, help="the quality floor of the second winner")
    args = ap.parse_args()
    rows = read_view_rows(args.runs_csv)
    meta, _ = find_meta(os.path.dirname(os.path.abspath(args.runs_csv[0])))
    views = Views(rows, Columns(meta).interval("frame_ms_median"))
    frame_table(views)
    winner_table(views, args.min_ssim)
    clamped_table(views)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Plots a firelab runs.csv (format: docs/csv.md) into frame_time.png, fps.png, split.png and, when runs
were scored against a reference, pareto.png; when the CSV's folder holds a ratios.csv (`firelab compare`),
ratios.png; when the runs sweep the camera's distance, the view plots (views_*.png, below); then writes
report.html beside them (scripts/report.py).

Usage: scripts/plot.py RUNS_CSV [--out DIR] [--title TEXT] [--metric frame|cpu|draw]

Only rows with status "ok" are plotted. A series is a strategy plus every other setting that takes
several values in the file (emitter, blend, hull, size, label, ...: firelab_runs.Settings, which reads what
the columns are from the folder's meta.json when it says); repeats of a series at one particle count are
reduced to the median of their medians. With many series the plots become small multiples, one panel per
value of the first varying setting. Rows summarising several rounds (--repetitions) get the 95 % interval
of their median as error bars in frame_time.png. A sweep at one particle count (effects, strategies at
20k) gets bars instead of lines in frame_time.png and fps.png: a bar per series, grouped by colour, its
whisker the 95 % interval (p5–p95 with one round). pareto.png has a panel per scored image metric and labels
only the runs on its frontier, numbered and named under the panels, so it reads at any number of runs.
ratios.png draws one time's paired ratio to the baseline, --metric's (frame, the default; cpu; draw: `firelab
compare --metric` passes its own), each with its 95 % interval, hollow where that interval holds 1 (the rounds
do not tell the configuration from its baseline); configurations without that ratio are counted on stderr and
left out, and with none ratios.png is not written.

A sweep of the camera's distance (camera_distance takes several values) draws the particle-count plots as
any other setting: the distance names a series (points / camera_distance=2) and, when the series are too
many for one axes, makes the panels, one per view. The view plots put the distance on a log x axis, a line
per configuration (the settings that vary, less the camera's that go with the distance):
views_frame_time.png (frame time, and beside it frame time against covered_fraction or fire_px),
views_quality.png (scored runs: each metric over the fire's region), views_cost_per_mpx.png (frame time per
megapixel the fire covers, where covered_fraction > 0) and views_clamped.png (when a GL_POINTS strategy
ran: points_clamped_fraction and behind_camera_fraction).
Exit status: 0 (also for a CSV without runs), 2 when the file is missing or not firelab's.
"""
import argparse
import math
import os
import subprocess
import sys

from firelab_runs import (DISTANCE, RATIO_METRICS, Columns, Settings, camera_swept, display_value, distances,
                          find_meta, first_seen, holds_one, median, num, ok_rows, pareto_frontier, ratio_figure,
                          read_ratios, read_runs, recorded_axes, row_interval, tied_to_distance, warn)

# Error bars of intervals carry this label (underscore: kept out of legends), so they can be found.
INTERVAL_LABEL = "_interval"
# A ratio whose 95 % interval holds 1 is drawn again, hollow, under this label (kept out of the legend, which
# says what hollow means in HOLDS_ONE_TEXT).
HOLLOW_LABEL = "_holds_one"
HOLDS_ONE_TEXT = "hollow: its 95% interval holds 1 (not told apart from the baseline)"
# The spread of a run's frames, when it has no interval over rounds.
P5_P95 = ("frame_ms_p5", "frame_ms_p95")

MAX_SERIES_PER_AXES = 10
FIGSIZE = (9.0, 5.5)
DPI = 120

SPLIT_PARTS = [("sim_ms_median", "simulation (CPU)", "#e08a3c"),
               ("upload_ms_median", "upload (CPU + transfer)", "#4a7fb5"),
               ("draw_ms_median", "draw (wall, until fence)", "#5a9e5a")]


class Point(dict):
    """A series' rows at one x value: point[column] is the median of their values of it (NaN when none has
    one), worked out when first asked for."""

    def __init__(self, rows):
        super().__init__()
        self.rows = rows

    def __missing__(self, col):
        self[col] = median(num(r.get(col)) for r in self.rows)
        return self[col]

    def get(self, col, default=None):  # as a row is read (row_interval), medians included
        return self[col]


class Model:
    """The ok rows grouped into facets -> series -> points (one per value of x: the particle count, or the
    camera's distance for the view plots). A series is a strategy and its values of the settings that vary
    (firelab_runs.Settings; `apart`: more settings that go with x and never split series); with more series
    than max_series for one axes, the first varying setting makes the panels (the camera's distance first,
    when it varies: a panel per view)."""

    def __init__(self, rows, columns=None, axes=None, x="particles", apart=(), max_series=MAX_SERIES_PER_AXES):
        self.rows = rows
        self.x = x
        self.columns = columns or Columns()
        self.settings = Settings(rows, self.columns, axes, apart=(x, *apart))
        self.varying = self.settings.varying
        self.strategies = first_seen(r.get("strategy", "") or "?" for r in rows)
        all_keys = first_seen(self.series_key(r, self.varying) for r in rows)
        # Small multiples when one axes would hold too many lines and there is something to split on.
        panels_by = sorted(self.varying, key=lambda c: c != DISTANCE)
        self.facet_col = panels_by[0] if len(all_keys) > max_series and self.varying else None
        self.rest = [c for c in self.varying if c != self.facet_col]
        self.variants = first_seen(tuple(self.settings.value(r, c) for c in self.rest) for r in rows)
        # One strategy: colour by the first setting that varies instead, so that the series differ in colour.
        self.colour_by_strategy = len(self.strategies) > 1 or not self.rest
        self.colour_values = (self.strategies if self.colour_by_strategy
                              else first_seen(self.settings.value(r, self.rest[0]) for r in rows))
        self.facets = self.points_by_facet()

    def points_by_facet(self):
        """[(facet value, [(series key, [Points sorted by x])])]: each point the medians of the columns over
        the rows of its series at its x."""
        grouped = {}  # facet -> series key -> x -> [rows]
        for r in self.rows:
            facet = self.settings.value(r, self.facet_col) if self.facet_col else None
            key = self.series_key(r, self.rest)
            grouped.setdefault(facet, {}).setdefault(key, {}).setdefault(num(r.get(self.x)), []).append(r)
        facets = []
        for facet, series in grouped.items():
            out = []
            for key, by_x in series.items():
                points = []
                for x in sorted(v for v in by_x if not math.isnan(v)):
                    p = Point(by_x[x])
                    p[self.x], p["repeats"] = x, len(by_x[x])
                    points.append(p)
                if points:
                    out.append((key, points))
            if out:
                facets.append((facet, out))
        return facets

    def all_series(self):
        """Every (series key, points) of every panel."""
        return [s for _, series in self.facets for s in series]

    def series_key(self, row, cols):
        return (row.get("strategy", "") or "?",) + tuple(self.settings.value(row, c) for c in cols)

    def label(self, key):
        return " / ".join([key[0]] + [display_value(c, v) for c, v in zip(self.rest, key[1:])])

    def facet_title(self, facet):
        """The panel's setting and value, named once (particle_scale=0.5, or effect: campfire.toml)."""
        if not self.facet_col:
            return ""
        shown = display_value(self.facet_col, facet)
        return shown if shown.startswith(self.facet_col + "=") else f"{self.facet_col}: {shown}"

    def colour(self, key):
        """A series' colour, the same in every figure: its strategy's, or with one strategy its value of the
        first varying setting."""
        import matplotlib.pyplot as plt
        value = key[0] if self.colour_by_strategy else key[1]
        cmap = plt.get_cmap("tab10" if len(self.colour_values) <= 10 else "tab20")
        return cmap(self.colour_values.index(value) % cmap.N)

    def style(self, key):
        """Colour as colour(); marker and line style by the other settings (same across figures)."""
        v = self.variants.index(tuple(key[1:]))
        markers, lines = "osD^vPX*<>", ["-", "--", ":", "-."]
        return dict(color=self.colour(key), marker=markers[v % len(markers)], linestyle=lines[v % len(lines)])

    def common(self, col):
        vals = first_seen(self.settings.value(r, col) for r in self.rows)
        return vals[0] if len(vals) == 1 else None


def title_lines(model, what, user_title):
    experiments = first_seen(r.get("experiment", "") for r in model.rows)
    name = user_title or (", ".join(e or "?" for e in experiments[:3]) + (" ..." if len(experiments) > 3 else ""))
    renderers = first_seen(r.get("gl_renderer", "") for r in model.rows)
    renderer = (renderers[0] or "unknown renderer") if len(renderers) == 1 else f"{len(renderers)} renderers"
    extra = [renderer]
    if model.common("size") and "x" != model.common("size"):
        extra.append(model.common("size"))
    return f"{what}: {name}\n{' · '.join(extra)}"


def count_label(x, _pos=None):
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:g}{suffix}"
    return f"{x:g}"


def make_axes(model, n_panels):
    import matplotlib.pyplot as plt
    if n_panels == 1:
        fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
        return fig, [ax]
    ncols = 2 if n_panels <= 4 else 3
    nrows = math.ceil(n_panels / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(FIGSIZE[0] + 2, max(FIGSIZE[1], 3.4 * nrows + 0.8)),
                             dpi=DPI, sharex=True, sharey=True, squeeze=False)
    axes = list(axes.flat)
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    return fig, axes[:n_panels]


def log_tick_label(ax):
    """%g labels on decades; on 2 and 5 (or 2..8) too when the y range spans few decades."""
    from matplotlib import ticker
    lo, hi = ax.get_ylim()
    decades = math.log10(hi / lo) if lo > 0 and hi > lo else 99
    minor = {2, 3, 4, 5, 6, 8} if decades <= 1.2 else {2, 5} if decades <= 2.6 else set()

    def fmt(v, _pos=None):
        if v <= 0:
            return ""
        mantissa = v / 10 ** math.floor(math.log10(v) + 1e-9)
        m = round(mantissa)
        return f"{v:g}" if abs(mantissa - m) < 1e-6 and (m == 1 or m in minor) else ""
    return ticker.FuncFormatter(fmt)


def log_y(ax):
    """A log y axis with %g labels where they read (log_tick_label) and a light grid; after the data."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(log_tick_label(ax))
    ax.yaxis.set_minor_formatter(log_tick_label(ax))
    ax.grid(True, which="major", alpha=0.45)
    ax.grid(True, which="minor", alpha=0.15)


def finish_log_axes(ax, counts):
    from matplotlib import ticker
    if len(counts) <= 12:  # a sweep's few counts: tick exactly those (1k, 3k, 10k...), not decades
        ax.xaxis.set_major_locator(ticker.FixedLocator(counts))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(count_label))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    log_y(ax)


def place_legend(fig, axes, handles_by_label, single):
    if not handles_by_label:
        return
    labels = list(handles_by_label)
    handles = [handles_by_label[label] for label in labels]
    ncol = 1 if len(labels) <= 16 else 2
    if single and len(labels) <= 6:
        axes[0].legend(handles, labels, loc="best", fontsize=9, framealpha=0.9)
    else:  # outside on the right, so it never hides data; savefig(bbox_inches="tight") keeps it
        kw = dict(loc="upper left", fontsize=8.5, ncol=ncol, frameon=False)
        if single:
            axes[0].legend(handles, labels, bbox_to_anchor=(1.01, 1.0), **kw)
        else:
            fig.legend(handles, labels, bbox_to_anchor=(0.99, 0.93), bbox_transform=fig.transFigure, **kw)


def save(fig, out_dir, name):
    final = os.path.join(out_dir, name)
    tmp = final[:-len(".png")] + ".tmp.png"
    try:
        fig.savefig(tmp, format="png", dpi=DPI, bbox_inches="tight")
        os.replace(tmp, final)  # readers never see a half-written PNG
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    print(final)


def ok_points(points, *cols):
    """Points whose listed columns are all finite and positive (log axes)."""
    return [p for p in points if all(p[c] > 0 for c in cols)]  # NaN > 0 is False


def interval_rounds(rows, ends):
    """The round counts of the rows whose interval columns (ends) hold an interval over several rounds: empty
    for one round and for a CSV written before repetitions (no such columns)."""
    return sorted({int(num(r.get("rounds"))) for r in rows if row_interval(r, ends)})


def rounds_text(rounds):
    return f"{rounds[0]}" if len(rounds) == 1 else f"{rounds[0]}–{rounds[-1]}"


def plot_lines(model, out_dir, user_title, name, ycol, ylabel, what, band=None, fps_lines=False, ci=None):
    """ci: (low column, high column, caption) to draw as error bars where both are filled."""
    import matplotlib.pyplot as plt
    from matplotlib import transforms
    fig, axes = make_axes(model, len(model.facets))
    single = len(axes) == 1
    handles = {}
    for ax, (facet, series) in zip(axes, model.facets):
        drawn = 0
        for key, points in series:
            pts = ok_points(points, "particles", ycol)
            if not pts:
                continue
            st = model.style(key)
            xs = [p["particles"] for p in pts]
            ys = [p[ycol] for p in pts]
            (line,) = ax.plot(xs, ys, markersize=5, linewidth=1.6, label=model.label(key), **st)
            handles.setdefault(model.label(key), line)
            drawn += 1
            if band:
                bp = [p for p in pts if p[band[0]] > 0 and p[band[1]] > 0]
                if len(bp) >= 2:
                    ax.fill_between([p["particles"] for p in bp], [p[band[0]] for p in bp],
                                    [p[band[1]] for p in bp], color=st["color"], alpha=0.12, linewidth=0)
                elif len(bp) == 1:  # one point: a band cannot show, an error bar can
                    p = bp[0]
                    ax.errorbar([p["particles"]], [p[ycol]], yerr=[[p[ycol] - p[band[0]]], [p[band[1]] - p[ycol]]],
                                color=st["color"], capsize=3, linewidth=1, fmt="none")
            cp = [p for p in pts if p[ci[0]] > 0 and p[ci[1]] > 0] if ci else []
            if cp:
                ax.errorbar([p["particles"] for p in cp], [p[ycol] for p in cp],
                            yerr=[[max(0.0, p[ycol] - p[ci[0]]) for p in cp], [max(0.0, p[ci[1]] - p[ycol]) for p in cp]],
                            color=st["color"], capsize=3.5, linewidth=1.3, fmt="none", label=INTERVAL_LABEL)
        if not drawn:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="0.4")
            continue
        ax.set_xscale("log")
        ax.set_yscale("log")
        if fps_lines:
            trans = transforms.blended_transform_factory(ax.transAxes, ax.transData)
            for fps in (60, 30):
                ax.axhline(fps, linestyle="--", color="0.3", linewidth=1.1, zorder=1)
                # at the left, where counts are small and frame rates high, so data rarely hides it
                ax.text(0.008, fps, f"{fps} FPS", transform=trans, ha="left", va="bottom", fontsize=8.5, color="0.25")
        if not single:
            ax.set_title(model.facet_title(facet), fontsize=10)
    counts = sorted({p["particles"] for _, series in model.facets for _, pts in series for p in pts
                     if p["particles"] > 0})
    ncols = axes[0].get_subplotspec().get_gridspec().ncols
    for i, ax in enumerate(axes):
        if ax.lines:
            finish_log_axes(ax, counts)  # after every series is drawn, so the y range is known
        if i + ncols >= len(axes):  # lowest panel of its column (the slots below may be empty)
            ax.xaxis.set_tick_params(labelbottom=True)
            ax.set_xlabel("particles (requested count, log)")
        if single or ax.get_subplotspec().is_first_col():
            ax.set_ylabel(ylabel)
    title = title_lines(model, what, user_title)
    if band:
        title += " · band: p5–p95"
    if ci:
        title += f" · bars: {ci[2]}"
    if single:
        axes[0].set_title(title, fontsize=11)
    else:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    place_legend(fig, axes, handles, single)
    save(fig, out_dir, name)
    plt.close(fig)


def bar_axes(bars_per_panel, per_bar):
    """A figure of horizontal-bar panels stacked top to bottom, sharing x, each as tall as its bars need
    (per_bar inches a bar); returns (fig, axes)."""
    import matplotlib.pyplot as plt
    fig_h = max(FIGSIZE[1], per_bar * sum(bars_per_panel) + 0.9 * len(bars_per_panel) + 1.0)
    fig, axes = plt.subplots(len(bars_per_panel), 1, figsize=(FIGSIZE[0], fig_h), dpi=DPI, sharex=True,
                             squeeze=False, gridspec_kw=dict(height_ratios=bars_per_panel))
    return fig, list(axes.flat)


def label_bars(ax, positions, labels, title):
    """Names the bars at positions (the first on top), with an x grid and the panel's title."""
    positions = list(positions)
    ax.set_yticks(positions)
    ax.set_yticklabels(labels, fontsize=8.5)
    ax.set_ylim(positions[-1] + 0.55, positions[0] - 0.6)
    ax.grid(True, axis="x", alpha=0.4)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title, fontsize=10, loc="left")


def title_bars(fig, axes, title, bottom=0.0):
    """Titles stacked bar panels and lays them out, keeping `bottom` inches (a legend's) free below."""
    height = fig.get_figheight()
    if len(axes) > 1:  # at a fixed distance from the top (by default 2 % of a tall figure is inches)
        fig.suptitle(title, fontsize=11, y=1 - 0.08 / height, va="top")
    else:
        axes[0].set_title(title, fontsize=11)
    fig.tight_layout(rect=(0, bottom / height, 1, 1))  # tight_layout keeps the suptitle's room


def grouped(model, series):
    """A panel's series with their bar positions: grouped by colour (the strategy, or the first varying
    setting), groups in first-seen order with a gap between them."""
    group_of = (lambda key: key[0]) if model.colour_by_strategy else (lambda key: key[1])
    groups = first_seen(group_of(key) for key, _ in series)
    ordered = sorted(series, key=lambda s: groups.index(group_of(s[0])))
    out, y, last = [], 0.0, None
    for key, points in ordered:
        if last is not None and group_of(key) != last:
            y += 0.5
        out.append((y, key, points[0]))
        y, last = y + 1.0, group_of(key)
    return out


def plot_bars(model, out_dir, user_title, name, fps, ends, caption):
    """For a sweep at one particle count: a horizontal bar per series, its frame time (or with fps, its
    frames per second), grouped by colour, with whiskers from the ends columns (an interval of frame_ms)
    and the value written at the bar's end. Lines at one x position would hide one another."""
    import matplotlib.pyplot as plt
    value = (lambda ms: 1000.0 / ms) if fps else (lambda ms: ms)
    fig, axes = bar_axes([len(series) for _, series in model.facets], per_bar=0.24)
    xmax = 0.0
    for ax, (facet, series) in zip(axes, model.facets):
        bars = [(y, key, p) for y, key, p in grouped(model, series) if p["frame_ms_median"] > 0]
        whiskers = [(y, value(p["frame_ms_median"]), sorted((value(p[ends[0]]), value(p[ends[1]]))))
                    for y, _, p in bars if p[ends[0]] > 0 and p[ends[1]] > 0]
        if whiskers:
            ax.errorbar([v for _, v, _ in whiskers], [y for y, _, _ in whiskers], fmt="none", color="0.15",
                        xerr=[[max(0.0, v - lo) for _, v, (lo, _) in whiskers],
                              [max(0.0, hi - v) for _, v, (_, hi) in whiskers]],
                        capsize=2.5, linewidth=1, label=INTERVAL_LABEL if ends != P5_P95 else "_spread")
        ends_at = {y: hi for y, _, (_, hi) in whiskers}
        for y, key, p in bars:
            v = value(p["frame_ms_median"])
            ax.barh(y, v, height=0.7, color=model.colour(key), alpha=0.85)
            ax.text(max(v, ends_at.get(y, v)), y, f"  {v:.4g}", va="center", fontsize=8)
            xmax = max(xmax, v, ends_at.get(y, v))
        label_bars(ax, [y for y, _, _ in bars], [model.label(key) for _, key, _ in bars], model.facet_title(facet))
        for rate in (30, 60) if fps else ():
            if rate < xmax * 1.1:
                ax.axvline(rate, linestyle="--", color="0.3", linewidth=1.1, zorder=1)
    axes[-1].set_xlim(0, xmax * 1.15 if xmax > 0 else 1)
    axes[-1].set_xlabel("frames per second" if fps else "frame time, median (ms)")
    count = count_label(model.facets[0][1][0][1][0]["particles"])
    what = f"{'FPS' if fps else 'Frame time'} at {count} particles"
    title_bars(fig, axes, title_lines(model, what, user_title) + f" · whiskers: {caption}")
    save(fig, out_dir, name)
    plt.close(fig)


def plot_split(model, out_dir, user_title):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D
    llvmpipe = any("llvmpipe" in r.get("gl_renderer", "").lower() for r in model.rows)
    gpu_label = "GPU timer" + (" (meaningless on llvmpipe)" if llvmpipe else "")

    # One bar per series, at the largest particle count it reached with a usable frame time.
    panels = []
    for facet, series in model.facets:
        bars = []
        for key, points in series:
            pts = [p for p in points if not math.isnan(p["frame_ms_median"]) or
                   any(not math.isnan(p[c]) for c, _, _ in SPLIT_PARTS)]
            if pts:
                bars.append((key, pts[-1]))
        if bars:
            panels.append((facet, bars))
    if not panels:
        print("plot.py: no split data (no sim/upload/draw times): split.png not written", file=sys.stderr)
        return
    fig, axes = bar_axes([len(b) for _, b in panels], per_bar=0.34)
    fig_h = fig.get_figheight()
    xmax = 0.0
    for ax, (facet, bars) in zip(axes, panels):
        labels = []
        for i, (key, p) in enumerate(bars):
            left = 0.0
            for col, _, colour in SPLIT_PARTS:
                v = p[col] if p[col] > 0 else 0.0
                ax.barh(i - 0.12, v, left=left, height=0.5, color=colour, edgecolor="white", linewidth=0.6)
                left += v
            total = left
            if p["gpu_ms_median"] >= 0:
                ax.barh(i + 0.27, p["gpu_ms_median"], height=0.2, fill=False, hatch="////",
                        edgecolor="0.35", linewidth=0.8)
                total = max(total, p["gpu_ms_median"])
            if p["frame_ms_median"] > 0:
                ax.plot([p["frame_ms_median"]], [i - 0.12], marker="|", markersize=17, color="black", mew=2)
                ax.text(max(left, p["frame_ms_median"]), i - 0.12, f"  {p['frame_ms_median']:.3g} ms",
                        va="center", fontsize=8.5)
                total = max(total, p["frame_ms_median"])
            xmax = max(xmax, total)
            labels.append(f"{model.label(key)} @ {count_label(p['particles'])}")
        label_bars(ax, range(len(bars)), labels, model.facet_title(facet))
    axes[-1].set_xlim(0, xmax * 1.18 if xmax > 0 else 1)
    axes[-1].set_xlabel("time per frame, median (ms)")
    handles = [Patch(color=c, label=l) for _, l, c in SPLIT_PARTS]
    handles.append(Patch(fill=False, hatch="////", edgecolor="0.35", label=gpu_label))
    handles.append(Line2D([], [], marker="|", markersize=12, mew=2, color="black", linestyle="none",
                          label="whole frame (wall)"))
    # Below the bars, across the figure: beside them it would squeeze the bars next to long labels.
    foot = 0.28 if llvmpipe else 0.05
    fig.legend(handles=handles, loc="lower center", ncol=3, bbox_to_anchor=(0.5, foot / fig_h), fontsize=8.5,
               frameon=False)
    if llvmpipe:
        fig.text(0.01, 0.1 / fig_h, "llvmpipe: the GPU is the CPU, so GL timer queries measure nothing useful; "
                 "trust the wall-clock bars.", fontsize=8, color="0.3", ha="left", va="bottom")
    title_bars(fig, axes, title_lines(model, "Per-frame split at each series' largest count", user_title),
               bottom=foot + 0.5)
    save(fig, out_dir, "split.png")
    plt.close(fig)


def metric_axis(metric, rows):
    """How a pareto panel shows a metric over the fire's region: (each row's x, axis label, reversed). Left is
    better: a lower-is-better metric (ꟻLIP) as it is; a higher-is-better one bounded by 1 (SSIM) as 1 − it;
    another (PSNR, dB) as it is on a reversed axis."""
    values = [num(r.get(metric.fire_column)) for r in rows]
    if not metric.higher_is_better:
        return values, f"{metric.label}, fire region (lower is better)", False
    if all(v <= 1 for v in values if not math.isnan(v)):
        return [1.0 - v for v in values], f"1 − {metric.label}, fire region (lower is better)", False
    return values, f"{metric.label}, fire region (higher is better, axis reversed)", True


def set_error_scale(ax, xs):
    """Log when the errors span a decade or more; symlog when some are exactly 0 (the reference itself)."""
    pos = [x for x in xs if x > 0]
    if not pos or max(pos) / min(pos) < 10:
        return
    if len(pos) == len(xs):
        ax.set_xscale("log")
    else:
        ax.set_xscale("symlog", linthresh=min(pos))


class ParetoLook:
    """How pareto.png draws and names runs. Colour as in the line plots; the marker per series while there
    are few (the legend names each series), else per value of the line plots' panel setting (the legend
    names the colours and the markers). A run on a frontier is named in the key under the panels."""

    MARKERS = "osD^vPX*<>"

    def __init__(self, model):
        self.model = model
        self.by_series = model.facet_col is None
        self.marker_values = ([] if self.by_series
                              else first_seen(model.settings.value(r, model.facet_col) for r in model.rows))
        self.several_counts = len({num(r.get("particles")) for r in model.rows}) > 1

    def key(self, row):
        return self.model.series_key(row, self.model.rest)

    def style(self, row):
        style = self.model.style(self.key(row))
        if not self.by_series:
            value = self.model.settings.value(row, self.model.facet_col)
            style["marker"] = self.MARKERS[self.marker_values.index(value) % len(self.MARKERS)]
        return style

    def name(self, row):
        """The run in words: its series, the panel setting's value and, in a sweep of counts, its count."""
        name = self.model.label(self.key(row))
        if self.model.facet_col:
            name += " / " + display_value(self.model.facet_col, self.model.settings.value(row, self.model.facet_col))
        return name + (f" @ {count_label(num(row.get('particles')))}" if self.several_counts else "")

    def handles(self):
        """The legend: each series, or each colour and each marker; and the frontier's line."""
        from matplotlib.lines import Line2D
        model, dot = self.model, dict(linestyle="none", markersize=6)
        if self.by_series:
            keys = first_seen(self.key(r) for r in model.rows)
            out = [Line2D([], [], marker=model.style(k)["marker"], color=model.style(k)["color"], label=model.label(k),
                          **dot) for k in keys]
        else:
            colour_col = "strategy" if model.colour_by_strategy else model.rest[0]
            out = [Line2D([], [], marker="o", color=model.colour((v, v)), label=display_value(colour_col, v), **dot)
                   for v in model.colour_values]
            out += [Line2D([], [], marker=self.MARKERS[i % len(self.MARKERS)], color="0.35",
                           label=display_value(model.facet_col, v), **dot) for i, v in enumerate(self.marker_values)]
        out.append(Line2D([], [], color="0.2", linestyle="--", label="frontier: no run both faster and better"))
        return out


def pareto_numbers(model, metrics):
    """{row index: number} for the runs on some metric's frontier, numbered fastest first, so that one run
    has one number in every panel; and {metric name: its frontier's row indices}."""
    fronts = {}
    for metric in metrics:
        xs, _, _ = metric_axis(metric, model.rows)
        costs = [(metric.cost(num(r.get(metric.fire_column))) if x >= 0 else math.nan,
                  num(r.get("frame_ms_median"))) for x, r in zip(xs, model.rows)]
        fronts[metric.name] = [i for i in pareto_frontier(costs) if costs[i][1] > 0]
    on_any = sorted({i for front in fronts.values() for i in front},
                    key=lambda i: num(model.rows[i].get("frame_ms_median")))
    return {i: n for n, i in enumerate(on_any, start=1)}, fronts


def pareto_panel(ax, model, look, metric, front, numbers, bars):
    """One metric's panel: every run, each series joined across counts, the frontier as a step line with its
    runs ringed, numbered and given their frame-time bars (bars: the low and high columns)."""
    rows = model.rows
    xs, label, reversed_axis = metric_axis(metric, rows)
    ys = [num(r.get("frame_ms_median")) for r in rows]
    shown = [i for i in range(len(rows)) if xs[i] >= 0 and ys[i] > 0]  # NaN compares False
    if look.several_counts:
        for key in first_seen(look.key(rows[i]) for i in shown):
            line = sorted((num(rows[i].get("particles")), xs[i], ys[i]) for i in shown if look.key(rows[i]) == key)
            st = model.style(key)
            ax.plot([x for _, x, _ in line], [y for _, _, y in line], color=st["color"], linestyle=st["linestyle"],
                    linewidth=0.9, alpha=0.45, zorder=1)
    for i in shown:
        st = look.style(rows[i])
        ring = dict(markeredgecolor="black", markeredgewidth=1.1, markersize=7) if i in front else \
            dict(markeredgecolor="white", markeredgewidth=0.5, markersize=5.5, alpha=0.7)
        ax.plot([xs[i]], [ys[i]], st["marker"], color=st["color"], zorder=3, **ring)
    ax.step([xs[i] for i in front], [ys[i] for i in front], where="post", color="0.2", linewidth=1.2,
            linestyle="--", zorder=2)
    for i in front:
        lo, hi = num(rows[i].get(bars[0])), num(rows[i].get(bars[1]))
        if lo <= ys[i] <= hi:
            ax.errorbar([xs[i]], [ys[i]], yerr=[[ys[i] - lo], [hi - ys[i]]], color=look.style(rows[i])["color"],
                        linewidth=1, capsize=2.5, fmt="none", zorder=2)
        ax.annotate(str(numbers[i]), (xs[i], ys[i]), xytext=(4, 2), textcoords="offset points", fontsize=7.5,
                    fontweight="bold", color="0.15", zorder=4)
    set_error_scale(ax, [xs[i] for i in shown])
    if reversed_axis:
        ax.invert_xaxis()
    log_y(ax)
    ax.set_xlabel(label)
    ax.set_title(f"{metric.label}: {len(front)} on the frontier", fontsize=10)


def pareto_key(fig, key_ax, look, numbers):
    """Under the panels, inside the figure: the legend, and beside it each numbered run's name and frame
    time, in two columns when they fit. Returns the height they need, in inches."""
    renderer = fig.canvas.get_renderer()
    legend = key_ax.legend(handles=look.handles(), loc="upper left", bbox_to_anchor=(0, 1), fontsize=8,
                           frameon=False, borderaxespad=0)
    key_ax.add_artist(legend)
    box = key_ax.get_window_extent(renderer)
    left = (legend.get_window_extent(renderer).x1 - box.x0) / box.width + 0.03
    rows = look.model.rows
    entries = [f"{n}  {look.name(rows[i])}: {num(rows[i].get('frame_ms_median')):.4g} ms"
               for i, n in sorted(numbers.items(), key=lambda item: item[1])]
    names = None
    for ncol in (2, 1):
        if names:
            names.remove()
        names = key_ax.legend([_blank()] * len(entries), entries, loc="upper left", bbox_to_anchor=(left, 1),
                              ncol=ncol, fontsize=7.5, frameon=False, borderaxespad=0, handlelength=0,
                              handletextpad=0, columnspacing=1.5, title="the frontier's runs, fastest first",
                              title_fontsize=8, alignment="left")
        if names.get_window_extent(renderer).x1 <= box.x1:
            break
    return max(legend.get_window_extent(renderer).height, names.get_window_extent(renderer).height) / fig.dpi


def _blank():
    from matplotlib.lines import Line2D
    return Line2D([], [], linestyle="none")


def plot_pareto(model, out_dir, user_title):
    """pareto.png: frame time against each scored metric's error over the fire region, a panel per metric,
    one point per run, with the frontier of runs nothing beats on both; only the frontier's runs are
    labelled (by number, named in the key), so that the figure reads at any number of runs."""
    import matplotlib.pyplot as plt
    metrics = model.columns.scored_metrics(model.rows)
    look = ParetoLook(model)
    numbers, fronts = pareto_numbers(model, metrics)
    panel, title_h = 4.4, 0.9
    fig = plt.figure(figsize=(max(FIGSIZE[0], panel * len(metrics) + 1.2), panel + title_h + 2.0), dpi=DPI)
    grid = fig.add_gridspec(2, len(metrics), height_ratios=[panel, 2.0])
    axes = [fig.add_subplot(grid[0, 0])]
    axes += [fig.add_subplot(grid[0, i], sharey=axes[0]) for i in range(1, len(metrics))]
    interval = model.columns.interval("frame_ms_median")
    with_rounds = bool(interval) and any(row_interval(r, interval) for r in model.rows)
    bars = interval if with_rounds else ("frame_ms_p5", "frame_ms_p95")
    for ax, metric in zip(axes, metrics):
        pareto_panel(ax, model, look, metric, fronts[metric.name], numbers, bars)
    axes[0].set_ylabel("frame time, median (ms, log)")
    key_ax = fig.add_subplot(grid[1, :])
    key_ax.axis("off")
    fig.suptitle(title_lines(model, "Cost against quality, lower-left is better", user_title)
                 + f" · bars: {'95% interval' if with_rounds else 'p5–p95'} of the frontier's runs", fontsize=11)
    key_h = pareto_key(fig, key_ax, look, numbers) + 0.2
    fig.set_figheight(panel + title_h + key_h + 0.6)
    grid.set_height_ratios([panel, key_h])
    fig.tight_layout()
    save(fig, out_dir, "pareto.png")
    plt.close(fig)


def set_ratio_scale(ax, values):
    """Log when the ratios span more than a factor of 4 (then 0.5 and 2 sit as far from 1); linear else."""
    pos = [v for v in values if v > 0]
    if pos and max(pos) / min(pos) > 4:
        log_y(ax)


def ratio_rows(rows, metric):
    """The rows of ratios.csv that have a ratio of `metric` (a RATIO_METRICS key) to draw, saying on stderr how
    many have none and why: no paired round (ratios.csv's note says why), or that time not recorded."""
    paired = [r for r in rows if num(r.get("rounds")) > 0 and num(r.get("frame_ratio_median")) > 0]
    if len(paired) < len(rows):
        print(f"plot.py: {len(rows) - len(paired)} configuration(s) of ratios.csv have no ratio (see its note column)",
              file=sys.stderr)
    done = [r for r in paired if ratio_figure(r, metric)[0] > 0]
    if len(done) < len(paired):
        print(f"plot.py: {len(paired) - len(done)} of {len(paired)} paired configuration(s) of ratios.csv have no "
              f"{metric} ratio ({metric}_ratio_median is empty: the {RATIO_METRICS[metric]} was not recorded)",
              file=sys.stderr)
    return done


def ratio_series(ax, points, colour, marker, label):
    """One series of ratios.png: its ratios (x, median, interval or None) joined, with their 95 % interval as
    bars, and those whose interval holds 1 drawn hollow over them. Returns whether any was hollow."""
    ys = [y for _, y, _ in points]
    lows = [min(y, ci[0]) if ci else y for _, y, ci in points]
    highs = [max(y, ci[1]) if ci else y for _, y, ci in points]
    ax.errorbar([x for x, _, _ in points], ys, yerr=[[y - lo for y, lo in zip(ys, lows)],
                                                     [hi - y for y, hi in zip(ys, highs)]],
                color=colour, marker=marker, markersize=5, linewidth=1.5, capsize=3.5, label=label)
    hollow = [(x, y) for x, y, ci in points if holds_one(ci)]
    if hollow:
        ax.plot([x for x, _ in hollow], [y for _, y in hollow], linestyle="none", marker=marker, markersize=5,
                markerfacecolor="white", markeredgecolor=colour, markeredgewidth=1.3, zorder=3,
                label=HOLLOW_LABEL)
    return bool(hollow)


def hollow_handle():
    """The legend's entry for a hollow marker: a ratio the rounds do not tell from 1."""
    from matplotlib.lines import Line2D
    return Line2D([], [], linestyle="none", marker="o", markersize=5, markerfacecolor="white",
                  markeredgecolor="0.3", markeredgewidth=1.3, label=HOLDS_ONE_TEXT)


def plot_ratios(rows, out_dir, user_title, metric="frame"):
    """ratios.png: each series' `metric` time (frame, cpu or draw: RATIO_METRICS) over its baseline's, paired,
    against the innermost axis, with 95% interval bars, hollow where the interval holds 1, and a line at 1,
    the baseline. Not written when no row has a ratio of that time (stderr says why)."""
    import matplotlib.pyplot as plt
    from matplotlib import ticker
    done = ratio_rows(rows, metric)
    if not done:
        print(f"plot.py: no {metric} ratio to plot: ratios.png not written", file=sys.stderr)
        return
    what = RATIO_METRICS[metric]
    values = first_seen(r.get("inner_value", "") for r in done)
    numeric = all(num(v) > 0 for v in values)
    position = num if numeric else values.index
    series = first_seen(r.get("series", "") for r in done)
    baseline = done[0].get("baseline", "") or "the baseline"
    inner = done[0].get("inner_axis", "") or "configuration"
    cmap = plt.get_cmap("tab10" if len(series) <= 10 else "tab20")
    fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
    shown, any_hollow = [], False
    for i, s in enumerate(series):
        pts = sorted(((position(r["inner_value"]), *ratio_figure(r, metric)) for r in done if r.get("series", "") == s),
                     key=lambda p: p[0])
        any_hollow |= ratio_series(ax, pts, cmap(i % cmap.N), "osD^vPX*<>"[i % 10], s.replace(";", " / ") or "(all)")
        shown += [y for _, y, _ in pts] + [end for _, _, ci in pts if ci for end in ci]
    ax.axhline(1.0, linestyle="--", color="0.25", linewidth=1.1, zorder=1, label=f"1 = {baseline}")
    set_ratio_scale(ax, shown + [1.0])
    if numeric:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(ticker.FixedLocator([num(v) for v in values]))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(count_label))
    else:
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels(values, rotation=20, ha="right", fontsize=8.5)
        ax.set_xlim(-0.5, len(values) - 0.5)
    ax.grid(True, which="major", alpha=0.45)
    ax.set_xlabel(inner + (" (log)" if numeric else ""))
    ax.set_ylabel(f"{what} / {baseline}'s")
    experiments = first_seen(r.get("experiment", "") for r in done)
    name = user_title or ", ".join(e or "?" for e in experiments)
    fig.suptitle(f"{what[0].upper() + what[1:]} relative to {baseline} at the same other settings: {name}\n"
                 "median over rounds of the paired ratio · bars: 95% interval"
                 + " · hollow: the interval holds 1" * any_hollow, fontsize=11)
    fig.tight_layout()
    handles, labels = ax.get_legend_handles_labels()
    legend = dict(zip(labels, handles))
    if any_hollow:
        legend[HOLDS_ONE_TEXT] = hollow_handle()
    place_legend(fig, [ax], legend, single=True)
    save(fig, out_dir, "ratios.png")
    plt.close(fig)


# >>> the view plots: a sweep of the camera's distance

VIEW_PANEL = (5.2, 4.6)  # inches of one panel of a view plot


def view_axes(n_panels):
    """A figure of n_panels view panels side by side: (fig, axes)."""
    import matplotlib.pyplot as plt
    width, height = VIEW_PANEL
    fig, axes = plt.subplots(1, n_panels, figsize=(max(FIGSIZE[0], width * n_panels + 1.0), height), dpi=DPI,
                             squeeze=False)
    return fig, list(axes.flat)


def distance_label(v, _pos=None):
    return f"{v:g} m"


def distance_axis(ax, views):
    """A log x axis of the camera's distance, ticked at the distances swept (at decades when many)."""
    from matplotlib import ticker
    ax.set_xscale("log")
    swept = distances(views.rows)
    if len(swept) <= 12:
        ax.xaxis.set_major_locator(ticker.FixedLocator(swept))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(distance_label))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("camera distance from the fire (m, log)")


def fraction_axis(ax):
    """A linear y axis of a fraction, in per cent from 0."""
    from matplotlib import ticker
    ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.45)


def view_lines(ax, views, y, x=lambda p: p[DISTANCE], spread=None, log=True):
    """Each series of `views` on ax, in the order of its distances: y(point) against x(point) where both show
    (x positive; y positive on a log axis, a number on a linear one), with error bars from spread(point),
    (low, high) or None. Returns {label: line} for the legend."""
    shows = (lambda v: v > 0) if log else (lambda v: not math.isnan(v))
    handles = {}
    for key, points in views.all_series():
        pts = [p for p in points if x(p) > 0 and shows(y(p))]
        if not pts:
            continue
        (line,) = ax.plot([x(p) for p in pts], [y(p) for p in pts], markersize=5, linewidth=1.6,
                          label=views.label(key), **views.style(key))
        handles[views.label(key)] = line
        bars = [(x(p), y(p), ends) for p, ends in ((p, spread(p)) for p in pts) if ends] if spread else []
        if bars:
            below = [max(0.0, at - lo) for _, at, (lo, _) in bars]
            above = [max(0.0, hi - at) for _, at, (_, hi) in bars]
            ax.errorbar([bx for bx, _, _ in bars], [at for _, at, _ in bars], yerr=[below, above],
                        color=line.get_color(), capsize=3.5, linewidth=1.2, fmt="none", label=INTERVAL_LABEL)
    return handles


def finish_views(fig, axes, handles, name, out_dir, title):
    """Titles the figure, lays it out with its legend and saves it as name."""
    import matplotlib.pyplot as plt
    if len(axes) == 1:
        axes[0].set_title(title, fontsize=11)
    else:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    place_legend(fig, axes, handles, single=len(axes) == 1)
    save(fig, out_dir, name)
    plt.close(fig)


def interval_spread(ci, scale=lambda p: 1.0):
    """spread() of view_lines for the frame time's 95 % interval (ci: its columns and caption, or None),
    divided by scale(point); None without intervals."""
    if not ci:
        return None

    def spread(p):
        ends = row_interval(p, ci[:2])
        return ends and (ends[0] / scale(p), ends[1] / scale(p))
    return spread


def size_measure(views):
    """The x of frame time's second panel: (column, label) of the fire's share of the frame (covered_fraction,
    when scored) or else of its projected size (fire_px); None when the rows hold neither."""
    for col, label in (("covered_fraction", "fire's share of the frame's pixels (covered_fraction, log)"),
                       ("fire_px", "fire's projected size (fire_px: px across, log)")):
        if any(p[col] > 0 for _, points in views.all_series() for p in points):
            return col, label
    return None


def plot_views_frame_time(views, out_dir, user_title, ci):
    """views_frame_time.png: each configuration's frame time against the camera's distance and, beside it,
    against how big the fire is on screen (covered_fraction or fire_px), with the 95 % interval as bars."""
    size = size_measure(views)
    fig, axes = view_axes(2 if size else 1)
    frame_ms = lambda p: p["frame_ms_median"]  # noqa: E731
    handles = view_lines(axes[0], views, frame_ms, spread=interval_spread(ci))
    distance_axis(axes[0], views)
    if size:
        view_lines(axes[1], views, frame_ms, x=lambda p: p[size[0]], spread=interval_spread(ci))
        axes[1].set_xscale("log")
        axes[1].set_xlabel(size[1])
        axes[1].set_title("the same runs, by the fire's size on screen", fontsize=10)
    for ax in axes:
        ax.set_ylabel("frame time, median (ms, log)")
        if ax.lines:
            log_y(ax)
    title = title_lines(views, "Frame time against the camera's distance", user_title)
    finish_views(fig, axes, handles, "views_frame_time.png", out_dir,
                 title + (f" · bars: {ci[2]}" if ci else ""))


def plot_views_quality(views, out_dir, user_title):
    """views_quality.png: a panel per scored image metric, its value over the fire's region against the
    camera's distance, a line per configuration."""
    metrics = views.columns.scored_metrics(views.rows)
    fig, axes = view_axes(len(metrics))
    handles = {}
    for ax, metric in zip(axes, metrics):
        handles.update(view_lines(ax, views, lambda p, col=metric.fire_column: p[col], log=False))
        distance_axis(ax, views)
        ax.set_ylabel(f"{metric.label}, fire region ({'higher' if metric.higher_is_better else 'lower'} is better)")
        ax.grid(True, alpha=0.45)
    finish_views(fig, axes, handles, "views_quality.png", out_dir,
                 title_lines(views, "Quality over the fire's region against the camera's distance", user_title))


def covered_mpx(p):
    """The pixels the fire covers at a point, in megapixels; NaN where covered_fraction is not above 0."""
    share = p["covered_fraction"] if p["covered_fraction"] > 0 else math.nan
    return share * p["width"] * p["height"] / 1e6


def plot_views_cost_per_mpx(views, out_dir, user_title, ci):
    """views_cost_per_mpx.png: frame time per megapixel the fire covers, frame_ms_median / (covered_fraction x
    width x height / 1e6), against the camera's distance: the cost of the fire's pixels as it fills the
    frame. Not written when no run has a covered_fraction above 0 (unscored runs have none)."""
    cost = lambda p: p["frame_ms_median"] / covered_mpx(p)  # noqa: E731
    if not any(cost(p) > 0 for _, points in views.all_series() for p in points):
        warn("no run has a covered_fraction above 0 (score with --quality): views_cost_per_mpx.png not written")
        return
    fig, axes = view_axes(1)
    handles = view_lines(axes[0], views, cost, spread=interval_spread(ci, covered_mpx))
    distance_axis(axes[0], views)
    axes[0].set_ylabel("frame time per covered megapixel (ms / Mpx, log)")
    log_y(axes[0])
    title = title_lines(views, "Cost per megapixel of fire against the camera's distance", user_title)
    finish_views(fig, axes, handles, "views_cost_per_mpx.png", out_dir,
                 title + (f" · bars: {ci[2]}" if ci else ""))


def largest_point_size(meta):
    """The implementation's largest point size in pixels (meta.json's gl.point_size_range), or None."""
    gl = meta.get("gl") if isinstance(meta, dict) else None
    sizes = gl.get("point_size_range") if isinstance(gl, dict) else None
    return sizes[1] if isinstance(sizes, list) and len(sizes) == 2 and num(sizes[1]) > 0 else None


def plot_views_clamped(views, out_dir, user_title, meta):
    """views_clamped.png: for the GL_POINTS strategies, the share of drawn particles larger than the largest
    point size (points_clamped_fraction; the size from meta.json, when it says) and, for every configuration,
    the share of live particles behind the near plane (behind_camera_fraction), against the camera's
    distance."""
    parts = [("points_clamped_fraction", "drawn particles clamped to the largest point size"),
             ("behind_camera_fraction", "live particles wholly behind the near plane")]
    parts = [(col, label) for col, label in parts if any(r.get(col, "").strip() for r in views.rows)]
    fig, axes = view_axes(len(parts))
    handles = {}
    for ax, (col, label) in zip(axes, parts):
        handles.update(view_lines(ax, views, lambda p, c=col: p[c], log=False))
        distance_axis(ax, views)
        fraction_axis(ax)
        ax.set_ylabel(col)
        ax.set_title(label, fontsize=10)
    largest = largest_point_size(meta)
    finish_views(fig, axes, handles, "views_clamped.png", out_dir,
                 title_lines(views, "What the camera's nearness costs the particles", user_title)
                 + (f" · largest point size: {num(largest):g} px" if largest else ""))


def plot_views(ok, out_dir, user_title, columns, axes, ci, meta):
    """The view plots of a sweep of the camera's distance: views_frame_time.png, views_quality.png (scored
    runs), views_cost_per_mpx.png (runs with a covered_fraction), views_clamped.png (runs of a GL_POINTS
    strategy). A line per configuration: the settings that vary other than the camera's that go with the
    distance (firelab_runs.tied_to_distance), named as the other plots name series, all on one panel. meta:
    meta.json, for the largest point size."""
    views = Model(ok, columns, axes, x=DISTANCE, apart=tied_to_distance(ok), max_series=math.inf)
    if not views.facets:
        warn("no run has a camera distance: no view plots written")
        return
    plot_views_frame_time(views, out_dir, user_title, ci)
    if columns.scored_metrics(ok):
        plot_views_quality(views, out_dir, user_title)
    plot_views_cost_per_mpx(views, out_dir, user_title, ci)
    if any(r.get("points_clamped_fraction", "").strip() for r in ok):
        plot_views_clamped(views, out_dir, user_title, meta)


def plot_all(ok, out_dir, user_title, ratios=(), meta=None, metric="frame"):
    """Every figure of the ok rows (and ratios.csv's rows, their `metric` ratio: RATIO_METRICS); meta: the
    folder's meta.json, for what its columns are (firelab_runs.Columns) and the sweep's axes."""
    import matplotlib
    matplotlib.use("Agg")  # no display needed; set before pyplot is imported
    columns, axes = Columns(meta), recorded_axes(meta)
    interval = columns.interval("frame_ms_median")
    rounds = interval_rounds(ok, interval)
    ci = (*interval, f"95% interval over {rounds_text(rounds)} rounds") if rounds else None
    if camera_swept(ok):
        plot_views(ok, out_dir, user_title, columns, axes, ci, meta)
    model = Model(ok, columns, axes)
    if not model.facets:
        warn("no run has a particle count: no plots of particle counts written")
        return
    if len({p["particles"] for _, series in model.facets for _, points in series for p in points}) == 1:
        ends, caption = (ci[:2], ci[2]) if ci else (P5_P95, "p5–p95 of the frames")
        plot_bars(model, out_dir, user_title, "frame_time.png", False, ends, caption)
        plot_bars(model, out_dir, user_title, "fps.png", True, ends, caption)
    else:
        plot_lines(model, out_dir, user_title, "frame_time.png", "frame_ms_median", "frame time, median (ms, log)",
                   "Frame time", band=P5_P95, ci=ci)
        plot_lines(model, out_dir, user_title, "fps.png", "fps", "frames per second (log)", "FPS", fps_lines=True)
    plot_split(model, out_dir, user_title)
    if model.columns.scored_metrics(ok):
        plot_pareto(model, out_dir, user_title)
    if ratios:
        plot_ratios(ratios, out_dir, user_title, metric)


def main():
    ap = argparse.ArgumentParser(description="Plot a firelab runs.csv (frame_time.png, fps.png, split.png, "
                                             "pareto.png, views_*.png) and write report.html.")
    ap.add_argument("csv", metavar="RUNS_CSV")
    ap.add_argument("--out", metavar="DIR", help="output folder (default: the CSV's folder)")
    ap.add_argument("--title", metavar="TEXT", help="title instead of the experiment name")
    ap.add_argument("--metric", choices=list(RATIO_METRICS), default="frame",
                    help="the ratio ratios.png draws and the report's headline lists: frame (wall time, the "
                         "default), cpu (the process's CPU time) or draw")
    args = ap.parse_args()

    _, rows = read_runs(args.csv)
    ok = ok_rows(rows)
    if len(ok) < len(rows):
        print(f"plot.py: skipping {len(rows) - len(ok)} of {len(rows)} runs whose status is not ok",
              file=sys.stderr)
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out_dir, exist_ok=True)
    if ok:
        folder = os.path.dirname(os.path.abspath(args.csv))
        meta, problem = find_meta(folder)
        if problem:
            warn(f"{problem}: plotting without it")
        plot_all(ok, out_dir, args.title, read_ratios(os.path.join(folder, "ratios.csv")), meta, args.metric)
    else:
        print(f"plot.py: {args.csv}: no successful runs to plot; no plots written", file=sys.stderr)
    return write_report(args.csv, out_dir, args.title, args.metric)


def write_report(csv_path, out_dir, title, metric="frame"):
    """Runs scripts/report.py, its own command beside this one, on the plots just written (its headline listing
    the same ratio as ratios.png); its exit status."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report.py")
    return subprocess.run([sys.executable, script, csv_path, "--out", out_dir, "--metric", metric]
                          + (["--title", title] if title else [])).returncode


if __name__ == "__main__":
    sys.exit(main())

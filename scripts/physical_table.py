#!/usr/bin/python3
"""Tables and the combined Pareto plot of the "physical" experiment (experiments/physical.toml): every rendering
scored against volume-reference, the medium the particles stand for; per fire, each configuration's frame time
and quality, the frontier of frame time against ꟻLIP and SSIM over the fire's region, the cheapest
configuration at a few quality floors, and the volume strategy's GPU passes.

Usage: scripts/physical_table.py FOLDER [--out PNG] [--max-flip 0.10,0.15,0.20] [--min-ssim 0.95,0.98]

FOLDER holds sub-folders each with a runs.csv (results/physical/flame, flame-volume, flame-fill, campfire,
campfire-volume: the sweeps physical.toml's header lists), or a runs.csv itself; the ok rows of all are read
together and split by fire, the run's `effect` (empty: the default fire, "flame"). A configuration is the
strategy and what tells it apart: the sprite's texture (from the run_key when the sweep swept it, else the
folder's meta.json; points and the medium strategies volume and volume-reference draw no texture), the volume
strategy's grid (volume_cell px / volume_slices) and those of the fill settings (particle_scale, hull,
upsample, filter, camera_fade) that are not firelab's default. Several rows of one configuration (points
with two textures, the campfire's default grid in two folders) are reduced to the medians of their figures,
without an interval, and a warning names them. Prints Markdown; writes the plot to --out (default
FOLDER/pareto.png): a row of two panels per fire, frame time (log) against flip_fire and against ssim_fire,
each configuration a labelled point with its 95 % interval as a bar, the frontier a step line. Exit status 2
when FOLDER holds no runs.csv, a file is not a runs.csv, or no ok row has quality scores.
"""
import argparse
import glob
import math
import os
import sys

from firelab_runs import (FILL_DEFAULTS, Columns, display_value, fail, find_meta, first_seen, is_default, median,
                          num, ok_rows, pareto_frontier, read_runs, recorded_axes, row_interval, script_name,
                          split_run_key, warn)

DEFAULT_TEXTURE = "flame.png"  # RenderOptions::texture
# The volume strategy's grid and its defaults (RenderOptions::volumeCell, volumeSlices).
VOLUME_DEFAULTS = {"volume_cell": "8", "volume_slices": "64"}
MEDIUM = ("volume", "volume-reference")
UNTEXTURED = ("points", *MEDIUM)  # GL_POINTS without a sprite, and the medium's Gaussian kernels
QUALITY = ("psnr_fire_db", "ssim_fire", "flip_fire")
# The volume strategy's passes (docs/csv.md): the froxel grid's splat and integration, its composite.
GPU_PASSES = ("gpu_splat_ms_median", "gpu_integrate_ms_median", "gpu_particles_ms_median")
# The strategies in the order they take colours, so that a strategy has one colour in every panel.
STRATEGY_ORDER = ["points", "point-sprites", "billboards-instanced", "billboards-geometry", "billboards-cpu",
                  "compute-splat", "compute", "gpu-stateless", "volume", "volume-reference"]
DEFAULT_FIRE = "flame"


def short_texture(texture):
    """A texture as a name reads it: its file name (textures/gaussian.png: gaussian.png)."""
    return os.path.basename(texture.strip()) or DEFAULT_TEXTURE


def fire_name(effect):
    """The fire of an effect column's value: the default fire for an empty one, else the effect's file stem
    (effects/campfire.toml: campfire)."""
    effect = effect.strip()
    if not effect:
        return DEFAULT_FIRE
    return os.path.splitext(os.path.basename(effect))[0] or effect


class Run:
    """An ok row with what its folder tells about it: the texture it drew, its interval's columns, whether
    its folder's GL timer queries measure anything."""

    def __init__(self, row, folder, texture, ends, timers_meaningful):
        self.row, self.folder, self.texture, self.ends = row, folder, texture, ends
        self.timers_meaningful = timers_meaningful

    def get(self, col, default=""):
        return self.row.get(col, default)

    @property
    def strategy(self):
        return self.row.get("strategy", "").strip() or "?"

    @property
    def fire(self):
        return self.row.get("effect", "").strip()

    def grid(self):
        """The volume strategy's grid as (cell px, slices), the defaults for an empty column."""
        return tuple(self.row.get(c, "").strip() or d for c, d in VOLUME_DEFAULTS.items())

    def fill(self):
        """The fill settings that are not the default, as (column, value)."""
        return [(c, self.row[c].strip()) for c in FILL_DEFAULTS if not is_default(c, self.row.get(c, ""))]

    def configuration(self):
        """The configuration's name: strategy, its texture or grid, its fill settings that are not the default
        (billboards-instanced gaussian.png / particle_scale=0.5, volume 8px/64, points)."""
        head = self.strategy
        if self.strategy == "volume":
            head += " {}px/{}".format(*self.grid())
        elif self.strategy not in UNTEXTURED:
            head += " " + self.texture
        return " / ".join([head] + [display_value(c, v) for c, v in self.fill()])


def texture_of(row, meta, axes):
    """The texture a row's run drew: the run_key's when the sweep swept it, else the folder's recorded
    setting (meta.json's config.settings), else firelab's default."""
    parts = split_run_key(row.get("run_key", ""), axes) or split_run_key(row.get("run_key", "")) or []
    for name, value in parts:
        if name == "texture":
            return short_texture(value)
    config = meta.get("config") if isinstance(meta, dict) else None
    settings = config.get("settings") if isinstance(config, dict) else None
    if isinstance(settings, dict) and str(settings.get("texture") or "").strip():
        return short_texture(str(settings["texture"]))
    return DEFAULT_TEXTURE


def runs_csvs(folder):
    """FOLDER/runs.csv and FOLDER/*/runs.csv, in name order; exits 2 when there is none."""
    if not os.path.isdir(folder):
        fail(f"{folder}: no such folder")
    paths = [p for p in [os.path.join(folder, "runs.csv")] if os.path.isfile(p)]
    paths += sorted((p for p in glob.glob(os.path.join(glob.escape(folder), "*", "runs.csv")) if os.path.isfile(p)),
                    key=os.path.dirname)
    if not paths:
        fail(f"{folder}: no runs.csv in it or in its sub-folders (the sweeps of experiments/physical.toml: "
             f"{os.path.join(folder, 'flame', 'runs.csv')}, ...)")
    return paths


def scored(row):
    return any(row.get(c, "").strip() for c in QUALITY)


def read_physical(folder):
    """The scored ok runs of every runs.csv under folder, in file order, and the files read; exits 2 when no
    ok run has quality scores."""
    paths = runs_csvs(folder)
    runs, unscored = [], 0
    for path in paths:
        _, rows = read_runs(path)
        sub = os.path.dirname(path)
        meta, problem = find_meta(sub)
        if problem:
            warn(problem)
        axes = recorded_axes(meta)
        ends = Columns(meta).interval("frame_ms_median")
        meaningful = meta.get("timer_queries_meaningful") if isinstance(meta, dict) else None
        for row in ok_rows(rows):
            if not scored(row):
                unscored += 1
                continue
            runs.append(Run(row, sub, texture_of(row, meta, list(axes) if axes else None), ends, meaningful))
    if unscored:
        warn(f"{unscored} ok row(s) without quality scores left out")
    if not runs:
        fail(f"{folder}: no ok run has quality scores ({', '.join(paths)}; sweep with a [quality] table, as "
             "experiments/physical.toml has)")
    return runs, paths


class Config:
    """One configuration's runs in one fire: the medians of their figures; the frame time's 95 % interval when
    it is one run that summarises several rounds."""

    def __init__(self, name, runs):
        self.name, self.runs = name, runs
        self.interval = row_interval(runs[0].row, runs[0].ends) if len(runs) == 1 else None
        self.strategy = runs[0].strategy
        self.texture = runs[0].texture
        self.fill = runs[0].fill()

    def __getitem__(self, col):
        return median(num(r.get(col)) for r in self.runs)

    @property
    def ms(self):
        return self["frame_ms_median"]

    def ms_text(self):
        ms = self.ms
        if not ms > 0:
            return ""
        text = f"{ms:.4g}" + (f" [{self.interval[0]:.4g}, {self.interval[1]:.4g}]" if self.interval else "")
        return text + (f" (median of {len(self.runs)})" if len(self.runs) > 1 else "")

    def overlaps(self, other):
        """Whether both have intervals and they overlap: the rounds do not tell the two apart."""
        return bool(self.interval and other.interval and self.interval[0] <= other.interval[1]
                    and other.interval[0] <= self.interval[1])

    def short_label(self):
        """The name as the plot labels a point: textures without .png, fill settings abbreviated."""
        abbrev = {"particle_scale": "×{}", "hull": "hull{}", "upsample": "up={}", "filter": "filt={}",
                  "camera_fade": "fade={}"}
        head = self.name.split(" / ")[0]
        if head.endswith(".png"):
            head = head[:-len(".png")]
        fill = " ".join(abbrev.get(c, c + "={}").format(v) for c, v in self.fill)
        return f"{head} ({fill})" if fill else head


class Fire:
    """One fire's configurations, by frame time, and their frontiers (indices into configs)."""

    def __init__(self, key, runs):
        self.key = key
        self.name = fire_name(key)
        grouped = {}
        for r in runs:
            grouped.setdefault(r.configuration(), []).append(r)
        configs = [Config(name, rs) for name, rs in grouped.items()]
        for c in configs:
            if len(c.runs) > 1:
                folders = ", ".join(first_seen(os.path.basename(r.folder) for r in c.runs))
                warn(f"{self.name}: {c.name}: {len(c.runs)} rows ({folders}), their medians shown")
        self.configs = sorted(configs, key=lambda c: (not c.ms > 0, c.ms if c.ms > 0 else 0, c.name))
        self.front = {"flip": self.frontier(lambda c: c["flip_fire"]),
                      "ssim": self.frontier(lambda c: -c["ssim_fire"])}
        self.references = first_seen(r.get("reference", "").strip() for r in runs if r.get("reference", "").strip())

    def frontier(self, cost):
        """The configurations no other is both faster than and better than (by cost, lower better), fastest
        first."""
        points = [(cost(c), c.ms if c.ms > 0 else math.nan) for c in self.configs]
        return sorted(pareto_frontier(points), key=lambda i: points[i][1])

    def title(self):
        if not self.key:
            return f"{self.name} (the default fire)"
        return self.name if self.key == self.name else f"{self.name} ({self.key})"


def split_fires(runs):
    """The runs by fire, the default fire first, then in the order the fires appear."""
    keys = first_seen(r.fire for r in runs)
    keys.sort(key=lambda k: k != "")
    return [Fire(k, [r for r in runs if r.fire == k]) for k in keys]


def floor_text(value):
    """A quality floor as the list reads it: two decimals at least (0.10, 0.95, 0.985)."""
    return f"{value:.2f}" if round(value, 2) == value else f"{value:g}"


def number(value, digits=4):
    return "" if value != value else f"{value:.{digits}g}"  # NaN: empty


def millions(value):
    return "" if value != value else f"{value / 1e6:.3g} M"


def print_table(head, body):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in body:
        print("| " + " | ".join(row) + " |")
    print()


FRONT_MARK = "◆"


def config_table(fire):
    head = ["configuration", "frame ms [95% interval]", "fragments_shaded", "psnr_fire_db", "ssim_fire",
            "flip_fire", "front ꟻLIP", "front SSIM"]
    body = []
    for i, c in enumerate(fire.configs):
        body.append([c.name, c.ms_text(), millions(c["fragments_shaded"]), number(c["psnr_fire_db"], 3),
                     number(c["ssim_fire"]), number(c["flip_fire"]),
                     FRONT_MARK if i in fire.front["flip"] else "", FRONT_MARK if i in fire.front["ssim"] else ""])
    print_table(head, body)


def cheapest_at(configs, meets):
    """The cheapest configuration that meets a floor, and those the rounds do not tell from it; (None, [])."""
    good = [c for c in configs if meets(c) and c.ms > 0]
    best = min(good, key=lambda c: c.ms, default=None)
    return best, [c for c in good if best and c is not best and c.overlaps(best)]


def floor_lines(fire, max_flip, min_ssim):
    """The cheapest configuration at each quality floor, as Markdown list items."""
    floors = ([(f"flip_fire ≤ {floor_text(v)}", "flip_fire", lambda c, v=v: c["flip_fire"] <= v, min)
               for v in max_flip]
              + [(f"ssim_fire ≥ {floor_text(v)}", "ssim_fire", lambda c, v=v: c["ssim_fire"] >= v, max)
                 for v in min_ssim])
    lines = []
    for label, col, meets, best_of in floors:
        best, ties = cheapest_at(fire.configs, meets)
        if best:
            line = f"- {label}: **{best.name}**, {best.ms_text()} ms ({col} {number(best[col])})"
            if ties:
                line += "; not told apart (intervals overlap): " + ", ".join(c.name for c in ties)
        else:
            valued = [c for c in fire.configs if c[col] == c[col]]
            top = best_of(valued, key=lambda c: c[col], default=None)
            line = f"- {label}: none" + (f" (best: {top.name}, {number(top[col])})" if top else " (unscored)")
        lines.append(line)
    return lines


def gpu_timed(fire):
    """The medium's configurations with GPU pass times (every strategy has gpu_particles_ms_median: only the
    volume strategy's are shown)."""
    return [c for c in fire.configs if c.strategy in MEDIUM and any(c[p] >= 0 for p in GPU_PASSES)]


def gpu_table(fire):
    """The GPU pass times of the volume strategy's configurations, as recorded."""
    timed = gpu_timed(fire)
    if not timed:
        return False
    head = ["configuration", "frame ms", *GPU_PASSES, "gpu_ms_median"]
    print_table(head, [[c.name, number(c.ms)] + [number(c[p]) for p in (*GPU_PASSES, "gpu_ms_median")]
                       for c in timed])
    return True


def timers_caveat(runs):
    """The footnote of the GPU pass tables: on llvmpipe (or where meta.json says so) the timer queries do not
    measure the work."""
    renderers = first_seen(r.get("gl_renderer", "").strip() for r in runs if r.get("gl_renderer", "").strip())
    software = [g for g in renderers if "llvmpipe" in g.lower() or "softpipe" in g.lower()]
    if software or any(r.timers_meaningful is False for r in runs):
        what = ", ".join(software) or "this renderer (meta.json: timer_queries_meaningful false)"
        return (f"GL timer queries are not meaningful on {what}: the GPU is the CPU and the queries do not "
                "measure the work. The pass times are printed as recorded; trust frame_ms.")
    return "GPU pass times from GL_TIMESTAMP queries, medians over the measured frames, as recorded."


def print_report(folder, fires, runs, paths, max_flip, min_ssim):
    print("# Physical: every rendering against the medium\n")
    refs = first_seen(ref for f in fires for ref in f.references)
    folders = ", ".join(os.path.relpath(os.path.dirname(p), folder) for p in paths)
    print(f"Scored against {', '.join(f'`{r}`' for r in refs) or 'the reference'} over the fire's region; "
          f"{len(runs)} scored runs from {folder} ({folders}). Frame time: "
          "frame_ms_median with its 95 % interval over rounds (none where a configuration is the median of "
          f"several rows); fragments_shaded per frame. {FRONT_MARK}: on the frontier of frame time against "
          "flip_fire (front ꟻLIP) or ssim_fire (front SSIM): no configuration is both faster and better.\n")
    footnote = False
    for fire in fires:
        print(f"## {fire.title()}\n")
        if len(fire.references) > 1:
            warn(f"{fire.name}: scored against {len(fire.references)} references: {', '.join(fire.references)}")
        config_table(fire)
        print("Cheapest configuration at each quality floor:\n")
        print("\n".join(floor_lines(fire, max_flip, min_ssim)) + "\n")
        if gpu_timed(fire):
            print("GPU passes, ms, medians over the frames (the volume strategy's froxel grid: splat, integrate; "
                  "gpu_particles its composite)[^gpu]:\n")
            gpu_table(fire)
            footnote = True
    if footnote:
        print(f"[^gpu]: {timers_caveat(runs)}\n")


# --- the plot ---------------------------------------------------------------------------------------------

MARKERS = {"flame.png": "o", "gaussian.png": "s"}
OTHER_MARKERS = "DvX*<>"


def marker_of(config, textures):
    """The marker of a configuration: by its texture (circle flame.png, square gaussian.png), a triangle for
    points, a plus for the medium."""
    if config.strategy in MEDIUM:
        return "P"
    if config.strategy in UNTEXTURED:
        return "^"
    if config.texture in MARKERS:
        return MARKERS[config.texture]
    others = [t for t in textures if t not in MARKERS]
    return OTHER_MARKERS[others.index(config.texture) % len(OTHER_MARKERS)]


# A strategy's colour in every panel (tab10's, the medium's strong enough to read on white).
STRATEGY_COLOURS = {"points": "#1f77b4", "point-sprites": "#ff7f0e", "billboards-instanced": "#2ca02c",
                    "billboards-geometry": "#8c564b", "billboards-cpu": "#7f7f7f", "compute-splat": "#d62728",
                    "compute": "#e377c2", "gpu-stateless": "#17becf", "volume": "#9467bd",
                    "volume-reference": "#000000"}


def strategy_colours(strategies):
    """{strategy: colour}, the known strategies in STRATEGY_ORDER first, another one a Dark2 colour."""
    import matplotlib.pyplot as plt
    ordered = sorted(strategies, key=lambda s: (STRATEGY_ORDER.index(s) if s in STRATEGY_ORDER
                                                else len(STRATEGY_ORDER), s))
    extra = [s for s in ordered if s not in STRATEGY_COLOURS]
    return {s: STRATEGY_COLOURS.get(s) or plt.get_cmap("Dark2")(extra.index(s) % 8) for s in ordered}


def ms_formatter():
    """%g labels at 1, 2, 5 x 10^k ms, none elsewhere."""
    from matplotlib import ticker

    def fmt(v, _pos=None):
        if v <= 0:
            return ""
        mantissa = v / 10 ** math.floor(math.log10(v) + 1e-9)
        return f"{v:g}" if any(abs(mantissa - m) < 1e-6 for m in (1, 2, 5)) else ""
    return ticker.FuncFormatter(fmt)


def panel(ax, fire, col, front, colours, textures):
    """One panel: frame time (x, log) against col (y), each configuration a point with its interval as a
    bar, the frontier as a step line. Returns [(config index, x, y)] of the points drawn."""
    drawn = []
    for i, c in enumerate(fire.configs):
        x, y = c.ms, c[col]
        if not (x > 0 and y == y):
            continue
        colour = colours[c.strategy]
        if c.interval:
            ax.errorbar([x], [y], xerr=[[x - c.interval[0]], [c.interval[1] - x]], fmt="none", color=colour,
                        linewidth=1.1, capsize=2.5, alpha=0.8, zorder=2)
        if i in front:  # a black ring around the point, which keeps its colour
            ax.plot([x], [y], "o", markersize=12, markerfacecolor="none", markeredgecolor="black",
                    markeredgewidth=1.0, linestyle="none", zorder=3)
        ax.plot([x], [y], marker_of(c, textures), color=colour, markersize=6.5,
                markerfacecolor="white" if c.fill else colour, markeredgecolor=colour, markeredgewidth=1.2,
                linestyle="none", zorder=3)
        drawn.append((i, x, y))
    pts = [(fire.configs[i].ms, fire.configs[i][col]) for i in front]
    if pts:
        ax.step([p[0] for p in pts], [p[1] for p in pts], where="post", color="0.25", linewidth=1.1,
                linestyle="--", zorder=1)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ms_formatter())
    ax.xaxis.set_minor_formatter(ms_formatter())
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.12)
    ax.margins(x=0.12, y=0.1)
    return drawn


def place_labels(fig, ax, fire, drawn, front, fontsize=6.5):
    """Labels every drawn point with its configuration's short name where it overlaps least: tried at a ring
    of offsets around the point, against the labels already placed, the points and the panel's edges;
    the frontier's points first. A label set far from its point gets a thin leader line."""
    renderer = fig.canvas.get_renderer()
    scale = fig.dpi / 72.0
    box = ax.get_window_extent(renderer)
    xy = {i: tuple(ax.transData.transform((x, y))) for i, x, y in drawn}
    obstacles = [(px - 6, py - 6, px + 6, py + 6) for px, py in xy.values()]
    pad = 2.0  # pixels kept clear around a label
    placed = []
    near = [(5, 3), (5, -3), (-5, 3), (-5, -3), (0, 6), (0, -6)]
    far = [(dx * k, dy * k) for k in (2.5, 4.5) for dx, dy in near]
    order = sorted(drawn, key=lambda d: (d[0] not in front, d[1]))

    def overlap(a, b):
        w = min(a[2], b[2]) - max(a[0], b[0])
        h = min(a[3], b[3]) - max(a[1], b[1])
        return w * h if w > 0 and h > 0 else 0.0

    for i, x, y in order:
        text = fire.configs[i].short_label()
        weight = "bold" if i in front else "normal"
        probe = ax.text(0, 0, text, fontsize=fontsize, fontweight=weight)
        ext = probe.get_window_extent(renderer)
        probe.remove()
        w, h = ext.width, ext.height
        px, py = xy[i]
        best = None
        for rank, (dx, dy) in enumerate(near + far):
            ox, oy = px + dx * scale, py + dy * scale
            x0 = ox if dx > 0 else ox - w if dx < 0 else ox - w / 2
            y0 = oy if dy > 0 else oy - h
            rect = (x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad)
            cost = sum(overlap(rect, p) for p in placed) * 3 + sum(overlap(rect, o) for o in obstacles)
            outside = (max(0, box.x0 - rect[0]) + max(0, rect[2] - box.x1)) * h + \
                (max(0, box.y0 - rect[1]) + max(0, rect[3] - box.y1)) * w
            cost += outside * 4 + rank * 2.0
            if best is None or cost < best[0]:
                best = (cost, dx, dy, rect)
        _, dx, dy, rect = best
        placed.append(rect)
        ha = "left" if dx > 0 else "right" if dx < 0 else "center"
        va = "bottom" if dy > 0 else "top"
        leader = dict(arrowstyle="-", color="0.55", linewidth=0.5, shrinkA=0, shrinkB=3) \
            if abs(dx) > 6 or abs(dy) > 7 else None
        ax.annotate(text, (x, y),
                    xytext=(dx, dy), textcoords="offset points", ha=ha, va=va, fontsize=fontsize,
                    color="0.1", fontweight=weight, arrowprops=leader, zorder=4,
                    annotation_clip=False)


def plot(fires, out):
    """The Pareto plot: a row of two panels per fire (against flip_fire, against ssim_fire)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    configs = [c for f in fires for c in f.configs]
    colours = strategy_colours(first_seen(c.strategy for c in configs))
    textures = first_seen(c.texture for c in configs if c.strategy not in UNTEXTURED)
    width, height, key = 15.0, 5.6, 0.9  # inches: the figure, a fire's row of panels, the legend under them
    fig, axes = plt.subplots(len(fires), 2, figsize=(width, height * len(fires) + key), dpi=120, squeeze=False)
    panels = []
    for row, fire in zip(axes, fires):
        for ax, col, front_key, better in ((row[0], "flip_fire", "flip", "lower is better"),
                                           (row[1], "ssim_fire", "ssim", "higher is better")):
            front = fire.front[front_key]
            drawn = panel(ax, fire, col, front, colours, textures)
            ax.set_ylabel(f"{col} ({better})")
            ax.set_xlabel("frame time, median (ms, log)")
            ax.set_title(f"{fire.title()}: {col} against frame time · {len(front)} on the frontier", fontsize=10)
            if not drawn:
                ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="0.4")
            panels.append((ax, fire, drawn, front))
    handles = [Line2D([], [], marker="o", linestyle="none", color=colours[s], label=s) for s in colours]
    shapes = [(m, t) for t, m in MARKERS.items() if t in textures]
    shapes += [(marker_of(c, textures), c.texture) for c in configs
               if c.strategy not in UNTEXTURED and c.texture not in MARKERS]
    if any(c.strategy in ("points",) for c in configs):
        shapes.append(("^", "untextured (points)"))
    if any(c.strategy in MEDIUM for c in configs):
        shapes.append(("P", "the medium (volume)"))
    handles += [Line2D([], [], marker=m, linestyle="none", color="0.35", label=t) for m, t in first_seen(shapes)]
    if any(c.fill for c in configs):
        handles.append(Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="white",
                              label="hollow: non-default fill settings"))
    handles.append(Line2D([], [], marker="o", linestyle="none", markersize=10, markerfacecolor="none",
                          markeredgecolor="black", label="ringed, bold label: on the frontier"))
    handles.append(Line2D([], [], color="0.25", linestyle="--", label="frontier: nothing both faster and better"))
    if any(c.interval for c in configs):
        handles.append(Line2D([], [], color="0.35", marker="|", markersize=8, label="95 % interval over rounds"))
    fig.suptitle("physical: every rendering scored against volume-reference (the medium), over the fire's region",
                 fontsize=12)
    fig.tight_layout(rect=(0, key / (height * len(fires) + key), 1, 0.97))
    fig.legend(handles=handles, loc="lower center", ncol=min(6, len(handles)), fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.0))
    for ax, _, _, _ in panels:
        ax.set_xlim(ax.get_xlim())
        ax.set_ylim(ax.get_ylim())
    fig.canvas.draw()
    for ax, fire, drawn, front in panels:
        place_labels(fig, ax, fire, drawn, front)
    folder = os.path.dirname(os.path.abspath(out))
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, "." + os.path.basename(out) + ".tmp.png")
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, out)  # readers never see a half-written PNG
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    finally:
        plt.close(fig)


def floors(text):
    """A comma-separated list of quality floors."""
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': not a comma-separated list of numbers") from None
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", metavar="FOLDER")
    ap.add_argument("--out", metavar="PNG", help="the Pareto plot (default FOLDER/pareto.png)")
    ap.add_argument("--max-flip", type=floors, default=[0.10, 0.15, 0.20], help="flip_fire floors (comma list)")
    ap.add_argument("--min-ssim", type=floors, default=[0.95, 0.98], help="ssim_fire floors (comma list)")
    args = ap.parse_args()
    runs, paths = read_physical(args.folder)
    fires = split_fires(runs)
    print_report(args.folder, fires, runs, paths, args.max_flip, args.min_ssim)
    out = args.out or os.path.join(args.folder, "pareto.png")
    plot(fires, out)
    print(f"{script_name()}: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

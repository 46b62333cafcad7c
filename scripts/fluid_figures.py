#!/usr/bin/python3
"""Draws issue 34's figures of the grid fluid (`--model fluid`) from the records firelab's commands wrote:
- puffing.png, from `firelab physics --experiment experiments/fluid-puffing.toml --out DIR/puffing` (and every
  other DIR/puffing*/ record, the header's extra runs; a run whose --bin is finer than its cell is left out): the
  flame tip's and the emitted power's spectral peaks against the pool's diameter on log axes, each ± the
  spectra's resolution, with Cetegen & Ahmed's f = 1.5 D^(-1/2) line; beside it each run's spectra, normalised
  to their peak, with Cetegen & Ahmed's frequency at that diameter marked, so a reader sees whether a peak
  stands out of its spectrum;
- pareto.png, from `firelab sweep experiments/fluid-quality.toml --out DIR/quality` when that folder holds a
  runs.csv: the median frame time against each fire-region metric scored against volume-reference (ꟻLIP, SSIM),
  one series per fire and strategy (the paper's particles, the fluid drawn by volume, the fluid-driven
  particles), each point labelled with its particle count, and the frontier of runs nothing beats on both, over
  every run and over those scored against the grid's medium alone (the paper's fire has another reference);
  hollow markers show the same frame less the fluid's step (sim_ms_median), what drawing alone costs;
- side_by_side.png, from the same sweep's saved frames: each fire's scored frame beside its volume-reference;
- flame_height.png, from `firelab physics --experiment experiments/fluid-power.toml --out DIR/power` when that
  folder holds a summary.csv: the measured flame height against the fluid's own power (its combustion's mean heat
  release, which the record names as its source), with Heskestad's flame height at each run's power and diameter;
- table.md: a row per pool (peaks, Cetegen & Ahmed's frequency, errors, how far each peak stands above the
  spectrum an octave around it, whether it sits at the search's edge) and a row per scored configuration (cost,
  the fluid's step, quality, on which frontier).

The correlation's values come from the physics records (meta.json's `correlations`, summary.csv), never from the
formula written again here. Shared reading goes through scripts/firelab_runs.py, as every report script's does
(tests/report/imports_test.py: no script imports another).

Usage: scripts/fluid_figures.py [DIR] [--puffing DIR]... [--quality DIR] [--out DIR]   (DIR default results/fluid)
Exit status: 0; 2 when a record it needs is missing or is not firelab's, naming the file."""
import argparse
import csv
import glob
import json
import math
import os

from firelab_runs import Metric, fail, num, ok_rows, pareto_frontier, read_runs, warn

DPI = 110
# The image metrics pareto.png plots, as firelab's schema declares them (src/harness/quality; docs/csv.md).
METRICS = [Metric({"name": "flip", "label": "ꟻLIP", "better": "lower", "fire_column": "flip_fire"}),
           Metric({"name": "ssim", "label": "SSIM", "better": "higher", "fire_column": "ssim_fire"})]


# ---------------------------------------------------------------------------------------------------- records

def read_table(path):
    """A CSV's rows as dicts of text; exits 2 naming the file when it is missing or empty."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        fail(f"{path}: no rows")
    return rows


def read_json(path):
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except ValueError as e:
        fail(f"{path}: not JSON ({e})")


def fluid_cell(meta):
    """The grid's cell (m) of a physics record of --model fluid, from its layers' parameters; NaN without one."""
    for layer in meta.get("layers", []):
        cell = num(layer.get("params", {}).get("cell"))
        if layer.get("params", {}).get("model") == "fluid" and cell > 0:
            return cell
    return math.nan


def pools(folders):
    """One dict per run of the physics sweeps in `folders` (each a `firelab physics --experiment` folder): its
    summary.csv row, its meta.json and its spectrum.csv, smallest pool first. A record whose height bins are
    finer than the grid's cells is left out, with a warning: the probe bins each cell at its centre, so every
    other bin is empty and the tip and the flame height mean nothing (its emitted power still would)."""
    out = []
    for folder in folders:
        summary = os.path.join(folder, "summary.csv")
        rows = read_table(summary)
        need = ["run_key", "diameter_m", "tip_peak_hz", "emission_peak_hz", "resolution_hz",
                "cetegen_ahmed_puffing_hz"]
        missing = [c for c in need if c not in rows[0]]
        if missing:
            fail(f"{summary}: not a firelab physics summary.csv (no {', '.join(missing)} column)")
        metas = {}
        for path in sorted(glob.glob(os.path.join(folder, "run-*", "meta.json"))):
            meta = read_json(path)
            metas[meta.get("run_key")] = (os.path.dirname(path), meta)
        for r in rows:
            if r["run_key"] not in metas:
                fail(f"{folder}: no run-*/meta.json with run_key {r['run_key']!r} (summary.csv lists it)")
            run_dir, meta = metas[r["run_key"]]
            cell, bin_m = fluid_cell(meta), num(meta.get("probe", {}).get("bin"))
            if bin_m < cell * (1 - 1e-4):
                warn(f"{run_dir}: left out: its bins ({bin_m:.3g} m) are finer than its grid's cells ({cell:.3g} m), "
                     "so every other bin is empty (firelab physics --bin at least --cell)")
                continue
            spectrum = read_table(os.path.join(run_dir, "spectrum.csv"))
            p = {k: num(v) for k, v in r.items() if k != "run_key"}
            p.update(key=r["run_key"], dir=run_dir, meta=meta, cell=cell, bin=bin_m,
                     freq=[num(x["frequency_hz"]) for x in spectrum],
                     spectra={"tip": [num(x["tip_power"]) for x in spectrum],
                              "emission": [num(x["emission_power"]) for x in spectrum]},
                     min_frequency=num(meta.get("probe", {}).get("min-frequency")))
            for kind in ("tip", "emission"):
                # a peak in the lowest bins searched: the spectrum rises to where the search starts (red), no puff
                p[f"{kind}_at_edge"] = 0 < p[f"{kind}_peak_hz"] < p["min_frequency"] + 1.5 * p["resolution_hz"]
                p[f"{kind}_prominence"] = math.nan if p[f"{kind}_at_edge"] else prominence(p, kind)
            out.append(p)
    if not out:
        fail(f"{', '.join(folders)}: no record to draw (every run left out)")
    return sorted(out, key=lambda p: (p["diameter_m"], p["cell"]))


def prominence(pool, kind):
    """How far the spectrum's peak stands out of the spectrum around it: its power over the median power of the
    other frequencies within an octave either side (f/2 to 2f, the peak's bin and its neighbours aside). A red
    spectrum with no peak gives about 1-3 (its peak is then where the search starts); a puff, tens. NaN without
    a peak."""
    peak, freq, power = pool[f"{kind}_peak_hz"], pool["freq"], pool["spectra"][kind]
    if not peak > 0 or not freq:
        return math.nan
    at = min(range(len(freq)), key=lambda i: abs(freq[i] - peak))
    around = sorted(pw for i, (f, pw) in enumerate(zip(freq, power))
                    if peak / 2 <= f <= 2 * peak and abs(i - at) > 1 and f > 0 and pw >= 0)
    if not around or around[len(around) // 2] <= 0:
        return math.nan
    return power[at] / around[len(around) // 2]


def fire_name(row):
    """Which fire a quality run drew: the paper's particles, the grid drawn from the grid, or particles the
    grid carries."""
    if row.get("model") == "fluid":
        return "fluid-driven particles" if row.get("strategy") not in ("volume", "volume-reference") else "fluid"
    return "paper's fire"


def configurations(folder):
    """The quality sweep's ok rows that were scored, each with its series (fire, strategy) and its figures."""
    path = os.path.join(folder, "runs.csv")
    header, rows = read_runs(path)
    for col in ("model", "strategy", "particles", "sim_ms_median", *(m.fire_column for m in METRICS)):
        if col not in header:
            fail(f"{path}: no {col} column: not a sweep of experiments/fluid-quality.toml")
    out = []
    for r in ok_rows(rows):
        if not any(r.get(m.fire_column, "").strip() for m in METRICS):
            warn(f"{path}: {r.get('run_key')}: not scored, left out")
            continue
        c = {"row": r, "fire": fire_name(r), "strategy": r["strategy"], "particles": int(num(r["particles"])),
             "frame": num(r["frame_ms_median"]), "sim": num(r["sim_ms_median"]),
             "low": num(r.get("frame_ms_ci_low")), "high": num(r.get("frame_ms_ci_high")),
             "reference": r.get("reference", "")}
        c["draw"] = c["frame"] - c["sim"] if c["sim"] >= 0 else math.nan
        for m in METRICS:
            c[m.name] = num(r.get(m.fire_column))
        out.append(c)
    if not out:
        fail(f"{path}: no scored run with status ok")
    for c in out:
        c["medium"] = "grid" if c["row"].get("model") == "fluid" else "particles"
    for m in METRICS:
        # The frontier over every run, and the frontier of the runs scored against the grid's medium alone: the
        # paper's fire is scored against another reference (its own particles' medium).
        for suffix, members in (("", out), ("_grid", [c for c in out if c["medium"] == "grid"])):
            front = pareto_frontier([(m.cost(c[m.name]), c["frame"]) for c in members])
            for c in members:
                c[f"front{suffix}_{m.name}"] = False
            for i in front:
                members[i][f"front{suffix}_{m.name}"] = True
    return out


def series_name(c):
    return f"{c['fire']}: {c['strategy']}"


# ---------------------------------------------------------------------------------------------------- figures

def cells_across(p):
    """How many of its grid's cells span the pool: D / cell."""
    return round(p["diameter_m"] / p["cell"], 1) if p["cell"] > 0 else math.nan


def draw_puffing(records, plt, png):
    ncol = 2 if len(records) > 1 else 1
    nrow = (len(records) + ncol - 1) // ncol
    fig = plt.figure(figsize=(13, max(5.5, 2.3 * nrow + 1.2)))
    outer = fig.add_gridspec(1, 2, width_ratios=[1, 1.25], wspace=0.18)
    ax = fig.add_subplot(outer[0])
    inner = outer[1].subgridspec(nrow, ncol, hspace=0.55, wspace=0.12)
    specs = [fig.add_subplot(inner[i // ncol, i % ncol]) for i in range(len(records))]
    ds = [p["diameter_m"] for p in records]
    # The correlation through its own values at the measured diameters, extended along its D^(-1/2) slope.
    d0, f0 = ds[0], records[0]["cetegen_ahmed_puffing_hz"]
    grid = [min(ds) / 2 * (4 * max(ds) / min(ds)) ** (k / 40) for k in range(41)]
    ax.plot(grid, [f0 * (d / d0) ** -0.5 for d in grid], "k--", lw=1, label="Cetegen & Ahmed, f = 1.5 D^(-1/2)")
    resolutions = sorted({cells_across(p) for p in records})
    markers = dict(zip(resolutions, ("o", "s", "D", "h")))
    for kind, label, colour, shift, fill in (("tip", "flame tip", "tab:red", 1.0, {}),
                                             ("emission", "emitted power", "tab:blue", 1.05, {"mfc": "none"})):
        for res in resolutions:
            group = [p for p in records if cells_across(p) == res]
            pts = [(p["diameter_m"] * shift, p[f"{kind}_peak_hz"], p["resolution_hz"]) for p in group
                   if p[f"{kind}_peak_hz"] > 0 and not p[f"{kind}_at_edge"]]
            edges = [(p["diameter_m"] * shift, p[f"{kind}_peak_hz"]) for p in group if p[f"{kind}_at_edge"]]
            cells = f", D/{res:g} cells" if len(resolutions) > 1 else ""
            if pts:
                ax.errorbar([d for d, _, _ in pts], [f for _, f, _ in pts], yerr=[r for _, _, r in pts], ls="none",
                            marker=markers[res], color=colour, capsize=3, label=f"{label}'s peak{cells}", **fill)
            if edges:
                ax.plot([d for d, _ in edges], [f for _, f in edges], ls="none", marker="v", color=colour,
                        alpha=0.45, ms=7, label=f"{label}{cells}: at --min-frequency (red spectrum, no peak)", **fill)
            for d, f, _ in pts + [(d, f, 0) for d, f in edges]:
                ax.annotate(f"{f:.3g}", (d, f), textcoords="offset points",
                            xytext=(-18, 4) if kind == "tip" else (7, 4), fontsize=7, color=colour)
    ax.set_xscale("log"), ax.set_yscale("log")
    ax.set_xlim(min(ds) / 1.6, max(ds) * 1.6)
    from matplotlib.ticker import NullFormatter
    ax.set_xticks(sorted(set(ds)), [f"{d:g}" for d in sorted(set(ds))])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("pool diameter D (m)")
    ax.set_ylabel("spectral peak (Hz), ± the resolution")
    ax.set_title("Puffing frequency against the pool's diameter", fontsize=10)
    ax.set_ylim(min(ax.get_ylim()[0], 0.4), max(ax.get_ylim()[1], 5))
    lo, hi = ax.get_ylim()
    ticks = [t for t in (0.5, 1, 1.5, 2, 3, 4, 5, 8) if lo <= t <= hi]
    if ticks:
        ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1, frameon=False)

    top_hz = min(10.0, max(f for p in records for f in p["freq"]))
    for i, (p, spec) in enumerate(zip(records, specs)):
        for kind, colour, style in (("tip", "tab:red", "-"), ("emission", "tab:blue", "-")):
            band = [(f, pw) for f, pw in zip(p["freq"], p["spectra"][kind]) if f > 0]
            top = max((pw for f, pw in band if f >= p["min_frequency"] - 1e-9), default=0)
            if top > 0:
                spec.plot([f for f, _ in band], [pw / top for _, pw in band], style, color=colour, lw=0.9,
                          alpha=0.85, label="tip" if kind == "tip" else "emitted power")
            if p[f"{kind}_peak_hz"] > 0:
                spec.plot([p[f"{kind}_peak_hz"]], [1.5], "v", color=colour, ms=5)
        spec.axvline(p["cetegen_ahmed_puffing_hz"], color="k", lw=0.9, ls="--")
        if p["min_frequency"] > 0:
            spec.axvspan(0.0, p["min_frequency"], color="0.9", zorder=0)
        spec.set_yscale("log")
        spec.set_xlim(0, top_hz)
        spec.set_ylim(1e-3, 2.5)
        spec.set_title(f"D = {p['diameter_m']:g} m, cell D/{cells_across(p):g}", fontsize=9)
        spec.tick_params(labelsize=7)
        if i % ncol:
            spec.set_yticklabels([])
        else:
            spec.set_ylabel("PSD / its peak", fontsize=8)
        if i >= len(records) - ncol:
            spec.set_xlabel("frequency (Hz)", fontsize=8)
    specs[0].legend(fontsize=7, loc="lower left")
    specs[-1].annotate("dashed: Cetegen & Ahmed; ▼: the peak found; grey: below --min-frequency",
                       (1.0, -0.42 if len(records) > ncol else -0.2), xycoords="axes fraction", ha="right",
                       fontsize=7.5)
    window = records[0]["meta"].get("window_s")
    fig.suptitle(f"Grid fluid puffing: {len(records)} pools, {window:.3g} s windows, the same constants at every size"
                 if window else "Grid fluid puffing", fontsize=11)
    fig.savefig(png, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


# Colour by fire, marker by strategy.
FIRE_COLOUR = {"paper's fire": "tab:blue", "fluid": "tab:red", "fluid-driven particles": "tab:orange"}
STRATEGY_MARKER = {"volume": "s", "billboards-instanced": "^", "billboards-cpu": "v", "points": "o",
                   "point-sprites": "D", "billboards-geometry": "P", "compute-splat": "X"}


def log_ms_axis(ax):
    """A log axis of milliseconds labelled at 1, 2, 5 of each decade, in plain numbers."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def draw_pareto(configs, plt, png):
    fig, axes = plt.subplots(1, len(METRICS), figsize=(6.2 * len(METRICS), 5.6), sharey=True)
    names = list(dict.fromkeys(series_name(c) for c in sorted(configs, key=lambda c: (c["fire"], c["strategy"]))))
    for ax, m in zip(axes, METRICS):
        for name in names:
            members = sorted((c for c in configs if series_name(c) == name), key=lambda c: c["particles"])
            colour = FIRE_COLOUR[members[0]["fire"]]
            marker = STRATEGY_MARKER.get(members[0]["strategy"], "o")
            xs, ys = [c[m.name] for c in members], [c["frame"] for c in members]
            ax.plot(xs, ys, "-", color=colour, lw=0.9, alpha=0.5, zorder=1)
            ax.plot(xs, ys, marker, color=colour, ls="none", ms=7, mec="white", mew=0.6, zorder=3, label=name)
            drawn = [(c[m.name], c["draw"]) for c in members if c["draw"] > 0 and c["sim"] > 0.05 * c["frame"]]
            if drawn:
                ax.plot([x for x, _ in drawn], [y for _, y in drawn], marker, color=colour, mfc="none", ms=6,
                        ls="none", alpha=0.8, zorder=2, label=f"{name}, less the fluid's step")
                for c in members:
                    if c["draw"] > 0 and c["sim"] > 0.05 * c["frame"]:
                        ax.plot([c[m.name]] * 2, [c["draw"], c["frame"]], color=colour, lw=0.5, alpha=0.4, zorder=1)
            for c in members:  # where the fluid's step dominates, the counts go on the hollow markers, apart
                if c["strategy"] != "volume":
                    stepped = c["draw"] > 0 and c["sim"] > 0.05 * c["frame"]
                    ax.annotate(f"{c['particles'] / 1000:g}k", (c[m.name], c["draw"] if stepped else c["frame"]),
                                textcoords="offset points", xytext=(5, 4), fontsize=7.5, color=colour)
            for c in members:
                if c["high"] > c["low"] > 0 and c["low"] <= c["frame"] <= c["high"]:
                    ax.errorbar([c[m.name]], [c["frame"]], yerr=[[c["frame"] - c["low"]], [c["high"] - c["frame"]]],
                                color=colour, lw=0.8, capsize=2, fmt="none", zorder=2)
        front = sorted((c for c in configs if c[f"front_{m.name}"]), key=lambda c: m.cost(c[m.name]))
        ax.step([c[m.name] for c in front], [c["frame"] for c in front], where="post", color="0.2", lw=1.2,
                ls="--", zorder=2, label="frontier over every run (ringed black)")
        ax.plot([c[m.name] for c in front], [c["frame"] for c in front], "o", ms=12, mfc="none", mec="black",
                mew=1.1, zorder=4)
        grid_front = sorted((c for c in configs if c.get(f"front_grid_{m.name}")), key=lambda c: m.cost(c[m.name]))
        if grid_front:
            ax.step([c[m.name] for c in grid_front], [c["frame"] for c in grid_front], where="post",
                    color="darkred", lw=1.1, ls=":", zorder=2,
                    label="frontier of the runs scored against the grid's medium (ringed red)")
            ax.plot([c[m.name] for c in grid_front], [c["frame"] for c in grid_front], "o", ms=15, mfc="none",
                    mec="darkred", mew=1.0, zorder=4)
        log_ms_axis(ax)
        if m.higher_is_better:
            ax.invert_xaxis()
        ax.set_xlabel(f"{m.label} over the fire's region against volume-reference "
                      f"({'higher' if m.higher_is_better else 'lower'} is better)")
        ax.set_title(f"{m.label}: {len(front)} on the frontier, {len(grid_front)} on the grid's", fontsize=10)
        ax.grid(True, which="both", color="0.92", lw=0.6)
    axes[0].set_ylabel("frame time, median (ms, log); hollow: less the fluid's step")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    row = configs[0]["row"]
    fig.suptitle("Grid fluid: cost against quality, left and down is better; each fire against its own medium "
                 "(the fluid: the grid's, the paper's fire: its particles')\n"
                 f"{row.get('width')}x{row.get('height')}, grid {row.get('grid')} of {row.get('cell')} m, fluid "
                 f"stepped on the {row.get('fluid_device', 'cpu') or 'cpu'}, reference {configs[0]['reference']}",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(png, dpi=DPI)
    plt.close(fig)


def draw_side_by_side(configs, folder, plt, png):
    """Each fire's scored frame beside its reference: a row per fire (the paper's particles; the grid fluid, its
    own volume and the particles it carries), the reference first, then by strategy and count. Returns whether
    it drew (a sweep run without its frames has none)."""
    rows = []
    for fires in (("paper's fire",), ("fluid", "fluid-driven particles")):
        members = sorted((c for c in configs if c["fire"] in fires and c["row"].get("frame_png")),
                         key=lambda c: (c["strategy"] != "volume", c["strategy"], c["particles"]))
        if members:
            rows.append(members)
    if not rows:
        return False
    ncol = 1 + max(len(r) for r in rows)
    first = plt.imread(os.path.join(folder, rows[0][0]["row"]["frame_png"]))
    aspect = first.shape[1] / first.shape[0]
    fig, axes = plt.subplots(len(rows), ncol, figsize=(2.6 * aspect / 1.33 * ncol, 2.35 * len(rows) + 0.5),
                             squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for axrow, members in zip(axes, rows):
        panels = [(members[0]["row"].get("reference_png"), "volume-reference\n(" +
                   ("the grid's medium" if members[0]["fire"] != "paper's fire" else "its particles' medium") + ")")]
        for c in members:
            count = "" if c["strategy"] == "volume" else f" {c['particles'] / 1000:g}k"
            panels.append((c["row"]["frame_png"], f"{c['fire']}:\n{c['strategy']}{count}, {c['frame']:.4g} ms\n"
                           f"SSIM {fmt(c['ssim'])}, ꟻLIP {fmt(c['flip'])}"))
        for ax, (path, title) in zip(axrow, panels):
            full = os.path.join(folder, path or "")
            if not path or not os.path.isfile(full):
                warn(f"{full}: no such frame, its panel left blank")
                continue
            ax.imshow(plt.imread(full))
            ax.set_title(title, fontsize=7.5)
    fig.suptitle("Each fire's first scored frame beside its reference", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=DPI)
    plt.close(fig)
    return True


# ---------------------------------------------------------------------------------------------------- table

def fmt(v, digits=3, pct=False):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return f"{100 * v:+.0f} %" if pct else f"{v:.{digits}g}"


def edge(p, kind):
    return " (edge)" if p[f"{kind}_at_edge"] else ""


def puffing_table(records, root):
    lines = ["## Puffing against the pool's diameter", "",
             "| D (m) | cell (m) | bin (m) | flame height (m) | tip peak (Hz) | power peak (Hz) | resolution (Hz) "
             "| Cetegen & Ahmed (Hz) | tip error | power error | tip peak / median | power peak / median | record |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in records:
        lines.append(
            f"| {fmt(p['diameter_m'])} | {fmt(p['cell'])} | {fmt(p['bin'])} | {fmt(p.get('flame_height_m'))} | "
            f"{fmt(p['tip_peak_hz'])}{edge(p, 'tip')} | {fmt(p['emission_peak_hz'])}{edge(p, 'emission')} | "
            f"{fmt(p['resolution_hz'])} | "
            f"{fmt(p['cetegen_ahmed_puffing_hz'])} | {fmt(p.get('tip_peak_error'), pct=True)} | "
            f"{fmt(p.get('emission_peak_error'), pct=True)} | {fmt(p['tip_prominence'], 2)} | "
            f"{fmt(p['emission_prominence'], 2)} | {os.path.relpath(p['dir'], root)} |")
    lines += ["", "Errors are measured / Cetegen & Ahmed − 1. \"peak / median\": the peak's power over the median "
              "power within an octave either side of it, the peak's bin and its neighbours aside (a red spectrum "
              "without a peak gives about 1–3; a clear puff, tens). \"(edge)\": the peak lies within a bin of "
              "--min-frequency, where the search starts: the spectrum rises below it and the peak is no puff."]
    for res in sorted({cells_across(p) for p in records}):
        group = [p for p in records if cells_across(p) == res]
        for kind, label in (("tip", "tip"), ("emission", "emitted power")):
            slope = fitted_slope(group, kind)
            lines.append(f"At D/{res:g} cells the {label}'s peaks fall as D^{slope:.2f} (least squares on log–log over "
                         "the peaks not at the edge; the correlation: D^-0.5)." if slope is not None else
                         f"At D/{res:g} cells the {label}'s peaks: fewer than two away from the edge, no slope fitted.")
    return lines


def fitted_slope(records, kind):
    """The log-log least-squares slope of a kind of peak against D over the peaks not at the edge, at one
    resolution (cells across the pool); None with fewer than two such peaks."""
    pts = [(math.log(p["diameter_m"]), math.log(p[f"{kind}_peak_hz"])) for p in records
           if p[f"{kind}_peak_hz"] > 0 and not p[f"{kind}_at_edge"]]
    mx, my = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)) if pts else (0, 0)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if len(pts) >= 2 and sxx > 0 else None


def quality_table(configs):
    lines = ["## Cost against quality", "",
             "| fire | strategy | particles | frame (ms) | fluid step (ms) | frame less the step (ms) "
             "| ꟻLIP | SSIM | frontier, every run | frontier, against the grid |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for c in sorted(configs, key=lambda c: c["frame"]):
        front = ", ".join(m.label for m in METRICS if c[f"front_{m.name}"]) or ""
        grid_front = ", ".join(m.label for m in METRICS if c.get(f"front_grid_{m.name}")) or ""
        interval = f" [{fmt(c['low'], 4)}, {fmt(c['high'], 4)}]" if c["high"] > c["low"] > 0 else ""
        lines.append(f"| {c['fire']} | {c['strategy']} | {c['particles']} | {fmt(c['frame'], 4)}{interval} | "
                     f"{fmt(c['sim'], 4)} | {fmt(c['draw'], 4)} | {fmt(c['flip'])} | {fmt(c['ssim'])} | {front} | {grid_front} |")
    lines += ["", "Scores over the fire's region against " + configs[0]["reference"] + ": the fluid and the "
              "fluid-driven particles against the grid's medium, the paper's fire against its own particles' medium. "
              "The step column is sim_ms_median: for the fluid, the grid's step on the CPU, inside the frame."]
    return lines


# ---------------------------------------------------------------------------------------------------- main

# ---------------------------------------------------------------------------------------------- flame height

def power_runs(folder):
    """The runs of a physics sweep whose power is the fluid's own (each run's meta.json says so), sorted by power."""
    rows = read_table(os.path.join(folder, "summary.csv"))
    sources = {}  # run key -> where its power came from (each run's meta.json)
    for path in sorted(glob.glob(os.path.join(folder, "run-*", "meta.json"))):
        meta = read_json(path)
        sources[meta.get("run_key")] = (meta.get("correlations") or {}).get("heat_release_from", "")
    out = []
    for row in rows:
        source = sources.get(row["run_key"], "")
        if "fluid" not in source:
            warn(f"{folder}: run {row['run_key']} has no measured power ({source or 'no source recorded'}); left out")
            continue
        out.append({"key": row["run_key"], "q": num(row["heat_release_kw"]), "d": num(row["diameter_m"]),
                    "l": num(row["flame_height_m"]), "heskestad": num(row["heskestad_flame_height_m"]),
                    "error": num(row["flame_height_error"])})
    if not out:
        fail(f"{folder}/summary.csv: no run whose power is the fluid's own (firelab physics --model fluid)")
    return sorted(out, key=lambda r: r["q"])


def draw_flame_height(runs, plt, png):
    fig, ax = plt.subplots(figsize=(6.5, 4.6))
    q = [r["q"] for r in runs]
    ax.plot(q, [r["heskestad"] for r in runs], "k--", label="Heskestad at each run's power and D")
    ax.plot(q, [r["l"] for r in runs], "o-", color="#d62728", label="the grid fluid (measured)")
    for r in runs:
        ax.annotate(r["key"], (r["q"], r["l"]), fontsize=7, xytext=(4, -10), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("heat release, kW (the fluid's combustion)")
    ax.set_ylabel("flame height, m (50 % intermittency)")
    ax.set_title(f"Flame height against power, D = {runs[0]['d']:.2g} m")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=DPI)
    plt.close(fig)


def flame_table(runs):
    lines = ["## Flame height against power", "", "| run | D m | Q kW | flame height m | Heskestad m | error |",
             "|---|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r['key']} | {fmt(r['d'])} | {fmt(r['q'])} | {fmt(r['l'])} | {fmt(r['heskestad'])} | "
                     f"{fmt(r['error'], pct=True)} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description="Draw the grid fluid's figures (issue 34) from firelab's records.")
    parser.add_argument("dir", nargs="?", default="results/fluid", help="the fluid's results (default results/fluid)")
    parser.add_argument("--puffing", action="append", help="a physics sweep of experiments/fluid-puffing.toml "
                        "(repeatable; default every DIR/puffing*/ holding a summary.csv, else DIR/puffing)")
    parser.add_argument("--quality", help="the sweep of experiments/fluid-quality.toml (default DIR/quality; "
                        "skipped when absent unless given)")
    parser.add_argument("--power", help="the physics sweep of experiments/fluid-power.toml (default DIR/power; "
                        "skipped when absent unless given)")
    parser.add_argument("--out", help="where the figures and table.md go (default DIR)")
    args = parser.parse_args()
    puffing = args.puffing or [os.path.dirname(p) for p in sorted(glob.glob(os.path.join(args.dir, "puffing*",
                                                                                          "summary.csv")))]
    puffing = puffing or [os.path.join(args.dir, "puffing")]
    quality = args.quality or os.path.join(args.dir, "quality")
    out = args.out or args.dir
    records = pools(puffing)
    if not os.path.isdir(out):
        fail(f"{out}: no such folder")
    configs = None
    if args.quality or os.path.isfile(os.path.join(quality, "runs.csv")):
        configs = configurations(quality)
    else:
        warn(f"{quality}/runs.csv: none, so no pareto.png (firelab sweep experiments/fluid-quality.toml)")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    written = ["puffing.png"]
    draw_puffing(records, plt, os.path.join(out, "puffing.png"))
    lines = ["# The grid fluid's figures (issue 34)", "", "Drawn by `scripts/fluid_figures.py` from the records "
             "alone.", ""] + puffing_table(records, args.dir)
    if configs:
        draw_pareto(configs, plt, os.path.join(out, "pareto.png"))
        written.append("pareto.png")
        if draw_side_by_side(configs, quality, plt, os.path.join(out, "side_by_side.png")):
            written.append("side_by_side.png")
        lines += [""] + quality_table(configs)
    power = args.power or os.path.join(args.dir, "power")
    if args.power or os.path.isfile(os.path.join(power, "summary.csv")):
        runs = power_runs(power)
        draw_flame_height(runs, plt, os.path.join(out, "flame_height.png"))
        written.append("flame_height.png")
        lines += [""] + flame_table(runs)
    else:
        warn(f"{power}/summary.csv: none, so no flame_height.png (firelab physics --experiment "
             "experiments/fluid-power.toml)")
    with open(os.path.join(out, "table.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    written.append("table.md")
    warn(f"wrote {', '.join(os.path.join(out, w) for w in written)}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The grid fluid's cost from firelab_bench's JSON (tests/bench/fluid_bench.cpp), as figures and a table.

    firelab_bench --benchmark_filter=BM_Fluid --benchmark_repetitions=3 \\
        --benchmark_out=results/fluid/cost/bench.json --benchmark_out_format=json
    /usr/bin/python3 scripts/fluid_cost.py results/fluid/cost/bench.json --out results/fluid/cost

writes into --out:
  cost_per_pass.png   the step's wall clock against the cell count (log-log, each device and solver, with a line
                      growing as the cells) and, per grid, each pass's share of it (conjugate gradients);
  project_residual.png  the projection's cost against the residual it reaches, 10 to 300 iterations on 64^3;
  table.md            every figure the plots show, and the growth exponent of each series (ms ~ cells^k).
With --benchmark_repetitions the medians are used (aggregate rows); without, the single runs.
Exit 2 naming the file when it is missing or holds no BM_Fluid rows.
"""
import argparse
import json
import math
import os
import re
import sys

PASSES = ["sources", "advect", "forces", "combust", "project", "readback"]  # fluid::kPassNames
# BM_FluidStep/DEVICE/SOLVER/N:n[/threads:t] (a cube) or .../grid:XxYxZ[/threads:t]
STEP = re.compile(r"^BM_FluidStep/(cpu|gpu)/([a-z]+)/(?:N:(\d+)|grid:(\d+)x(\d+)x(\d+))(?:/threads:(\d+))?")
PROJECT = re.compile(r"^BM_FluidProject/(cpu|gpu)/([a-z]+)/iterations:(\d+)")
PALETTE = ["#1f77b4", "#6baed6", "#2ca02c", "#98df8a", "#9467bd", "#d62728", "#fc9272", "#ff7f0e", "#8c564b"]


def label(key):
    """A series' name: device and solver, and the threads where the benchmark names them."""
    device, solver, threads = key
    return f"{device} {solver}" + (f", {threads} thread{'s' if threads != '1' else ''}" if threads else "")


def fail(message):
    print(f"fluid_cost: {message}", file=sys.stderr)
    sys.exit(2)


def rows(path):
    """The median row of each benchmark (or its only row), by run name."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file (firelab_bench --benchmark_out=FILE --benchmark_out_format=json writes it)")
    with open(path) as f:
        data = json.load(f)
    chosen = {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                chosen[name] = b
        elif name not in chosen:
            chosen[name] = b
    out = {name: b for name, b in chosen.items() if name.startswith("BM_Fluid")}
    if not out:
        fail(f"{path}: no BM_FluidStep or BM_FluidProject rows (run firelab_bench --benchmark_filter=BM_Fluid)")
    return out, data.get("context", {})


def exponent(points):
    """The least-squares slope of log(ms) against log(cells)."""
    if len(points) < 2:
        return float("nan")
    xs = [math.log(c) for c, _ in points]
    ys = [math.log(m) for _, m in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="firelab_bench's --benchmark_out file")
    ap.add_argument("--out", required=True, help="the folder for the figures and table.md")
    args = ap.parse_args()
    found, context = rows(args.json)
    steps, others, projects = {}, {}, {}  # cubes by N; other grids by their name
    for name, b in found.items():
        if m := STEP.match(name):
            key = (m[1], m[2], m[7] or "")
            if m[3]:
                steps.setdefault(key, []).append((int(m[3]), b))
            else:
                others.setdefault(key, []).append((f"{m[4]}x{m[5]}x{m[6]}", b))
        elif m := PROJECT.match(name):
            projects.setdefault((m[1], m[2], ""), []).append((int(m[3]), b))
    for series in list(steps.values()) + list(projects.values()):
        series.sort(key=lambda t: t[0])
    keys = sorted(set(steps) | set(others) | set(projects))
    colours = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(keys)}
    os.makedirs(args.out, exist_ok=True)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    growth = {}
    for key, series in sorted(steps.items()):
        pts = [(b["cells"], b["real_time"]) for _, b in series]
        growth[key] = exponent(pts)
        left.plot([c for c, _ in pts], [m for _, m in pts], "o-", color=colours[key],
                  label=f"{label(key)} (ms ~ cells^{growth[key]:.2f})")
    if steps:
        first = min(b["cells"] for s in steps.values() for _, b in s)
        last = max(b["cells"] for s in steps.values() for _, b in s)
        base = min(b["real_time"] for s in steps.values() for _, b in s if b["cells"] == first)
        left.plot([first, last], [base, base * last / first], "k--", lw=0.8, label="grows as the cells")
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("cells")
    left.set_ylabel("one step, ms (jacobi, pcg: 60 iterations)")
    left.set_title("The grid fluid's step against its size")
    left.legend(fontsize=8)

    # The shares of the passes: each device's default solver where measured (mgpcg on the CPU), its most threads.
    shown = []
    for dev in ("cpu", "gpu"):
        mine = [k for k in steps if k[0] == dev]
        preferred = [k for k in mine if k[1] == "mgpcg"] or [k for k in mine if k[1] == "pcg"] or mine
        if preferred:
            shown.append(max(preferred, key=lambda k: int(k[2] or 1)))
    bars = [(n, key) for key in shown for n, _ in steps[key]]
    totals = [sum(dict(steps[key])[n].get(p + "_ms", 0.0) for p in PASSES) for n, key in bars]
    bottom = [0.0] * len(bars)
    for p in PASSES:
        shares = [100.0 * dict(steps[key])[n].get(p + "_ms", 0.0) / t for (n, key), t in zip(bars, totals)]
        right.bar(range(len(bars)), shares, bottom=bottom, label=p)
        bottom = [a + h for a, h in zip(bottom, shares)]
    for x, t in enumerate(totals):
        right.annotate(f"{t:.0f} ms", (x, 100.0), ha="center", va="bottom", fontsize=8)
    right.set_xticks(range(len(bars)), [f"{key[0]} {key[1]}\n{n}^3" for n, key in bars], fontsize=7)
    right.set_ylim(0, 110)
    right.set_ylabel("share of the step, % (pass timer)")
    right.set_title("Each pass of the step")
    right.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "cost_per_pass.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    for key, series in sorted(projects.items()):
        ax.plot([b["real_time"] for _, b in series], [b["residual"] for _, b in series], "o-", color=colours[key],
                label=label(key))
        for its, b in series:
            ax.annotate(str(its), (b["real_time"], b["residual"]), fontsize=7, xytext=(3, 3),
                        textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("projection, ms (64^3)")
    ax.set_ylabel("residual: rms divergence after / before")
    ax.set_title("The solver's cost against its residual (labels: iterations)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "project_residual.png"), dpi=110)
    plt.close(fig)

    lines = ["# The grid fluid's cost", "",
             f"firelab_bench on {context.get('host_name', '?')}, {context.get('num_cpus', '?')} CPUs, "
             f"{context.get('date', '?')}; medians of the repetitions where there were some.", "",
             "## One step (1/60 s) against the grid", "",
             "jacobi and pcg are held to 60 iterations; multigrid and mgpcg stop at the default tolerance (1e-3 of "
             "the divergence). floor: each pass's bytes (fluid::passBytesPerCell) over the streaming bandwidth "
             "measured in the same run (a triad on the same threads).", "",
             "| device | solver | threads | grid | cells | step ms | " + " | ".join(f"{p} ms" for p in PASSES) +
             " | ns/cell | MiB | iterations | residual | triad GB/s | floor ms | step / floor |",
             "|---" * (13 + len(PASSES)) + "|"]

    def cell(b, name, form):
        return format(b[name], form) if name in b else ""

    for key in keys:
        for grid, b in [(f"{n}^3", b) for n, b in steps.get(key, [])] + others.get(key, []):
            lines.append(f"| {key[0]} | {key[1]} | {key[2] or 1} | {grid} | {b['cells']:.0f} | {b['real_time']:.1f} | " +
                         " | ".join(f"{b.get(p + '_ms', 0.0):.2f}" for p in PASSES) +
                         f" | {b['ns_per_cell']:.0f} | {b['mib']:.1f} | {cell(b, 'iterations', '.1f')} | "
                         f"{b['residual']:.3g} | {cell(b, 'triad_gb_s', '.1f')} | {cell(b, 'floor_ms', '.1f')} | "
                         f"{cell(b, 'step_over_floor', '.1f')} |")
    lines += ["", "Growth of the step's cost with the cells (least squares over the cubes, ms ~ cells^k):", ""]
    lines += [f"- {label(k)}: k = {v:.2f}" for k, v in sorted(growth.items())]
    lines += ["", "## The projection alone on 64^3: cost against residual", "",
              "| device | solver | iterations | ms | residual |", "|---|---|---|---|---|"]
    for key, series in sorted(projects.items()):
        for its, b in series:
            lines.append(f"| {key[0]} | {key[1]} | {its} | {b['real_time']:.1f} | {b['residual']:.3g} |")
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    for name in ("cost_per_pass.png", "project_residual.png", "table.md"):
        print(os.path.join(args.out, name))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The peer benchmark: firelab's CPU grid fluid step against Blender's Mantaflow fire on the same grid (issue 50).

    /usr/bin/python3 scripts/peers/mantaflow_peer.py [--install] [--grid 64] [--threads 2] [--rounds 5] \\
        [--frames 40] [--warmup 10] [--firelab-bench PATH] [--firelab-filter REGEX] [--out results/fluid/peer]

Each round runs the two sides one after the other, Blender first:
  mantaflow  Blender in the background builds a gas fire in a 3.2 m cube of N^3 cells (mantaflow_scene.py beside
             this file), steps frames 1..F, one step of 1/60 s a frame, and times each frame; the round's figure is
             the mean of the frames after the first W.
  firelab    firelab_bench runs the one benchmark that --firelab-filter matches ({N} and {T} stand for --grid and
             --threads) for --firelab-min-time seconds; the round's figure is its real_time, in ms, which is
             manual time: one step.
It writes into --out, each file whole or not at all (a temporary file, then a rename):
  peer.csv   round,peer,step_ms: one row per side and round;
  peer.md    each side's mean step and the 95 % interval of that mean over the rounds, the ratio
             mantaflow / firelab with its interval from the rounds' paired ratios, and how it was run.
Blender comes from Debian's package: without it the script stops (exit 2) unless --install is given, which runs
apt-get install (with sudo when not root). Exit 2 on a bad option (naming it, its value and what is allowed), a
missing benchmark binary or a filter matching no benchmark; exit 1 when a side fails during the rounds.
"""
import argparse
import csv
import io
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCENE = os.path.join(HERE, "mantaflow_scene.py")
PROG = "mantaflow_peer.py"
DEFAULT_FILTER = "^BM_FluidStep/cpu/mgpcg/N:{N}/threads:{T}(/manual_time)?$"
PEERS = ("mantaflow", "firelab")
# Where the build puts firelab_bench: build/firelab_bench as issue 50 names it, then where tests/bench's CMake target
# lands today.
BENCH_PLACES = (os.path.join("build", "firelab_bench"), os.path.join("build", "tests", "bench", "firelab_bench"))
CACHE_BYTES_PER_CELL = 36  # an uncompressed OpenVDB frame of Mantaflow's gas fire: 1.13 MB at 32^3
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}

# Student's t at 0.975 (a two-sided 95 % interval) by degrees of freedom; between rows the row below is used, which
# errs wide. Past 120 the 120 row is used (1.980 against the normal's 1.960).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
        20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
        29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


class UsageError(Exception):
    """A bad option or a missing prerequisite: exit 2."""


class PeerError(Exception):
    """A side that failed while measuring: exit 1."""


# ---------------------------------------------------------------------------------------------------------------
# Options


class Parser(argparse.ArgumentParser):
    def error(self, message):  # raise rather than exit, so that the checks can be tested
        raise UsageError(message)


def whole(lo, hi, what):
    def convert(text):
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not allowed: {what}, a whole number from {lo} to {hi}")
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is not allowed: {what}, a whole number from {lo} to {hi}")
        return value
    return convert


def seconds(lo, hi, what):
    def convert(text):
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not lo < value <= hi:  # false for nan too
            raise argparse.ArgumentTypeError(
                f"'{text}' is not allowed: {what}, seconds above {lo:g} and at most {hi:g}")
        return value
    return convert


def parse_args(argv):
    p = Parser(prog=PROG, description="Blender's Mantaflow fire against firelab's CPU grid fluid step, same grid.")
    p.add_argument("--install", action="store_true",
                   help="install Debian's blender package with apt-get when blender is missing")
    p.add_argument("--blender", default="blender", help="the Blender executable (default: blender on PATH)")
    p.add_argument("--grid", type=whole(8, 512, "cells along the cube's edge"), default=64,
                   help="N: both sides step N^3 cells over a 3.2 m cube (8..512, default 64)")
    p.add_argument("--threads", type=whole(1, 1024, "threads for each side"), default=2,
                   help="T: Blender's -t and the {T} of the firelab filter (1..1024, default 2)")
    p.add_argument("--rounds", type=whole(2, 1000, "rounds, each side once a round"), default=5,
                   help="R: rounds, Blender then firelab in each (2..1000, default 5)")
    p.add_argument("--frames", type=whole(2, 100000, "frames Blender steps a round"), default=40,
                   help="F: frames Blender steps each round (default 40)")
    p.add_argument("--warmup", type=whole(1, 99999, "Blender's warm-up frames, not timed"), default=10,
                   help="W: Blender's first W frames are not counted; frame 1 sets Mantaflow up (default 10)")
    p.add_argument("--firelab-bench", default=None,
                   help="firelab's benchmark binary (default: the first of " + ", ".join(BENCH_PLACES) +
                        " in the repository that exists)")
    p.add_argument("--firelab-filter", default=DEFAULT_FILTER,
                   help="a --benchmark_filter regex that must match exactly one benchmark; {N} and {T} become "
                        "--grid and --threads (default %(default)s)")
    p.add_argument("--firelab-min-time", type=seconds(0.0, 3600.0, "firelab's --benchmark_min_time"), default=2.0,
                   help="Google Benchmark's --benchmark_min_time for the firelab side, seconds (default 2)")
    p.add_argument("--timeout", type=seconds(0.0, 86400.0, "the limit on one side's round"), default=3600.0,
                   help="seconds one side's round may take before the run fails (default 3600)")
    p.add_argument("--out", default=None,
                   help="the folder for peer.csv and peer.md (default: results/fluid/peer in the repository)")
    args = p.parse_args(argv)
    if args.warmup >= args.frames:
        raise UsageError(f"argument --warmup: {args.warmup} is not allowed with --frames {args.frames}: "
                         f"the warm-up must be shorter than the frames, or no frame is timed")
    args.filter = firelab_filter(args.firelab_filter, args.grid, args.threads)
    try:
        re.compile(args.filter)
    except re.error as e:
        raise UsageError(f"argument --firelab-filter: '{args.filter}' is not allowed: not a regular expression ({e})")
    if args.firelab_bench is None:
        args.firelab_bench = next((in_root(p) for p in BENCH_PLACES if os.path.isfile(in_root(p))),
                                  in_root(BENCH_PLACES[0]))
    else:
        args.firelab_bench = os.path.abspath(args.firelab_bench)
    args.out = os.path.abspath(args.out) if args.out else in_root(os.path.join("results", "fluid", "peer"))
    return args


def firelab_filter(pattern, grid, threads):
    """The filter with {N} and {T} replaced; other braces (regex counts such as {2}) are left alone."""
    return pattern.replace("{N}", str(grid)).replace("{T}", str(threads))


def in_root(path):
    """A default path, which is the repository's wherever the script is run from; given paths are the caller's."""
    return os.path.join(ROOT, path)


# ---------------------------------------------------------------------------------------------------------------
# Statistics


def t975(dof):
    if dof < 1:
        raise ValueError(f"an interval needs at least one degree of freedom, not {dof}")
    return T975[max(k for k in T975 if k <= dof)]


def mean_interval(values):
    """(mean, low, high): the mean and its 95 % interval, mean -/+ t(0.975, n-1) sd / sqrt(n)."""
    n = len(values)
    if n < 2:
        raise ValueError(f"an interval needs at least two values, not {n}")
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def by_round(rows):
    """{round: {peer: step_ms}} from (round, peer, step_ms) rows."""
    table = {}
    for rnd, peer, ms in rows:
        table.setdefault(rnd, {})[peer] = ms
    return table


def summarise(rows):
    """Each side's (mean, low, high), and the ratio mantaflow / firelab's over the rounds that have both."""
    table = by_round(rows)
    out = {peer: mean_interval([table[r][peer] for r in sorted(table) if peer in table[r]]) for peer in PEERS}
    ratios = [table[r]["mantaflow"] / table[r]["firelab"] for r in sorted(table) if set(PEERS) <= set(table[r])]
    out["ratio"] = mean_interval(ratios)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Files


def write_atomic(path, text):
    """The whole text at path or, on any failure, the file as it was: a temporary file beside it, then a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def csv_text(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["round", "peer", "step_ms"])
    for rnd, peer, ms in rows:
        w.writerow([rnd, peer, f"{ms:.6f}"])
    return buf.getvalue()


def fmt_ms(v):
    return f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"


def markdown(rows, meta):
    """peer.md: the summary table, the rounds, and how they were measured."""
    s = summarise(rows)
    n = meta["grid"]
    table = by_round(rows)
    lines = [
        f"# Mantaflow against firelab: one fire step on {n}³ cells, {meta['threads']} thread"
        f"{'s' if meta['threads'] != 1 else ''}",
        "",
        "| side | mean step (ms) | 95 % interval of the mean (ms) |",
        "|---|---|---|",
        f"| Mantaflow (Blender {meta['blender_version']}) | {fmt_ms(s['mantaflow'][0])} | "
        f"{fmt_ms(s['mantaflow'][1])} – {fmt_ms(s['mantaflow'][2])} |",
        f"| firelab (`{meta['firelab_benchmark']}`) | {fmt_ms(s['firelab'][0])} | "
        f"{fmt_ms(s['firelab'][1])} – {fmt_ms(s['firelab'][2])} |",
        "",
        f"**Mantaflow / firelab: {s['ratio'][0]:.2f}×** (95 % interval {s['ratio'][1]:.2f}–{s['ratio'][2]:.2f}, "
        f"from the {len(table)} rounds' paired ratios). Above 1, firelab's step is the faster.",
        "",
        "| round | Mantaflow (ms) | firelab (ms) | ratio |",
        "|---|---|---|---|",
    ]
    for r in sorted(table):
        m, f = table[r].get("mantaflow"), table[r].get("firelab")
        ratio = f"{m / f:.2f}" if m is not None and f else "–"
        lines.append(f"| {r} | {fmt_ms(m) if m is not None else '–'} | {fmt_ms(f) if f is not None else '–'} "
                     f"| {ratio} |")
    lines += [
        "",
        "How it was measured:",
        f"- Grid: {n}³ cells over a 3.2 m cube on both sides (Mantaflow reported {meta['blender_cells']}).",
        f"- Threads: {meta['threads']} (Blender's `-t`; firelab's benchmark above). Blender's timed frames kept "
        f"{meta['blender_cpu_per_wall']:.2f} CPU seconds busy per wall second.",
        f"- Mantaflow: {meta['frames']} frames a round of one 1/60 s step each, the first {meta['warmup']} not "
        f"counted; the mean of the rest. A frame's time includes writing its grids to the REPLAY cache "
        f"({meta['cache_format']}, on {meta['cache_place']}).",
        f"- firelab: `--benchmark_min_time={meta['firelab_min_time']:g}`, manual time (one step), "
        f"{meta['firelab_iterations']} iterations a round on average.",
        f"- Rounds: {len(table)}, Blender then firelab in each. Intervals: mean ± t(0.975, R−1)·sd/√R.",
        f"- Machine: {meta['machine']}; {meta['date']}.",
        f"- Command: `{meta['command']}`",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------
# Blender


def find_blender(args):
    exe = shutil.which(args.blender)
    if exe:
        return exe
    if not args.install:
        raise UsageError(f"blender ('{args.blender}') is not installed or not on PATH: pass --install to install "
                         f"Debian's blender package with apt-get, or --blender PATH")
    cmd = ["apt-get", "install", "-y", "blender"]
    if os.geteuid() != 0:
        cmd = ["sudo"] + cmd
    print(f"{PROG}: installing Blender: {shlex.join(cmd)}", flush=True)
    if subprocess.run(cmd).returncode != 0:
        raise UsageError(f"'{shlex.join(cmd)}' failed; install blender by hand or pass --blender PATH")
    exe = shutil.which(args.blender)
    if not exe:
        raise UsageError(f"apt-get installed blender but '{args.blender}' is still not on PATH; pass --blender PATH")
    return exe


def parse_blender(stdout, frames, warmup):
    """A round from mantaflow_scene.py's lines: the timed frames' wall and CPU ms, its PEER_INFO and PEER_CHECK."""
    wall, cpu, info, check = {}, {}, {}, {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "STEP_MS":
            wall[int(parts[1])] = float(parts[2])
        elif len(parts) >= 3 and parts[0] == "STEP_CPU_MS":
            cpu[int(parts[1])] = float(parts[2])
        elif len(parts) >= 3 and parts[0] == "PEER_INFO":
            info[parts[1]] = " ".join(parts[2:])
        elif len(parts) >= 5 and parts[0] == "PEER_CHECK":
            check = {parts[1]: float(parts[2]), parts[3]: float(parts[4])}
    expected = list(range(warmup + 1, frames + 1))
    if sorted(wall) != expected:
        raise PeerError(f"Blender timed frames {sorted(wall)[:5]}... ({len(wall)}), not frames {warmup + 1}..{frames}")
    if not check or check.get("flame_max", 0.0) <= 0.0:
        raise PeerError(f"the Mantaflow fire did not burn (PEER_CHECK {check or 'missing'}): its step would time "
                        f"an empty grid")
    step = sum(wall.values()) / len(wall)
    busy = sum(cpu.values()) / sum(wall.values()) if cpu and sum(wall.values()) > 0 else float("nan")
    return {"step_ms": step, "cpu_per_wall": busy, "info": info}


def cache_folder(grid, frames):
    """A RAM disc where one has room for the round's cache (about 36 bytes a cell a frame), else the temp folder."""
    need = CACHE_BYTES_PER_CELL * grid ** 3 * frames * 1.5
    for place in ("/dev/shm", None):
        folder = place or tempfile.gettempdir()
        try:
            st = os.statvfs(folder)
        except OSError:
            continue
        if os.access(folder, os.W_OK) and st.f_bavail * st.f_frsize > need:
            return tempfile.mkdtemp(prefix="mantaflow_peer_", dir=folder), folder
    raise PeerError(f"no folder has the {need / 2**30:.1f} GiB the Mantaflow cache needs")


def run_blender(exe, args):
    cache, place = cache_folder(args.grid, args.frames)
    cmd = [exe, "--background", "--factory-startup", "--python-exit-code", "1", "-t", str(args.threads),
           "--python", SCENE, "--", "--grid", str(args.grid), "--frames", str(args.frames),
           "--warmup", str(args.warmup), "--cache-dir", cache]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=cache)
    except subprocess.TimeoutExpired:
        raise PeerError(f"Blender ran past --timeout {args.timeout:g} s: {shlex.join(cmd)}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
        raise PeerError(f"Blender exited {proc.returncode}: {shlex.join(cmd)}\n{tail}")
    result = parse_blender(proc.stdout, args.frames, args.warmup)
    result["cache_place"] = place
    return result


# ---------------------------------------------------------------------------------------------------------------
# firelab


def bench_env():
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")  # as ctest's bench_smoke runs the binary
    return env


def check_bench(args):
    """The one benchmark name the filter matches, or exit 2 saying what it matches instead."""
    if not (os.path.isfile(args.firelab_bench) and os.access(args.firelab_bench, os.X_OK)):
        raise UsageError(f"argument --firelab-bench: '{args.firelab_bench}' is not an executable file: build it "
                         f"(scripts/setup.sh builds it under build/) or name the binary")
    proc = subprocess.run([args.firelab_bench, "--benchmark_list_tests=true", f"--benchmark_filter={args.filter}"],
                          capture_output=True, text=True, timeout=120, env=bench_env())
    names = [line.strip() for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(names) != 1:
        every = subprocess.run([args.firelab_bench, "--benchmark_list_tests=true", "--benchmark_filter=BM_FluidStep"],
                               capture_output=True, text=True, timeout=120, env=bench_env()).stdout.split()
        shown = ", ".join(every[:24]) + (f" and {len(every) - 24} more" if len(every) > 24 else "")
        found = "no benchmark" if not names else f"{len(names)} benchmarks ({', '.join(names[:6])})"
        raise UsageError(f"argument --firelab-filter: '{args.filter}' matches {found} of {args.firelab_bench}; "
                         f"exactly one is needed. Its BM_FluidStep benchmarks: {shown or 'none'}")
    return names[0]


def parse_bench_json(data, name):
    """(step ms, iterations) of the one iteration row in firelab_bench's JSON."""
    rows = [b for b in data.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    if len(rows) != 1:
        raise PeerError(f"firelab_bench reported {len(rows)} results for '{name}', not one")
    b = rows[0]
    if b.get("error_occurred"):
        raise PeerError(f"firelab_bench: {b.get('name')} failed: {b.get('error_message', 'no message')}")
    unit = b.get("time_unit", "ns")
    if unit not in UNIT_MS:
        raise PeerError(f"firelab_bench: unknown time_unit '{unit}'")
    return float(b["real_time"]) * UNIT_MS[unit], int(b.get("iterations", 0))


def run_firelab(args, name):
    fd, out = tempfile.mkstemp(prefix="firelab_peer_", suffix=".json")
    os.close(fd)
    cmd = [args.firelab_bench, f"--benchmark_filter={args.filter}", f"--benchmark_min_time={args.firelab_min_time:g}",
           "--benchmark_format=json", f"--benchmark_out={out}", "--benchmark_out_format=json"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=bench_env())
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
            raise PeerError(f"firelab_bench exited {proc.returncode}: {shlex.join(cmd)}\n{tail}")
        with open(out, encoding="utf-8") as f:
            return parse_bench_json(json.load(f), name)
    except subprocess.TimeoutExpired:
        raise PeerError(f"firelab_bench ran past --timeout {args.timeout:g} s: {shlex.join(cmd)}")
    except (OSError, ValueError) as e:
        raise PeerError(f"firelab_bench's JSON ({out}): {e}")
    finally:
        os.unlink(out)


# ---------------------------------------------------------------------------------------------------------------


def machine():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), model)
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical CPUs"


def main(argv):
    args = parse_args(argv)
    exe = find_blender(args)
    name = check_bench(args)
    print(f"{PROG}: {args.grid}^3 cells, threads {args.threads}, {args.rounds} rounds: Blender ({exe}) against "
          f"{name}", flush=True)
    rows, busy, iterations, blender = [], [], [], None
    for r in range(1, args.rounds + 1):
        t0 = time.monotonic()
        blender = run_blender(exe, args)
        firelab_ms, its = run_firelab(args, name)
        rows += [(r, "mantaflow", blender["step_ms"]), (r, "firelab", firelab_ms)]
        busy.append(blender["cpu_per_wall"])
        iterations.append(its)
        print(f"round {r}/{args.rounds}: mantaflow {blender['step_ms']:.3f} ms, firelab {firelab_ms:.3f} ms "
              f"({time.monotonic() - t0:.0f} s)", flush=True)
    info = blender["info"]
    meta = {
        "grid": args.grid, "threads": args.threads, "frames": args.frames, "warmup": args.warmup,
        "blender_version": info.get("blender_version", "?"), "blender_cells": info.get("cells", "?"),
        "cache_format": info.get("cache_format", "?"), "cache_place": blender["cache_place"],
        "blender_cpu_per_wall": sum(busy) / len(busy), "firelab_benchmark": name,
        "firelab_min_time": args.firelab_min_time, "firelab_iterations": round(sum(iterations) / len(iterations)),
        "machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "command": shlex.join(["scripts/peers/mantaflow_peer.py"] + list(argv)),
    }
    write_atomic(os.path.join(args.out, "peer.csv"), csv_text(rows))
    write_atomic(os.path.join(args.out, "peer.md"), markdown(rows, meta))
    s = summarise(rows)
    print(f"mantaflow / firelab: {s['ratio'][0]:.2f} (95 % {s['ratio'][1]:.2f}-{s['ratio'][2]:.2f}); "
          f"wrote {os.path.join(args.out, 'peer.csv')} and peer.md", flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
    except PeerError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(1)

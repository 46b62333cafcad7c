#!/usr/bin/python3
"""How steady a sweep's figures are: where its variance comes from (frames, rounds, processes, the machine's
state) and how many rounds a 5 % interval needs here; and how far two sweeps of one experiment agree (two
back-to-back runs of it, say). `firelab stability A [B]` runs it.

Usage: scripts/stability.py A [B] [--baseline strategy=points] [--metric frame|cpu|draw] [--json]
                            [--median-tolerance 0.10] [--ratio-tolerance 0.05] [--plot PNG]

Variance by level (each folder given; Kalibera & Jones, "Rigorous benchmarking in reasonable time", ISMM
2013): the log of each measured frame time (frames.csv) and of each paired ratio (a pair of frames of one
cycle, or of rounds when the sweep paired by rounds) is split into random effects nested as they were
measured: processes (--processes), rounds within a process, frames (or pairs) within a round. The method of
moments gives each level's variance: S_f^2 the mean variance within rounds, S_r^2 the variance of the round
means within a process less S_f^2 / F, S_p^2 the variance of the process means less (S_r^2 + S_f^2 / F) / R
(negative estimates are 0). Reported as relative standard deviations (the log's, in per cent) and shares.
The machine's state: the share of the round means' variance that the canary (canary_cpu_ms, canary_gl_ms of
rounds.csv) explains, the R^2 of a least-squares fit of the round means' logs on the canary's. Rounds for a
5 % interval: the fewest rounds R per process at which 1.96 sqrt(S_p^2 / P + S_r^2 / (P R) + S_f^2 / (P R F))
is at most 0.025 (an interval 5 % wide, +-2.5 %), with the sweep's P processes and F frames a round; where
the process level alone exceeds that, the processes it needs instead.

--metric: which time is compared (default frame): frame_ms_median (wall time of the frame), cpu_ms_median
(the process's CPU time over it, which another process loading the machine moves less) or draw_ms_median;
below, "frame_ms_median" and "frame_ratio_median" stand for the metric's columns.

A and B are sweep folders (runs.csv; ratios.csv and meta.json are used when there) or their runs.csv.
Differences are max/min - 1 of the two figures, so A and B play the same part.
1. Medians: of the configurations ok in both, in how many each run's 95% interval of frame_ms_median holds
   the other's median (rows that summarise several rounds), and in how many the medians differ by at most
   --median-tolerance; the worst.
2. Ratios: each configuration whose KEY differs from the baseline's VALUE, over its baseline (VALUE for KEY,
   every other setting the same): the paired ratio of the folder's ratios.csv when it was made against
   this baseline (firelab compare), else the ratio of runs.csv's medians. In how many the ratios of A and B
   agree within --ratio-tolerance; the worst.
3. Ranking: at each value of the innermost axis (particles), whether the series (the run_key without it)
   rank the same by frame_ms_median in A and B. A pair whose 95% intervals overlap in either run has no
   order there, so it is never a disagreement; without intervals every pair counts.
4. Ratio intervals: in how many rows each sweep's 95 % interval of the paired ratio (ratios.csv) holds the
   other's median.
--plot PNG: per folder, the canary's record (each round's CPU and GL parts against the round's start) and the
baseline's round medians, and beside it each paired ratio's spread by level (one process's, one round's, a
round's mean of frames).
Exit status: with two folders, 0 when every median and ratio is within its tolerance and no ranking
disagrees, 1 otherwise; with one, 0; 2 for bad input (no runs.csv, two experiments, an explicit --baseline
that is not swept).
"""
import argparse
import csv
import json
import math
import os
import sys

from firelab_runs import (fail, find_meta, first_seen, join_key, median, num, read_ratios, read_runs,
                          recorded_axes, row_interval, split_run_key)

DEFAULT_BASELINE = "strategy=points"
# Each --metric: its runs.csv median column and its ratios.csv paired-ratio column (firelab compare).
METRICS = {"frame": ("frame_ms_median", "frame_ratio_median"), "cpu": ("cpu_ms_median", "cpu_ratio_median"),
           "draw": ("draw_ms_median", "draw_ratio_median")}


def difference(a, b):
    """max/min - 1: how far apart two positive figures are, whichever is larger."""
    return max(a, b) / min(a, b) - 1.0


class Sweep:
    """One folder's ok configurations: medians, intervals, run_keys split into settings, its axes."""

    def __init__(self, path, metric="frame"):
        self.metric = metric
        self.column, self.ratio_column = METRICS[metric]
        stem = self.column[:-len("_median")]  # NAME_median's interval: NAME_ci_low, NAME_ci_high (docs/csv.md)
        self.interval_columns = (stem + "_ci_low", stem + "_ci_high")
        folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        csv_path = os.path.join(folder, "runs.csv") if os.path.isdir(path) else path
        if not os.path.isfile(csv_path):
            fail(f"{path}: no runs.csv there (not a sweep folder)")
        _, rows = read_runs(csv_path)  # exits 2 for a file that is not a runs.csv
        self.path, self.folder = path, folder
        self.experiments = first_seen(r.get("experiment", "") for r in rows)
        self.ok = {r["run_key"]: r for r in rows
                   if r.get("status", "").strip() == "ok" and num(r.get(self.column)) > 0}
        if not self.ok and any(r.get("status", "").strip() == "ok" for r in rows):
            fail(f"{path}: no run records {self.column} (a sweep from before that column; try another --metric)")
        self.rounds = max([int(num(r.get("rounds"))) for r in self.ok.values() if num(r.get("rounds")) > 0] or [1])
        recorded = self.read_axes()
        self.parts = {}
        for key in self.ok:
            parts = split_run_key(key, list(recorded) if recorded else None)
            if parts is None:
                fail(f"{csv_path}: run_key '{key}' is not name=value;..." +
                     (f" of meta.json's axes {', '.join(recorded)}" if recorded else ""))
            self.parts[key] = parts
        self.axes = recorded or {}
        if not recorded:  # the keys' settings, in order of first appearance
            for parts in self.parts.values():
                for name, value in parts:
                    values = self.axes.setdefault(name, [])
                    if value not in values:
                        values.append(value)
        self.ratio_rows = read_ratios(os.path.join(folder, "ratios.csv"))

    def read_axes(self):
        """meta.json's axes ({name: values}, in order), or None when it records none. Exits 2 when meta.json is
        there but unreadable."""
        meta, problem = find_meta(self.folder)
        if problem:
            fail(problem)
        return recorded_axes(meta)

    def median(self, key):
        return num(self.ok[key][self.column])

    def interval(self, key):
        """(low, high) of the metric's 95% interval when the row summarises several rounds, else None."""
        return row_interval(self.ok[key], self.interval_columns)

    def ratios(self, key, value):
        """{run_key: the metric over its baseline's} and where they come from."""
        paired = {r["run_key"]: num(r.get(self.ratio_column)) for r in self.ratio_rows
                  if r.get("baseline") == f"{key}={value}" and num(r.get(self.ratio_column)) > 0}
        if paired:
            return paired, "ratios.csv"
        out = {}
        for run_key, parts in self.parts.items():
            mine = dict(parts).get(key)
            if mine is None or mine == value:
                continue
            base = join_key([(n, value if n == key else v) for n, v in parts])
            if base in self.ok:
                out[run_key] = self.median(run_key) / self.median(base)
        return out, "runs.csv medians"


def baseline_of(text, a, b, explicit):
    """(KEY, VALUE as the sweeps spell it), or None when the default baseline is not swept. Exits 2 for an
    explicit one that is not KEY=VALUE, or whose KEY or VALUE is not swept in both."""
    key, eq, value = text.partition("=")
    if not eq or not key or not value:
        fail(f"--baseline '{text}': not KEY=VALUE (e.g. {DEFAULT_BASELINE})")
    names = [n for n in a.axes if n in b.axes]
    name = next((n for n in names if n in (key, key.replace("_", "-"))), None)
    if name is None:
        if not explicit:
            return None
        fail(f"--baseline '{text}': '{key}' is not swept in both sweeps; their axes: {', '.join(names) or 'none'}")
    values = [v for v in a.axes[name] if v in b.axes[name]]
    match = next((v for v in values if v == value), None)
    if match is None and num(value) == num(value):  # the same number spelled otherwise (1e3 for 1000)
        match = next((v for v in values if num(v) == num(value)), None)
    if match is None:
        fail(f"--baseline '{text}': '{value}' is not among {name}'s swept values ({', '.join(values)})")
    return name, match


def medians_figure(a, b, common, tolerance):
    both = [k for k in common if a.interval(k) and b.interval(k)]
    holds_b = sum(1 for k in both if a.interval(k)[0] <= b.median(k) <= a.interval(k)[1])
    holds_a = sum(1 for k in both if b.interval(k)[0] <= a.median(k) <= b.interval(k)[1])
    diffs = {k: difference(a.median(k), b.median(k)) for k in common}
    worst = max(common, key=lambda k: diffs[k])
    return {"compared": len(common), "with_intervals": len(both), "a_interval_holds_b_median": holds_b,
            "b_interval_holds_a_median": holds_a,
            "mutual": sum(1 for k in both if a.interval(k)[0] <= b.median(k) <= a.interval(k)[1]
                          and b.interval(k)[0] <= a.median(k) <= b.interval(k)[1]),
            "tolerance": tolerance, "within": sum(1 for d in diffs.values() if d <= tolerance + 1e-12),
            "worst": {"run_key": worst, "a": a.median(worst), "b": b.median(worst), "difference": diffs[worst]}}


def ratios_figure(a, b, baseline, tolerance):
    if baseline is None:
        return {"baseline": None, "compared": 0, "within": 0, "tolerance": tolerance, "worst": None,
                "note": f"{DEFAULT_BASELINE.split('=')[0]} is not swept in both: no ratios"}
    key, value = baseline
    ra, source_a = a.ratios(key, value)
    rb, source_b = b.ratios(key, value)
    common = [k for k in ra if k in rb]
    diffs = {k: difference(ra[k], rb[k]) for k in common}
    worst = max(common, key=lambda k: diffs[k]) if common else None
    return {"baseline": f"{key}={value}", "source": {"a": source_a, "b": source_b}, "compared": len(common),
            "tolerance": tolerance, "within": sum(1 for d in diffs.values() if d <= tolerance + 1e-12),
            "worst": worst and {"run_key": worst, "a": ra[worst], "b": rb[worst], "difference": diffs[worst]}}


RATIO_INTERVALS = {"frame": ("frame_ratio_ci_low", "frame_ratio_ci_high"),
                   "cpu": ("cpu_ratio_ci_low", "cpu_ratio_ci_high"), "draw": ("draw_ratio_ci_low", "draw_ratio_ci_high")}


def ratio_intervals_figure(a, b, baseline, metric):
    """In how many rows of both ratios.csv (against `baseline`) each one's interval holds the other's median."""
    if baseline is None:
        return {"compared": 0}
    want = f"{baseline[0]}={baseline[1]}"
    median_col = METRICS[metric][1]
    low, high = RATIO_INTERVALS[metric]

    def rows(sweep):
        return {r["run_key"]: (num(r.get(median_col)), num(r.get(low)), num(r.get(high)))
                for r in sweep.ratio_rows if r.get("baseline") == want and num(r.get(median_col)) > 0}
    ra, rb = rows(a), rows(b)
    common = [k for k in ra if k in rb and ra[k][1] == ra[k][1] and rb[k][1] == rb[k][1]]
    holds = lambda x, y: x[1] <= y[0] <= x[2]  # noqa: E731
    return {"compared": len(common), "a_holds_b": sum(holds(ra[k], rb[k]) for k in common),
            "b_holds_a": sum(holds(rb[k], ra[k]) for k in common),
            "both": sum(holds(ra[k], rb[k]) and holds(rb[k], ra[k]) for k in common)}


def overlap(i, j):
    return i is not None and j is not None and i[0] <= j[1] and j[0] <= i[1]


def ranking_figure(a, b, common):
    """Per value of the innermost axis: the pairs of series ordered in both runs, and those ordered apart."""
    axes = list(a.axes)
    inner = axes[-1] if len(axes) >= 2 else None
    groups = {}  # value -> {series: run_key}
    for k in common:
        parts = a.parts[k]
        value = dict(parts).get(inner, "(all)") if inner else "(all)"
        series = join_key([(n, v) for n, v in parts if n != inner]) if inner else k
        groups.setdefault(value, {})[series] = k
    values = sorted(groups, key=lambda v: (num(v) != num(v), num(v) if num(v) == num(v) else 0, v))
    out = []
    for value in values:
        series = list(groups[value].items())
        ordered, overlapping, disagreements = 0, 0, []
        for i, (s, ks) in enumerate(series):
            for t, kt in series[i + 1:]:
                da, db = a.median(ks) - a.median(kt), b.median(ks) - b.median(kt)
                if da == 0 or db == 0:
                    continue  # a tie orders nothing
                if overlap(a.interval(ks), a.interval(kt)) or overlap(b.interval(ks), b.interval(kt)):
                    overlapping += 1
                    continue
                ordered += 1
                if (da > 0) != (db > 0):
                    disagreements.append({"series": [s, t], "a": "<" if da < 0 else ">", "b": "<" if db < 0 else ">"})
        out.append({"value": value, "pairs": ordered, "overlapping": overlapping, "disagreements": disagreements})
    return {"axis": inner, "values": out, "same": sum(1 for v in out if not v["disagreements"])}


def compare(a, b, baseline, median_tolerance, ratio_tolerance):
    common = [k for k in a.ok if k in b.ok]
    if not common:
        fail(f"{a.path} and {b.path}: no configuration ran ok in both")
    result = {"a": a.path, "b": b.path, "experiment": a.experiments[0] if a.experiments else "",
              "configurations": {"a": len(a.ok), "b": len(b.ok), "both": len(common)},
              "rounds": {"a": a.rounds, "b": b.rounds},
              "medians": medians_figure(a, b, common, median_tolerance),
              "ratios": ratios_figure(a, b, baseline, ratio_tolerance),
              "ranking": ranking_figure(a, b, common),
              "ratio_intervals": ratio_intervals_figure(a, b, baseline, a.metric)}
    m, r, k = result["medians"], result["ratios"], result["ranking"]
    reasons = []
    if m["within"] < m["compared"]:
        reasons.append(f"{m['compared'] - m['within']} median(s) differ by more than {m['tolerance']:.0%}")
    if r["within"] < r["compared"]:
        reasons.append(f"{r['compared'] - r['within']} ratio(s) differ by more than {r['tolerance']:.0%}")
    for v in k["values"]:
        if v["disagreements"]:
            reasons.append(f"the ranking differs at {k['axis'] or 'the configurations'}={v['value']}")
    result["stable"], result["reasons"] = not reasons, reasons
    return result


def signed(a, b):
    return f"{(b / a - 1) * 100:+.1f}%"


def print_text(res):
    m, r, k = res["medians"], res["ratios"], res["ranking"]
    c = res["configurations"]
    print(f"A: {res['a']} ({c['a']} configurations ok, {res['rounds']['a']} round(s))")
    print(f"B: {res['b']} ({c['b']} configurations ok, {res['rounds']['b']} round(s))")
    print(f"experiment {res['experiment']}: {c['both']} configurations ok in both")
    print(f"1. medians ({res['column']})")
    if m["with_intervals"]:
        n = m["with_intervals"]
        print(f"   A's 95% interval holds B's median in {m['a_interval_holds_b_median']}/{n}, B's holds A's in "
              f"{m['b_interval_holds_a_median']}/{n}, both in {m['mutual']}/{n}")
    else:
        print("   no 95% intervals (one round): only the medians are compared")
    w = m["worst"]
    print(f"   within {m['tolerance']:.0%}: {m['within']}/{m['compared']}; worst {w['run_key']}: "
          f"{w['a']:.4g} ms in A, {w['b']:.4g} in B ({signed(w['a'], w['b'])})")
    if r["baseline"] is None:
        print(f"2. ratios: {r['note']}")
    else:
        print(f"2. ratios to {r['baseline']} at the same other settings (A: {r['source']['a']}, "
              f"B: {r['source']['b']})")
        w = r["worst"]
        worst = (f"; worst {w['run_key']}: {w['a']:.4g} in A, {w['b']:.4g} in B ({signed(w['a'], w['b'])})"
                 if w else "")
        print(f"   within {r['tolerance']:.0%}: {r['within']}/{r['compared']}{worst}")
    axis = k["axis"] or "(one group)"
    pairs = sum(v["pairs"] for v in k["values"])
    overlapping = sum(v["overlapping"] for v in k["values"])
    bad = sum(len(v["disagreements"]) for v in k["values"])
    print(f"3. ranking of the series by {res['column']} at each {axis} (pairs whose intervals overlap not counted)")
    print(f"   the same at {k['same']}/{len(k['values'])} values: {pairs} pair(s) ordered in both, {bad} ordered "
          f"apart, {overlapping} overlapping")
    for v in k["values"]:
        for d in v["disagreements"]:
            s, t = d["series"]
            print(f"   {axis}={v['value']}: {s} {d['a']} {t} in A, {d['b']} in B")
    ri = res["ratio_intervals"]
    if ri["compared"]:
        n = ri["compared"]
        print(f"4. ratio intervals (ratios.csv): A's 95% interval holds B's median in {ri['a_holds_b']}/{n}, "
              f"B's holds A's in {ri['b_holds_a']}/{n}, both in {ri['both']}/{n}")
    print("stable: yes" if res["stable"] else f"stable: no ({'; '.join(res['reasons'])})")



# --- variance by level ----------------------------------------------------------------------------------

Z95 = 1.959964
HALF_WIDTH = 0.025  # "a 5 % interval": 95 % of it within +-2.5 % of the figure
OUTLIER_FACTOR = 10.0  # a frame over 10 times its run's median is left out, as firelab's summaries do


def read_frames(folder):
    """frames.csv's records as dicts with numbers, [] when there is none."""
    path = os.path.join(folder, "frames.csv")
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out = []
    for r in rows:
        rec = {"run_key": r["run_key"], "group": r["group_key"], "process": whole(r["process"]),
               "round": whole(r["round"]), "cycle": whole(r["cycle"], 0), "frame": num(r["frame_ms"]),
               "cpu": num(r["cpu_ms"]), "draw": num(r["draw_ms"])}
        out.append(rec)
    return out


def read_rounds(folder):
    """rounds.csv's ok rows (runs.csv's for a sweep of one round)."""
    for name in ("rounds.csv", "runs.csv"):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            _, rows = read_runs(path)
            return [r for r in rows if r.get("status", "").strip() == "ok"]
    return []


def without_outliers(values):
    m = median(values)
    return [v for v in values if v > 0 and v <= OUTLIER_FACTOR * m]


def variance(values):
    n = len(values)
    if n < 2:
        return math.nan
    mean = sum(values) / n
    return sum((v - mean) ** 2 for v in values) / (n - 1)


def mean(values):
    return sum(values) / len(values) if values else math.nan


def components(nested):
    """{process: {round: [log values]}} -> the levels' variances (method of moments, nested random effects),
    with the design's sizes: (S_p^2, S_r^2, S_f^2, P, R, F). A level that cannot be estimated (one process,
    one round, one value a round) is NaN."""
    rounds = [(p, r, vals) for p, by in nested.items() for r, vals in by.items() if vals]
    if not rounds:
        return None
    f_var = [variance(v) for _, _, v in rounds if len(v) > 1]
    s_f = mean(f_var) if f_var else math.nan
    sizes = [len(v) for _, _, v in rounds]
    F = len(sizes) / sum(1.0 / n for n in sizes)  # the harmonic mean: unbalanced rounds weigh as they count
    r_vars, proc_means, r_counts = [], [], []
    for p, by in nested.items():
        means = [mean(v) for v in by.values() if v]
        if len(means) > 1:
            r_vars.append(variance(means))
        if means:
            proc_means.append(mean(means))
            r_counts.append(len(means))
    R = mean(r_counts)
    between_rounds = mean(r_vars) if r_vars else math.nan
    frames_part = s_f / F if s_f == s_f else 0.0
    s_r = max(between_rounds - frames_part, 0.0) if between_rounds == between_rounds else math.nan
    P = len(proc_means)
    if P > 1:
        within = (s_r if s_r == s_r else 0.0) + frames_part
        s_p = max(variance(proc_means) - within / R, 0.0)
    else:
        s_p = math.nan
    return {"S_p2": s_p, "S_r2": s_r, "S_f2": s_f, "P": P, "R": R, "F": F}


def rounds_needed(c):
    """Rounds per process for a 5 % interval at the sweep's P and F, or (None, processes needed) when the
    process level alone is wider."""
    s_p = c["S_p2"] if c["S_p2"] == c["S_p2"] else 0.0
    s_r = c["S_r2"] if c["S_r2"] == c["S_r2"] else 0.0
    s_f = c["S_f2"] if c["S_f2"] == c["S_f2"] else 0.0
    P, F = c["P"], c["F"]
    budget = (HALF_WIDTH / Z95) ** 2 - s_p / P
    if budget <= 0:
        return None, math.ceil(s_p / (HALF_WIDTH / Z95) ** 2)
    return max(1, math.ceil((s_r + s_f / F) / (P * budget))), None


def whole(text, default=1):
    """A process or round number; `default` for an empty field (a sweep before the column)."""
    v = num(text)
    return int(v) if v == v else default


def canary_share(rounds_rows, key_of_round):
    """R^2 of the round means' logs (key_of_round: (process, round) -> mean log) on the logs of each round's
    canary parts; NaN without enough rounds or canary figures."""
    xs, ys = [], []
    for r in rounds_rows:
        k = (whole(r.get("process")), whole(r.get("round")))
        cpu, gl = num(r.get("canary_cpu_ms")), num(r.get("canary_gl_ms"))
        if k in key_of_round and cpu > 0 and gl > 0:
            xs.append((math.log(cpu), math.log(gl)))
            ys.append(key_of_round[k])
    if len(ys) < 4:
        return math.nan
    import numpy as np
    X = np.column_stack([np.ones(len(xs)), np.array(xs)])
    y = np.array(ys)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    residual = y - X @ coef
    total = ((y - y.mean()) ** 2).sum()
    return float(1.0 - (residual ** 2).sum() / total) if total > 0 else math.nan


def nest(records, value):
    """{process: {round: [log value]}} from frame records, each run's outliers left out."""
    runs = {}
    for r in records:
        runs.setdefault((r["process"], r["round"]), []).append(r)
    out = {}
    for (p, rnd), recs in runs.items():
        vals = without_outliers([value(x) for x in recs])
        out.setdefault(p, {})[rnd] = [math.log(v) for v in vals if v > 0]
    return out


def paired(mine, base, metric):
    """{process: {round: [log ratio]}}: mine over base per cycle of one alternated run, or, where the two were
    never drawn together, per round (the round medians' ratio: one value a round)."""
    by = lambda recs: {(r["group"], r["process"], r["round"], r["cycle"]): r[metric] for r in recs}  # noqa: E731
    a, b = by(mine), by(base)
    out = {}
    for k, v in a.items():
        if k in b and v > 0 and b[k] > 0:
            out.setdefault(k[1], {}).setdefault(k[2], []).append(math.log(v / b[k]))
    if out:
        return out, "frames"
    rounds = {}
    for recs, slot in ((mine, 0), (base, 1)):
        for r in recs:
            rounds.setdefault((r["process"], r["round"]), ([], []))[slot].append(r[metric])
    for (p, rnd), (x, y) in rounds.items():
        if x and y:
            out.setdefault(p, {})[rnd] = [math.log(median(x) / median(y))]
    return out, "rounds"


class Levels:
    """One folder's variance by level: per configuration (log frame time) and per ratio to the baseline."""

    def __init__(self, sweep, baseline, metric):
        self.folder = sweep.folder
        records = read_frames(sweep.folder)
        if not records:
            fail(f"{sweep.path}: no frames.csv (a sweep of a firelab before issue #37 kept no frame times): "
                 "the levels need every frame")
        rows = read_rounds(sweep.folder)
        self.rows = rows
        by_key = {}
        for r in records:
            by_key.setdefault(r["run_key"], []).append(r)
        self.configurations = []
        for key in sweep.ok:
            if key not in by_key:
                continue
            nested = nest(by_key[key], lambda x: x[metric])
            c = components(nested)
            if c is None:
                continue
            means = {(p, rnd): mean(v) for p, by in nested.items() for rnd, v in by.items() if v}
            c["machine"] = canary_share([r for r in rows if r["run_key"] == key], means)
            c["key"] = key
            self.configurations.append(c)
        self.ratios = []
        if baseline:
            name, value = baseline
            for key, parts in sweep.parts.items():
                mine = dict(parts).get(name)
                if mine is None or mine == value or key not in by_key:
                    continue
                base = join_key([(n, value if n == name else v) for n, v in parts])
                if base not in by_key:
                    continue
                nested, how = paired(by_key[key], by_key[base], metric)
                c = components(nested)
                if c is None:
                    continue
                c["key"], c["paired_by"] = key, how
                self.ratios.append(c)


def pct(v2):
    return "" if v2 != v2 else f"{100.0 * math.sqrt(v2):.2f}"


def share(c, level):
    parts = [c[k] for k in ("S_p2", "S_r2", "S_f2") if c[k] == c[k]]
    total = sum(parts)
    return "" if c[level] != c[level] or total <= 0 else f"{100.0 * c[level] / total:.0f}%"


def needed_text(c):
    rounds, processes = rounds_needed(c)
    return f"{rounds}" if rounds is not None else f"more processes: {processes}"


def levels_table(items, title, ratio=False):
    lines = [f"**{title}** (relative standard deviation of one value, per cent, and its share of the total; "
             "rounds per process for a 5 % interval)", "",
             "| configuration | " + ("paired by | " if ratio else "") +
             "P | R | F | processes | rounds | frames | shares p / r / f | " +
             ("" if ratio else "canary R^2 of the rounds | ") + "rounds for 5 % |",
             "|---|" + ("---|" if ratio else "") + "---|---|---|---|---|---|---|" + ("" if ratio else "---|") + "---|"]
    for c in items:
        cells = [c["key"]] + ([c["paired_by"]] if ratio else []) + [
            str(c["P"]), f"{c['R']:.3g}", f"{c['F']:.3g}", pct(c["S_p2"]), pct(c["S_r2"]), pct(c["S_f2"]),
            " / ".join(share(c, k) or "-" for k in ("S_p2", "S_r2", "S_f2"))]
        if not ratio:
            cells.append("" if c["machine"] != c["machine"] else f"{c['machine']:.2f}")
        cells.append(needed_text(c))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def print_levels(levels, label):
    print(f"## {label}: variance by level ({levels.folder})\n")
    print(levels_table(levels.configurations, "Frame times"))
    print()
    if levels.ratios:
        print(levels_table(levels.ratios, "Paired ratios to the baseline", ratio=True))
        print()


def levels_json(levels):
    def clean(c):
        return {k: (None if isinstance(v, float) and v != v else v) for k, v in c.items()}
    return {"folder": levels.folder, "configurations": [clean(c) for c in levels.configurations],
            "ratios": [clean(c) | {"rounds_needed": rounds_needed(c)[0], "processes_needed": rounds_needed(c)[1]}
                       for c in levels.ratios]}


def plot_ratio_levels(ax, lv, label):
    """Each paired ratio's spread by level, as the relative standard deviation of one process's, one round's
    and one round's mean of frames (S_f / sqrt(F)): where a ratio's interval gets its width."""
    levels = (("S_p2", 1, "one process", "tab:purple"), ("S_r2", 1, "one round", "tab:green"),
              ("S_f2", "F", "a round's mean of frames", "tab:gray"))
    items = lv.ratios
    if not items:
        ax.axis("off")
        return
    height = 0.8 / len(levels)
    for j, (key, per, name, colour) in enumerate(levels):
        ys = [i + (j - 1) * height for i in range(len(items))]
        xs = [100.0 * math.sqrt(c[key] / (c["F"] if per == "F" else 1)) if c[key] == c[key] else 0.0
              for c in items]
        ax.barh(ys, xs, height=height, color=colour, label=name)
    ax.set_yticks(range(len(items)))
    ax.set_yticklabels([f"{c['key']} ({c['paired_by']})" for c in items], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("relative standard deviation, % (paired ratio to the baseline)")
    ax.set_title(f"{label}: the ratios' variance by level, {lv.configurations[0]['P'] if lv.configurations else '?'} "
                 "process(es)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3, axis="x")


def plot_canary(levels_list, labels, baseline, out):
    """The canary's record per folder: each round's CPU and GL parts and the baseline's round median."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(levels_list), 2, figsize=(15, 3.6 * len(levels_list)), squeeze=False,
                             gridspec_kw={"width_ratios": [3, 2]})
    for ax, lv, label in zip(axes[:, 1], levels_list, labels):
        plot_ratio_levels(ax, lv, label)
    for ax, lv, label in zip(axes[:, 0], levels_list, labels):
        rows = sorted(lv.rows, key=lambda r: r.get("started", ""))
        base = [r for r in rows if baseline and dict(split_run_key(r["run_key"]) or []).get(baseline[0]) == baseline[1]]
        t0 = None
        def when(r):
            from datetime import datetime
            t = datetime.fromisoformat(r["started"].replace("Z", "+00:00")).timestamp()
            return t
        times = [when(r) for r in rows if r.get("started")]
        t0 = min(times) if times else 0.0
        for col, colour, name in (("canary_cpu_ms", "tab:blue", "canary CPU part"),
                                  ("canary_gl_ms", "tab:orange", "canary GL part")):
            pts = [(when(r) - t0, num(r.get(col))) for r in rows if num(r.get(col)) > 0]
            if pts:
                m = median([v for _, v in pts])
                ax.plot([p[0] for p in pts], [p[1] / m for p in pts], ".", color=colour, label=f"{name} / median")
        for i, key in enumerate(first_seen(r["run_key"] for r in base)):  # each baseline by its own median
            pts = [(when(r) - t0, num(r.get("frame_ms_median"))) for r in base
                   if r["run_key"] == key and num(r.get("frame_ms_median")) > 0]
            m = median([v for _, v in pts])
            ax.plot([p[0] for p in pts], [p[1] / m for p in pts], "k+", markersize=8,
                    label="each baseline's round median / its median" if i == 0 else None)
        flagged = [when(r) - t0 for r in rows if r.get("canary_off") == "1"]
        for x in flagged:
            ax.axvline(x, color="red", alpha=0.15, linewidth=3)
        ax.axhspan(0.9, 1.1, color="0.9", zorder=0)
        ax.set_title(f"{label}: {os.path.basename(os.path.normpath(lv.folder))} "
                     f"({len(flagged)} row(s) of rounds.csv flagged canary_off, red)", fontsize=9)
        ax.set_xlabel("s since the sweep's first run")
        ax.set_ylabel("relative to its median")
        ax.legend(fontsize=7, loc="upper right")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", metavar="A", help="a sweep folder (or its runs.csv)")
    ap.add_argument("b", metavar="B", nargs="?", help="another sweep of the same experiment, to compare with A")
    ap.add_argument("--baseline", metavar="KEY=VALUE",
                    help=f"what ratios are taken against [{DEFAULT_BASELINE}, skipped when not swept]")
    ap.add_argument("--median-tolerance", type=float, default=0.10, metavar="F")
    ap.add_argument("--ratio-tolerance", type=float, default=0.05, metavar="F")
    ap.add_argument("--metric", choices=sorted(METRICS), default="frame",
                    help="the time compared: frame (wall), cpu (the process's CPU time) or draw [frame]")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--plot", metavar="PNG", help="the canary's record, the baseline's rounds and the ratios' "
                    "variance by level, per folder")
    ap.add_argument("--no-levels", action="store_true", help="leave out the variance by level")
    args = ap.parse_args()
    a = Sweep(args.a, args.metric)
    b = Sweep(args.b, args.metric) if args.b else None
    if b and a.experiments != b.experiments:
        fail(f"{args.a} holds experiment {', '.join(a.experiments) or '?'}, {args.b} "
             f"{', '.join(b.experiments) or '?'}: compare two sweeps of one experiment")
    sweeps = [s for s in (a, b) if s]
    baseline = baseline_of(args.baseline or DEFAULT_BASELINE, a, b or a, explicit=args.baseline is not None)
    metric = {"frame": "frame", "cpu": "cpu", "draw": "draw"}[args.metric]
    # The levels need every frame (frames.csv, firelab since issue #37): one folder without it is an error, two
    # are still compared on their summaries.
    with_frames = [s for s in sweeps if os.path.isfile(os.path.join(s.folder, "frames.csv"))]
    if not b and not with_frames and not args.no_levels:
        fail(f"{args.a}: no frames.csv (a sweep of a firelab before issue #37 kept no frame times): the variance "
             "by level needs every frame; give two sweeps to compare their summaries")
    levels = [] if args.no_levels else [Levels(s, baseline, metric) for s in with_frames]
    res = compare(a, b, baseline, args.median_tolerance, args.ratio_tolerance) if b else None
    if res:
        res["metric"], res["column"] = args.metric, a.column
    if args.plot:
        plot_canary(levels or [Levels(s, baseline, metric) for s in with_frames], ["A", "B"], baseline, args.plot)
    if args.json:
        out = dict(res or {})
        out["levels"] = [levels_json(lv) for lv in levels]
        print(json.dumps(out, indent=2))
    else:
        for lv in levels:
            print_levels(lv, "A" if lv.folder == a.folder else "B")
        if res:
            print_text(res)
    return 0 if not res or res["stable"] else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""How far two sweeps of one experiment agree (two back-to-back runs of it, say): the three figures that a
measurement's closing note needs.

Usage: scripts/stability.py A B [--baseline strategy=points] [--metric frame|cpu|draw] [--json]
                            [--median-tolerance 0.10] [--ratio-tolerance 0.05]

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
Exit status: 0 when every median and ratio is within its tolerance and no ranking disagrees, 1 otherwise,
2 for bad input (no runs.csv, two experiments, an explicit --baseline that is not swept).
"""
import argparse
import json
import os
import sys

from firelab_runs import (fail, find_meta, first_seen, join_key, num, read_ratios, read_runs,
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
              "ranking": ranking_figure(a, b, common)}
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
    print("stable: yes" if res["stable"] else f"stable: no ({'; '.join(res['reasons'])})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", metavar="A", help="a sweep folder (or its runs.csv)")
    ap.add_argument("b", metavar="B", help="another sweep of the same experiment")
    ap.add_argument("--baseline", metavar="KEY=VALUE",
                    help=f"what ratios are taken against [{DEFAULT_BASELINE}, skipped when not swept]")
    ap.add_argument("--median-tolerance", type=float, default=0.10, metavar="F")
    ap.add_argument("--ratio-tolerance", type=float, default=0.05, metavar="F")
    ap.add_argument("--metric", choices=sorted(METRICS), default="frame",
                    help="the time compared: frame (wall), cpu (the process's CPU time) or draw [frame]")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    a, b = Sweep(args.a, args.metric), Sweep(args.b, args.metric)
    if a.experiments != b.experiments:
        fail(f"{args.a} holds experiment {', '.join(a.experiments) or '?'}, {args.b} "
             f"{', '.join(b.experiments) or '?'}: compare two sweeps of one experiment")
    baseline = baseline_of(args.baseline or DEFAULT_BASELINE, a, b, explicit=args.baseline is not None)
    res = compare(a, b, baseline, args.median_tolerance, args.ratio_tolerance)
    res["metric"], res["column"] = args.metric, a.column
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_text(res)
    return 0 if res["stable"] else 1


if __name__ == "__main__":
    sys.exit(main())

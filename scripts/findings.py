#!/usr/bin/python3
"""An experiment's finding, declared in its file's [report] table (docs/report.md) and made here into
results/<name>/tables.md and its plots, from the committed CSVs alone (runs.csv, ratios.csv, meta.json of each
source folder). One verb per kind of table, combined by writing TOML:

  configurations  one row per configuration: its settings, figures with their intervals, sorted, filtered by a
                  quality floor, marked on the Pareto front of a cost against metrics, relative to a baseline
  cheapest        the cheapest configuration at each quality floor (per value of a setting), with those the
                  intervals do not tell from it
  pivot           rows one setting's values, columns another's (or a configuration's), a cell one figure
  crossing        per series, where a metric first reaches a floor along an x setting (log x), the cost there
  ratio           the median ratio of a figure between values of one setting, matched on the other settings
  paired          the sweep's paired ratios (ratios.csv) with their intervals
and two kinds of plot: scatter (a cost against metrics per group, intervals, labels, the front ringed) and
lines (figures against an x setting per series).

Usage:
  scripts/findings.py EXPERIMENT.toml [--folder DIR] [--no-plots]   DIR/tables.md and plots (default results/NAME)
  scripts/findings.py --all [--no-plots]                 every experiments/*.toml with a [report]
  scripts/findings.py --sweep FOLDER                     after a sweep (firelab runs it): the finding FOLDER feeds,
                                                         when its experiment has a [report] and its sources are all there
  scripts/findings.py --readme results/README.md         fill the README's <!-- findings: NAME/tables.md#ID --> blocks
  scripts/findings.py --check [--readme results/README.md]   exit 1 when a committed tables.md (or a README block)
                                                         is not what this makes of the committed files
A bad [report] exits 2 with one line naming the experiment file, the key and what is allowed.
"""
import argparse
import glob
import math
import os
import re
import sys
import tomllib

from firelab_runs import (DEFAULTS, Columns, display_value, fail, figure_cell, find_meta,
                          first_crossing, first_seen, fixed_settings, format_figure, interpolate_log,
                          intervals_overlap, is_default, median, num, ok_rows, pareto_frontier, read_ratios,
                          read_runs, recorded_axes, row_interval, same_value, setting_number, setting_of,
                          setting_text, shortened, split_run_key, warn)

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TABLES = "tables.md"
FRONT_MARK = "◆"
INTERVAL = "[interval]"  # a figure written "frame_ms_median [interval]" must have one
SOURCE = "source"  # a setting every run has: the source folder it was read from


# >>> the schema: the verbs and their keys ----------------------------------------------------------------

class Bad(Exception):
    """A [report] that cannot be made: the key (as `[[report.table]] 2 floor.flip_fire`) and what is wrong."""

    def __init__(self, key, message):
        super().__init__(f"{key}: {message}" if key else message)
        self.key, self.message = key, message


def type_name(value):
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "an array",
            dict: "a table"}.get(type(value), "a date or time")


def text(value, key):
    if not isinstance(value, str) or not value.strip():
        raise Bad(key, f"expected text in quotes, got {type_name(value)}")
    return value.strip()


def names(value, key):
    """A setting name or a list of them."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise Bad(key, f"expected a setting name or an array of them, got {type_name(value)}")
    return [v.strip().replace("-", "_") for v in items]


def folders(value, key):
    """Source folder names: sub-folders of the finding's folder, or '.' for the folder itself."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise Bad(key, f"expected a folder name or an array of them, got {type_name(value)}")
    for v in items:
        if os.path.isabs(v) or ".." in v.split("/"):
            raise Bad(key, f"{v!r}: a sub-folder of the finding's folder, or '.'")
    return [os.path.normpath(v.strip()) for v in items]


class Figure:
    """A figure a table shows: a column, and whether the experiment file asks for its interval."""

    def __init__(self, spec, key):
        m = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*(\[interval\])?\s*", spec) if isinstance(spec, str) else None
        if not m:
            raise Bad(key, f"expected a column name (optionally followed by {INTERVAL}), got "
                           f"{spec!r}" if isinstance(spec, str) else f"expected a column name, got {type_name(spec)}")
        self.name, self.wants_interval, self.key = m.group(1), bool(m.group(2)), key

    def __repr__(self):
        return self.name + (" " + INTERVAL if self.wants_interval else "")


def figures(value, key):
    items = value if isinstance(value, list) else [value]
    if not items:
        raise Bad(key, "an empty array; name at least one column")
    return [Figure(v, key) for v in items]


def figure(value, key):
    if isinstance(value, list):
        raise Bad(key, "one column, not an array")
    return Figure(value, key)


def number(value, key):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Bad(key, f"expected a number, got {type_name(value)}")
    return float(value)


def numbers(value, key):
    items = value if isinstance(value, list) else [value]
    if not items:
        raise Bad(key, "an empty array; give at least one number")
    return [number(v, key) for v in items]


def floor(value, key):
    """A quality floor: {metric column: bound}, every bound to be met (≥ where higher is better, else ≤)."""
    if not isinstance(value, dict):
        raise Bad(key, f"expected a table of metric = bound (floor = {{ ssim_fire = 0.98 }}), got {type_name(value)}")
    return {k.replace("-", "_"): number(v, f"{key}.{k}") for k, v in value.items()}


def floors(value, key):
    if not isinstance(value, list) or not value:
        raise Bad(key, f"expected an array of floors ([{{ flip_fire = 0.1 }}, {{}}]), got {type_name(value)}")
    return [floor(v, f"{key}[{i}]") for i, v in enumerate(value, start=1)]


def floor_lists(value, key):
    """{metric: [bounds]}: the lines a plot draws."""
    if not isinstance(value, dict):
        raise Bad(key, f"expected a table of metric = [bounds], got {type_name(value)}")
    return {k.replace("-", "_"): numbers(v, f"{key}.{k}") for k, v in value.items()}


def value_text(value, key):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    raise Bad(key, f"expected a value (text, a number, true/false), got {type_name(value)}")


def selector(value, key):
    """{setting: value or [values]}: the runs whose setting holds one of the values."""
    if not isinstance(value, dict) or not value:
        raise Bad(key, f"expected a table of setting = value or [values], got {type_name(value)}")
    out = {}
    for k, v in value.items():
        items = v if isinstance(v, list) else [v]
        out[k.replace("-", "_")] = [value_text(x, f"{key}.{k}") for x in items]
    return out


def boolean(value, key):
    if not isinstance(value, bool):
        raise Bad(key, f"expected true or false, got {type_name(value)}")
    return value


def count(value, key):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise Bad(key, f"expected a whole number from 1, got {value!r}")
    return value


def one_of(*choices):
    def check(value, key):
        if value not in choices:
            raise Bad(key, f"{value!r}: expected one of {', '.join(choices)}")
        return value
    return check


def anchor(value, key):
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", value):
        raise Bad(key, f"{value!r}: expected lower-case letters, digits and '-' (it is the table's anchor)")
    return value


def sorting(value, key):
    """A figure or setting, or a list of them, each optionally '-' first (descending)."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and re.fullmatch(r"-?[A-Za-z0-9_-]+", v.strip()) for v in items):
        raise Bad(key, f"expected a column name or an array of them ('-' first: descending), got {value!r}")
    return [(v.strip().lstrip("-").replace("-", "_"), v.strip().startswith("-")) for v in items]


def front(value, key):
    if not isinstance(value, dict):
        raise Bad(key, f"expected a table {{ cost = \"frame_ms_median\", against = [\"flip_fire\"] }}, "
                       f"got {type_name(value)}")
    unknown = sorted(set(value) - {"cost", "against"})
    if unknown:
        raise Bad(f"{key}.{unknown[0]}", "not a key of front; it takes cost and against")
    if "against" not in value:
        raise Bad(f"{key}.against", "missing: the figures the cost is weighed against")
    return {"cost": figure(value.get("cost", "frame_ms_median"), f"{key}.cost"),
            "against": figures(value["against"], f"{key}.against")}


# Keys every table takes, and each verb's own: key -> (check, required).
COMMON = {"kind": (text, True), "id": (anchor, False), "title": (text, False), "note": (text, False),
          "sources": (folders, False), "where": (selector, False), "group": (names, False), "csv": (text, False)}
VERBS = {
    "configurations": {"rows": (names, False), "show": (names, False), "label": (one_of("name", "columns"), False),
                       "columns": (figures, False), "sort": (sorting, False), "front": (front, False),
                       "floor": (floor, False), "baseline": (selector, False), "relative": (figures, False),
                       "keep": (one_of("all", "front"), False), "limit": (count, False)},
    "cheapest": {"rows": (names, False), "show": (names, False), "cost": (figure, False), "floors": (floors, False),
                 "per": (names, False), "columns": (figures, False)},
    "pivot": {"rows": (names, True), "columns": (names, False), "show": (names, False), "cells": (figures, True), "also": (figures, False)},
    "crossing": {"x": (names, True), "series": (names, False), "metric": (figure, True), "at": (numbers, True),
                 "cost": (figures, False)},
    "ratio": {"setting": (names, True), "base": (value_text, True), "figures": (figures, False),
              "matched": (names, False)},
    "paired": {"columns": (figures, False)},
}
PLOTS = {
    "scatter": {"cost": (figure, False), "metrics": (figures, True), "rows": (names, False), "show": (names, False),
                "colour": (names, False), "marker": (names, False), "log": (boolean, False)},
    "lines": {"x": (names, True), "figures": (figures, True), "series": (names, False), "log_x": (boolean, False),
              "log_y": (names, False), "at": (floor_lists, False)},
}
PLOT_COMMON = {"kind": (text, True), "file": (text, True), "title": (text, False), "sources": (folders, False),
               "where": (selector, False), "group": (names, False)}
REPORT_KEYS = ("sources", "table", "plot")


class Spec:
    """One [[report.table]] or [[report.plot]] entry, checked against its verb's keys."""

    def __init__(self, entry, where, verbs, common, default_file):
        self.where_key = where
        if not isinstance(entry, dict):
            raise Bad(where, f"expected a table ([[...]]), got {type_name(entry)}")
        if "kind" not in entry:
            raise Bad(f"{where} kind", f"missing; the verbs are {', '.join(verbs)}")
        self.kind = text(entry["kind"], f"{where} kind")
        if self.kind not in verbs:
            raise Bad(f"{where} kind", f"{self.kind!r} is not a verb; the verbs are {', '.join(verbs)}")
        keys = dict(common, **verbs[self.kind])
        for k in entry:
            if k not in keys:
                raise Bad(f"{where} {k}", f"not a key of a {self.kind} entry; it takes {', '.join(keys)}")
        self.values = {}
        for k, (check, required) in keys.items():
            if k in entry:
                self.values[k] = check(entry[k], f"{where} {k}")
            elif required:
                raise Bad(f"{where} {k}", f"missing: a {self.kind} entry needs {k}")
        self.csv = self.values.get("csv", default_file if self.kind != "paired" else "ratios.csv")
        self.file = self.values.get("file", "")

    def get(self, key, default=None):
        return self.values.get(key, default)

    def key(self, name):
        return f"{self.where_key} {name}"


class Report:
    """An experiment file's [report]: its sources and its entries, checked without reading any data."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise Bad("", f"cannot read it ({e})") from e
        experiment = doc.get("experiment") if isinstance(doc.get("experiment"), dict) else {}
        self.name = str(experiment.get("name") or os.path.splitext(os.path.basename(path))[0])
        self.question = str(experiment.get("question") or experiment.get("description") or "")
        report = doc.get("report")
        self.present = report is not None
        if report is None:
            report = {}
        if not isinstance(report, dict):
            raise Bad("[report]", f"expected a table, got {type_name(report)}")
        for k in report:
            if k not in REPORT_KEYS:
                raise Bad(f"[report] {k}", f"not a key of [report]; it takes {', '.join(REPORT_KEYS)}")
        self.sources = folders(report["sources"], "[report] sources") if "sources" in report else ["."]
        self.tables = self.entries(report, "table", VERBS, COMMON)
        self.plots = self.entries(report, "plot", PLOTS, PLOT_COMMON)
        seen = {}
        for i, t in enumerate(self.tables, start=1):
            t.id = t.get("id") or (t.kind if t.kind not in seen else f"{t.kind}-{i}")
            if t.id in seen or t.id == "measured":
                raise Bad(t.key("id"), f"{t.id!r} names table {seen.get(t.id, 'measured')} too; each id once")
            seen[t.id] = i
            for s in t.get("sources", []):
                if s not in self.sources:
                    raise Bad(t.key("sources"), f"{s!r} is not one of [report] sources ({', '.join(self.sources)})")
        for p in self.plots:
            if not re.fullmatch(r"[A-Za-z0-9_.-]+\.png", p.file):
                raise Bad(p.key("file"), f"{p.file!r}: a file name ending in .png")
            for s in p.get("sources", []):
                if s not in self.sources:
                    raise Bad(p.key("sources"), f"{s!r} is not one of [report] sources ({', '.join(self.sources)})")

    @staticmethod
    def entries(report, name, verbs, common):
        items = report.get(name, [])
        if isinstance(items, dict):
            items = [items]
        if not isinstance(items, list):
            raise Bad(f"[report] {name}", f"expected [[report.{name}]] entries, got {type_name(items)}")
        return [Spec(e, f"[[report.{name}]] {i}", verbs, common, "runs.csv") for i, e in enumerate(items, start=1)]


# >>> the data: sources, runs, configurations -------------------------------------------------------------

class Source:
    """One source folder's file (runs.csv, or another of the same columns), its meta.json and its ok runs."""

    def __init__(self, folder, name, file):
        self.name, self.folder = name, os.path.normpath(os.path.join(folder, name))
        self.path = os.path.join(self.folder, file)
        self.meta, problem = find_meta(self.folder)
        if problem:
            warn(problem)
        self.columns = Columns(self.meta)
        axes = recorded_axes(self.meta)
        self.axes = list(axes) if axes else None
        self.fixed = {self.columns.column_of(k): v for k, v in fixed_settings(self.meta).items()}
        if file.startswith("ratios"):
            self.rows = read_ratios(self.path) if os.path.isfile(self.path) else fail(f"{self.path}: no such file")
            self.header = list(self.rows[0]) if self.rows else []
            self.runs = [Run(r, self) for r in self.rows]
        else:
            self.header, self.rows = read_runs(self.path)
            self.runs = [Run(r, self) for r in ok_rows(self.rows)]

    def key_parts(self, row):
        parts = (split_run_key(row.get("run_key", ""), self.axes) if self.axes else None) \
            or split_run_key(row.get("run_key", "")) or []
        return {self.columns.column_of(n): v for n, v in parts}

    def interval_ends(self, col):
        """The columns of col's 95 % interval when this file has them (frame_ms_ci_low, frame_ms_ci_high), else
        None: from meta.json's column rules, or ratios.csv's _ci_low/_ci_high."""
        ends = self.columns.interval(col) or paired_ends(col, self.header)
        return ends if ends and all(e in self.header for e in ends) else None

    def settings(self):
        """The setting names this file's runs have, in its header's order, then the run_key's and meta.json's."""
        return first_seen([*self.columns.names("setting", self.header),
                           *(n for r in self.runs for n in r.parts), *self.fixed])


class Run:
    def __init__(self, row, source):
        self.row, self.source = row, source
        self.parts = source.key_parts(row)

    def setting(self, col):
        """The run's value of a setting; "source" is the folder it came from (a name of [report] sources)."""
        if col == SOURCE:
            return self.source.name
        return setting_of(self.row, col, self.parts, self.source.fixed)

    def figure(self, col):
        return num(self.row.get(col))

    def interval(self, col):
        ends = self.source.interval_ends(col)
        return row_interval(self.row, ends) if ends else None


def paired_ends(col, header):
    """ratios.csv's interval columns of a ratio (frame_ratio_median: frame_ratio_ci_low, _ci_high), or None."""
    if not col.endswith("_median"):
        return None
    ends = (col[:-len("median")] + "ci_low", col[:-len("median")] + "ci_high")
    return ends if all(e in header for e in ends) else None


class Config:
    """The runs of one configuration (their values of the naming settings): a figure is their median, with the
    run's interval when it is one run."""

    def __init__(self, values, runs):
        self.values, self.runs = values, runs

    def figure(self, col):
        return median(r.figure(col) for r in self.runs)

    def interval(self, col):
        return self.runs[0].interval(col) if len(self.runs) == 1 else None

    def cell(self, fig):
        col = fig.name if isinstance(fig, Figure) else fig
        text = figure_cell(col, self.figure(col), self.interval(col))
        return text + (f" (median of {len(self.runs)})" if text and len(self.runs) > 1 else "")


def name_parts(values, order, keep=()):
    """[(setting, text)] that name a configuration: its first setting, then each other one not at firelab's
    default (or in keep), as a legend reads them (billboards-instanced, gaussian.png, particle_scale=0.25)."""
    return [(col, display_value(col, setting_text(col, values.get(col, "")))) for i, col in enumerate(order)
            if i == 0 or col in keep or not is_default(col, values.get(col, ""))]


def config_name(values, order, keep=()):
    """The configuration's name: name_parts joined (billboards-instanced / gaussian.png / particle_scale=0.25)."""
    return " / ".join(text for _, text in name_parts(values, order, keep))


class Namer:
    """Names an entry's configurations by its settings (config_name); a setting of `show` is named at its default
    too wherever it varies among the configurations that share the first setting's value (the volume's grid,
    the sprites' texture: the points' texture where they were drawn with two)."""

    def __init__(self, cols, show, runs):
        self.cols, self.show, self.varies = cols, [s for s in show if s in cols], {}
        for s in self.show:
            seen = {}
            for r in runs:
                seen.setdefault(setting_number(r.setting(cols[0])), set()).add(setting_number(r.setting(s)))
            for first, values in seen.items():
                if len(values) > 1:
                    self.varies.setdefault(first, set()).add(s)

    def parts(self, values):
        first = setting_number(values.get(self.cols[0], "")) if self.cols else None
        return name_parts(values, self.cols, self.varies.get(first, set()))

    def __call__(self, values):
        return " / ".join(text for _, text in self.parts(values))

    def note(self):
        left = [f"{c} {DEFAULTS[c]}" for c in self.cols[1:] if c in DEFAULTS]
        if not left:
            return ""
        text = f"A name leaves out a setting at firelab's default ({', '.join(left)})"
        if self.show:
            text += f", except {' and '.join(self.show)} where it varies among one {self.cols[0]}'s configurations"
        return text + "."


def namer(spec, data, cols):
    show = data.check_settings(spec.get("show", []), spec.key("show"))
    return Namer(cols, show, data.runs)


class Data:
    """The runs one entry reads (its sources, its `where`) and the checks of the names it uses."""

    def __init__(self, report, spec, folder, cache):
        self.report, self.spec = report, spec
        names_ = spec.get("sources") or report.sources
        self.sources = []
        for n in names_:
            key = (n, spec.csv)
            if key not in cache:
                cache[key] = Source(folder, n, spec.csv)
            self.sources.append(cache[key])
        self.all_runs = [r for s in self.sources for r in s.runs]
        self.known_settings = first_seen([*(n for s in self.sources for n in s.settings()), SOURCE])
        self.header = first_seen(c for s in self.sources for c in s.header)
        where = spec.get("where") or {}
        for col in where:
            self.check_setting(col, spec.key(f"where.{col}"))
        self.runs = [r for r in self.all_runs
                     if all(any(same_value(r.setting(c), v) for v in vals) for c, vals in where.items())]
        if not self.runs:
            raise Bad(spec.key("where" if where else "sources"),
                      f"no ok run in {', '.join(s.path for s in self.sources)}" + (" matches it" if where else ""))

    def columns(self):
        return self.sources[0].columns

    def check_setting(self, col, key):
        if col not in self.known_settings:
            raise Bad(key, f"'{col}' is not a setting of these runs; they have {', '.join(self.known_settings)}")
        return col

    def check_settings(self, cols, key):
        return [self.check_setting(c, key) for c in cols]

    def figure_columns(self):
        """The header's columns that hold a number in some run and are not settings, identities or records."""
        skip = set(self.known_settings)
        return [c for c in self.header if c not in skip and self.columns().group(c) not in ("identity", "record")
                and self.columns().rule(c) not in ("interval_low", "interval_high")
                and not c.endswith(("_ci_low", "_ci_high")) and any(r.figure(c) == r.figure(c) for r in self.runs)]

    def check_figure(self, fig, key):
        if fig.name not in self.figure_columns():
            raise Bad(key, f"'{fig.name}' is not a figure of {self.spec.csv} here; its figures are "
                           f"{', '.join(self.figure_columns())}")
        if fig.wants_interval and not all(s.interval_ends(fig.name) for s in self.sources):
            with_one = [c for c in self.figure_columns() if all(s.interval_ends(c) for s in self.sources)]
            raise Bad(key, f"'{fig.name}' has no interval in {self.spec.csv}; asked as '{fig.name} {INTERVAL}' "
                           f"(columns with one: {', '.join(with_one) or 'none'})")
        return fig

    def check_figures(self, figs, key):
        return [self.check_figure(f, key) for f in figs]

    def metric(self, col, key):
        """The metric whose frame or fire-region column col is, when the runs are scored on it; else Bad."""
        scored = [c for m in self.columns().metrics for c in (m.fire_column, m.frame_column)
                  if c and any(r.figure(c) == r.figure(c) for r in self.runs)]
        for m in self.columns().metrics:
            if col in (m.fire_column, m.frame_column) and col in scored:
                return m
        raise Bad(key, f"'{col}' is not a metric of these runs; they are scored on {', '.join(scored) or 'nothing'}")

    def better(self, col):
        """+1 when higher is better (a metric's direction from meta.json), -1 for everything else (costs)."""
        m = next((m for m in self.columns().metrics if col in (m.fire_column, m.frame_column)), None)
        return 1 if m and m.higher_is_better else -1

    def varying(self, runs=None, exclude=()):
        """The settings (columns and run_key parts) that take more than one value among the runs."""
        runs = self.runs if runs is None else runs
        candidates = first_seen([*(c for s in self.sources for c in s.columns.names("setting", s.header)),
                                 *(n for r in runs for n in r.parts)])
        return [c for c in candidates if c not in exclude
                and len({setting_number(r.setting(c)) for r in runs}) > 1]

    def naming(self, spec, key, exclude=(), empty_ok=False):
        """The settings under `key` (checked), else those that vary among the runs but `exclude`; Bad when there
        is none to name a configuration by (empty_ok: one series of every run)."""
        cols = self.check_settings(spec.get(key) or self.varying(exclude=exclude), spec.key(key))
        if not cols and not empty_ok:
            raise Bad(spec.key(key), "no setting varies among these runs; name the settings to show")
        return cols

    def groups(self):
        """[(title, runs)] per value of the entry's group settings, in the order they first appear."""
        cols = self.check_settings(self.spec.get("group", []), self.spec.key("group"))
        if not cols:
            return [("", self.runs)]
        out = {}
        for r in self.runs:
            out.setdefault(tuple(setting_number(r.setting(c)) for c in cols), []).append(r)
        return [(" · ".join(f"{c}: {setting_text(c, rs[0].setting(c))}" for c in cols), rs) for rs in out.values()]

    def configurations(self, runs, cols, what=""):
        """The runs by their values of cols, in the order they first appear; a configuration of several runs
        is their medians, with a warning naming what tells them apart."""
        out = {}
        for r in runs:
            out.setdefault(tuple(setting_number(r.setting(c)) for c in cols), []).append(r)
        configs = []
        for rs in out.values():
            c = Config({col: rs[0].setting(col) for col in cols}, rs)
            if len(rs) > 1:
                apart = self.varying(rs)
                warn(f"{self.report.path}: {self.spec.where_key}: {what + ': ' if what else ''}"
                     f"{config_name(c.values, cols, cols) or 'all runs'}: {len(rs)} runs, their medians shown"
                     + (f" (they differ in {', '.join(apart)}: name it in rows)" if apart else ""))
            configs.append(c)
        return configs


def sort_configs(configs, order, data):
    """configs sorted by [(column, descending)]: a figure by value (no value last), a setting by value where
    every value is a number (or a vector of them), else in the order the values first appear in the runs."""
    ranks = {}
    for col, _ in order:
        if col in data.known_settings:
            values = first_seen(setting_number(r.setting(col)) for r in data.runs)
            numeric = all(isinstance(v, tuple) for v in values)
            ranks[col] = {v: (v if numeric else (i,)) for i, v in enumerate(values)}

    def key(c):
        out = []
        for col, desc in order:
            if col in ranks:
                v = ranks[col][setting_number(c.runs[0].setting(col))]
                out.append((0, tuple(-x for x in v) if desc else v))
            else:
                v = c.figure(col)
                out.append((v != v, -v if desc and v == v else (v if v == v else 0)))
        return out
    for col, _ in order:
        if col not in data.known_settings:
            data.check_figure(Figure(col, data.spec.key("sort")), data.spec.key("sort"))
    return sorted(configs, key=key)


def floor_text(bounds, data):
    return ", ".join(f"{m} {'≥' if data.better(m) > 0 else '≤'} {b:g}" for m, b in bounds.items()) or "none"


def meets(config, bounds, data):
    for m, b in bounds.items():
        v = config.figure(m)
        if not (v >= b if data.better(m) > 0 else v <= b):
            return False
    return True


def markdown(head, body):
    esc = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    return "\n".join(["| " + " | ".join(map(esc, head)) + " |", "|" + "---|" * len(head)]
                     + ["| " + " | ".join(map(esc, row)) + " |" for row in body])


def heading(fig, data):
    name = fig.name if isinstance(fig, Figure) else fig
    if any(r.interval(name) for r in data.runs):
        return f"{name} [95 % interval]"
    return name


# >>> the verbs --------------------------------------------------------------------------------------------

def t_configurations(spec, data):
    cols = data.naming(spec, "rows", exclude=spec.get("group", []))
    figs = data.check_figures(spec.get("columns") or default_figures(data), spec.key("columns"))
    label = spec.get("label", "name")
    name = namer(spec, data, cols)
    bounds = spec.get("floor") or {}
    for m in bounds:
        data.metric(m, spec.key(f"floor.{m}"))
    relative = data.check_figures(spec.get("relative", []), spec.key("relative"))
    base = baseline(spec, data, relative)
    fr = spec.get("front")
    if fr:
        data.check_figure(fr["cost"], spec.key("front.cost"))
        data.check_figures(fr["against"], spec.key("front.against"))
    if spec.get("keep") == "front" and not fr:
        raise Bad(spec.key("keep"), "'front' needs a front = { cost = ..., against = [...] }")
    notes, out = [], []
    if base:
        notes.append("Baseline (" + ", ".join(f"{k}={'/'.join(v)}" for k, v in spec.get("baseline").items()) + "): "
                     + "; ".join(f"{f.name} {format_figure(f.name, v)}" for f, v in base[1].items())
                     + (f" (the median of its {base[0]} runs)" if base[0] > 1 else "") + ".")
    if bounds:
        notes.append(f"Floor: {floor_text(bounds, data)}.")
    if label == "name":
        notes.append(name.note())
    for title, runs in data.groups():
        configs = data.configurations(runs, cols, title)
        total = len(configs)
        if bounds:
            configs = [c for c in configs if meets(c, bounds, data)]
        configs = sort_configs(configs, spec.get("sort", []), data)
        meeting = len(configs)
        marks = {}
        if fr:
            for a in fr["against"]:
                sign = data.better(a.name)
                points = [(-sign * c.figure(a.name), c.figure(fr["cost"].name)) for c in configs]
                marks[a.name] = {id(configs[i]) for i in pareto_frontier(points)}
            if spec.get("keep") == "front":
                configs = [c for c in configs if any(id(c) in m for m in marks.values())]
        shown = configs[:spec.get("limit")] if spec.get("limit") else configs
        head = list(cols) if label == "columns" else ["configuration"]
        for f in figs:
            head.append(heading(f, data))
            if base and any(f.name == r.name for r in relative):
                head.append("× baseline")
        head += [f"front: {a}" for a in marks]
        body = []
        for c in shown:
            row = ([setting_text(col, c.values[col]) for col in cols] if label == "columns"
                   else [name(c.values)])
            for f in figs:
                row.append(c.cell(f))
                if base and any(f.name == r.name for r in relative):
                    v, b = c.figure(f.name), base[1][next(r for r in relative if r.name == f.name)]
                    row.append(format_figure("ratio", v / b) if b and v == v else "")
            row += [FRONT_MARK if id(c) in m else "" for m in marks.values()]
            body.append(row)
        counted = []
        if bounds:
            counted.append(f"{meeting} of {total} configurations meet the floor")
        if len(configs) < meeting:
            counted.append(f"the {len(configs)} on the front shown")
        if len(shown) < len(configs):
            counted.append(f"the first {len(shown)} shown")
        caption = "; ".join(counted)
        caption = f"**{title}**" + (f": {caption}." if caption else "") if title else \
            (caption[:1].upper() + caption[1:] + "." if caption else "")
        out.append((caption, markdown(head, body) if body else "(none)"))
    if marks_note(spec):
        notes.append(marks_note(spec))
    return notes, out


def marks_note(spec):
    fr = spec.get("front")
    if not fr:
        return ""
    return (f"{FRONT_MARK}: on the front of {fr['cost'].name} against that figure: no other configuration of the "
            "table is both cheaper and better.")


def default_figures(data):
    figs = [Figure("frame_ms_median", "")] if "frame_ms_median" in data.figure_columns() else []
    return figs + [Figure(m.fire_column, "") for m in data.columns().scored_metrics([r.row for r in data.runs])]


def baseline(spec, data, relative):
    """(how many runs, {figure: the median of the baseline's runs}) or None."""
    sel = spec.get("baseline")
    if not sel:
        if relative:
            raise Bad(spec.key("relative"), "needs a baseline = { setting = value, ... }")
        return None
    for col in sel:
        data.check_setting(col, spec.key(f"baseline.{col}"))
    runs = [r for r in data.runs if all(any(same_value(r.setting(c), v) for v in vals) for c, vals in sel.items())]
    if not runs:
        raise Bad(spec.key("baseline"), "no run matches it")
    if not relative:
        raise Bad(spec.key("baseline"), "needs relative = [the figures to show against it]")
    return len(runs), {f: median(r.figure(f.name) for r in runs) for f in relative}


def t_cheapest(spec, data):
    per = data.check_settings(spec.get("per", []), spec.key("per"))
    group = spec.get("group", [])
    cols = data.naming(spec, "rows", exclude=[*per, *group])
    cost = data.check_figure(spec.get("cost") or Figure("frame_ms_median", ""), spec.key("cost"))
    name = namer(spec, data, cols)
    all_floors = spec.get("floors") or [{}]
    for i, bounds in enumerate(all_floors, start=1):
        for m in bounds:
            data.metric(m, spec.key(f"floors[{i}].{m}"))
    shown_metrics = first_seen(m for b in all_floors for m in b)
    extra = data.check_figures(spec.get("columns", []), spec.key("columns"))
    one_floor = len(all_floors) == 1
    timed = any(r.interval(cost.name) for r in data.runs)
    head = [*per, *([] if one_floor else ["floor"]), "cheapest", heading(cost, data), *shown_metrics,
            *(heading(f, data) for f in extra), *(["not told apart (intervals overlap)"] if timed else [])]
    out = []
    for title, runs in data.groups():
        body = []
        at = {}
        for r in runs:
            at.setdefault(tuple(setting_number(r.setting(c)) for c in per), []).append(r)
        for per_runs in at.values():
            configs = data.configurations(per_runs, [*per, *cols], title)
            for bounds in all_floors:
                good = [c for c in configs if meets(c, bounds, data) and c.figure(cost.name) > 0]
                best = min(good, key=lambda c: c.figure(cost.name), default=None)
                row = [setting_text(c, per_runs[0].setting(c)) for c in per]
                row += [] if one_floor else [floor_text(bounds, data)]
                if best:
                    ties = [c for c in good if c is not best
                            and intervals_overlap(c.interval(cost.name), best.interval(cost.name))]
                    row += [name(best.values), best.cell(cost)]
                    row += [best.cell(m) for m in shown_metrics] + [best.cell(f) for f in extra]
                    row += [", ".join(name(c.values) for c in ties)] if timed else []
                else:
                    m = next(iter(bounds))
                    valued = [c for c in configs if c.figure(m) == c.figure(m)]
                    top = max(valued, key=lambda c: data.better(m) * c.figure(m), default=None)
                    row += [f"none (best: {name(top.values)}, {top.cell(m)})" if top else "none", ""]
                    row += [""] * (len(shown_metrics) + len(extra) + timed)
                body.append(row)
        out.append((f"**{title}**" if title else "", markdown(head, body)))
    notes = [f"The cheapest configuration by {cost.name} that meets "
             + (f"the floor {floor_text(all_floors[0], data)}" if one_floor else "each floor")
             + ("; the intervals over rounds tell it from those listed last only where they do not overlap."
                if timed else " (one round: no intervals to tell close ones apart)."), name.note()]
    return notes, out


def t_pivot(spec, data):
    rows = data.check_settings(spec.get("rows"), spec.key("rows"))
    group = spec.get("group", [])
    cols = data.naming(spec, "columns", exclude=[*rows, *group])
    cells = data.check_figures(spec.get("cells"), spec.key("cells"))
    also = data.check_figures(spec.get("also", []), spec.key("also"))
    name = namer(spec, data, cols)
    out = []
    for title, runs in data.groups():
        row_keys = sort_configs([Config({c: rs[0].setting(c) for c in rows}, rs) for rs in by_values(runs, rows)],
                                [(c, False) for c in rows], data)
        col_keys = [Config({c: rs[0].setting(c) for c in cols}, rs) for rs in by_values(runs, cols)]
        col_names = [name(c.values) for c in col_keys]
        col_ids = [{id(r) for r in c.runs} for c in col_keys]
        table_cols = []  # (figure, column key index) with a value somewhere
        for f in cells:
            for j, ck in enumerate(col_keys):
                if any(r.figure(f.name) == r.figure(f.name) for r in ck.runs):
                    table_cols.append((f, j))
        head = [*rows, *(heading(a, data) for a in also)]
        head += [col_names[j] if len(cells) == 1 else f"{col_names[j]}: {f.name}" for f, j in table_cols]
        body = []
        for rk in row_keys:
            line = [setting_text(c, rk.values[c]) for c in rows] + [format_figure(a.name, rk.figure(a.name))
                                                                      for a in also]
            for f, j in table_cols:
                here = [r for r in rk.runs if id(r) in col_ids[j]]
                if not here:
                    line.append("")
                    continue
                cell = Config({}, here)
                if len(here) > 1:
                    warn(f"{data.report.path}: {spec.where_key}: {col_names[j]} at "
                         f"{', '.join(setting_text(c, rk.values[c]) for c in rows)}: {len(here)} runs, their medians "
                         "shown")
                line.append(cell.cell(f))
            body.append(line)
        out.append((f"**{title}**" if title else "", markdown(head, body)))
    notes = []
    if len(cells) == 1:
        notes.append(f"Each cell: {heading(cells[0], data)}.")
    if also:
        notes.append(f"{', '.join(a.name for a in also)}: the medians over the row's runs.")
    notes.append(name.note())
    return notes, out


def by_values(runs, cols):
    out = {}
    for r in runs:
        out.setdefault(tuple(setting_number(r.setting(c)) for c in cols), []).append(r)
    return list(out.values())


def t_crossing(spec, data):
    x = data.check_setting(spec.get("x")[0], spec.key("x"))
    group = spec.get("group", [])
    series = data.naming(spec, "series", exclude=[x, *group], empty_ok=True)
    metric = spec.get("metric")
    data.check_figure(metric, spec.key("metric"))
    data.metric(metric.name, spec.key("metric"))
    better = data.better(metric.name)
    costs = data.check_figures(spec.get("cost") or [Figure("frame_ms_median", "")], spec.key("cost"))
    op = "≥" if better > 0 else "≤"
    head = [*series, f"best {metric.name} (at {x})"]
    for t in spec.get("at"):
        head += [f"{metric.name} {op} {t:g}: {x}"] + [f"{c.name} there" for c in costs]
    out = []
    for title, runs in data.groups():
        body = []
        for sc in [Config({c: rs[0].setting(c) for c in series}, rs) for rs in by_values(runs, series)]:
            points = sorted((num(r.setting(x)), r) for r in sc.runs if num(r.setting(x)) > 0
                            and r.figure(metric.name) == r.figure(metric.name))
            if not points:
                continue
            best = max(points, key=lambda p: better * p[1].figure(metric.name))
            row = [setting_text(c, sc.values[c]) for c in series]
            row.append(f"{format_figure(metric.name, best[1].figure(metric.name))} ({format_figure(x, best[0])})")
            for t in spec.get("at"):
                hit = first_crossing([(px, r.figure(metric.name)) for px, r in points], t, better > 0)
                if hit is None:
                    row += ["not reached"] + [""] * len(costs)
                    continue
                at_x, i, f = hit
                row.append(format_figure(x, at_x))
                for c in costs:
                    r1 = points[i][1]
                    if i == 0 or f >= 1.0:
                        row.append(figure_cell(c.name, r1.figure(c.name), r1.interval(c.name)))
                        continue
                    (x0, r0), x1 = points[i - 1], points[i][0]
                    v = interpolate_log(x0, r0.figure(c.name), x1, r1.figure(c.name), at_x)
                    i0, i1 = r0.interval(c.name), r1.interval(c.name)
                    ci = tuple(interpolate_log(x0, i0[k], x1, i1[k], at_x) for k in (0, 1)) if i0 and i1 else None
                    row.append(figure_cell(c.name, v, ci))
            body.append(row)
        out.append((f"**{title}**" if title else "", markdown(head, body)))
    notes = [f"Where {metric.name} first reaches each floor as {x} rises, interpolated between the measured values "
             f"linearly in {metric.name} and in log {x}; the figures there interpolated log-log between the same two "
             "runs (their intervals' ends likewise)."]
    return notes, out


def t_ratio(spec, data):
    setting = data.check_setting(spec.get("setting")[0], spec.key("setting"))
    base = spec.get("base")
    if not any(same_value(r.setting(setting), base) for r in data.runs):
        have = first_seen(r.setting(setting) for r in data.runs)
        raise Bad(spec.key("base"), f"{base!r}: no run has {setting}={base}; its values are {', '.join(have)}")
    figs = data.check_figures(spec.get("figures") or [Figure("frame_ms_median", "")], spec.key("figures"))
    group = spec.get("group", [])
    matched = data.check_settings(spec.get("matched") or data.varying(exclude=[setting, *group]),
                                  spec.key("matched"))
    head = [setting, "pairs"] + [f"{f.name} ratio to {setting}={base}: median" for f in figs] + ["lowest", "highest"] \
        if len(figs) == 1 else [setting, "pairs"] + [f"{f.name}: median ratio" for f in figs]
    out = []
    for title, runs in data.groups():
        bases = {tuple(setting_number(r.setting(c)) for c in matched): r for r in runs
                 if same_value(r.setting(setting), base)}
        ratios = {}
        for r in runs:
            if same_value(r.setting(setting), base):
                continue
            b = bases.get(tuple(setting_number(r.setting(c)) for c in matched))
            if b is None:
                continue
            ratios.setdefault(r.setting(setting), []).append(
                [r.figure(f.name) / b.figure(f.name) if b.figure(f.name) else math.nan for f in figs])
        body = []
        for value, rs in ratios.items():
            row = [setting_text(setting, value), str(len(rs))]
            per = [[x[i] for x in rs if x[i] == x[i]] for i in range(len(figs))]
            row += [format_figure("ratio", median(p)) for p in per]
            if len(figs) == 1:
                row += [format_figure("ratio", min(per[0], default=math.nan)),
                        format_figure("ratio", max(per[0], default=math.nan))]
            body.append(row)
        out.append((f"**{title}**" if title else "", markdown(head, body)))
    notes = [f"Each run's figure over that of the run with {setting}={base} and the same "
             f"{', '.join(matched) or 'settings'}; the median over those pairs."]
    return notes, out


def t_paired(spec, data):
    header = data.header
    ratios = [c for c in header if c.endswith("_ratio_median")]
    figs = data.check_figures(spec.get("columns") or [Figure(c, "") for c in ("frame_ms", "baseline_frame_ms",
                                                                               *ratios) if c in header],
                              spec.key("columns"))
    by_frames = "paired_by" in header  # sweeps since frame pairing (issue 37) say how each row was paired
    head = ["configuration", "baseline", "rounds", *(["paired"] if by_frames else []),
            *(heading(f, data) for f in figs)]
    body = []
    src = data.sources[0]
    for r in data.runs:
        parts = split_run_key(r.row.get("run_key", ""), src.axes) or split_run_key(r.row.get("run_key", "")) or []
        bparts = dict(split_run_key(r.row.get("baseline_key", ""), src.axes)
                      or split_run_key(r.row.get("baseline_key", "")) or [])
        name = " / ".join(display_value(c, setting_text(c, v)) for c, v in
                          ((src.columns.column_of(n), v) for n, v in parts))
        bname = " / ".join(display_value(c, setting_text(c, v)) for c, v in
                           ((src.columns.column_of(n), v) for n, v in bparts.items()))
        paired = [paired_cell(r.row)] if by_frames else []
        body.append([name, bname, r.row.get("rounds", ""), *paired] +
                    [figure_cell(f.name, r.figure(f.name), r.interval(f.name)) for f in figs])
    notes = [f"From {spec.csv}: each configuration's paired ratio to its baseline, " +
             ("frame by frame (frames drawn in alternation in one process) or round by round, as `paired` says, "
              "with the 95 % interval over processes, rounds and pairs" if by_frames else
              "round by round, with the 95 % interval over the rounds") + " (docs/csv.md)."]
    return notes, [("", markdown(head, body))]


def paired_cell(row):
    """How a paired ratio was paired: "240 frame pairs" or "6 round pairs"."""
    by, pairs = row.get("paired_by", ""), row.get("pairs", "")
    unit = {"frames": "frame", "rounds": "round"}.get(by, by)
    return f"{pairs} {unit} pairs" if pairs else by


TABLE_VERBS = {"configurations": t_configurations, "cheapest": t_cheapest, "pivot": t_pivot,
               "crossing": t_crossing, "ratio": t_ratio, "paired": t_paired}


# >>> tables.md ---------------------------------------------------------------------------------------------

def shown_path(path):
    """A path as tables.md names it: relative to the repository when it lies inside it, else as it is."""
    full = os.path.abspath(path)
    return os.path.relpath(full, ROOT) if full.startswith(ROOT + os.sep) else path


def commit_text(commit):
    commit = str(commit or "")
    if not commit:
        return "unknown"
    dirty = commit.endswith("-dirty")
    return commit[:7] + (" (with uncommitted changes)" if dirty else "")


def machine_text(meta):
    m = meta.get("machine") if isinstance(meta.get("machine"), dict) else {}
    parts = [str(m.get("cpu") or "?")]
    if m.get("logical_cores"):
        parts.append(f"{m['logical_cores']} logical cores")
    if m.get("memory_gib"):
        parts.append(f"{float(m['memory_gib']):.1f} GiB")
    return ", ".join(parts)


def when_text(meta):
    start, end = str(meta.get("started") or ""), str(meta.get("finished") or "")
    if not start:
        return "unknown"
    text = start.replace("T", " ").replace("Z", " UTC")
    if end[:10] == start[:10]:
        text += f" to {end[11:16]}"
    elif end:
        text += " to " + end.replace("T", " ").replace("Z", " UTC")
    return text


def measured_section(report, cache, folder):
    """What the finding's sources measured: per folder its runs, when, at which commit, on which machine."""
    sources = []
    for name in report.sources:
        key = (name, "runs.csv")
        if key not in cache:
            cache[key] = Source(folder, name, "runs.csv")
        sources.append(cache[key])
    body, refs = [], []
    for s in sources:
        meta = s.meta or {}
        rounds = first_seen(r.row.get("rounds", "") for r in s.runs if r.row.get("rounds", ""))
        gl = meta.get("gl") if isinstance(meta.get("gl"), dict) else {}
        load = meta.get("load_before") if isinstance(meta.get("load_before"), dict) else None
        quiet = "" if load is None else ("quiet" if load.get("quiet") else
                                         f"busy ({float(load.get('other_busy_cores', 0)):.2f} cores)")
        env = meta.get("environment") if isinstance(meta.get("environment"), dict) else {}
        renderer = str(gl.get("renderer") or first_seen(r.row.get("gl_renderer", "") for r in s.runs)[0] or "?")
        body.append([f"`{s.name}/`" if s.name != "." else "`./`",
                     f"{len(s.runs)} of {len(s.rows)}", "/".join(rounds) or "1", when_text(meta),
                     commit_text(meta.get("git_commit")), machine_text(meta),
                     renderer + "".join(f", {k}={v}" for k, v in env.items()), quiet or "not recorded"])
        refs += [r.row.get("reference", "").strip() for r in s.runs if r.row.get("reference", "").strip()]
    lines = [f"Sweeps of `{shown_path(report.path)}` (folders under {shown_path(folder)}/; "
             "the time from meta.json, UTC; the commit firelab was built from).", "",
             markdown(["folder", "ok runs", "rounds", "measured", "firelab commit", "machine", "renderer",
                       "machine load before"], body)]
    if refs:
        lines += ["", "Scored against: " + ", ".join(f"`{r}`" for r in first_seen(refs)) + "."]
    return "\n".join(lines)


def timer_note(data, figs):
    """A footnote where a table shows GPU pass times that meta.json says do not measure the work."""
    if any(f.startswith("gpu_") for f in figs) and any((s.meta or {}).get("timer_queries_meaningful") is False
                                                         for s in data.sources):
        text = next(str(s.meta.get("timing")) for s in data.sources if s.meta and s.meta.get("timing"))
        return f"GPU pass times as recorded; meta.json: {text}"
    return ""


def make_tables(report, folder):
    """tables.md's text, and the Data of each table (for the plots)."""
    cache = {}
    parts = [f"# {report.name}", "",
             f"<!-- Written by scripts/findings.py from the [report] of {shown_path(report.path)} "
             "and the files below; do not edit: run it again. -->", ""]
    if report.question:
        parts += [report.question, ""]
    parts += ['<a id="measured"></a>', "", "## What was measured", "", measured_section(report, cache, folder), ""]
    for i, spec in enumerate(report.tables, start=1):
        data = Data(report, spec, folder, cache)
        notes, groups = TABLE_VERBS[spec.kind](spec, data)
        shown = [f.name for f in (spec.get("columns") or []) if isinstance(f, Figure)]
        notes = [n for n in [spec.get("note", ""), *notes, timer_note(data, shown)] if n]
        parts += [f'<a id="{spec.id}"></a>', "", f"## {spec.get('title') or default_title(spec)}", ""]
        if notes:
            parts += [" ".join(notes), ""]
        for title, table in groups:
            if title:
                parts += [title, ""]
            parts += [table, ""]
    return "\n".join(parts).rstrip("\n") + "\n"


def default_title(spec):
    return {"configurations": "Configurations", "cheapest": "The cheapest at each floor", "pivot": "By setting",
            "crossing": "Where a floor is reached", "ratio": "Ratios", "paired": "Paired ratios"}[spec.kind]


def sections(text):
    """tables.md's sections by id: the text under each anchor, without its heading."""
    out = {}
    pieces = re.split(r'^<a id="([a-z0-9-]+)"></a>\n', text, flags=re.M)
    for i in range(1, len(pieces), 2):
        body = pieces[i + 1].lstrip("\n")
        body = re.sub(r"^## .*\n+", "", body, count=1)
        out[pieces[i]] = body.rstrip("\n")
    return out


# >>> plots ------------------------------------------------------------------------------------------------

def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, out):
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


STRATEGY_COLOURS = {"points": "#1f77b4", "point-sprites": "#ff7f0e", "billboards-instanced": "#2ca02c",
                    "billboards-geometry": "#8c564b", "billboards-cpu": "#7f7f7f", "compute-splat": "#d62728",
                    "compute": "#e377c2", "gpu-stateless": "#17becf", "volume": "#9467bd",
                    "volume-reference": "#000000"}
MARKERS = "osD^vP*X<>"


def colours_for(values, plt):
    extra = [v for v in values if v not in STRATEGY_COLOURS]
    return {v: STRATEGY_COLOURS.get(v) or plt.get_cmap("tab10")(extra.index(v) % 10) for v in values}


def point_label(values, name, drawn_by):
    """A point's label: its name without the settings its colour and marker show (the first setting's value
    when nothing else is left)."""
    parts = name.parts(values)
    kept = [text for c, text in parts if c not in drawn_by]
    return shortened(", ".join(kept) or parts[0][1], 50)


def log_axis(axis, set_scale):
    """A log axis labelled at 1, 2, 3, 5 and 7 × 10^k (%g), nothing elsewhere."""
    from matplotlib import ticker
    set_scale("log")

    def fmt(v, _pos=None):
        if v <= 0:
            return ""
        mantissa = v / 10 ** math.floor(math.log10(v) + 1e-9)
        return f"{v:g}" if any(abs(mantissa - m) < 1e-6 for m in (1, 2, 3, 5, 7)) else ""
    axis.set_major_formatter(ticker.FuncFormatter(fmt))
    axis.set_minor_formatter(ticker.FuncFormatter(fmt))


def place_labels(fig, ax, points, fontsize=6.5):
    """Labels each (x, y, text, bold) where it overlaps least: tried at a ring of offsets around the point,
    against the labels already placed, the points and the panel's edges; bold ones first. A label set far
    from its point gets a thin leader line."""
    renderer = fig.canvas.get_renderer()
    scale = fig.dpi / 72.0
    box = ax.get_window_extent(renderer)
    xy = [tuple(ax.transData.transform((x, y))) for x, y, _, _ in points]
    obstacles = [(px - 6, py - 6, px + 6, py + 6) for px, py in xy]
    placed, pad = [], 2.0
    near = [(5, 3), (5, -3), (-5, 3), (-5, -3), (0, 6), (0, -6)]
    far = [(dx * k, dy * k) for k in (2.5, 4.5) for dx, dy in near]

    def overlap(a, b):
        w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
        return w * h if w > 0 and h > 0 else 0.0

    for k in sorted(range(len(points)), key=lambda k: (not points[k][3], points[k][0])):
        x, y, label, bold = points[k]
        probe = ax.text(0, 0, label, fontsize=fontsize, fontweight="bold" if bold else "normal")
        ext = probe.get_window_extent(renderer)
        probe.remove()
        w, h = ext.width, ext.height
        px, py = xy[k]
        best = None
        for rank, (dx, dy) in enumerate(near + far):
            ox, oy = px + dx * scale, py + dy * scale
            x0 = ox if dx > 0 else ox - w if dx < 0 else ox - w / 2
            y0 = oy if dy > 0 else oy - h
            rect = (x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad)
            cost = sum(overlap(rect, p) for p in placed) * 3 + sum(overlap(rect, o) for o in obstacles)
            cost += ((max(0, box.x0 - rect[0]) + max(0, rect[2] - box.x1)) * h
                     + (max(0, box.y0 - rect[1]) + max(0, rect[3] - box.y1)) * w) * 4 + rank * 2.0
            if best is None or cost < best[0]:
                best = (cost, dx, dy, rect)
        _, dx, dy, rect = best
        placed.append(rect)
        leader = dict(arrowstyle="-", color="0.55", linewidth=0.5, shrinkA=0, shrinkB=3) \
            if abs(dx) > 6 or abs(dy) > 7 else None
        ax.annotate(label, (x, y), xytext=(dx, dy), textcoords="offset points",
                    ha="left" if dx > 0 else "right" if dx < 0 else "center", va="bottom" if dy > 0 else "top",
                    fontsize=fontsize, color="0.1", fontweight="bold" if bold else "normal", arrowprops=leader,
                    zorder=4, annotation_clip=False)


def p_scatter(spec, data, out):
    """Per group, a panel per metric: the cost (x, log) against the metric, each configuration a labelled point
    with its intervals as bars, the front of the cost against the metric ringed and joined by a step line."""
    plt = pyplot()
    from matplotlib.lines import Line2D
    cost = data.check_figure(spec.get("cost") or Figure("frame_ms_median", ""), spec.key("cost"))
    metrics = data.check_figures(spec.get("metrics"), spec.key("metrics"))
    group = spec.get("group", [])
    cols = data.naming(spec, "rows", exclude=group)
    name = namer(spec, data, cols)
    colour_by = data.check_settings(spec.get("colour") or cols[:1], spec.key("colour"))[0]
    marker_by = data.check_settings(spec.get("marker", []), spec.key("marker"))
    groups = data.groups()
    colours = colours_for(first_seen(r.setting(colour_by) for r in data.runs), plt)
    marker_values = first_seen(r.setting(marker_by[0]) for r in data.runs) if marker_by else []
    ncols = len(metrics) if len(metrics) > 1 else min(3, len(groups))
    nrows = -(-len(groups) * len(metrics) // ncols)
    height = 5.0 * nrows + 0.9
    fig, axes = plt.subplots(nrows, ncols, figsize=(7.0 * ncols, height), dpi=110, squeeze=False)
    for ax in axes.flat[len(groups) * len(metrics):]:
        ax.axis("off")
    cells = iter(axes.flat)
    panels = []
    for title, runs in groups:
        configs = [c for c in data.configurations(runs, cols, title) if c.figure(cost.name) > 0]
        for m, ax in zip(metrics, cells):
            sign = data.better(m.name)
            valued = [c for c in configs if c.figure(m.name) == c.figure(m.name)]
            front = pareto_frontier([(-sign * c.figure(m.name), c.figure(cost.name)) for c in valued])
            front_ids = {id(valued[i]) for i in front}
            labels = []
            for c in valued:
                x, y = c.figure(cost.name), c.figure(m.name)
                colour = colours[c.runs[0].setting(colour_by)]
                xi, yi = c.interval(cost.name), c.interval(m.name)
                if xi or yi:
                    ax.errorbar([x], [y], xerr=[[x - xi[0]], [xi[1] - x]] if xi else None,
                                yerr=[[y - yi[0]], [yi[1] - y]] if yi else None, fmt="none", color=colour,
                                linewidth=1.0, capsize=2.5, alpha=0.8, zorder=2)
                if id(c) in front_ids:
                    ax.plot([x], [y], "o", markersize=12, markerfacecolor="none", markeredgecolor="black",
                            markeredgewidth=1.0, linestyle="none", zorder=3)
                mk = MARKERS[marker_values.index(c.runs[0].setting(marker_by[0])) % len(MARKERS)] if marker_by else "o"
                ax.plot([x], [y], mk, color=colour, markersize=6.5, linestyle="none", zorder=3)
                labels.append((x, y, point_label(c.values, name, [colour_by, *marker_by]), id(c) in front_ids))
            pts = sorted((valued[i].figure(cost.name), valued[i].figure(m.name)) for i in front)
            if pts:
                ax.step([p[0] for p in pts], [p[1] for p in pts], where="post", color="0.25", linewidth=1.0,
                        linestyle="--", zorder=1)
            if spec.get("log", True):
                log_axis(ax.xaxis, ax.set_xscale)
            ax.set_xlabel(f"{cost.name} (log)" if spec.get("log", True) else cost.name)
            ax.set_ylabel(f"{m.name} ({'higher' if sign > 0 else 'lower'} is better)")
            ax.set_title((f"{title}: " if title else "") + f"{m.name} against {cost.name} · {len(front)} on the front",
                         fontsize=9.5)
            ax.grid(True, which="major", alpha=0.4)
            ax.margins(x=0.12, y=0.1)
            panels.append((ax, labels))
    handles = [Line2D([], [], marker="o", linestyle="none", color=colours[v], label=setting_text(colour_by, v))
               for v in colours]
    handles += [Line2D([], [], marker=MARKERS[i % len(MARKERS)], linestyle="none", color="0.35",
                       label=f"{marker_by[0]}: {setting_text(marker_by[0], v)}") for i, v in enumerate(marker_values)]
    handles.append(Line2D([], [], marker="o", linestyle="none", markersize=10, markerfacecolor="none",
                          markeredgecolor="black", label="ringed, bold: on the front (nothing both cheaper and better)"))
    fig.suptitle(spec.get("title") or f"{data.report.name}: {', '.join(m.name for m in metrics)} against {cost.name}",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0.9 / height, 1, 0.97))
    fig.legend(handles=handles, loc="lower center", ncol=min(5, len(handles)), fontsize=8, frameon=False)
    for ax, _ in panels:
        ax.set_xlim(ax.get_xlim())
        ax.set_ylim(ax.get_ylim())
    fig.canvas.draw()
    for ax, labels in panels:
        place_labels(fig, ax, labels)
    save(fig, out)
    plt.close(fig)


def p_lines(spec, data, out):
    """Per group, a panel per figure: the figure against the x setting, a line per series with its interval as
    a band; the floors in `at` as dotted lines."""
    plt = pyplot()
    x = data.check_setting(spec.get("x")[0], spec.key("x"))
    figs = data.check_figures(spec.get("figures"), spec.key("figures"))
    group = spec.get("group", [])
    series = data.naming(spec, "series", exclude=[x, *group], empty_ok=True)
    log_y = spec.get("log_y", [])
    for m in (spec.get("at") or {}):
        data.metric(m, spec.key(f"at.{m}"))
    groups = data.groups()
    fig, axes = plt.subplots(len(groups), len(figs), figsize=(6.5 * len(figs), 4.6 * len(groups)), dpi=110,
                             squeeze=False)
    for row, (title, runs) in zip(axes, groups):
        lines = by_values(runs, series)
        for ax, f in zip(row, figs):
            for k, rs in enumerate(lines):
                pts = sorted((num(r.setting(x)), r) for r in rs if r.figure(f.name) == r.figure(f.name))
                if not pts:
                    continue
                xs, ys = [p[0] for p in pts], [p[1].figure(f.name) for p in pts]
                name = config_name({c: rs[0].setting(c) for c in series}, series)
                colour = plt.get_cmap("tab10")(k % 10)
                ax.plot(xs, ys, "o-", color=colour, markersize=3.5, linewidth=1.3, label=shortened(name, 50))
                cis = [p[1].interval(f.name) for p in pts]
                if all(cis):
                    ax.fill_between(xs, [c[0] for c in cis], [c[1] for c in cis], color=colour, alpha=0.15)
            for b in (spec.get("at") or {}).get(f.name, []):
                ax.axhline(b, color="0.3", linestyle=":", linewidth=1.0)
                ax.annotate(f"{b:g}", (1.0, b), xycoords=("axes fraction", "data"), fontsize=7, color="0.3",
                            xytext=(2, 0), textcoords="offset points", va="center")
            if spec.get("log_x", True):
                log_axis(ax.xaxis, ax.set_xscale)
            if f.name in log_y:
                log_axis(ax.yaxis, ax.set_yscale)
            ax.set_xlabel(x + (" (log)" if spec.get("log_x", True) else ""))
            better = data.better(f.name)
            is_metric = any(f.name in (m.fire_column, m.frame_column) for m in data.columns().metrics)
            ax.set_ylabel(f.name + (f" ({'higher' if better > 0 else 'lower'} is better)" if is_metric else ""))
            ax.set_title((f"{title}: " if title else "") + f"{f.name} against {x}", fontsize=9.5)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(spec.get("title") or f"{data.report.name}: {', '.join(f.name for f in figs)} against {x}",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    save(fig, out)
    plt.close(fig)


PLOT_VERBS = {"scatter": p_scatter, "lines": p_lines}


# >>> the commands -----------------------------------------------------------------------------------------

def load_report(path):
    try:
        return Report(path)
    except Bad as e:
        fail(f"{path}: {e}")


def finding(report, folder, plots=True):
    """Writes folder/tables.md and the plots; returns the tables' text. Exits 2 for a bad [report]."""
    for s in report.sources:
        if not os.path.isdir(os.path.join(folder, s)):
            fail(f"{report.path}: [report] sources: {s!r}: no such folder under {folder}")
    try:
        text = make_tables(report, folder)
        for spec in report.plots if plots else []:
            PLOT_VERBS[spec.kind](spec, Data(report, spec, folder, {}), os.path.join(folder, spec.file))
    except Bad as e:
        fail(f"{report.path}: {e}")
    with open(os.path.join(folder, TABLES), "w", encoding="utf-8") as f:
        f.write(text)
    return text


def experiment_name(path):
    """An experiment file's name ([experiment] name, else its stem), or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    experiment = doc.get("experiment") if isinstance(doc.get("experiment"), dict) else {}
    return str(experiment.get("name") or os.path.splitext(os.path.basename(path))[0])


def experiment_files():
    return sorted(glob.glob(os.path.join(ROOT, "experiments", "*.toml")))


def default_folder(report):
    return os.path.join(ROOT, "results", report.name)


def after_sweep(folder):
    """The finding a sweep's folder feeds: its experiment found by meta.json's name (the command line's file,
    else experiments/), the finding's folder the sweep's own or its parent, whichever names it among [report]
    sources; written when every source is there."""
    meta, _ = find_meta(folder)
    if not isinstance(meta, dict) or not meta.get("experiment"):
        return 0
    name = str(meta["experiment"])
    tokens = [t for t in str(meta.get("command_line") or "").split() if t.endswith(".toml")]
    path = next((p for p in [*(t for t in tokens if os.path.isfile(t)), *experiment_files()]
                 if experiment_name(p) == name), None)
    report = load_report(path) if path else None
    if report is None or not report.present:
        return 0
    folder = os.path.abspath(folder)
    parent = os.path.dirname(folder)
    roots = ([parent] if os.path.basename(folder) in report.sources else []) + ([folder] if "." in report.sources
                                                                                else [])
    for root in roots:
        missing = [s for s in report.sources if not os.path.isfile(os.path.join(root, s, "runs.csv"))]
        if not missing:
            finding(report, root)
            print(f"findings.py: wrote {os.path.join(root, TABLES)}", file=sys.stderr)
            return 0
        print(f"findings.py: {report.path}: no finding yet: {root} lacks {', '.join(missing)}", file=sys.stderr)
    return 0


BLOCK = re.compile(r"(<!-- findings: ([^ #]+)#([a-z0-9-]+) -->\n)(.*?)(<!-- end findings -->)", re.S)


def filled_readme(path):
    """The README's text with each block replaced by its table's section; exits 2 naming a block whose file or
    section is missing."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    base = os.path.dirname(os.path.abspath(path))
    cache = {}

    def fill(m):
        file, ident = m.group(2), m.group(3)
        tables = os.path.join(base, file)
        if tables not in cache:
            if not os.path.isfile(tables):
                fail(f"{path}: block {file}#{ident}: no such file {tables}")
            with open(tables, encoding="utf-8") as f:
                cache[tables] = sections(f.read())
        if ident not in cache[tables]:
            fail(f"{path}: block {file}#{ident}: {file} has no such table; it has {', '.join(cache[tables])}")
        return f"{m.group(1)}{cache[tables][ident]}\n\n*Generated from [{file}]({file}#{ident}).*\n{m.group(5)}"
    return text, BLOCK.sub(fill, text)


def check(readme):
    """Every committed tables.md regenerated (no plots) and compared; the README's blocks likewise."""
    problems = []
    for path in experiment_files():
        report = load_report(path)
        if not report.present:
            continue
        folder = default_folder(report)
        committed = os.path.join(folder, TABLES)
        try:
            made = make_tables(report, folder)
        except Bad as e:
            fail(f"{path}: {e}")
        if not os.path.isfile(committed):
            problems.append(f"{committed}: missing (scripts/findings.py {os.path.relpath(path, ROOT)})")
            continue
        with open(committed, encoding="utf-8") as f:
            have = f.read()
        if have != made:
            line = next(i for i, (a, b) in enumerate(zip(have.splitlines() + [""], made.splitlines() + [""]), 1)
                        if a != b)
            problems.append(f"{committed}: not what scripts/findings.py makes of the committed files "
                            f"(first difference at line {line}); run scripts/findings.py {os.path.relpath(path, ROOT)}")
    if readme:
        text, filled = filled_readme(readme)
        if text != filled:
            line = next(i for i, (a, b) in enumerate(zip(text.splitlines() + [""], filled.splitlines() + [""]), 1)
                        if a != b)
            problems.append(f"{readme}: its blocks are not what the tables.md hold (first difference at line {line});"
                            f" run scripts/findings.py --readme {readme}")
    for p in problems:
        print(f"findings.py: {p}", file=sys.stderr)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment", nargs="?", help="an experiment file with a [report]")
    ap.add_argument("--folder", help="the finding's folder (default results/NAME)")
    ap.add_argument("--all", action="store_true", help="every experiments/*.toml with a [report]")
    ap.add_argument("--sweep", metavar="FOLDER", help="after a sweep into FOLDER: the finding it feeds")
    ap.add_argument("--readme", metavar="MD", help="fill MD's findings blocks from the tables.md they name")
    ap.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    ap.add_argument("--no-plots", action="store_true", help="tables.md only")
    a = ap.parse_args()
    if a.check:
        return check(a.readme)
    if a.sweep:
        return after_sweep(a.sweep)
    if a.experiment or a.all:
        paths = [a.experiment] if a.experiment else experiment_files()
        for path in paths:
            report = load_report(path)
            if not report.present:
                if a.experiment:
                    fail(f"{path}: no [report] table (docs/report.md says what one holds)")
                continue
            folder = a.folder or default_folder(report)
            finding(report, folder, plots=not a.no_plots)
            print(f"findings.py: wrote {os.path.join(folder, TABLES)}", file=sys.stderr)
    if a.readme:
        _, filled = filled_readme(a.readme)
        with open(a.readme, "w", encoding="utf-8") as f:
            f.write(filled)
    if not (a.experiment or a.all or a.readme):
        ap.error("name an experiment file, --all, --sweep, --readme or --check")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Reading firelab's result files (docs/csv.md): runs.csv, ratios.csv and meta.json, and the small rules
every report script shares (numbers, medians, run_key splitting, how a setting's value reads).

    from firelab_runs import read_runs, num
    header, rows = read_runs("results/fill/runs.csv")   # exits 2 when it is not a firelab runs.csv

This is the one module the scripts share: plot.py, report.py, stability.py, fill_table.py and iso_quality.py
import from it and never from each other (tests/report/imports_test.py checks that).
"""
import csv
import io
import json
import math
import os
import re
import sys

# The render options that runs.csv has a column for (docs/csv.md): its columns from blend to soft.
RENDER_COLUMNS = ["blend", "sort", "facing", "flipbook", "particle_scale", "upsample", "edge_fixup", "hull",
                  "filter", "hdr", "tonemap", "exposure", "soft"]
# Columns whose values read only with their name (upsample and filter are both "bilinear"; "quad").
NAMED_VALUE_COLUMNS = {"upsample", "filter", "hull", "tonemap"}


def script_name():
    """The running script's file name, which starts each message (plot.py: ...)."""
    return os.path.basename(sys.argv[0]) or "firelab_runs.py"


def warn(msg):
    print(f"{script_name()}: {msg}", file=sys.stderr)


def fail(msg, code=2):
    """Says what is wrong with the input and exits with `code` (2: bad input, as firelab's own)."""
    warn(msg)
    sys.exit(code)


def num(text):
    """The number a CSV field holds; NaN for an empty, unparsable or infinite one."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return math.nan
    return v if math.isfinite(v) else math.nan


def median(values):
    """The median of the values that are not NaN; NaN when there is none."""
    vals = sorted(v for v in values if not math.isnan(v))
    if not vals:
        return math.nan
    mid = len(vals) // 2
    return vals[mid] if len(vals) % 2 else 0.5 * (vals[mid - 1] + vals[mid])


def first_seen(values):
    """The distinct values in the order they first appear (a sweep's order, not an alphabetical one)."""
    return list(dict.fromkeys(values))


def read_runs(path):
    """Returns (header, rows as dicts). Exits 2 when the file is missing or not a firelab runs.csv."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
            text = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    records = list(csv.reader(io.StringIO(text, newline="")))  # splits on CR/LF only, as RFC 4180
    if not records or "frame_ms_median" not in records[0]:
        fail(f"{path}: not a firelab runs.csv (no frame_ms_median column in the header)")
    header, body = records[0], records[1:]
    # firelab writes whole lines only; a last line without its newline is a torn write (kill -9).
    if body and not text.endswith(("\n", "\r")):
        warn(f"{path}: dropping a torn last line")
        body = body[:-1]
    rows = []
    for i, rec in enumerate(body, start=2):
        if not rec:
            continue
        if len(rec) != len(header):
            warn(f"{path}: record {i} has {len(rec)} fields, not {len(header)}: skipped")
            continue
        rows.append(dict(zip(header, rec)))
    return header, rows


def ok_rows(rows):
    """The rows whose status is ok: the runs that have figures."""
    return [r for r in rows if r.get("status", "").strip() == "ok"]


def read_ratios(path):
    """ratios.csv's rows (docs/csv.md), or [] when there is no such file."""
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
        rows = list(csv.DictReader(f))
    if rows and "frame_ratio_median" not in rows[0]:
        warn(f"{path}: not a firelab ratios.csv (no frame_ratio_median column): ignored")
        return []
    return rows


def read_meta(path):
    """meta.json as a dict, or None when there is no such file. Raises ValueError, saying why, when the file
    is there but is not a JSON object."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: unreadable ({e})") from e
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: not a JSON object")
    return meta


def recorded_axes(meta):
    """The sweep's axes as meta.json records them ({flag name: [values]}, in order), or None."""
    config = meta.get("config") if isinstance(meta, dict) else None
    axes = config.get("axes") if isinstance(config, dict) else None
    return dict(axes) if isinstance(axes, dict) and axes else None


def split_run_key(key, axes=None):
    """A run_key's (name, value) pairs, or None when it cannot be read. With the sweep's axis names (in
    order, from meta.json) a value may hold ';'; without them a part that is not name=value belongs to the
    value before it (as harness::splitRunKey in src/harness/results/compare.cpp)."""
    if axes:
        parts, pos = [], 0
        for i, name in enumerate(axes):
            head = (";" if i else "") + name + "="
            if not key.startswith(head, pos):
                return None
            pos += len(head)
            end = key.find(";" + axes[i + 1] + "=", pos) if i + 1 < len(axes) else len(key)
            if end < 0:
                return None
            parts.append((name, key[pos:end]))
            pos = end
        return parts
    if key == "single":
        return []
    parts = []
    for piece in key.split(";"):
        name, eq, value = piece.partition("=")
        if eq and re.fullmatch(r"[a-z0-9_-]+", name):
            parts.append([name, value])
        elif parts:
            parts[-1][1] += ";" + piece
        else:
            return None
    return [tuple(p) for p in parts]


def join_key(parts):
    """The run_key of (name, value) pairs: split_run_key's inverse."""
    return ";".join(f"{n}={v}" for n, v in parts)


def display_value(col, value):
    """How one setting's value reads in a legend: bare when self-explanatory, name=value otherwise."""
    if col == "gl_renderer":
        return re.split(r"[/(]", value)[0].strip() or value
    if col == "label":
        return value or "(no label)"
    if col == "threads":
        return f"{value} threads"
    if col == "other":
        return value or "(defaults)"
    if value == "" or col in NAMED_VALUE_COLUMNS or re.fullmatch(r"[-+.0-9eE]+|true|false|on|off|yes|no", value, re.I):
        return f"{col}={value or '?'}"
    return value

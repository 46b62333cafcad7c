"""Reading firelab's result files (docs/csv.md): runs.csv, ratios.csv and meta.json, and the small rules
every report script shares: numbers and medians, run_key splitting, what each column is (Columns: from
meta.json's "columns" and "metrics" when it lists them, else a fallback), which settings tell runs apart
(Settings), a run's value of a setting wherever the files keep it (setting_of), how a setting's value reads,
how a figure is written (one rule per kind of column: format_figure, figure_cell), the cost-quality frontier,
the crossing of a floor between two measured points, and the camera's settings (a sweep of the camera's
distance: the view plots).

    from firelab_runs import Columns, Settings, find_meta, read_runs, recorded_axes
    header, rows = read_runs("results/fill/runs.csv")   # exits 2 when it is not a firelab runs.csv
    meta, problem = find_meta("results/fill")
    settings = Settings(rows, Columns(meta), recorded_axes(meta))   # settings.varying: what splits series

This is the one module the scripts share: plot.py, report.py, stability.py and findings.py import from it and
never from each other (tests/report/imports_test.py checks that).
"""
import csv
import io
import json
import math
import os
import re
import sys

# What each column of runs.csv was before meta.json described them (firelab's schema, src/harness/results/
# schema.h, writes "columns" and "metrics" into every sweep's meta.json), for the files whose meta.json does
# not say (older sweep folders, a lone `firelab run --csv F`): its group, and its rule over
# rounds where that is not the group's usual one. warmup and frames are records, not settings: they are
# what the run did (fewer frames than asked when --max-seconds ran out), so they never tell runs apart.
FALLBACK_GROUPS = {
    "identity": ["experiment", "label", "run_key"],
    "setting": ["strategy", "effect", "emitter", "distribution", "particles", "width", "height", "blend", "sort",
                "facing", "flipbook", "particle_scale", "upsample", "edge_fixup", "hull", "filter", "hdr",
                "tonemap", "exposure", "soft", "layer_order", "seed", "dt", "timing", "fire_light", "threads"],
    "timing": ["alive_mean", "frame_ms_median", "frame_ms_ci_low", "frame_ms_ci_high", "frame_ms_mean",
               "frame_ms_p5", "frame_ms_p95", "frame_ms_p99", "frame_ms_stddev", "frame_ms_min", "frame_ms_max",
               "fps", "sim_ms_median", "upload_ms_median", "draw_ms_median", "draw_ms_ci_low", "draw_ms_ci_high",
               "gpu_ms_median", "gpu_simulate_ms_median", "gpu_sort_ms_median", "gpu_scene_ms_median",
               "gpu_depth_ms_median", "gpu_particles_ms_median", "gpu_composite_ms_median",
               "gpu_tonemap_ms_median", "light_fit_ms_median", "light_shade_ms_median", "harness_ms_mean"],
    "quality": ["reference", "energy_scale", "quality_frames", "psnr_db", "ssim", "flip", "psnr_fire_db",
                "ssim_fire", "flip_fire", "flicker_ratio", "fragments_shaded", "fragments_visible",
                "covered_fraction", "frame_png", "reference_png", "quality_seconds"],
    "record": ["warmup", "frames", "round", "rounds", "gl_renderer", "gl_version", "started", "seconds", "status"],
}
GROUP_RULES = {"identity": "first", "setting": "first", "timing": "median", "quality": "scored", "record": "first"}
FALLBACK_RULES = {"frame_ms_median": "median_interval", "frame_ms_ci_low": "interval_low",
                  "frame_ms_ci_high": "interval_high", "draw_ms_median": "median_interval",
                  "draw_ms_ci_low": "interval_low", "draw_ms_ci_high": "interval_high", "alive_mean": "mean",
                  "fps": "fps", "frames": "sum", "seconds": "sum", "round": "round_number", "rounds": "ok_rounds"}
# The image metrics of today's firelab (src/harness/quality), as meta.json's "metrics" lists them.
FALLBACK_METRICS = [
    {"name": "psnr", "label": "PSNR (dB)", "better": "higher", "frame_column": "psnr_db",
     "fire_column": "psnr_fire_db", "default": True},
    {"name": "ssim", "label": "SSIM", "better": "higher", "frame_column": "ssim", "fire_column": "ssim_fire",
     "default": True},
    {"name": "flip", "label": "ꟻLIP", "better": "lower", "frame_column": "flip", "fire_column": "flip_fire",
     "default": True},
]
# The view's settings (--camera, --camera-distance, ... --camera-path), which meta.json's "columns" do not
# tell from the other settings. A sweep of camera_distance is a sweep of views: the view plots put the
# distance on their x axis and name a configuration by the other settings. (--camera-fade is not among them:
# it is a render option, a fill approximation, so a configuration's.)
CAMERA_COLUMNS = ["camera", "camera_distance", "camera_height", "camera_yaw", "camera_target", "fov",
                  "orbit_period", "camera_path"]
DISTANCE = "camera_distance"
# What a camera sweep measures of each view: the fire's projected size, its share of the frame (scored runs),
# the live particles behind the near plane, the drawn points larger than the largest point size (GL_POINTS).
VIEW_MEASURES = ["fire_px", "covered_fraction", "behind_camera_fraction", "points_clamped_fraction"]
# Settings newer than the fallback's lists, settings in it too: a lone `firelab run --csv F` has no meta.json,
# and runs at two views or two fades must never merge.
NEWER_SETTINGS = [*CAMERA_COLUMNS, "camera_fade"]
# Columns whose values read only with their name (upsample and filter are both "bilinear"; "quad", "layers").
NAMED_VALUE_COLUMNS = {"upsample", "filter", "hull", "tonemap", "layer_order", "lit", "sort"}


# firelab's defaults (src/render/options.h, RenderOptions) of the settings that name configurations in the
# findings' tables (scripts/findings.py): a configuration named by its settings leaves out those at the default.
DEFAULTS = {"texture": "flame.png", "particle_scale": "1", "hull": "quad", "upsample": "nearest-depth",
            "filter": "trilinear", "camera_fade": "0,0", "volume_cell": "8", "volume_slices": "64"}


def setting_number(text):
    """A setting's value as numbers where it is one or a vector of them (0.5 and 0.50, 0,0 and 0.0,0 alike),
    else as its text: what `same_value` compares and what sorts a setting's values."""
    parts = [num(p) for p in text.split(",")]
    return tuple(parts) if all(p == p for p in parts) else text.strip()  # NaN != NaN: not numbers


def same_value(a, b):
    """Whether two values of a setting are the same, numbers by value."""
    return setting_number(a) == setting_number(b)


def is_default(col, value, defaults=DEFAULTS):
    """Whether a setting's value is its default, numbers by value (1 and 1.0, 0,0 and 0.0,0); an empty one
    (a runs.csv without the column) counts as the default."""
    return value.strip() == "" or (col in defaults and same_value(value, defaults[col]))


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


CSV_GUARD = "'"  # csv.h's kCsvGuard: firelab writes text a spreadsheet would run as a formula behind it


def unguarded(field):
    """A field as firelab was given it: without the guard it writes before formula-like text (csv.h)."""
    return field[1:] if field.startswith(CSV_GUARD) else field


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
        rows.append(dict(zip(header, (unguarded(v) for v in rec))))
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


def find_meta(*folders):
    """(meta.json of the first folder that has one, or None; why it could not be read, or "")."""
    for folder in folders:
        try:
            meta = read_meta(os.path.join(folder, "meta.json"))
        except ValueError as e:
            return None, str(e)
        if meta is not None:
            return meta, ""
    return None, ""


def recorded_axes(meta):
    """The sweep's axes as meta.json records them ({flag name: [values]}, in order), or None."""
    config = meta.get("config") if isinstance(meta, dict) else None
    axes = config.get("axes") if isinstance(config, dict) else None
    return dict(axes) if isinstance(axes, dict) and axes else None


class Metric:
    """One image metric: its columns over the whole frame and over the fire's region, and which way is better."""

    def __init__(self, entry):
        self.name = str(entry.get("name", ""))
        self.label = str(entry.get("label") or self.name)
        self.higher_is_better = entry.get("better") == "higher"
        self.frame_column = str(entry.get("frame_column", ""))
        self.fire_column = str(entry.get("fire_column", ""))

    def cost(self, value):
        """The value as a cost, lower is better whichever way the metric goes (for pareto_frontier)."""
        return -value if self.higher_is_better else value


def pareto_frontier(points):
    """Indices of the (error, time) points that no other point dominates, in order of rising error.

    A point is dominated by one that is no worse on both axes and better on one; equal points do not
    dominate each other, so both stay. Points with a NaN coordinate are never on the frontier.
    Along the returned order the error rises and the time falls.
    """
    order = sorted((i for i, (x, y) in enumerate(points) if not (math.isnan(x) or math.isnan(y))),
                   key=lambda i: points[i])
    frontier, best = [], None  # best: the first point in this order with the lowest time so far
    for i in order:
        if best is None or points[i][1] < best[1]:
            best = points[i]
            frontier.append(i)
        elif points[i] == best:
            frontier.append(i)
    return frontier


def listed(meta, key):
    """meta.json's list under key, its entries that are objects with a name; [] when it has none."""
    entries = meta.get(key) if isinstance(meta, dict) else None
    return [e for e in entries if isinstance(e, dict) and e.get("name")] if isinstance(entries, list) else []


class Columns:
    """What each runs.csv column is: its group (identity, setting, timing, quality, record), its rule over
    rounds and, for a setting, its flag; and the image metrics. Taken from meta.json's "columns" and
    "metrics" when it lists them, else from the fallback above (what today's runs.csv holds)."""

    def __init__(self, meta=None):
        columns, metrics = listed(meta, "columns"), listed(meta, "metrics")
        self.from_meta = bool(columns)
        if not columns:
            groups = [*FALLBACK_GROUPS.items(), ("setting", NEWER_SETTINGS)]
            columns = [{"name": n, "group": g, "rule": FALLBACK_RULES.get(n, GROUP_RULES[g])}
                       for g, names in groups for n in names]
        self.info = {c["name"]: c for c in columns}
        self.metrics = [Metric(m) for m in metrics or FALLBACK_METRICS]

    def group(self, name):
        return self.info.get(name, {}).get("group")

    def rule(self, name):
        return self.info.get(name, {}).get("rule")

    def names(self, group, header=None):
        """The columns of a group, in the header's order when one is given (then only those it holds)."""
        return [n for n in (header if header is not None else self.info) if self.group(n) == group]

    def column_of(self, flag):
        """The column of a setting's flag (particle-scale: particle_scale)."""
        for name, entry in self.info.items():
            if entry.get("setting") == flag:
                return name
        return flag.replace("-", "_")

    def interval(self, name):
        """(low, high) columns of the bootstrap interval of a median that has one (frame_ms_median:
        frame_ms_ci_low, frame_ms_ci_high), or None."""
        if self.rule(name) != "median_interval" or not name.endswith("_median"):
            return None
        prefix = name[:-len("_median")]
        ends = [next((n for n in self.info if n.startswith(prefix) and self.rule(n) == rule), None)
                for rule in ("interval_low", "interval_high")]
        return tuple(ends) if all(ends) else None

    def scored_metrics(self, rows):
        """The metrics whose fire-region column holds a value in some row."""
        return [m for m in self.metrics if any(r.get(m.fire_column, "").strip() for r in rows)]


def row_interval(row, ends):
    """(low, high) of a median's 95 % interval, ends naming its columns, when the row summarises several
    rounds and holds both; None for one round (the interval is the median itself) or a CSV without them."""
    low, high = (num(row.get(c)) for c in ends or ("", ""))
    return (low, high) if num(row.get("rounds")) > 1 and low > 0 and high > 0 else None


# The times ratios.csv pairs with the baseline's (`firelab compare --metric`), by the name of their columns
# (frame_ratio_median ...), and what a plot or a table calls each.
RATIO_METRICS = {"frame": "frame time", "cpu": "CPU time", "draw": "draw time"}


def ratio_figure(row, metric="frame"):
    """A ratios.csv row's paired ratio of one time (a RATIO_METRICS key) and its 95 % interval: (median, (low,
    high)), the interval None where the row summarises a single ratio (one round, not paired by frames) or has
    no ends; the median NaN where the row has none (no paired round, or the time not recorded)."""
    low, high = (num(row.get(f"{metric}_ratio_{end}")) for end in ("ci_low", "ci_high"))
    several = num(row.get("pairs")) > 1 or num(row.get("rounds")) > 1
    return num(row.get(f"{metric}_ratio_median")), ((low, high) if several and low > 0 and high > 0 else None)


def holds_one(interval):
    """Whether a ratio's 95 % interval ((low, high) or None) holds 1: the rounds do not tell the configuration
    from its baseline."""
    return bool(interval) and interval[0] <= 1.0 <= interval[1]


def question(meta, rows):
    """What the experiment asks: meta.json's question, else its description, else the experiment's name."""
    meta = meta if isinstance(meta, dict) else {}
    for key in ("question", "description", "experiment"):
        if str(meta.get(key) or "").strip():
            return str(meta[key]).strip()
    return ", ".join(e for e in first_seen(r.get("experiment", "") for r in rows) if e) or "firelab runs"


class Settings:
    """The settings that tell a file's configurations apart, and each row's value of them.

    The candidates, in facet-priority order: the machine and the experiment (a merged file), the setting
    columns (only the swept ones when meta.json records the sweep's axes: other settings are the same for
    every run), the frame size, the label, and "other": the run_key's settings that are none of those (a
    model parameter, the texture, a column this script does not know), so that configurations never merge.
    The strategy and the columns `apart` are not among them: every series is named by its strategy first,
    and `apart` holds the plots' x axis (the particle count; for the view plots the camera's distance and the
    camera settings that go with it). `varying` holds the candidates that take several values."""

    def __init__(self, rows, columns=None, axes=None, apart=("particles",)):
        self.columns = columns or Columns()
        self.header = list(rows[0]) if rows else []
        self.axes = list(axes) if axes else None
        swept = {self.columns.column_of(a) for a in self.axes} if self.axes else None
        named_apart = {"strategy", "width", "height", "label", *apart}
        if swept is None:
            settings = [c for c in self.columns.names("setting", self.header) if c not in named_apart]
        else:
            settings = [c for c in self.header if c in swept and c not in named_apart]
        self.named = named_apart | set(settings)  # the run_key's other parts make "other"
        sized = swept is None or bool(swept & {"width", "height"})
        self.candidates = ["gl_renderer", "experiment", *settings] + ["size"] * sized + ["label", "other"]
        self.varying = [c for c in self.candidates if len({self.value(r, c) for r in rows}) > 1]

    def key_parts(self, row):
        """The run_key's (flag, value) pairs, split by the sweep's axes when known."""
        key = row.get("run_key", "")
        return (split_run_key(key, self.axes) if self.axes else None) or split_run_key(key) or []

    def value(self, row, col):
        """A row's value of a candidate, as text."""
        if col == "other":
            return " ".join(f"{n}={v}" for n, v in self.key_parts(row) if self.columns.column_of(n) not in self.named)
        if col == "size":
            return f"{row.get('width', '')}x{row.get('height', '')}"
        return row.get(col, "").strip()

    def varying_columns(self):
        """The CSV columns that show the varying settings (the frame size's width and height, the run_key for
        settings without a column)."""
        shown = {"size": ["width", "height"], "other": ["run_key"]}
        return [c for v in self.varying for c in shown.get(v, [v])]

    def label(self, row, cols=None):
        """The row's strategy and its values of cols (default: the varying settings), as a legend reads them."""
        cols = self.varying if cols is None else cols
        return " / ".join([row.get("strategy", "") or "?"] + [display_value(c, self.value(row, c)) for c in cols])


def distances(rows):
    """The camera distances of the rows (camera_distance, m), distinct and rising; [] without the column."""
    return sorted({d for d in (num(r.get(DISTANCE)) for r in rows) if d > 0})


def camera_swept(rows):
    """Whether the rows view the fire from more than one camera distance: then they get the view plots."""
    return len(distances(rows)) > 1


def tied_to_distance(rows):
    """The camera's settings that the distance decides in these rows (one value at each distance: the distance
    itself, a height that a path sets with it, one that is never swept): the view plots' x axis, never a
    series. A camera setting swept across the distances (two fields of view at each) splits series instead."""
    def tied(col):
        values = {}  # distance -> the column's values there
        for r in rows:
            values.setdefault(num(r.get(DISTANCE)), set()).add(r.get(col, "").strip())
        return all(len(v) == 1 for d, v in values.items() if d > 0)
    return [c for c in CAMERA_COLUMNS if tied(c)]


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
            parts.append((name, key_value_text(key[pos:end])))
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
    return [(n, key_value_text(v)) for n, v in parts]


def key_value(value):
    """A value as a run_key writes it (harness::runKeyValue): ';' as %3B and '%' as %25."""
    return value.replace("%", "%25").replace(";", "%3B")


def key_value_text(escaped):
    """key_value's inverse (harness::runKeyValueText)."""
    return re.sub(r"%3B|%25", lambda m: ";" if m.group(0) == "%3B" else "%", escaped)


def join_key(parts):
    """The run_key of (name, value) pairs: split_run_key's inverse."""
    return ";".join(f"{n}={key_value(v)}" for n, v in parts)


MOST_SHOWN = 60  # characters of one value in a legend or a label: a 100 kB label made an image too large to draw


def shortened(text, most=MOST_SHOWN):
    """text, cut to `most` characters with an ellipsis where it is longer."""
    return text if len(text) <= most else text[:most - 1] + "…"


def display_value(col, value):
    """How one setting's value reads in a legend: bare when self-explanatory, name=value otherwise; at most
    MOST_SHOWN characters of the value (the CSV and the report's table keep it whole)."""
    value = shortened(value)
    if col == "gl_renderer":
        return re.split(r"[/(]", value)[0].strip() or value
    if col == "label":
        return value or "(no label)"
    if col == "threads":
        return f"{value} threads"
    if col == "other":
        return value or "(defaults)"
    bare_numbers = re.fullmatch(r"[-+.0-9eE,]+|true|false|on|off|yes|no", value, re.I)  # a vector's too: 0.5,2
    if value == "" or col in NAMED_VALUE_COLUMNS or bare_numbers:
        return f"{col}={value or '?'}"
    return value


def path_stem(col, value):
    """A path-valued setting as a name reads it: an effect's file stem (effects/campfire.toml: campfire), a
    texture's file name (textures/gaussian.png: gaussian.png); other settings as they are."""
    if col == "effect" and value:
        return os.path.splitext(os.path.basename(value))[0] or value
    if col in ("texture", "camera_path") and value:
        return os.path.basename(value) or value
    return value


def setting_text(col, value):
    """A setting's value in a table cell: its path's stem, "default" for an empty one (the default fire)."""
    return path_stem(col, value.strip()) or "default"


def fixed_settings(meta):
    """meta.json's config.settings ({flag: value}: the settings every run of the sweep shared), or {}."""
    config = meta.get("config") if isinstance(meta, dict) else None
    settings = config.get("settings") if isinstance(config, dict) else None
    return {str(k): str(v) for k, v in settings.items()} if isinstance(settings, dict) else {}


def setting_of(row, col, key_parts, fixed):
    """A run's value of a setting wherever the files keep it: its runs.csv column, else its run_key's part (a
    swept setting without a column, --texture), else the sweep's fixed value in meta.json (key_parts and fixed
    keyed by column name, as Columns.column_of names them); "" when none has it."""
    if col in row:
        return row[col].strip()
    if col in key_parts:
        return key_parts[col]
    return fixed.get(col, "")


# --- how a figure is written: one rule per kind of column ------------------------------------------------

def figure_kind(col):
    """The kind of a figure's column, which decides how it is written: ms (times), db, fraction (a share,
    written as a percentage), count (fragments, particles), ratio, score (the other image metrics) or plain."""
    if col.endswith("_fraction"):
        return "fraction"
    if col.endswith("_db"):
        return "db"
    if "ratio" in col:
        return "ratio"
    if col.startswith("fragments_") or col in ("particles", "abuffer_fragments", "alive_mean"):
        return "count"
    if "_ms_" in col or col.endswith("_ms") or col in ("frame_ms", "baseline_frame_ms"):
        return "ms"
    if col in ("psnr", "ssim", "flip", "hist") or col.startswith(("ssim", "flip", "hist")):
        return "score"
    return "plain"


def significant(value, digits, keep_zeros=False):
    """value to `digits` significant digits in plain notation (never 1e+03), the integer part kept whole."""
    if value != value:
        return ""
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:.{decimals}f}"
    if not keep_zeros and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_figure(col, value):
    """A figure as every table writes it, by its column's kind: ms to 3 significant digits (412, 87.9, 1030),
    dB to one decimal, a fraction as a percentage (97.9 %), a count in millions from a million up (28.2 M,
    else 104,656), a ratio to three decimals, an image score to 4 significant digits; NaN as empty."""
    if value != value:
        return ""
    kind = figure_kind(col)
    if kind == "ms":
        return significant(value, 3, keep_zeros=True)
    if kind == "db":
        return f"{value:.1f}"
    if kind == "fraction":
        return significant(100 * value, 3) + " %"
    if kind == "count":
        return significant(value / 1e6, 3, keep_zeros=True) + " M" if abs(value) >= 1e6 else f"{value:,.0f}"
    if kind == "ratio":
        return f"{value:.3f}"
    return significant(value, 4)


def figure_cell(col, value, interval=None):
    """A figure with its 95 % interval where it has one: 'median [low, high]'."""
    text = format_figure(col, value)
    if text and interval:
        text += f" [{format_figure(col, interval[0])}, {format_figure(col, interval[1])}]"
    return text


def intervals_overlap(a, b):
    """Whether two intervals ((low, high) or None) both exist and overlap: the rounds do not tell them apart."""
    return bool(a and b and a[0] <= b[1] and b[0] <= a[1])


def interpolate_log(x0, y0, x1, y1, x):
    """y at x on the straight line through (log x0, log y0) and (log x1, log y1); linear in y where a y is not
    positive."""
    if x1 == x0:
        return y0
    f = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
    if y0 > 0 and y1 > 0:
        return math.exp(math.log(y0) + f * (math.log(y1) - math.log(y0)))
    return y0 + f * (y1 - y0)


def first_crossing(points, floor, higher_is_better):
    """points: [(x, value)] rising in x (x > 0). Where value first reaches the floor: (x, i, f), the crossing
    between points i-1 and i at fraction f of log x (f 1 at a measured point, i 0 when the first point meets
    it); None when no point does. Linear in the value, logarithmic in x."""
    meets = (lambda v: v >= floor) if higher_is_better else (lambda v: v <= floor)
    for i, (x, v) in enumerate(points):
        if not meets(v):
            continue
        if i == 0:
            return x, 0, 1.0
        x0, v0 = points[i - 1]
        f = (floor - v0) / (v - v0) if v != v0 else 1.0
        return math.exp(math.log(x0) + f * (math.log(x) - math.log(x0))), i, f
    return None

#!/usr/bin/python3
"""Writes report.html: one static page for a sweep's output folder (opens as file://, needs no network).

Usage: scripts/report.py RUNS_CSV [--out DIR] [--title TEXT] [--metric frame|cpu|draw]
(scripts/plot.py runs it after the plots, with its own --metric)

The page opens with what the experiment asks (meta.json's question, else its description), a warning where the
machine was not quiet before or after the sweep (meta.json's load_before, load_after) or rounds ran while the
canary was off (runs.csv's canary_off, ratios.csv's canary_off_rounds), and a headline table: per configuration,
fastest first at each count (and camera distance, when that is swept), the median frame time with its 95 %
interval, FPS, the fire-region score of each metric and, with a ratios.csv, the paired ratio of --metric's time
to the baseline, marked ○ where its interval holds 1. A big sweep shows its cost–quality frontier; under the
table a line counts every run it leaves out (failed, unscored, off the frontier, beyond the rows shown).
Then every *.png plot in the folder (the view plots of a camera sweep among them), the runs (key columns,
sortable by clicking a header; every column in a collapsible table), per strategy its scored frame beside
the reference's, and last the machine, build and settings (meta.json). Images are referenced relatively;
every CSV and JSON value is HTML-escaped.
"""
import argparse
import html
import json
import math
import os
import sys
import urllib.parse

from firelab_runs import (DISTANCE, RATIO_METRICS, VIEW_MEASURES, Columns, Settings, camera_swept, find_meta,
                          holds_one, num, ok_rows, pareto_frontier, question, ratio_figure, read_ratios, read_runs,
                          recorded_axes, row_interval)

# The headline shows every configuration of a count up to HEADLINE_ROWS; beyond, those on a cost–quality
# frontier (at most HEADLINE_FRONTIER) or, unscored, the HEADLINE_ROWS fastest.
HEADLINE_ROWS = 20
HEADLINE_FRONTIER = 40
# A round's canary is flagged off (canary_off) when it is further than this from its sweep's median:
# harness/measure/canary.h's kCanaryMargin.
CANARY_MARGIN = 0.10
# After a paired ratio whose 95 % interval holds 1 (ratios.png draws it hollow).
HOLDS_ONE_MARK = "○"
HOLDS_ONE_NOTE = (f"{HOLDS_ONE_MARK}: the ratio's 95% interval holds 1, so the rounds do not tell that configuration "
                  "from its baseline (hollow in ratios.png).")
# Shown as text even when they look like numbers.
TEXT_COLUMNS = {"run_key", "label", "seed"}

# Known plots first, in this order, with what they show; any other *.png follows under its file name.
CAPTIONS = {
    "frame_time.png": "Frame time against particle count (median; band: p5–p95; bars, with several rounds: "
                      "the median's 95% interval); a sweep at one count has a bar per configuration instead, "
                      "its whisker the 95% interval (p5–p95 with one round).",
    "fps.png": "Frames per second against particle count, with 30 and 60 FPS lines (at one count: bars).",
    "split.png": "Per-frame split (simulation, upload, draw, GPU timer) at each series' largest count.",
    "pareto.png": "Cost against quality over the fire region, a panel per scored metric, one point per run: "
                  "lower-left is better; the dashed step line is the frontier of runs no other run beats on both, "
                  "its runs ringed, numbered fastest first and named under the panels.",
    "views_frame_time.png": "A sweep of the camera's distance: each configuration's frame time (median; bars, with "
                            "several rounds: its 95% interval) against the camera's distance and, beside it, "
                            "against the fire's share of the frame (covered_fraction) or, unscored, its projected "
                            "size (fire_px).",
    "views_quality.png": "Each scored metric over the fire's region against the camera's distance, a line per "
                         "configuration.",
    "views_cost_per_mpx.png": "Frame time per megapixel the fire covers, frame_ms_median / (covered_fraction × "
                              "width × height / 10⁶), against the camera's distance: what the fire's pixels cost "
                              "as it fills the frame (scored runs only).",
    "views_clamped.png": "The GL_POINTS strategies' drawn particles larger than the largest point size "
                         "(points_clamped_fraction), and every configuration's live particles behind the near "
                         "plane (behind_camera_fraction), against the camera's distance.",
    "ratios.png": "Each configuration's time (frame, CPU or draw time, as firelab compare --metric chose: the "
                  "title says which) over its baseline's at the same other settings: the median over rounds of the "
                  "paired ratio, with its 95% interval; a hollow marker is a ratio whose interval holds 1, not told "
                  "apart from the baseline; the dashed line at 1 is the baseline.",
}

STYLE = """
:root { color-scheme: light; --fg: #1d232b; --muted: #5d6773; --line: #d9dee4; --head: #f1f4f7;
        --accent: #c2410c; --bad: #b42318; --badbg: #fdecea; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: var(--fg); background: #fff; }
header { padding: 22px 32px 18px; background: linear-gradient(90deg, #7c1d06, #c2410c 55%, #f59e0b);
         color: #fff; }
header h1 { margin: 0 0 4px; font-size: 26px; font-weight: 650; }
header p { margin: 0; opacity: .93; }
nav { padding: 8px 32px; border-bottom: 1px solid var(--line); background: var(--head); font-size: 14px; }
nav a { margin-right: 18px; color: var(--accent); text-decoration: none; }
main { padding: 8px 32px 40px; max-width: 1240px; }
h2 { margin: 30px 0 10px; font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
figure { margin: 14px 0 26px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 14px; margin-top: 4px; }
.frames { max-width: 1040px; display: grid; grid-template-columns: 1fr 1fr; gap: 10px 18px; margin-bottom: 24px; }
.frames h3 { grid-column: 1 / -1; margin: 10px 0 0; font-size: 16px; }
.frames figure { margin: 0; }
.frames img { width: 100%; background: #000; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 4px; max-height: 640px; }
table { border-collapse: collapse; font-size: 13.5px; width: 100%; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: var(--head); z-index: 1; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " ▲"; }
table.sortable th[aria-sort="descending"]::after { content: " ▼"; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafbfc; }
tr.failed td { background: var(--badbg); }
tr.failed td.status { color: var(--bad); font-weight: 600; white-space: normal; min-width: 260px; }
.meta-grid { display: flex; gap: 24px; align-items: flex-start; }
table.meta { width: auto; flex: 1 1 0; border: 1px solid var(--line); border-radius: 4px; }
table.meta td:first-child { color: var(--muted); font-family: ui-monospace, "DejaVu Sans Mono", monospace;
                            font-size: 12.5px; }
table.meta td:last-child { white-space: normal; overflow-wrap: anywhere; }
details { margin-top: 12px; }
summary { cursor: pointer; color: var(--accent); }
.note { color: var(--muted); }
.left-out { font-weight: 600; }
.warning { margin: 10px 0 14px; padding: 8px 14px; border-left: 4px solid var(--bad); background: var(--badbg);
           color: var(--bad); border-radius: 3px; }
.warning p { margin: 4px 0; }
h2.question { font-size: 22px; }
table.headline td:first-child { white-space: normal; min-width: 280px; }
"""

# Sorts a table by the clicked header: numbers numerically (data-v holds the full value), text otherwise,
# empty cells last either way.
SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("thead th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var cell = row.cells[col];
        var text = cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent.trim();
        var n = text === "" ? NaN : Number(text);
        return { empty: text === "", num: n, text: text };
      }
      rows.sort(function (a, b) {
        var ka = key(a), kb = key(b);
        if (ka.empty || kb.empty) return ka.empty - kb.empty;
        var d = !isNaN(ka.num) && !isNaN(kb.num) ? ka.num - kb.num
              : ka.text.localeCompare(kb.text, undefined, { numeric: true });
        return up ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


def esc(value):
    return html.escape(str(value), quote=True)


def flatten(obj, prefix=""):
    """[(dotted key, text)] of a JSON object: nested objects flattened (gl.renderer), lists as JSON."""
    out = []
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out += flatten(v, key + ".")
        elif isinstance(v, bool):
            out.append((key, "true" if v else "false"))
        elif v is None:
            out.append((key, ""))
        elif isinstance(v, (dict, list)):
            out.append((key, json.dumps(v, ensure_ascii=False)))
        else:
            out.append((key, str(v)))
    return out


def href(path, out_dir):
    """A relative URL from out_dir to path, each segment percent-encoded."""
    rel = os.path.relpath(path, out_dir)
    return "/".join(urllib.parse.quote(part) for part in rel.split(os.sep))


def cell(col, value):
    """A <td>: numbers right-aligned, shown to 4 significant digits, sorted by their full value."""
    v = num(value)
    if math.isnan(v) or col in TEXT_COLUMNS:
        extra = ' class="status"' if col == "status" else ""
        return f"<td{extra}>{esc(value)}</td>"
    shown = value if v == int(v) and abs(v) < 1e15 and "e" not in value.lower() else f"{v:.4g}"
    return f'<td class="num" data-v="{esc(value)}">{esc(shown)}</td>'


def meta_tables(meta):
    """meta.json flattened into key/value rows, in two side-by-side tables when long."""
    items = flatten(meta)
    if not items:
        return ""
    halves = [items] if len(items) <= 8 else [items[:(len(items) + 1) // 2], items[(len(items) + 1) // 2:]]
    tables = "".join('<table class="meta"><tbody>' + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>"
                                                             for k, v in half) + "</tbody></table>"
                     for half in halves)
    return f'<div class="meta-grid">{tables}</div>'


def runs_table(rows, columns, css_class):
    def th(col):  # right-aligned over a column of numbers
        values = [r.get(col, "") for r in rows if r.get(col, "")]
        numeric = values and col not in TEXT_COLUMNS and not any(math.isnan(num(v)) for v in values)
        return f'<th scope="col" class="num">{esc(col)}</th>' if numeric else f'<th scope="col">{esc(col)}</th>'
    head = "".join(th(c) for c in columns)
    body = []
    for r in rows:
        attrs = ' class="failed"' if r.get("status", "").strip() != "ok" else ""
        body.append(f"<tr{attrs}>{''.join(cell(c, r.get(c, '')) for c in columns)}</tr>")
    return (f'<div class="table-wrap"><table class="sortable {css_class}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def plot_files(out_dir):
    names = sorted(n for n in os.listdir(out_dir) if n.endswith(".png") and not n.endswith(".tmp.png")
                   and os.path.isfile(os.path.join(out_dir, n)))
    known = [n for n in CAPTIONS if n in names]
    return known + [n for n in names if n not in CAPTIONS]


def key_columns(header, rows, columns, settings):
    """The runs table's first columns: the strategy, the settings that vary (firelab_runs.Settings: each splits
    the frames section too, points / alpha and points / additive being two series), the count, the timings a
    reader compares, the fire-region quality of every scored metric and, in a sweep of the camera's
    distance, how big the fire was on screen and what the view did to the particles."""
    quality = [m.fire_column for m in columns.scored_metrics(rows)]
    views = VIEW_MEASURES if camera_swept(ok_rows(rows)) else []
    wanted = ["strategy", *settings.varying_columns(), "particles", "frame_ms_median", "fps", *quality, *views,
              "fragments_shaded", "status"]
    return [c for c in dict.fromkeys(wanted) if c in header]


def frame_pairs(rows, csv_dir, settings=None):
    """Per series, a strategy and the settings that vary (first seen order): the ok row with the largest
    count whose frame_png exists, as (series name, row)."""
    settings = settings or Settings(ok_rows(rows))
    best = {}
    for r in ok_rows(rows):
        frame = r.get("frame_png", "").strip()
        if not frame or not os.path.isfile(os.path.join(csv_dir, frame)):
            continue
        series = settings.label(r)
        count = num(r.get("particles"))
        count = 0.0 if math.isnan(count) else count
        if series not in best or count > best[series][0]:
            best[series] = (count, r)
    return [(s, r) for s, (_, r) in best.items()]


def figure(src, caption, alt):
    return (f'<figure><img src="{esc(src)}" alt="{esc(alt)}" loading="eager">'
            f"<figcaption>{caption}</figcaption></figure>")


def frames_section(rows, csv_dir, out_dir, columns, settings):
    pairs = frame_pairs(rows, csv_dir, settings)
    if not pairs:
        return ""
    parts = ['<section id="frames"><h2>Frames: each strategy beside the reference</h2>',
             '<p class="note">Per series (strategy and the settings that vary), the scored run with the largest '
             'particle count.</p>']
    for strategy, r in pairs:
        scores = ", ".join(f"{m.fire_column} {esc(r[m.fire_column])}" for m in columns.metrics
                           if r.get(m.fire_column, "").strip())
        parts.append(f'<div class="frames"><h3>{esc(strategy)} at {esc(r.get("particles", "?"))} particles'
                     f'{" — " + scores if scores else ""}</h3>')
        frame = os.path.join(csv_dir, r["frame_png"].strip())
        parts.append(figure(href(frame, out_dir), f"{esc(strategy)}: {esc(r['frame_png'].strip())}",
                            f"{strategy} frame"))
        ref = r.get("reference_png", "").strip()
        if ref and os.path.isfile(os.path.join(csv_dir, ref)):
            parts.append(figure(href(os.path.join(csv_dir, ref), out_dir),
                                f"reference: {esc(r.get('reference', '') or ref)}", "reference frame"))
        else:
            parts.append(f'<p class="note">no reference frame{": " + esc(ref) + " missing" if ref else ""}</p>')
        parts.append("</div>")
    parts.append("</section>")
    return "\n".join(parts)


def by_count(rows):
    """[(count, rows at that count, fastest first)] in rising count order; rows without a count last."""
    groups = {}
    for r in rows:
        groups.setdefault(num(r.get("particles")), []).append(r)
    fastest = lambda r: (math.isnan(num(r.get("frame_ms_median"))), num(r.get("frame_ms_median")))  # noqa: E731
    return [(count, sorted(groups[count], key=fastest))
            for count in sorted(groups, key=lambda c: (math.isnan(c), c))]


def by_distance(rows):
    """[(camera distance, its rows in their order)] in rising distance; one group (NaN) when the rows do not
    sweep it: configurations seen from different distances are not compared."""
    if not camera_swept(rows):
        return [(math.nan, rows)]
    groups = {}
    for r in rows:
        groups.setdefault(num(r.get(DISTANCE)), []).append(r)
    return [(d, groups[d]) for d in sorted(groups, key=lambda d: (math.isnan(d), d))]


def chosen(rows, metrics):
    """The rows of one count that the headline shows, fastest first; which those are, in words (empty when
    all); and why each other row is not shown, as {reason: how many}. Every row when they are few; else those
    on the frontier of frame time against a scored metric (no other is both faster and better there: the ones
    worth choosing), at most HEADLINE_FRONTIER; else the HEADLINE_ROWS fastest."""
    if len(rows) <= HEADLINE_ROWS:
        return rows, "", {}
    if not metrics:
        return rows[:HEADLINE_ROWS], f"the {HEADLINE_ROWS} fastest", {
            f"beyond the {HEADLINE_ROWS} fastest": len(rows) - HEADLINE_ROWS}
    keep = set()
    for m in metrics:
        keep.update(pareto_frontier([(m.cost(num(r.get(m.fire_column))), num(r.get("frame_ms_median")))
                                     for r in rows]))
    front = [r for i, r in enumerate(rows) if i in keep]
    which = (f"the {len(front)} on the frontier of frame time against " + ", ".join(m.label for m in metrics)
             + " (no other configuration is both faster and better in that metric)")
    if len(front) > HEADLINE_FRONTIER:
        which = f"the {HEADLINE_FRONTIER} fastest of " + which[len("the "):]
    return front[:HEADLINE_FRONTIER], which, off_frontier(rows, keep, metrics, len(front) - HEADLINE_FRONTIER)


def off_frontier(rows, keep, metrics, beyond):
    """Why the rows of a big scored group are not shown, {reason: how many}: no frame time, no score in any
    metric (neither can be on a frontier), on none of the frontiers, or `beyond` the HEADLINE_FRONTIER
    fastest of them."""
    reasons = {"without a frame time": 0, "without a score (" + ", ".join(m.label for m in metrics) + ")": 0,
               "not on the frontier (another is both faster and better)": 0,
               f"on the frontier but beyond its {HEADLINE_FRONTIER} fastest": max(0, beyond)}
    no_time, no_score, off, _ = reasons
    for i, r in enumerate(rows):
        if i in keep:
            continue
        if math.isnan(num(r.get("frame_ms_median"))):
            reasons[no_time] += 1
        elif all(math.isnan(num(r.get(m.fire_column))) for m in metrics):
            reasons[no_score] += 1
        else:
            reasons[off] += 1
    return {why: n for why, n in reasons.items() if n}


def value_cell(value, interval=None, digits=4, mark=""):
    """A number with its 95 % interval when it has one ("353.6 [339.4, 376.7]") and a mark after it, sorted by
    the number."""
    if math.isnan(value):
        return "<td></td>"
    text = f"{value:.{digits}g}" + (f" [{interval[0]:.{digits}g}, {interval[1]:.{digits}g}]" if interval else "")
    return f'<td class="num" data-v="{value!r}">{esc(text + mark)}</td>'


def ratio_of(row, ratios):
    """The row's line of ratios.csv (by run_key), or None."""
    return next((q for q in ratios if q.get("run_key") == row.get("run_key")), None)


def ratio_cell(row, ratios, metric="frame"):
    """The row's paired ratio of `metric` time to the baseline with its interval, marked HOLDS_ONE_MARK where the
    interval holds 1; "baseline" for a baseline."""
    ratio = ratio_of(row, ratios)
    if ratio is None:
        is_base = any(q.get("baseline_key") == row.get("run_key") for q in ratios)
        return f'<td class="num" data-v="1">{"baseline" if is_base else ""}</td>'
    value, interval = ratio_figure(ratio, metric)
    return value_cell(value, interval, digits=3, mark=f" {HOLDS_ONE_MARK}" * holds_one(interval))


def held_ones(rows, ratios, metric="frame"):
    """How many of the rows have a paired ratio whose 95 % interval holds 1."""
    return sum(1 for r in rows if (q := ratio_of(r, ratios)) is not None and holds_one(ratio_figure(q, metric)[1]))


def headline_table(rows, columns, settings, ratios, metric="frame"):
    """The headline's table: per configuration its frame time with the 95 % interval, FPS, the fire-region
    quality of every scored metric and, with ratios.csv, the paired ratio of `metric` time to the baseline."""
    interval = columns.interval("frame_ms_median")
    metrics = columns.scored_metrics(rows)
    counts = len({num(r.get("particles")) for r in rows}) > 1
    baseline = ratios[0].get("baseline", "") if ratios else ""
    ratio_columns = ", ".join(f"{metric}_ratio_{end}" for end in ("ci_low", "ci_high"))
    heads = (["configuration"] + ["particles"] * counts
             + [("frame ms [95% interval]", f"frame_ms_median [{', '.join(interval or ())}]"), "FPS"]
             + [(f"{m.label} fire {'↑' if m.higher_is_better else '↓'}", m.fire_column) for m in metrics]
             + [(f"× {baseline}, {RATIO_METRICS[metric]} [95% interval]",
                 f"{metric}_ratio_median [{ratio_columns}]")] * bool(ratios))
    heads = [h if isinstance(h, tuple) else (h, h) for h in heads]
    head = "".join(f'<th scope="col"{"" if i == 0 else " class=num"} title="{esc(h[1])}">{esc(h[0])}</th>'
                   for i, h in enumerate(heads))
    body = []
    for r in rows:
        cells = [f"<td>{esc(settings.label(r))}</td>"] + [cell("particles", r.get("particles", ""))] * counts
        cells.append(value_cell(num(r.get("frame_ms_median")), row_interval(r, interval)))
        cells.append(value_cell(num(r.get("fps")), digits=3))
        cells += [value_cell(num(r.get(m.fire_column))) for m in metrics]
        cells += [ratio_cell(r, ratios, metric)] * bool(ratios)
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f'<div class="table-wrap"><table class="sortable headline"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def left_out_text(left, shown, total):
    """"N of M configurations not shown: why (how many each)", or "" when every configuration is shown."""
    if shown >= total:
        return ""
    return (f"{total - shown} of {total} configurations not shown: "
            + "; ".join(f"{n} {why}" for why, n in left.items()) + ".")


def load_text(load, cores):
    """What meta.json's load_before or load_after says of the other processes: "0.98 of 2 cores busy (load
    average 1.02)"."""
    text = f"{num(load.get('other_busy_cores')):.2f}" + (f" of {cores:g} cores" if cores > 0 else " cores") + " busy"
    average = num(load.get("load_average_1min"))
    return text + (f" (load average {average:.2f})" if average >= 0 else "")


def busy_warnings(meta):
    """A sentence per sampling of the machine (before the sweep, after it; each shard's in a merged folder's
    meta.json) that found it not quiet (meta.json's load_before and load_after: "quiet": false, other
    processes over a quarter of a core), and what that does to the figures; [] when every one was quiet or
    none was recorded."""
    shards = meta.get("shards") if isinstance(meta.get("shards"), list) else []
    metas = [("The machine", meta)] + [(f"Shard {m.get('shard') or i}'s machine", m)
                                       for i, m in enumerate(shards, start=1) if isinstance(m, dict)]
    out = []
    for who, m in metas:
        machine = m.get("machine") if isinstance(m.get("machine"), dict) else {}
        cores = num(machine.get("logical_cores"))
        out += [f"{who} was not quiet {when} the sweep: other processes kept {load_text(m[f'load_{when}'], cores)}."
                for when in ("before", "after")
                if isinstance(m.get(f"load_{when}"), dict) and m[f"load_{when}"].get("quiet") is False]
    if out:
        out[-1] += (" Frame times measured on a busy machine are slower and noisier than on a quiet one (meta.json's "
                    "load_before and load_after); paired ratios hold better, the cpu ratio (--metric cpu) best.")
    return out


def canary_warnings(rows, ratios):
    """A sentence each for runs.csv's rounds (canary_off: how many of a configuration's rounds were flagged) and
    ratios.csv's paired rounds (canary_off_rounds) that ran while the canary was more than CANARY_MARGIN off
    its sweep's median: the machine's speed moved under them. [] when none did or neither file says."""
    out = []
    sources = ((ok_rows(rows), "canary_off", "measured rounds", "canary_off in runs.csv"),
               (ratios, "canary_off_rounds", "paired rounds", "canary_off_rounds in ratios.csv"))
    for data, off_col, what, where in sources:
        judged = [r for r in data if num(r.get(off_col)) >= 0 and num(r.get("rounds")) > 0]
        off = [r for r in judged if num(r.get(off_col)) > 0]
        if off:
            out.append(f"{sum(num(r[off_col]) for r in off):g} of {sum(num(r['rounds']) for r in judged):g} {what} "
                       f"(in {len(off)} of {len(judged)} configurations) ran while the canary was more than "
                       f"{CANARY_MARGIN:.0%} off its sweep's median: the machine's speed moved under them ({where}).")
    return out


def warning_box(sentences):
    """The headline's warning: a box of sentences, or "" for none."""
    if not sentences:
        return ""
    return '<div class="warning">' + "".join(f"<p>⚠ {esc(s)}</p>" for s in sentences) + "</div>"


def headline_section(question_text, rows, columns, settings, ratios, meta=None, metric="frame"):
    """The page's opening: the experiment's question, a warning where the machine was not quiet (meta.json's
    load) or a round's canary was off, and, per configuration (per count when the sweep has several), what it
    costs, how sure that is, how it looks and how it compares to the baseline; then how many of the rows
    (failed runs among them) it leaves out, and why."""
    ok = ok_rows(rows)
    parts = [f'<section id="answer"><h2 class="question">{esc(question_text)}</h2>',
             warning_box(busy_warnings(meta or {}) + canary_warnings(rows, ratios))]
    if not ok:
        return "".join(parts) + '<p class="note">No run succeeded: nothing to answer with.</p></section>'
    shown, which_notes = [], []
    left = {"failed (their status is not ok; the Runs table says why)": len(rows) - len(ok)}
    for count, at_count in by_count(ok):
        for distance, group in by_distance(at_count):
            picked, which, why = chosen(group, columns.scored_metrics(group))
            shown += picked
            for reason, n in why.items():
                left[reason] = left.get(reason, 0) + n
            at = (f" at {count:,.0f} particles" if not math.isnan(count) else "") + \
                 (f" {distance:g} m from the camera" if not math.isnan(distance) else "")
            which_notes += [f"Of the {len(group)} configurations{at}, {which} are shown."] * bool(which)
    has_interval = any(row_interval(r, columns.interval("frame_ms_median")) for r in ok)
    each = [" count"] * (len(by_count(ok)) > 1) + [" camera distance"] * camera_swept(ok)
    notes = ["Fastest first" + (" at each" + " and".join(each) if each else "") + "."]
    notes.append("Brackets: the 95% interval of the median over rounds; configurations whose intervals overlap "
                 "are not told apart." if has_interval else "One round: no interval to show (--repetitions R).")
    notes += [HOLDS_ONE_NOTE] * bool(ratios and held_ones(shown, ratios, metric))
    notes += which_notes
    left_out = left_out_text({why: n for why, n in left.items() if n}, len(shown), len(rows))
    parts.append(headline_table(shown, columns, settings, ratios, metric))
    if left_out:
        parts.append(f'<p class="note left-out">{esc(left_out)} Every run is in the Runs table below.</p>')
    parts.append(f'<p class="note">{esc(" ".join(notes))}</p></section>')
    return "".join(parts)


def render(csv_path, header, rows, out_dir, title=None, metric="frame"):
    """The page's HTML text; its headline lists the paired ratio of `metric` time (RATIO_METRICS)."""
    csv_dir = os.path.dirname(os.path.abspath(csv_path))
    meta, meta_note = find_meta(csv_dir, out_dir)
    meta_note = meta_note or ("" if meta else "no meta.json beside the CSV")
    meta = meta or {}
    experiments = list(dict.fromkeys(r.get("experiment", "") for r in rows if r.get("experiment", "")))
    name = title or str(meta.get("experiment") or ", ".join(experiments) or os.path.basename(csv_dir))
    asked = question(meta, rows)
    description = str(meta.get("description", ""))
    description = "" if description == asked else description
    ok = ok_rows(rows)

    plots = plot_files(out_dir)
    plot_html = "".join(figure(p, f"<b>{esc(p)}</b> — {esc(CAPTIONS.get(p, p))}", p) for p in plots)
    columns = Columns(meta)
    settings = Settings(ok, columns, recorded_axes(meta))
    key_cols = key_columns(header, rows, columns, settings)
    frames = frames_section(rows, csv_dir, out_dir, columns, settings)

    sections = [
        headline_section(asked, rows, columns, settings, read_ratios(os.path.join(csv_dir, "ratios.csv")), meta,
                         metric),
        '<section id="plots"><h2>Plots</h2>'
        + (plot_html or '<p class="note">No plots in this folder (no successful run?).</p>') + "</section>",
        f'<section id="runs"><h2>Runs</h2><p class="note">{len(ok)} ok, {len(rows) - len(ok)} failed, from '
        f"{esc(os.path.basename(csv_path))}. Click a column header to sort.</p>"
        + (runs_table(rows, key_cols, "key") if rows else '<p class="note">No runs.</p>')
        + (f"<details><summary>All {len(header)} columns</summary>{runs_table(rows, header, 'all')}</details>"
           if rows else "") + "</section>",
        frames,
        '<section id="meta"><h2>Machine, build and settings (meta.json)</h2>' + meta_tables(meta)
        + (f'<p class="note">{esc(meta_note)}</p>' if meta_note else "") + "</section>",
    ]
    links = ([("answer", "Answer"), ("plots", "Plots"), ("runs", "Runs")] + [("frames", "Frames")] * bool(frames)
             + [("meta", "Machine")])
    nav = "".join(f'<a href="#{a}">{t}</a>' for a, t in links)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>firelab report: {esc(name)}</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style>
</head>
<body>
<header><h1>firelab: {esc(name)}</h1><p>{esc(description) or "&nbsp;"}</p></header>
<nav>{nav}</nav>
<main>
{chr(10).join(s for s in sections if s)}
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""


def write_report(csv_path, header, rows, out_dir, title=None, metric="frame"):
    """Writes out_dir/report.html (atomically) and returns its path."""
    final = os.path.join(out_dir, "report.html")
    tmp = final + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(render(csv_path, header, rows, out_dir, title, metric))
    os.replace(tmp, final)
    return final


def main():
    ap = argparse.ArgumentParser(description="Write report.html for a firelab runs.csv and the plots beside it.")
    ap.add_argument("csv", metavar="RUNS_CSV")
    ap.add_argument("--out", metavar="DIR", help="output folder, where the plots are (default: the CSV's folder)")
    ap.add_argument("--title", metavar="TEXT", help="title instead of the experiment name")
    ap.add_argument("--metric", choices=list(RATIO_METRICS), default="frame",
                    help="the paired ratio the headline lists: frame (wall time, the default), cpu or draw")
    args = ap.parse_args()
    header, rows = read_runs(args.csv)
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out_dir, exist_ok=True)
    print(write_report(args.csv, header, rows, out_dir, args.title, args.metric))
    return 0


if __name__ == "__main__":
    sys.exit(main())

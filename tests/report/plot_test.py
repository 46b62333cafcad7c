#!/usr/bin/python3
"""scripts/plot.py without a browser: the cost–quality frontier, and which plots a sweep folder gets."""
import html
import math
import os
import random
import re
import sys
import tempfile
import unittest
from unittest import mock

from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.legend import Legend
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import fixture  # noqa: E402
import plot  # noqa: E402
from firelab_runs import FALLBACK_GROUPS, Columns, Settings, find_meta, pareto_frontier  # noqa: E402


def brute_force_frontier(points):
    """The definition, quadratic: points no other point matches on both axes and beats on one."""
    def dominates(q, p):
        return q[0] <= p[0] and q[1] <= p[1] and q != p
    ok = [i for i, p in enumerate(points) if not any(map(math.isnan, p))]
    return sorted((i for i in ok if not any(dominates(points[j], points[i]) for j in ok)), key=lambda i: points[i])


class FrontierTest(unittest.TestCase):
    def test_empty_and_single(self):
        self.assertEqual(pareto_frontier([]), [])
        self.assertEqual(pareto_frontier([(0.3, 2.0)]), [0])

    def test_dominated_runs_are_left_out_and_the_rest_ordered_by_error(self):
        # (error, ms): index 1 is worse than 0 on both, 3 is worse than 2 on both.
        points = [(0.1, 5.0), (0.2, 6.0), (0.3, 1.0), (0.4, 1.5), (0.05, 9.0)]
        self.assertEqual(pareto_frontier(points), [4, 0, 2])

    def test_equal_on_one_axis_and_worse_on_the_other_is_dominated(self):
        self.assertEqual(pareto_frontier([(0.1, 2.0), (0.1, 3.0), (0.2, 2.0)]), [0])

    def test_identical_runs_both_stay(self):
        self.assertEqual(pareto_frontier([(0.1, 2.0), (0.5, 1.0), (0.1, 2.0)]), [0, 2, 1])

    def test_nan_is_never_on_the_frontier(self):
        self.assertEqual(pareto_frontier([(math.nan, 0.1), (0.2, math.nan), (0.3, 4.0)]), [2])

    def test_along_the_frontier_error_rises_and_time_falls(self):
        rng = random.Random(7)
        points = [(rng.random(), rng.random()) for _ in range(200)]
        front = [points[i] for i in pareto_frontier(points)]
        self.assertGreater(len(front), 1)
        for (x0, y0), (x1, y1) in zip(front, front[1:]):
            self.assertLess(x0, x1)
            self.assertGreater(y0, y1)

    def test_matches_the_definition_on_random_points_with_ties(self):
        rng = random.Random(1234)  # coarse values, so that ties and duplicates happen
        for _ in range(300):
            points = [(rng.randint(0, 6) / 10, rng.randint(1, 6)) for _ in range(rng.randint(0, 12))]
            if points and rng.random() < 0.3:
                points[0] = (math.nan, 1.0)
            self.assertEqual(pareto_frontier(points), brute_force_frontier(points), points)
            shuffled = points[:]
            rng.shuffle(shuffled)
            self.assertEqual(sorted(shuffled[i] for i in pareto_frontier(shuffled)),
                             sorted(points[i] for i in pareto_frontier(points)))


class ReportSeriesTest(unittest.TestCase):
    """Runs that differ only in a setting (blend) are two series in the report, never one."""

    def test_a_varying_setting_splits_the_frames_and_joins_the_key_columns(self):
        import report
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "frames"))
            rows = []
            for blend in ("alpha", "additive"):
                for n in ("1000", "2000"):
                    name = f"frames/points_{blend}_{n}.png"
                    open(os.path.join(d, name), "wb").close()
                    rows.append({"strategy": "points", "blend": blend, "sort": "none", "particles": n,
                                 "status": "ok", "frame_png": name})
            self.assertEqual(Settings(rows).varying, ["blend"])
            pairs = report.frame_pairs(rows, d)
            self.assertEqual([s for s, _ in pairs], ["points / alpha", "points / additive"])
            self.assertEqual([r["particles"] for _, r in pairs], ["2000", "2000"])


class ReportColumnsTest(unittest.TestCase):
    """The report's key columns: the settings that vary and the scored metrics, from meta.json when it lists
    them, else from the fallback."""

    def test_key_columns_with_and_without_meta_lists(self):
        import report
        rows = [{"strategy": "points", "emitter": e, "blend": b, "particles": "1000", "frame_ms_median": "1",
                 "fps": "1000", "psnr_fire_db": "30", "ssim_fire": "0.9", "flip_fire": "0.1", "status": "ok"}
                for e, b in (("circle", "alpha"), ("rect", "additive"))]
        header = list(rows[0])
        fallback = Columns()
        self.assertEqual(report.key_columns(header, rows, fallback, Settings(rows, fallback)),
                         ["strategy", "emitter", "blend", "particles", "frame_ms_median", "fps", "psnr_fire_db",
                          "ssim_fire", "flip_fire", "status"])
        flip = {"name": "flip", "label": "FLIP", "better": "lower", "frame_column": "flip", "fire_column": "flip_fire"}
        listed = Columns(fixture.schema(header, dict(fallback_groups(), emitter="record"), [flip]))
        self.assertEqual(report.key_columns(header, rows, listed, Settings(rows, listed)),
                         ["strategy", "blend", "particles", "frame_ms_median", "fps", "flip_fire", "status"])


class RenderOptionSeriesTest(unittest.TestCase):
    """The render options with a column (hull, upsample, ...) split series by their column, once, and read
    with their names where a bare value would be ambiguous."""

    @staticmethod
    def rows(setting, values, key_name):
        rows = []
        for v in values:
            for n in ("1000", "2000"):
                rows.append({"strategy": "billboards-instanced", setting: v, "particles": n, "status": "ok",
                             "run_key": f"{key_name}={v};particles={n}", "frame_ms_median": "1",
                             "frame_png": f"frames/{v}_{n}.png"})
        return rows

    def test_a_swept_option_is_one_varying_setting_not_also_other(self):
        import plot
        for column, flag, values in (("hull", "hull", ("quad", "8")), ("particle_scale", "particle-scale", ("1", "0.5")),
                                     ("edge_fixup", "edge-fixup", ("false", "true")),
                                     ("exposure", "exposure", ("1", "2.5"))):
            model = plot.Model(self.rows(column, values, flag))
            self.assertEqual(model.varying, [column], column)
            self.assertEqual(len(model.facets[0][1]), 2, column)

    def test_the_report_splits_and_names_each_option(self):
        import report
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "frames"))
            rows = self.rows("hull", ("quad", "8"), "hull")
            for r in rows:
                open(os.path.join(d, r["frame_png"]), "wb").close()
            self.assertEqual(Settings(rows).varying, ["hull"])
            self.assertEqual([s for s, _ in report.frame_pairs(rows, d)],
                             ["billboards-instanced / hull=quad", "billboards-instanced / hull=8"])

    def test_values_shared_by_two_options_read_with_their_names(self):
        from firelab_runs import display_value
        self.assertEqual(display_value("upsample", "bilinear"), "upsample=bilinear")
        self.assertEqual(display_value("filter", "bilinear"), "filter=bilinear")
        self.assertEqual(display_value("hdr", "true"), "hdr=true")
        self.assertEqual(display_value("blend", "alpha"), "alpha")


def temp_folder(test):
    """A temporary folder that lives as long as the test."""
    tmp = tempfile.TemporaryDirectory(prefix="firelab-report-test-")
    test.addCleanup(tmp.cleanup)
    return tmp.name


def drawn_figures(folder, ratios=(), metric="frame"):
    """The figures plot.py makes of folder/runs.csv's ok rows (and `ratios`, their `metric` ratio, and
    folder/meta.json), by file name, kept open to be looked at instead of saved."""
    _, rows = plot.read_runs(os.path.join(folder, "runs.csv"))
    meta, _ = find_meta(folder)
    figures = {}
    with tempfile.TemporaryDirectory() as out, \
            mock.patch.object(plot, "save", lambda fig, _dir, name: figures.__setitem__(name, fig)):
        plot.plot_all([r for r in rows if r["status"] == "ok"], out, None, ratios, meta, metric)
    return figures


def fallback_groups():
    """{column: group} of firelab_runs' fallback, for a fixture's meta.json "columns"."""
    return {c: g for g, names in FALLBACK_GROUPS.items() for c in names}


class MetaColumnsPlotTest(unittest.TestCase):
    """The plots take the quality metrics and the settings from meta.json when it lists them."""

    def folder(self, meta_extra=None):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=True, meta_extra=meta_extra)
        return tmp

    def test_without_lists_the_pareto_plot_has_a_panel_per_fallback_metric(self):
        fig = drawn_figures(self.folder())["pareto.png"]
        labels = [ax.get_xlabel() for ax in fig.axes if ax.get_xlabel()]
        self.assertEqual(labels, ["PSNR (dB), fire region (higher is better, axis reversed)",
                                  "1 − SSIM, fire region (lower is better)", "ꟻLIP, fire region (lower is better)"])
        self.assertTrue(fig.axes[0].xaxis_inverted())

    def test_meta_json_metrics_choose_the_panels(self):
        metrics = [{"name": "flip", "label": "FLIP", "better": "lower", "frame_column": "flip",
                    "fire_column": "flip_fire", "default": True},
                   {"name": "hist", "label": "histogram", "better": "lower", "frame_column": "hist",
                    "fire_column": "hist_fire", "default": True}]  # hist: no column in this CSV, no panel
        fig = drawn_figures(self.folder(lambda header: fixture.schema(header, fallback_groups(), metrics)))
        labels = [ax.get_xlabel() for ax in fig["pareto.png"].axes if ax.get_xlabel()]
        self.assertEqual(labels, ["FLIP, fire region (lower is better)"])

    def test_meta_json_columns_choose_the_settings_that_split_series(self):
        two = [{"strategy": "points", "emitter": e, "particles": "1000", "frame_ms_median": "1", "status": "ok"}
               for e in ("circle", "rect")]
        self.assertEqual(plot.Model(two).varying, ["emitter"])
        groups = dict(fallback_groups(), emitter="record")
        meta = fixture.schema(list(two[0]), groups, [])
        self.assertEqual(plot.Model(two, Columns(meta)).varying, [])


def interval_bars(ax, label):
    """Each error-bar container labelled `label` on `ax`, in drawing order, as {x: (low, high)}."""
    return [{round(x): (low, high) for (x, low), (_, high) in c.lines[2][0].get_segments()}
            for c in ax.containers if c.get_label() == label]


class IntervalTest(unittest.TestCase):
    """frame_time.png draws the 95% interval of each median when rows summarise several rounds."""

    def folder(self, rounds):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False, rounds=rounds)
        return tmp

    def frame_axes(self, rounds):
        return drawn_figures(self.folder(rounds))["frame_time.png"].axes[0]

    def test_several_rounds_draw_each_series_interval_at_its_counts(self):
        ax = self.frame_axes(rounds=5)
        bars = interval_bars(ax, plot.INTERVAL_LABEL)
        self.assertEqual(len(bars), len(fixture.STRATEGIES))
        self.assertIn("bars: 95% interval over 5 rounds", ax.get_title())
        # The first series, points, spans its interval at each count (to the fixture's 5 digits).
        self.assertEqual(sorted(bars[0]), fixture.COUNTS)
        for count, (lo, hi) in bars[0].items():
            ms = fixture.median_ms("points", count)
            self.assertAlmostEqual(lo, ms * fixture.CI_BELOW, delta=ms * 1e-4)
            self.assertAlmostEqual(hi, ms * fixture.CI_ABOVE, delta=ms * 1e-4)

    def test_one_round_or_no_round_columns_draw_no_interval(self):
        for rounds in (1, None):
            ax = self.frame_axes(rounds)
            self.assertEqual(interval_bars(ax, plot.INTERVAL_LABEL), [], rounds)
            self.assertNotIn("interval", ax.get_title())
            self.assertEqual(len(ax.lines), len(fixture.STRATEGIES))

    def test_interval_rounds_needs_several_rounds_and_both_ends(self):
        row = {"rounds": "5", "frame_ms_ci_low": "1", "frame_ms_ci_high": "2"}
        ends = ("frame_ms_ci_low", "frame_ms_ci_high")
        self.assertEqual(plot.interval_rounds([row, dict(row, rounds="3")], ends), [3, 5])
        self.assertEqual(plot.interval_rounds([dict(row, rounds="1")], ends), [])
        self.assertEqual(plot.interval_rounds([dict(row, frame_ms_ci_high="")], ends), [])
        self.assertEqual(plot.interval_rounds([{"frame_ms_median": "1"}], ends), [])  # a CSV from before rounds


def wide_sweep(counts=(20000,)):
    """A scored sweep of 72 configurations (8 strategies x 3 particle scales x 3 hulls) at each count, as ok
    rows: cost and error trade off along particle_scale, with a seeded scatter."""
    rng = random.Random(19)
    rows = []
    for count in counts:
        for s in ("points", "point-sprites", "billboards-cpu", "billboards-instanced", "billboards-geometry",
                  "gpu-stateless", "compute", "compute-splat"):
            for scale in ("1", "0.5", "0.25"):
                for hull in ("quad", "4", "8"):
                    ms = (20 + 300 * float(scale) ** 2) * rng.uniform(0.8, 1.25) * count / 20000
                    error = 0.01 / float(scale) ** 2 * rng.uniform(0.5, 2)
                    rows.append({"experiment": "wide", "strategy": s, "particle_scale": scale, "hull": hull,
                                 "run_key": f"strategy={s};particle-scale={scale};hull={hull};particles={count}",
                                 "particles": str(count), "width": "1280", "height": "720",
                                 "frame_ms_median": f"{ms:.4g}", "frame_ms_p5": f"{ms * 0.9:.4g}",
                                 "frame_ms_p95": f"{ms * 1.1:.4g}", "fps": f"{1000 / ms:.4g}",
                                 "flip_fire": f"{error:.4g}", "ssim_fire": f"{1 - error / 3:.5g}",
                                 "psnr_fire_db": f"{40 - 10 * math.log10(error / 0.01):.4g}",
                                 "gl_renderer": "llvmpipe", "status": "ok"})
    return rows


def figures_of(rows, meta=None):
    """The figures plot.py makes of the ok rows, kept open, by file name."""
    figures = {}
    with tempfile.TemporaryDirectory() as out, \
            mock.patch.object(plot, "save", lambda fig, _dir, name: figures.__setitem__(name, fig)):
        plot.plot_all(rows, out, None, (), meta)
    return figures


def frontier_size(rows, metric):
    """How many runs no other run beats on both frame time and the metric over the fire region."""
    return len(pareto_frontier([(metric.cost(float(r[metric.fire_column])), float(r["frame_ms_median"]))
                                for r in rows]))


class ParetoReadableTest(unittest.TestCase):
    """pareto.png of a big sweep reads: only the frontier's runs are labelled, and nothing (legend, key)
    sticks out of the figure."""

    def check(self, rows, legend_entries):
        fig = figures_of(rows)["pareto.png"]
        renderer = fig.canvas.get_renderer()
        fig.canvas.draw()
        outer = fig.get_tightbbox(renderer)  # inches, everything drawn
        self.assertLessEqual(outer.width, fig.get_figwidth() + 0.05)
        self.assertLessEqual(outer.height, fig.get_figheight() + 0.05)
        legends = [a for ax in fig.axes for a in ax.get_children() if isinstance(a, Legend)]
        self.assertTrue(legends)
        for legend in legends:
            self.assertLessEqual(legend.get_window_extent(renderer).width, fig.bbox.width)
        self.assertEqual(len(legends[0].get_texts()), legend_entries)
        metrics = {f"{m.label}: {frontier_size(rows, m)} on the frontier": m for m in Columns().metrics}
        panels = [ax for ax in fig.axes if ax.get_title()]
        self.assertEqual(sorted(ax.get_title() for ax in panels), sorted(metrics))
        for ax in panels:
            labels = [t for t in ax.texts if isinstance(t, Annotation)]
            self.assertEqual(len(labels), frontier_size(rows, metrics[ax.get_title()]), ax.get_title())
        return fig

    def test_72_configurations_at_one_count(self):
        rows = wide_sweep()
        # 8 strategies' colours, 3 particle scales' markers, the frontier's line: not 72 series.
        fig = self.check(rows, legend_entries=8 + 3 + 1)
        self.assertLess(fig.get_figwidth(), 16)
        self.assertLess(sum(len(ax.texts) for ax in fig.axes), len(rows))

    def test_72_configurations_at_three_counts(self):
        self.check(wide_sweep((5000, 20000, 80000)), legend_entries=8 + 3 + 1)

    def test_few_series_have_a_legend_entry_each(self):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=True)
        _, rows = plot.read_runs(os.path.join(tmp, "runs.csv"))
        self.check([r for r in rows if r["status"] == "ok"], legend_entries=len(fixture.STRATEGIES) + 1)


class OneCountBarsTest(unittest.TestCase):
    """A sweep at one particle count (effect x fire light, strategies at 20k) plots bars with whiskers, a bar
    per series; a sweep of counts keeps its lines."""

    def figures(self, counts, rounds=5):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False, rounds=rounds, counts=counts)
        return drawn_figures(tmp)

    def test_one_count_draws_a_bar_per_series_with_its_interval(self):
        figures = self.figures([20000])
        for name in ("frame_time.png", "fps.png"):
            ax = figures[name].axes[0]
            bars = [c for c in ax.containers if isinstance(c, BarContainer)]
            self.assertEqual(sum(len(c.patches) for c in bars), len(fixture.STRATEGIES), name)
            self.assertTrue(all(isinstance(p, Rectangle) for c in bars for p in c.patches))
            self.assertEqual(len([c for c in ax.containers if isinstance(c, ErrorbarContainer)]), 1, name)
            self.assertIn("whiskers: 95% interval over 5 rounds", ax.get_title())
        ax = figures["frame_time.png"].axes[0]
        widths = sorted(p.get_width() for c in ax.containers if isinstance(c, BarContainer) for p in c.patches)
        self.assertEqual(widths, sorted(fixture.median_ms(s, 20000) for s in fixture.STRATEGIES))
        (whiskers,) = [c for c in ax.containers if c.get_label() == plot.INTERVAL_LABEL]
        spans = sorted((lo, hi) for (lo, _), (hi, _) in whiskers.lines[2][0].get_segments())
        for (lo, hi), ms in zip(spans, sorted(fixture.median_ms(s, 20000) for s in fixture.STRATEGIES)):
            self.assertAlmostEqual(lo, ms * fixture.CI_BELOW, delta=ms * 1e-4)
            self.assertAlmostEqual(hi, ms * fixture.CI_ABOVE, delta=ms * 1e-4)

    def test_one_round_whiskers_are_the_frames_spread(self):
        ax = self.figures([20000], rounds=None)["frame_time.png"].axes[0]
        self.assertIn("whiskers: p5–p95 of the frames", ax.get_title())
        self.assertEqual([c.get_label() for c in ax.containers if isinstance(c, ErrorbarContainer)], ["_spread"])

    def test_a_sweep_of_counts_keeps_its_lines(self):
        ax = self.figures(fixture.COUNTS)["frame_time.png"].axes[0]
        self.assertFalse([c for c in ax.containers if isinstance(c, BarContainer)])
        self.assertEqual(len([l for l in ax.lines if not l.get_label().startswith("_")]), len(fixture.STRATEGIES))


class RatiosPlotTest(unittest.TestCase):
    """ratios.png from a folder's ratios.csv (firelab compare): a line at 1 for the baseline and each series'
    ratio with its interval against particles."""

    def test_a_folder_with_ratios_csv_gets_ratios_png(self):
        tmp = temp_folder(self)
        csv_path = fixture.make_sweep(tmp, scored=False)
        fixture.make_ratios(tmp)
        proc = fixture.run_plot(csv_path, tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("ratios.png", os.listdir(tmp))
        self.assertIn("1 configuration(s) of ratios.csv have no ratio", proc.stderr)

    def test_each_series_ratio_and_interval_against_a_line_at_one_on_log_x(self):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False)
        rows = fixture.make_ratios(tmp)
        fig = drawn_figures(tmp, rows)["ratios.png"]
        (ax,) = fig.axes  # the frame time's ratio alone, by default
        self.assertEqual(ax.get_ylabel(), "frame time / strategy=points's")
        self.assertEqual(ax.get_xscale(), "log")
        ones = [l for l in ax.lines if list(l.get_ydata()) == [1.0, 1.0]]
        self.assertEqual([l.get_label() for l in ones], ["1 = strategy=points"])
        labels = [c.get_label() for c in ax.containers]
        self.assertEqual(labels, ["strategy=point-sprites", "strategy=billboards-instanced", "strategy=billboards-cpu"])
        (bars,) = interval_bars(ax, "strategy=billboards-cpu")
        self.assertEqual(sorted(bars), fixture.COUNTS)
        for count, (lo, hi) in bars.items():
            ratio = fixture.median_ms("billboards-cpu", count) / fixture.median_ms("points", count)
            self.assertAlmostEqual(lo, ratio * fixture.CI_BELOW, places=4)
            self.assertAlmostEqual(hi, ratio * fixture.CI_ABOVE, places=4)

    def test_the_metric_chooses_the_ratio_drawn_and_the_axis_and_title_name_it(self):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False)
        rows = fixture.make_ratios(tmp)
        for r in rows:  # the CPU time's ratio: twice the frame time's; the draw time's: the frame time's
            if r["frame_ratio_median"]:
                r.update({f"cpu_ratio_{end}": f"{2 * float(r[f'frame_ratio_{end}']):.6g}"
                          for end in ("median", "ci_low", "ci_high")})
        for metric, what, scale in (("cpu", "CPU time", 2.0), ("draw", "draw time", 1.0), ("frame", "frame time", 1.0)):
            fig = drawn_figures(tmp, rows, metric)["ratios.png"]
            (ax,) = fig.axes
            self.assertEqual(ax.get_ylabel(), f"{what} / strategy=points's", metric)
            self.assertTrue(fig._suptitle.get_text().startswith(f"{what[0].upper()}{what[1:]} relative to "
                                                                "strategy=points"), fig._suptitle.get_text())
            (line,) = [c.lines[0] for c in ax.containers if c.get_label() == "strategy=billboards-cpu"]
            (bars,) = interval_bars(ax, "strategy=billboards-cpu")
            for count, y, (lo, hi) in zip(fixture.COUNTS, line.get_ydata(), (bars[c] for c in fixture.COUNTS)):
                ratio = scale * fixture.median_ms("billboards-cpu", count) / fixture.median_ms("points", count)
                self.assertAlmostEqual(y, ratio, places=4, msg=metric)
                self.assertAlmostEqual(lo, ratio * fixture.CI_BELOW, places=4, msg=metric)
                self.assertAlmostEqual(hi, ratio * fixture.CI_ABOVE, places=4, msg=metric)

    def test_a_metric_ratios_csv_has_no_figures_of_is_said_and_draws_nothing(self):
        tmp = temp_folder(self)
        csv_path = fixture.make_sweep(tmp, scored=False)
        fixture.make_ratios(tmp)  # frame and draw ratios; no CPU time recorded
        proc = fixture.run_plot(csv_path, tmp, "--metric", "cpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        paired = (len(fixture.STRATEGIES) - 1) * len(fixture.COUNTS)
        self.assertIn(f"{paired} of {paired} paired configuration(s) of ratios.csv have no cpu ratio "
                      "(cpu_ratio_median is empty", proc.stderr)
        self.assertIn("no cpu ratio to plot: ratios.png not written", proc.stderr)
        self.assertNotIn("ratios.png", os.listdir(tmp))
        with open(os.path.join(tmp, "report.html"), encoding="utf-8") as f:  # plot.py passes --metric on
            self.assertIn("× strategy=points, CPU time [95% interval]", f.read())

    def test_a_metric_that_is_not_a_paired_time_is_refused(self):
        tmp = temp_folder(self)
        csv_path = fixture.make_sweep(tmp, scored=False)
        fixture.make_ratios(tmp)
        proc = fixture.run_plot(csv_path, tmp, "--metric", "gpu")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("--metric: invalid choice: 'gpu' (choose from 'frame', 'cpu', 'draw')", proc.stderr)
        self.assertFalse([n for n in os.listdir(tmp) if n.endswith(".png")])

    def test_a_ratio_whose_interval_holds_one_is_hollow_and_the_legend_says_so(self):
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False)
        rows = fixture.make_ratios(tmp)
        ratios = [(count, fixture.median_ms(s, count) / fixture.median_ms("points", count))
                  for s in fixture.STRATEGIES if s != "points" for count in fixture.COUNTS]
        expected = sorted((count, round(ratio, 4)) for count, ratio in ratios
                          if ratio * fixture.CI_BELOW <= 1 <= ratio * fixture.CI_ABOVE)
        self.assertEqual(len(expected), 2)  # point-sprites and billboards-instanced at 1k
        fig = drawn_figures(tmp, rows)["ratios.png"]
        ax = fig.axes[0]
        hollow = [l for l in ax.lines if l.get_label() == plot.HOLLOW_LABEL]
        self.assertEqual(sorted((round(x), round(y, 4)) for l in hollow for x, y in zip(l.get_xdata(), l.get_ydata())),
                         expected)
        self.assertTrue(all(l.get_markerfacecolor() == "white" for l in hollow))
        self.assertIn(plot.HOLDS_ONE_TEXT, [t.get_text() for t in ax.get_legend().get_texts()])
        self.assertIn("hollow: the interval holds 1", fig._suptitle.get_text())
        apart = [r for r in rows if r["series"] == "strategy=billboards-cpu"]  # every interval above 1
        ax = drawn_figures(tmp, apart)["ratios.png"].axes[0]
        self.assertFalse([l for l in ax.lines if l.get_label() == plot.HOLLOW_LABEL])
        self.assertNotIn(plot.HOLDS_ONE_TEXT, [t.get_text() for t in ax.get_legend().get_texts()])

    def test_no_ratio_to_draw_writes_no_png(self):
        rows = [dict.fromkeys(fixture.RATIO_COLUMNS, ""), dict.fromkeys(fixture.RATIO_COLUMNS, "")]
        for r in rows:
            r.update(rounds="0", note="baseline never ran ok")
        tmp = temp_folder(self)
        fixture.make_sweep(tmp, scored=False)
        self.assertNotIn("ratios.png", drawn_figures(tmp, rows))


class PlotFolderTest(unittest.TestCase):
    def plot(self, scored):
        tmp = temp_folder(self)
        csv_path = fixture.make_sweep(os.path.join(tmp, "sweep"), scored=scored)
        out = os.path.join(tmp, "out")
        proc = fixture.run_plot(csv_path, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return out, sorted(os.listdir(out))

    def test_scored_runs_get_a_pareto_plot(self):
        _, files = self.plot(scored=True)
        self.assertEqual(files, ["fps.png", "frame_time.png", "pareto.png", "report.html", "split.png"])

    def test_a_csv_without_quality_columns_plots_as_before(self):
        _, files = self.plot(scored=False)
        self.assertEqual(files, ["fps.png", "frame_time.png", "report.html", "split.png"])

    def test_a_100_kb_label_still_plots(self):
        # Issue 23: matplotlib refused an image too large for the label's legend: no plots, no report.html.
        saved = fixture.LABEL
        fixture.LABEL = "very long " * 10000
        try:
            out, files = self.plot(scored=True)
        finally:
            fixture.LABEL = saved
        self.assertEqual(files, ["fps.png", "frame_time.png", "pareto.png", "report.html", "split.png"])

    def test_report_escapes_csv_and_json_values(self):
        out, _ = self.plot(scored=True)
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            page = f.read()
        for raw in (fixture.LABEL, fixture.REFERENCE, fixture.FAILURE, '<quotes "and">'):
            self.assertNotIn(raw, page)
            self.assertIn(html.escape(raw), page)

    def test_report_without_any_successful_run(self):
        tmp = temp_folder(self)
        folder = os.path.join(tmp, "sweep")
        csv_path = fixture.make_sweep(folder, scored=True)
        with open(csv_path, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        with open(csv_path, "w", encoding="utf-8") as f:
            f.write(lines[0] + lines[-1])  # the header and the failed run
        proc = fixture.run_plot(csv_path, folder)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(folder, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("0 ok, 1 failed", page)
        self.assertIn(html.escape(fixture.FAILURE), page)
        self.assertFalse(any(n.endswith(".png") for n in os.listdir(folder)))


QUESTION = "Which strategy draws <the fire> cheapest?"


def headline(page):
    """The headline table's HTML in a report page."""
    start = page.index('<table class="sortable headline">')
    return page[start:page.index("</table>", start)]


class ReportHeadlineTest(unittest.TestCase):
    """report.html opens with the question and a table of what each configuration costs, how sure that is,
    how it scores and how it compares to the baseline; the machine and the settings come after."""

    def page(self, rounds=5, ratios=False, question=QUESTION, meta=None, options=()):
        """report.py's page of the fixture's sweep: with `ratios`, a ratios.csv (a function of its rows changes
        them first); meta: more keys for meta.json; options: report.py's (--metric cpu)."""
        tmp = temp_folder(self)
        csv_path = fixture.make_sweep(tmp, scored=True, rounds=rounds,
                                      meta_extra=lambda _: dict({"question": question} if question else {},
                                                                **(meta or {})))
        if ratios:
            rows = fixture.make_ratios(tmp)
            if callable(ratios):
                ratios(rows)
                fixture.write_ratios(tmp, rows)
        proc = fixture.run_report(csv_path, tmp, *options)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(tmp, "report.html"), encoding="utf-8") as f:
            return f.read()

    def test_the_question_and_the_headline_come_before_the_machine_and_the_plots(self):
        page = self.page()
        asked = page.index(f'<h2 class="question">{html.escape(QUESTION)}</h2>')
        table = page.index('<table class="sortable headline">')
        self.assertLess(asked, table)
        self.assertLess(table, page.index('<section id="plots">'))
        self.assertLess(table, page.index('<section id="runs">'))
        self.assertLess(table, page.index('<section id="meta">'))
        self.assertLess(table, page.index("gl.renderer"))  # the machine table's first mention

    def test_without_a_question_the_description_asks_it(self):
        page = self.page(question=None)
        self.assertIn('<h2 class="question">a fake sweep: &lt;quotes &quot;and&quot;&gt; &amp; ampersands</h2>',
                      page)

    def test_each_configuration_with_its_interval_fps_and_fire_region_quality(self):
        table = headline(self.page(rounds=5))
        rows = table.count("<tr>") - 1
        self.assertEqual(rows, len(fixture.STRATEGIES) * len(fixture.COUNTS))  # failed runs have no figures
        self.assertIn(">1.02 [0.969, 1.102]<", table)  # points at 1k: the median and its interval
        self.assertIn(">980<", table)  # its FPS
        for label in ("PSNR (dB) fire ↑", "SSIM fire ↑", "ꟻLIP fire ↓"):
            self.assertIn(label, table)
        self.assertNotIn("×", table)  # no ratios.csv, no ratio column
        one_round = headline(self.page(rounds=None))
        self.assertIn(">1.02<", one_round)
        self.assertNotIn("[", one_round.split("</thead>")[1])

    def test_fastest_first_at_each_count(self):
        body = headline(self.page()).split("<tbody>")[1]
        # Each row's sort values: its particle count, then its frame time.
        rows = [[float(v) for v in re.findall(r'data-v="([^"]+)"', tr)[:2]] for tr in body.split("<tr>")[1:]]
        self.assertEqual(rows, sorted(rows))
        self.assertEqual(sorted({count for count, _ in rows}), fixture.COUNTS)

    def test_the_ratio_to_the_baseline_with_its_interval_only_with_ratios_csv(self):
        table = headline(self.page(ratios=True))
        self.assertIn("× strategy=points, frame time [95% interval]", table)
        ratio = fixture.median_ms("billboards-cpu", 1000) / fixture.median_ms("points", 1000)
        low, high = ratio * fixture.CI_BELOW, ratio * fixture.CI_ABOVE
        self.assertIn(f">{ratio:.3g} [{low:.3g}, {high:.3g}]<", table)
        self.assertEqual(table.count(">baseline<"), len(fixture.COUNTS))

    def test_a_big_sweep_shows_its_frontier_and_says_how_many_are_left_out(self):
        import report
        # 72 configurations at one count: time falls as the error rises along 6 of them; the rest are worse.
        rows = [{"strategy": f"s{i}", "particles": "20000", "frame_ms_median": str(10 + i), "ssim_fire": "",
                 "flip_fire": str(0.5 - 0.05 * i if i < 6 else 0.9), "status": "ok"} for i in range(72)]
        rows.reverse()
        shown, which, _ = report.chosen(report.by_count(rows)[0][1], Columns().scored_metrics(rows))
        self.assertEqual([r["strategy"] for r in shown], [f"s{i}" for i in range(6)])
        self.assertIn("the 6 on the frontier of frame time against ꟻLIP", which)
        unscored = [dict(r, flip_fire="") for r in rows]
        shown, which, _ = report.chosen(report.by_count(unscored)[0][1], [])
        self.assertEqual(len(shown), report.HEADLINE_ROWS)
        self.assertEqual(which, f"the {report.HEADLINE_ROWS} fastest")
        page = report.headline_section("q?", rows, Columns(), Settings(rows), [])
        self.assertIn("Of the 72 configurations at 20,000 particles, the 6 on the frontier", page)

    def test_the_headline_counts_the_configurations_it_leaves_out_and_says_why(self):
        import report
        # The fixture's sweep: 12 ok runs and one whose status is an error.
        self.assertIn("1 of 13 configurations not shown: 1 failed (their status is not ok; the Runs table says "
                      "why).", self.page())

        def left_out(rows):
            page = report.headline_section("q?", rows, Columns(), Settings(report.ok_rows(rows)), [])
            found = re.findall(r'<p class="note left-out">([^<]*)</p>', page)
            return html.unescape(found[0]) if found else ""
        # 72 at one count: 6 on the frontier of time against ꟻLIP, 3 never scored, 63 beaten; and a failed run.
        rows = [{"strategy": f"s{i}", "particles": "20000", "frame_ms_median": str(10 + i),
                 "flip_fire": "" if 60 <= i < 63 else str(0.5 - 0.05 * i if i < 6 else 0.9), "status": "ok"}
                for i in range(72)]
        rows.append({"strategy": "s72", "particles": "20000", "status": "error: it crashed"})
        self.assertEqual(left_out(rows), "67 of 73 configurations not shown: 1 failed (their status is not ok; the "
                         "Runs table says why); 3 without a score (ꟻLIP); 63 not on the frontier (another is both "
                         "faster and better). Every run is in the Runs table below.")
        # 50 on the frontier (each slower and better than the last) and 30 beaten: the 40 fastest of the 50 shown.
        rows = [{"strategy": f"s{i}", "particles": "20000", "frame_ms_median": str(10 + i),
                 "flip_fire": str(0.9 - 0.01 * i if i < 50 else 0.95), "status": "ok"} for i in range(80)]
        self.assertEqual(left_out(rows), f"40 of 80 configurations not shown: 30 not on the frontier (another is "
                         f"both faster and better); 10 on the frontier but beyond its {report.HEADLINE_FRONTIER} "
                         "fastest. Every run is in the Runs table below.")
        # Unscored: the fastest HEADLINE_ROWS, and one without a frame time among those left out.
        rows = [{"strategy": f"s{i}", "particles": "20000", "frame_ms_median": str(10 + i) if i else "",
                 "status": "ok"} for i in range(25)]
        self.assertEqual(left_out(rows), f"5 of 25 configurations not shown: 5 beyond the {report.HEADLINE_ROWS} "
                         "fastest. Every run is in the Runs table below.")
        self.assertEqual(left_out(rows[:report.HEADLINE_ROWS]), "")  # all shown: nothing said

    def warning(self, page):
        """The headline's warning box (its text), before the table; "" when the page has none."""
        if '<div class="warning">' not in page:
            return ""
        start = page.index('<div class="warning">')
        self.assertLess(start, page.index('<table class="sortable headline">'))
        self.assertGreater(start, page.index('<h2 class="question">'))
        return html.unescape(page[start:page.index("</div>", start)])

    def test_a_busy_machine_is_warned_of_and_a_quiet_one_is_not(self):
        busy = {"other_busy_cores": 0.98, "own_cores": 0.02, "seconds": 0.3, "load_average_1min": 1.02,
                "quiet": False}
        quiet = {"other_busy_cores": 0.03, "own_cores": 0.02, "seconds": 0.3, "load_average_1min": 0.1,
                 "quiet": True}
        machine = {"logical_cores": 2}
        box = self.warning(self.page(meta={"machine": machine, "load_before": busy, "load_after": quiet}))
        self.assertIn("The machine was not quiet before the sweep: other processes kept 0.98 of 2 cores busy "
                      "(load average 1.02).", box)
        self.assertNotIn("after the sweep", box)
        box = self.warning(self.page(meta={"machine": machine, "load_before": quiet, "load_after": busy}))
        self.assertIn("The machine was not quiet after the sweep: other processes kept 0.98 of 2 cores busy", box)
        self.assertNotIn("before the sweep", box)
        for loads in ({"load_before": quiet, "load_after": quiet}, {"load_before": None, "load_after": None}, {}):
            self.assertEqual(self.warning(self.page(meta=dict(loads, machine=machine))), "", loads)
        # A merged folder's meta.json keeps each shard's.
        shards = [{"shard": "1/2", "load_before": quiet, "load_after": quiet},
                  {"shard": "2/2", "machine": machine, "load_before": quiet, "load_after": busy}]
        box = self.warning(self.page(meta={"merged": "2024-05-01T10:00:00Z", "shards": shards}))
        self.assertIn("Shard 2/2's machine was not quiet after the sweep: other processes kept 0.98 of 2 cores", box)
        self.assertNotIn("1/2", box)

    def test_rounds_run_while_the_canary_was_off_are_counted_in_the_warning(self):
        import report

        def flag(rows):  # firelab writes 0 where no round was flagged
            for r in rows:
                r["canary_off_rounds"] = "0" if r["rounds"] != "0" else ""
            rows[0]["canary_off_rounds"], rows[4]["canary_off_rounds"] = "2", "1"
        paired = (len(fixture.STRATEGIES) - 1) * len(fixture.COUNTS)
        box = self.warning(self.page(ratios=flag))
        self.assertIn(f"3 of {5 * paired} paired rounds (in 2 of {paired} configurations) ran while the canary was "
                      "more than 10% off its sweep's median", box)
        self.assertIn("canary_off_rounds in ratios.csv", box)

        def none_off(rows):
            flag(rows)
            rows[0]["canary_off_rounds"] = rows[4]["canary_off_rounds"] = "0"
        self.assertEqual(self.warning(self.page(ratios=none_off)), "")
        # runs.csv's canary_off: how many of each configuration's rounds were flagged.
        rows = [{"strategy": s, "particles": "1000", "frame_ms_median": "1", "rounds": "5", "canary_off": off,
                 "status": "ok"} for s, off in (("a", "0"), ("b", "1"), ("c", "0"))]
        page = report.headline_section("q?", rows, Columns(), Settings(rows), [])
        self.assertIn("1 of 15 measured rounds (in 1 of 3 configurations) ran while the canary was more than 10% "
                      "off its sweep&#x27;s median", page)
        rows[1]["canary_off"] = "0"
        self.assertNotIn('class="warning"', report.headline_section("q?", rows, Columns(), Settings(rows), []))

    def test_the_canary_margin_is_firelabs(self):
        import report
        with open(os.path.join(fixture.ROOT, "src", "harness", "measure", "canary.h"), encoding="utf-8") as f:
            declared = re.search(r"kCanaryMargin = ([0-9.]+);", f.read())
        self.assertTrue(declared, "src/harness/measure/canary.h declares no kCanaryMargin")
        self.assertEqual(report.CANARY_MARGIN, float(declared.group(1)))

    def test_ratios_whose_interval_holds_one_are_marked_and_the_mark_explained(self):
        import report
        page = self.page(ratios=True)
        table = headline(page)
        for strategy in fixture.STRATEGIES:
            if strategy == "points":
                continue
            for count in fixture.COUNTS:
                ratio = fixture.median_ms(strategy, count) / fixture.median_ms("points", count)
                low, high = ratio * fixture.CI_BELOW, ratio * fixture.CI_ABOVE
                mark = f" {report.HOLDS_ONE_MARK}" if low <= 1 <= high else ""
                self.assertIn(f">{ratio:.3g} [{low:.3g}, {high:.3g}]{mark}<", table, (strategy, count))
        self.assertEqual(table.count(report.HOLDS_ONE_MARK), 2)  # point-sprites and billboards-instanced at 1k
        self.assertIn(html.escape(report.HOLDS_ONE_NOTE), page)

        def apart(rows):  # every interval above 1
            for r in rows:
                if r["frame_ratio_ci_low"]:
                    r["frame_ratio_ci_low"] = str(max(1.001, float(r["frame_ratio_ci_low"])))
        page = self.page(ratios=apart)
        self.assertNotIn(report.HOLDS_ONE_MARK, page)

    def test_the_headline_lists_the_ratio_of_the_metric_asked(self):
        def cpu(rows):  # the CPU time's ratio: half the frame time's
            for r in rows:
                if r["frame_ratio_median"]:
                    r.update({f"cpu_ratio_{end}": f"{0.5 * float(r[f'frame_ratio_{end}']):.6g}"
                              for end in ("median", "ci_low", "ci_high")})
        table = headline(self.page(ratios=cpu, options=("--metric", "cpu")))
        self.assertIn("× strategy=points, CPU time [95% interval]", table)
        ratio = 0.5 * fixture.median_ms("billboards-cpu", 1000) / fixture.median_ms("points", 1000)
        self.assertIn(f">{ratio:.3g} [{ratio * fixture.CI_BELOW:.3g}, {ratio * fixture.CI_ABOVE:.3g}]<", table)


VIEW_PLOTS = ["views_clamped.png", "views_cost_per_mpx.png", "views_frame_time.png", "views_quality.png"]


def view_rows(folder, **sweep):
    """The ok rows of a camera sweep (fixture.make_view_sweep's keywords) written to folder, and its meta.json."""
    fixture.make_view_sweep(folder, **sweep)
    _, rows = plot.read_runs(os.path.join(folder, "runs.csv"))
    return [r for r in rows if r["status"] == "ok"], find_meta(folder)[0]


def view_lines(ax):
    """{label: (xs, ys)} of the named lines on ax."""
    return {l.get_label(): (list(l.get_xdata()), list(l.get_ydata())) for l in ax.lines
            if not l.get_label().startswith("_")}


class ViewPlotsTest(unittest.TestCase):
    """A sweep of the camera's distance gets the view plots: frame time, quality, cost per covered megapixel
    and the clamped points against the distance, a line per configuration, each only when it has data."""

    def plot_folder(self, **sweep):
        tmp = temp_folder(self)
        csv_path = fixture.make_view_sweep(os.path.join(tmp, "sweep"), **sweep)
        out = os.path.join(tmp, "out")
        proc = fixture.run_plot(csv_path, out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc, out, sorted(n for n in os.listdir(out) if n.startswith("views_"))

    def figures(self, **sweep):
        rows, meta = view_rows(temp_folder(self), **sweep)
        return figures_of(rows, meta)

    def test_a_scored_sweep_writes_the_four_view_plots_and_the_report_shows_them(self):
        _, out, views = self.plot_folder(scored=True, rounds=5)
        self.assertEqual(views, VIEW_PLOTS)
        with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
            page = f.read()
        for name in VIEW_PLOTS:
            self.assertIn(f'<img src="{name}"', page)

    def test_empty_columns_write_no_quality_no_clamped_and_no_cost_plot(self):
        proc, _, views = self.plot_folder(scored=False, clamped=False)
        self.assertEqual(views, ["views_frame_time.png"])
        self.assertIn("views_cost_per_mpx.png not written", proc.stderr)
        _, _, views = self.plot_folder(scored=True, clamped=False)
        self.assertEqual(views, ["views_cost_per_mpx.png", "views_frame_time.png", "views_quality.png"])

    def test_one_distance_is_no_camera_sweep(self):
        rows, meta = view_rows(temp_folder(self))
        one = [r for r in rows if r["camera_distance"] == "6"]
        figures = figures_of(one, meta)
        self.assertIn("frame_time.png", figures)
        self.assertFalse([n for n in figures if n.startswith("views_")])

    def test_frame_time_per_configuration_against_distance_with_its_interval(self):
        fig = self.figures(scored=True, rounds=5)["views_frame_time.png"]
        ax, by_size = fig.axes[:2]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["2 m", "6 m", "18 m"])
        lines = view_lines(ax)
        self.assertEqual(list(lines), list(fixture.VIEW_STRATEGIES))
        for strategy, (xs, ys) in lines.items():
            self.assertEqual(xs, fixture.VIEW_DISTANCES)
            for d, y in zip(xs, ys):
                self.assertAlmostEqual(y, fixture.view_ms(strategy, d), delta=1e-5 * y)
        bars = interval_bars(ax, plot.INTERVAL_LABEL)
        self.assertEqual(len(bars), len(fixture.VIEW_STRATEGIES))
        for d, (lo, hi) in bars[0].items():  # points: 2, 6 and 18 m
            ms = fixture.view_ms("points", d)
            self.assertAlmostEqual(lo, ms * fixture.CI_BELOW, delta=ms * 1e-4)
            self.assertAlmostEqual(hi, ms * fixture.CI_ABOVE, delta=ms * 1e-4)
        self.assertIn("bars: 95% interval over 5 rounds", fig._suptitle.get_text())
        self.assertIn("covered_fraction", by_size.get_xlabel())
        xs, _ = view_lines(by_size)["points"]
        self.assertEqual([round(x, 5) for x in xs],
                         [round(fixture.view_figures(d)[1], 5) for d in fixture.VIEW_DISTANCES])

    def test_unscored_frame_time_is_against_fire_px_without_intervals(self):
        fig = self.figures(scored=False)["views_frame_time.png"]
        self.assertIn("fire_px", fig.axes[1].get_xlabel())
        self.assertEqual(interval_bars(fig.axes[0], plot.INTERVAL_LABEL), [])
        xs, _ = view_lines(fig.axes[1])["billboards-instanced"]
        self.assertEqual([round(x, 3) for x in xs], [round(1400 / d, 3) for d in fixture.VIEW_DISTANCES])

    def test_quality_has_a_panel_per_scored_metric(self):
        fig = self.figures(scored=True)["views_quality.png"]
        panels = {ax.get_ylabel(): ax for ax in fig.axes}
        self.assertEqual(sorted(panels), ["PSNR (dB), fire region (higher is better)",
                                          "SSIM, fire region (higher is better)",
                                          "ꟻLIP, fire region (lower is better)"])
        _, ys = view_lines(panels["SSIM, fire region (higher is better)"])["points"]
        self.assertEqual(ys, [fixture.view_ssim("points", d) for d in fixture.VIEW_DISTANCES])

    def test_cost_per_covered_megapixel(self):
        ax = self.figures(scored=True)["views_cost_per_mpx.png"].axes[0]
        width, height = fixture.VIEW_SIZE
        for strategy, (xs, ys) in view_lines(ax).items():
            for d, y in zip(xs, ys):
                covered = float(f"{fixture.view_figures(d)[1]:.6g}")  # as the CSV holds it
                expected = fixture.view_ms(strategy, d) / (covered * width * height / 1e6)
                self.assertAlmostEqual(y, expected, delta=expected * 1e-4, msg=(strategy, d))

    def test_clamped_points_for_the_point_strategy_and_behind_the_camera_for_all(self):
        fig = self.figures(scored=False)["views_clamped.png"]
        self.assertIn("largest point size: 255 px", fig._suptitle.get_text())
        clamped, behind = fig.axes[:2]
        self.assertEqual(view_lines(clamped), {"points": (fixture.VIEW_DISTANCES, [0.6, 0.05, 0.0])})
        self.assertEqual(sorted(view_lines(behind)), sorted(fixture.VIEW_STRATEGIES))

    def test_a_camera_setting_swept_across_distances_splits_series_and_one_tied_to_them_does_not(self):
        rows, _ = view_rows(temp_folder(self), meta=False)  # the fallback: no meta.json
        for r in rows:  # a path camera: the height follows the distance
            r["camera_height"] = str(float(r["camera_distance"]) / 4)
        self.assertEqual(len(view_lines(figures_of(rows)["views_frame_time.png"].axes[0])), 2)
        wide = [dict(r, fov="70", run_key=r["run_key"] + ";fov=70") for r in rows]
        lines = view_lines(figures_of(rows + wide)["views_frame_time.png"].axes[0])
        self.assertEqual(sorted(lines), ["billboards-instanced / fov=45", "billboards-instanced / fov=70",
                                         "points / fov=45", "points / fov=70"])
        self.assertTrue(all(xs == fixture.VIEW_DISTANCES for xs, _ in lines.values()))

    def test_the_particle_count_plots_keep_a_bar_per_configuration_and_distance(self):
        rows, meta = view_rows(temp_folder(self), rounds=5)
        ax = figures_of(rows, meta)["frame_time.png"].axes[0]
        names = [t.get_text() for t in ax.get_yticklabels()]
        self.assertEqual(len(names), len(fixture.VIEW_STRATEGIES) * len(fixture.VIEW_DISTANCES))
        self.assertIn("points / camera_distance=18", names)
        # More series than one panel holds: a panel per distance, a bar per configuration in each.
        many = [dict(r, strategy=f"{r['strategy']}-{i}") for r in rows for i in range(3)]
        model = plot.Model(many, Columns(meta), plot.recorded_axes(meta))
        self.assertEqual(model.facet_col, "camera_distance")
        fig = figures_of(many, meta)["frame_time.png"]
        self.assertEqual([ax.get_title(loc="left") for ax in fig.axes],
                         [f"camera_distance={d}" for d in fixture.VIEW_DISTANCES])


def headline_labels(page):
    """The configuration cells of the headline table, top to bottom."""
    return re.findall(r"<tr><td>([^<]*)</td>", headline(page).split("<tbody>")[1])


class ViewsReportTest(unittest.TestCase):
    def test_the_headline_is_fastest_first_at_each_distance(self):
        tmp = temp_folder(self)
        proc = fixture.run_report(fixture.make_view_sweep(tmp, rounds=5), tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(tmp, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertEqual(headline_labels(page), [f"{s} / camera_distance={d}" for d in fixture.VIEW_DISTANCES
                                                 for s in ("points", "billboards-instanced")])
        self.assertIn("Fastest first at each camera distance.", page)
        for col in ("fire_px", "behind_camera_fraction", "points_clamped_fraction"):
            self.assertIn(f'<th scope="col" class="num">{col}</th>', page.split("<details>")[0])


if __name__ == "__main__":
    unittest.main()

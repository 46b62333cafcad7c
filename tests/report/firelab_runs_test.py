#!/usr/bin/python3
"""scripts/firelab_runs.py: what the columns are, from meta.json's "columns" and "metrics" when it lists them
and from the fallback when it does not (older folders, a lone `firelab run --csv`); which settings tell
configurations apart; the experiment's question."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import fixture  # noqa: E402
from firelab_runs import (FALLBACK_GROUPS, Columns, Settings, figure_cell, first_crossing, format_figure,  # noqa: E402
                          holds_one, intervals_overlap, is_default, join_key, question, ratio_figure, read_runs,
                          same_value, setting_of, setting_text, split_run_key)
import tempfile  # noqa: E402

# runs.csv's header as firelab wrote it before meta.json described its columns (the last version without
# a schema, e.g. results/layer-order/runs.csv): the files the fallback is for. Frozen: newer files say what
# their columns are in meta.json.
LEGACY_HEADER = ["experiment", "label", "run_key", "strategy", "effect", "emitter", "distribution",
                 "particles", "alive_mean", "width", "height", "blend", "sort", "facing", "flipbook",
                 "particle_scale", "upsample", "edge_fixup", "hull", "filter", "hdr", "tonemap", "exposure",
                 "soft", "layer_order", "seed", "dt", "warmup", "frames", "timing", "fire_light", "round",
                 "rounds", "frame_ms_median", "frame_ms_ci_low", "frame_ms_ci_high", "frame_ms_mean",
                 "frame_ms_p5", "frame_ms_p95", "frame_ms_p99", "frame_ms_stddev", "frame_ms_min",
                 "frame_ms_max", "fps", "sim_ms_median", "upload_ms_median", "draw_ms_median",
                 "draw_ms_ci_low", "draw_ms_ci_high", "gpu_ms_median", "gpu_simulate_ms_median",
                 "gpu_sort_ms_median", "gpu_scene_ms_median", "gpu_depth_ms_median", "gpu_particles_ms_median",
                 "gpu_composite_ms_median", "gpu_tonemap_ms_median", "light_fit_ms_median",
                 "light_shade_ms_median", "harness_ms_mean", "reference", "energy_scale", "quality_frames",
                 "psnr_db", "ssim", "flip", "psnr_fire_db", "ssim_fire", "flip_fire", "flicker_ratio",
                 "fragments_shaded", "fragments_visible", "covered_fraction", "frame_png", "reference_png",
                 "quality_seconds", "gl_renderer", "gl_version", "threads", "started", "seconds", "status"]


def rows(**varying):
    """Two rows that differ in the given columns ({column: (first value, second value)})."""
    base = {"experiment": "x", "strategy": "points", "particles": "1000", "width": "640", "height": "360",
            "run_key": "single", "status": "ok", "frame_ms_median": "1"}
    return [dict(base, **{c: v[i] for c, v in varying.items()}) for i in (0, 1)]


# meta.json as a firelab that knows a new setting (wind_speed) and a new metric (hist) writes it.
NEW_META = {
    "columns": [{"name": "experiment", "group": "identity", "rule": "first"},
                {"name": "strategy", "group": "setting", "rule": "first", "setting": "strategy"},
                {"name": "wind_speed", "group": "setting", "rule": "first", "setting": "wind"},
                {"name": "emitter", "group": "record", "rule": "first"},
                {"name": "frame_ms_median", "group": "timing", "rule": "median_interval"},
                {"name": "frame_ms_ci_low", "group": "timing", "rule": "interval_low"},
                {"name": "frame_ms_ci_high", "group": "timing", "rule": "interval_high"}],
    "metrics": [{"name": "flip", "label": "ꟻLIP", "better": "lower", "frame_column": "flip",
                 "fire_column": "flip_fire", "default": True},
                {"name": "hist", "label": "histogram", "better": "lower", "frame_column": "hist",
                 "fire_column": "hist_fire", "default": False}],
}


class FallbackTest(unittest.TestCase):
    def test_the_fallback_names_every_column_of_the_files_without_a_schema_once(self):
        listed = [c for names in FALLBACK_GROUPS.values() for c in names]
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(sorted(listed), sorted(LEGACY_HEADER))

    def test_the_columns_the_old_lists_missed_are_settings_and_records_are_not(self):
        columns = Columns()
        self.assertFalse(columns.from_meta)
        for name in ("effect", "layer_order", "fire_light", "timing", "particle_scale", "strategy"):
            self.assertEqual(columns.group(name), "setting", name)
        for name in ("warmup", "frames", "rounds", "gl_renderer", "status"):
            self.assertEqual(columns.group(name), "record", name)
        self.assertEqual(columns.column_of("particle-scale"), "particle_scale")
        self.assertEqual(columns.interval("frame_ms_median"), ("frame_ms_ci_low", "frame_ms_ci_high"))
        self.assertEqual(columns.interval("draw_ms_median"), ("draw_ms_ci_low", "draw_ms_ci_high"))
        self.assertIsNone(columns.interval("fps"))

    def test_the_fallback_metrics_and_their_directions(self):
        metrics = {m.name: m for m in Columns().metrics}
        self.assertEqual(list(metrics), ["psnr", "ssim", "flip"])
        self.assertEqual([(m.fire_column, m.higher_is_better) for m in metrics.values()],
                         [("psnr_fire_db", True), ("ssim_fire", True), ("flip_fire", False)])
        self.assertLess(metrics["flip"].cost(0.1), metrics["flip"].cost(0.2))
        self.assertLess(metrics["ssim"].cost(0.9), metrics["ssim"].cost(0.8))


class MetaColumnsTest(unittest.TestCase):
    def test_meta_json_lists_replace_the_fallback(self):
        columns = Columns(NEW_META)
        self.assertTrue(columns.from_meta)
        self.assertEqual(columns.names("setting"), ["strategy", "wind_speed"])
        self.assertEqual(columns.group("emitter"), "record")
        self.assertIsNone(columns.group("layer_order"))  # not the fallback's any more
        self.assertEqual(columns.column_of("wind"), "wind_speed")  # by its "setting", not by spelling
        self.assertEqual([m.name for m in columns.metrics], ["flip", "hist"])
        self.assertEqual(columns.interval("frame_ms_median"), ("frame_ms_ci_low", "frame_ms_ci_high"))

    def test_a_meta_json_without_lists_or_with_broken_ones_falls_back(self):
        for meta in (None, {}, {"columns": "x", "metrics": 3}, {"columns": [{"group": "setting"}]}):
            columns = Columns(meta)
            self.assertFalse(columns.from_meta, meta)
            self.assertEqual([m.name for m in columns.metrics], ["psnr", "ssim", "flip"])

    def test_scored_metrics_are_those_with_a_fire_region_value(self):
        scored = [{"flip_fire": "0.1", "hist_fire": ""}, {"flip_fire": "", "hist_fire": " "}]
        self.assertEqual([m.name for m in Columns(NEW_META).scored_metrics(scored)], ["flip"])
        self.assertEqual(Columns().scored_metrics([{"ssim_fire": "0.9"}])[0].name, "ssim")


class SettingsTest(unittest.TestCase):
    def test_new_setting_columns_split_by_the_fallback(self):
        for column in ("effect", "layer_order", "fire_light", "timing"):
            self.assertEqual(Settings(rows(**{column: ("a", "b")})).varying, [column])

    def test_records_and_the_count_never_split(self):
        self.assertEqual(Settings(rows(warmup=("10", "5"), frames=("40", "23"), particles=("1", "2"))).varying, [])

    def test_with_the_axes_only_swept_settings_split(self):
        two = rows(blend=("alpha", "additive"), hull=("quad", "8"))
        self.assertEqual(Settings(two).varying, ["blend", "hull"])
        self.assertEqual(Settings(two, axes=["hull", "particles"]).varying, ["hull"])

    def test_a_swept_setting_without_a_known_column_is_other(self):
        two = rows(wind_speed=("1", "2"), run_key=("wind=1", "wind=2"))
        fallback = Settings(two)
        self.assertEqual(fallback.varying, ["other"])
        self.assertEqual(fallback.label(two[1]), "points / wind=2")
        self.assertEqual(Settings(two, Columns(NEW_META)).varying, ["wind_speed"])

    def test_meta_json_says_which_columns_are_settings(self):
        two = rows(emitter=("circle", "rect"), wind_speed=("1", "2"))
        self.assertEqual(Settings(two).varying, ["emitter"])
        self.assertEqual(Settings(two, Columns(NEW_META)).varying, ["wind_speed"])

    def test_size_and_other_show_as_their_columns(self):
        two = rows(width=("640", "1280"), run_key=("texture=a.png", "texture=b.png"))
        settings = Settings(two)
        self.assertEqual(settings.varying, ["size", "other"])
        self.assertEqual(settings.varying_columns(), ["width", "height", "run_key"])
        self.assertEqual(settings.label(two[0]), "points / 640x360 / texture=a.png")


class QuestionTest(unittest.TestCase):
    def test_question_then_description_then_the_experiment(self):
        runs = [{"experiment": "fill"}]
        self.assertEqual(question({"question": " Which is cheapest? ", "description": "d"}, runs),
                         "Which is cheapest?")
        self.assertEqual(question({"description": "every strategy"}, runs), "every strategy")
        self.assertEqual(question({"experiment": "fill", "question": ""}, runs), "fill")
        self.assertEqual(question(None, runs), "fill")


class RunKeyTest(unittest.TestCase):
    def test_a_value_holding_a_separator_is_escaped_in_the_key_and_given_back(self):
        # experiment.h's runKeyValue: ';' as %3B and '%' as %25
        parts = [("label", "a;texture=b"), ("texture", "c%")]
        key = join_key(parts)
        self.assertEqual(key, "label=a%3Btexture=b;texture=c%25")
        self.assertEqual(split_run_key(key), parts)
        self.assertEqual(split_run_key(key, ["label", "texture"]), parts)


class GuardTest(unittest.TestCase):
    def test_read_runs_strips_the_formula_guard_firelab_writes(self):
        # csv.h writes "=1+1" as '=1+1 and "'x" as ''x; a negative number as it is.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "runs.csv")
            with open(path, "w", newline="") as f:
                f.write("label,camera_yaw,frame_ms_median\n'=1+1,-30,2.5\n''x,0,1\n")
            _, got = read_runs(path)
        self.assertEqual([r["label"] for r in got], ["=1+1", "'x"])
        self.assertEqual(got[0]["camera_yaw"], "-30")


class FigureTest(unittest.TestCase):
    def test_one_rule_per_kind_of_column(self):
        self.assertEqual(format_figure("frame_ms_median", 1028.6), "1029")  # ms: 3 digits, the integer part whole
        self.assertEqual(format_figure("draw_ms_median", 87.97), "88.0")
        self.assertEqual(format_figure("psnr_fire_db", 35.53), "35.5")
        self.assertEqual(format_figure("ssim_fire", 0.98863), "0.9886")
        self.assertEqual(format_figure("flip_fire", 0.0), "0")
        self.assertEqual(format_figure("covered_fraction", 0.002159), "0.216 %")
        self.assertEqual(format_figure("fragments_shaded", 28.2e6), "28.2 M")
        self.assertEqual(format_figure("particles", 104656.3), "104,656")
        self.assertEqual(format_figure("frame_ratio_median", 1.27017), "1.270")
        self.assertEqual(format_figure("fire_px", float("nan")), "")
        self.assertEqual(figure_cell("frame_ms_median", 412.2, (405.1, 420.0)), "412 [405, 420]")
        self.assertEqual(figure_cell("frame_ms_median", 412.2, None), "412")

    def test_intervals_overlap_only_when_both_exist(self):
        self.assertTrue(intervals_overlap((1, 1.3), (1.2, 1.5)))
        self.assertFalse(intervals_overlap((1, 1.3), (1.31, 1.5)))
        self.assertFalse(intervals_overlap(None, (1, 2)))

    def test_the_first_crossing_in_log_x(self):
        # 0.7 at 1000, 0.9 at 4000: 0.85 three quarters of the way in log x
        x, i, f = first_crossing([(1000, 0.7), (4000, 0.9)], 0.85, True)
        self.assertAlmostEqual(x, 1000 * 4 ** 0.75)
        self.assertEqual(i, 1)
        self.assertAlmostEqual(f, 0.75)
        self.assertEqual(first_crossing([(1000, 0.3), (4000, 0.2)], 0.1, False), None)
        self.assertEqual(first_crossing([(1000, 0.05)], 0.1, False), (1000, 0, 1.0))


class SettingValueTest(unittest.TestCase):
    def test_numbers_by_value_and_defaults(self):
        self.assertTrue(same_value("0.5", "0.50"))
        self.assertTrue(same_value("0,0", "0.0,0"))
        self.assertFalse(same_value("quad", "8"))
        self.assertTrue(is_default("particle_scale", "1.0"))
        self.assertTrue(is_default("hull", ""))  # a CSV without the column
        self.assertFalse(is_default("hull", "8"))
        self.assertFalse(is_default("strategy", "points"))  # no default: always named

    def test_a_setting_from_its_column_its_run_key_or_meta_json(self):
        row = {"strategy": "points"}
        self.assertEqual(setting_of(row, "strategy", {}, {}), "points")
        self.assertEqual(setting_of(row, "texture", {"texture": "gaussian.png"}, {"texture": "flame.png"}),
                         "gaussian.png")
        self.assertEqual(setting_of(row, "texture", {}, {"texture": "flame.png"}), "flame.png")
        self.assertEqual(setting_of(row, "hull", {}, {}), "")
        self.assertEqual(setting_text("effect", "effects/campfire.toml"), "campfire")
        self.assertEqual(setting_text("effect", ""), "default")
        self.assertEqual(setting_text("texture", "textures/gaussian.png"), "gaussian.png")


class RatioFigureTest(unittest.TestCase):
    """A ratios.csv row's ratio of one time and its interval, and whether the interval holds 1."""

    ROW = {"rounds": "5", "pairs": "5", "frame_ratio_median": "1.2", "frame_ratio_ci_low": "1.1",
           "frame_ratio_ci_high": "1.3", "cpu_ratio_median": "0.98", "cpu_ratio_ci_low": "0.95",
           "cpu_ratio_ci_high": "1.02", "draw_ratio_median": "", "draw_ratio_ci_low": "", "draw_ratio_ci_high": ""}

    def test_each_time_its_own_columns(self):
        self.assertEqual(ratio_figure(self.ROW), (1.2, (1.1, 1.3)))
        self.assertEqual(ratio_figure(self.ROW, "cpu"), (0.98, (0.95, 1.02)))
        median, interval = ratio_figure(self.ROW, "draw")  # not recorded
        self.assertNotEqual(median, median)
        self.assertIsNone(interval)

    def test_one_ratio_has_no_interval_but_one_round_of_paired_frames_has(self):
        self.assertIsNone(ratio_figure(dict(self.ROW, rounds="1", pairs="1"))[1])
        self.assertEqual(ratio_figure(dict(self.ROW, rounds="1", pairs="2400"))[1], (1.1, 1.3))

    def test_holds_one_at_its_ends_and_not_without_an_interval(self):
        self.assertTrue(holds_one((0.95, 1.02)))
        self.assertTrue(holds_one((1.0, 1.3)))
        self.assertTrue(holds_one((0.7, 1.0)))
        self.assertFalse(holds_one((1.001, 1.3)))
        self.assertFalse(holds_one((0.5, 0.999)))
        self.assertFalse(holds_one(None))


if __name__ == "__main__":
    unittest.main()

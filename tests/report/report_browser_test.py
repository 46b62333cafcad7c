#!/usr/bin/python3
"""report.html in a real browser: headless Chromium opens it as file:// and the test checks that every image
loaded (naturalWidth > 0), that the console shows no error (console.error, uncaught exceptions, failed loads)
and that a 1280x900 screenshot is not blank. Broken copies of the page prove each check can fail.

Without chromium: exit 77 (ctest SKIP_RETURN_CODE), except under CI (env CI set), where that is a failure.
FIRELAB_REPORT_KEEP=DIR keeps the fixture, its report.html and the screenshots in DIR to look at.
"""
import io
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixture  # noqa: E402
from browser import Browser, find_chromium  # noqa: E402

WIDTH, HEIGHT = 1280, 900
MIN_COLOURS = 200  # the report's plots and frames give thousands; a blank or error page a handful


def distinct_colours(png):
    """(width, height, number of distinct RGB colours) of PNG bytes."""
    import numpy as np
    from matplotlib import image
    pixels = image.imread(io.BytesIO(png), format="png")
    rgb = (pixels[..., :3] * 255).round().astype(np.uint32)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    return pixels.shape[1], pixels.shape[0], len(np.unique(packed))


def problems(page, expected_images=None):
    """Everything wrong with a loaded page, as readable lines; [] for a good one."""
    out = [f"image not loaded: {i['src']}" for i in page.images if not (i["complete"] and i["width"] > 0)]
    if expected_images is not None and len(page.images) != expected_images:
        out.append(f"{len(page.images)} images on the page, expected {expected_images}")
    out += [f"console: {e}" for e in page.errors]
    width, height, colours = distinct_colours(page.screenshot)
    if (width, height) != (WIDTH, HEIGHT):
        out.append(f"screenshot is {width}x{height}, expected {WIDTH}x{HEIGHT}")
    if colours < MIN_COLOURS:
        out.append(f"screenshot looks blank: {colours} distinct colours")
    return out


class ReportBrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        keep = os.environ.get("FIRELAB_REPORT_KEEP")
        cls.root = keep or tempfile.mkdtemp(prefix="firelab-report-")
        cls.keep = bool(keep)
        cls.scored = os.path.join(cls.root, "scored")
        cls.plain = os.path.join(cls.root, "plain")
        for folder, scored in ((cls.scored, True), (cls.plain, False)):
            shutil.rmtree(folder, ignore_errors=True)
            proc = fixture.run_plot(fixture.make_sweep(folder, scored=scored), folder)
            if proc.returncode != 0:
                raise RuntimeError(f"plot.py failed on the fixture:\n{proc.stderr}")
        cls.browser = Browser(find_chromium())

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        if not cls.keep:
            shutil.rmtree(cls.root, ignore_errors=True)

    def load(self, folder, name="report.html", **kw):
        page = self.browser.load("file://" + os.path.join(folder, name), WIDTH, HEIGHT, **kw)
        if self.keep:
            stem = os.path.join(self.root, f"{os.path.basename(folder)}-{name[:-len('.html')]}")
            for suffix, data in (("", page.screenshot), ("-full", page.full_page)):
                with open(f"{stem}{suffix}.png", "wb") as f:
                    f.write(data)
        return page

    def broken_copy(self, name, old, new):
        """A copy of the scored report.html beside it, with old replaced by new."""
        with open(os.path.join(self.scored, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn(old, page)
        with open(os.path.join(self.scored, name), "w", encoding="utf-8") as f:
            f.write(page.replace(old, new, 1))
        return name

    @staticmethod
    def pngs(folder):
        return sorted(n for n in os.listdir(folder) if n.endswith(".png"))

    def test_scored_report_renders_every_plot_and_frame_without_console_errors(self):
        page = self.load(self.scored)
        plots = self.pngs(self.scored)
        self.assertIn("pareto.png", plots)
        frames = len(fixture.STRATEGIES)  # each strategy's frame beside the reference's
        self.assertEqual(problems(page, expected_images=len(plots) + 2 * frames), [])
        sources = [i["src"] for i in page.images]
        self.assertTrue(set(plots) <= set(sources), sources)
        self.assertIn("frames/point%20sprites%20%231.png", sources)  # a file name that needs encoding

    def test_report_of_a_csv_without_quality_columns_renders(self):
        page = self.load(self.plain)
        plots = self.pngs(self.plain)
        self.assertNotIn("pareto.png", plots)
        self.assertEqual(problems(page, expected_images=len(plots)), [])

    def test_values_reach_the_page_as_text_and_headers_sort(self):
        page = self.load(self.scored, keep_open=True)
        try:
            evaluate = lambda js: self.browser.evaluate(page.session, js)  # noqa: E731
            cells = evaluate('Array.from(document.querySelectorAll("td")).map(td => td.textContent)')
            self.assertIn(fixture.LABEL, cells)
            self.assertIn(fixture.FAILURE, cells)
            self.assertEqual(evaluate('document.querySelectorAll("td b, td script, header b, h2 b").length'), 0)
            # meta.json's description asks the question here (the fixture has no "question")
            self.assertIn('<quotes "and">', evaluate('document.querySelector("h2.question").textContent'))
            self.assertIn("gl.renderer", cells)  # meta.json's nested objects flattened

            column = """(() => { const t = document.querySelector("table.key");
                const i = Array.from(t.tHead.rows[0].cells).findIndex(th => th.textContent === "frame_ms_median");
                t.tHead.rows[0].cells[i].click();
                return Array.from(t.tBodies[0].rows).map(r => r.cells[i].textContent); })()"""
            up = evaluate(column)
            down = evaluate(column)  # a second click sorts the other way
            numbers = [float(v) for v in up if v]
            self.assertEqual(numbers, sorted(numbers))  # numerically: "10" after "9"
            self.assertGreater(numbers[-1], 9)
            self.assertEqual(up[-1], "")  # the failed run has no time: last either way
            self.assertEqual([float(v) for v in down if v], sorted(numbers, reverse=True))
            self.assertEqual(down[-1], "")
        finally:
            self.browser.close_page(page)
        self.assertEqual(page.errors, [])

    def test_the_question_and_the_headline_open_the_page(self):
        page = self.load(self.scored, keep_open=True)
        try:
            evaluate = lambda js: self.browser.evaluate(page.session, js)  # noqa: E731
            first = evaluate('document.querySelector("main h2").textContent')
            self.assertEqual(first, 'a fake sweep: <quotes "and"> & ampersands')  # no question: the description
            top = evaluate('document.querySelector("table.headline").getBoundingClientRect().top')
            self.assertLess(top, HEIGHT / 2)  # on the first screen, under the question
            machine = evaluate('document.querySelector("#meta").getBoundingClientRect().top')
            self.assertGreater(machine, top)
        finally:
            self.browser.close_page(page)

    def test_a_broken_image_is_caught(self):
        name = self.broken_copy("broken-image.html", '<img src="fps.png"', '<img src="no-such-plot.png"')
        found = problems(self.load(self.scored, name))
        self.assertIn("image not loaded: no-such-plot.png", found)
        self.assertTrue(any("console:" in p and "ERR_FILE_NOT_FOUND" in p for p in found), found)

    def test_a_script_error_is_caught(self):
        name = self.broken_copy("script-error.html", "<script>", "<script>reportNotDefined();</script><script>")
        found = problems(self.load(self.scored, name))
        self.assertTrue(any("console: uncaught" in p and "reportNotDefined" in p for p in found), found)

    def test_a_console_error_is_caught(self):
        name = self.broken_copy("console-error.html", "<script>", '<script>console.error("lost");</script><script>')
        self.assertIn("console: console.error: lost", problems(self.load(self.scored, name)))

    def test_a_blank_page_is_caught(self):
        name = self.broken_copy("blank.html", "<body>", '<body style="display:none">')
        found = problems(self.load(self.scored, name))
        self.assertTrue(any(p.startswith("screenshot looks blank") for p in found), found)


if __name__ == "__main__":
    if not find_chromium():
        reason = "no chromium (Debian package chromium, which scripts/setup.sh installs; or FIRELAB_CHROMIUM)"
        if os.environ.get("CI"):
            print(f"report_browser_test: FAIL under CI: {reason}", file=sys.stderr)
            sys.exit(1)
        print(f"report_browser_test: SKIP: {reason}", file=sys.stderr)
        sys.exit(77)
    unittest.main()

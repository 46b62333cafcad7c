#!/usr/bin/python3
"""The report scripts share code through scripts/firelab_runs.py only: no script imports another script's
command module (plot.py from report.py, say), at the top or inside a function. Read with ast, run nothing."""
import ast
import glob
import os
import unittest

SCRIPTS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
SHARED = "firelab_runs"


def imported_modules(source):
    """The top-level names of every module the source imports, wherever the import stands."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def script_imports(source, scripts):
    """The other scripts (module names among `scripts`) that the source imports, the shared module aside."""
    return sorted(imported_modules(source) & (set(scripts) - {SHARED}))


def scripts_by_module():
    return {os.path.splitext(os.path.basename(p))[0]: p for p in sorted(glob.glob(os.path.join(SCRIPTS, "*.py")))}


class ImportsTest(unittest.TestCase):
    def test_no_script_imports_another_script_but_the_shared_module(self):
        scripts = scripts_by_module()
        self.assertIn(SHARED, scripts)
        for name, path in scripts.items():
            with open(path, encoding="utf-8") as f:
                self.assertEqual(script_imports(f.read(), scripts), [], f"{name}.py imports another script")

    def test_the_report_scripts_use_the_shared_module(self):
        scripts = scripts_by_module()
        for name in ("plot", "report", "stability", "findings"):
            with open(scripts[name], encoding="utf-8") as f:
                self.assertIn(SHARED, imported_modules(f.read()), name)

    def test_the_check_finds_an_import_of_another_script_anywhere(self):
        scripts = ["plot", "report", SHARED]
        self.assertEqual(script_imports("from plot import num\n", scripts), ["plot"])
        self.assertEqual(script_imports("def f():\n    import report as r\n", scripts), ["report"])
        self.assertEqual(script_imports("import os, plot.sub\n", scripts), ["plot"])
        self.assertEqual(script_imports("from firelab_runs import num\nimport json\n", scripts), [])


if __name__ == "__main__":
    unittest.main()

"""The benchmark smoke run (ctest's bench_smoke): every benchmark of firelab_bench runs, at its smallest size.

    smoke.py FIRELAB_BENCH

The benchmarks are listed by the binary itself (--benchmark_list_tests). A benchmark's size is its first
argument (N, size_cm, iterations ...): of the instances that differ only in it, the smallest is kept; the
others (threads, solvers, strategies, option sets) are all kept. Each kept instance is run for the shortest
time Google Benchmark allows (one iteration of anything slower than a millisecond), and the test fails unless
every one of them reports a result without an error. Proving that each benchmark still runs is its purpose:
the figures are measured by firelab_bench itself, at every size.
"""

import json
import re
import subprocess
import sys
import tempfile

ARGUMENT = re.compile(r"^([A-Za-z_]\w*):(-?[0-9.]+)$")
SPECIAL = set(".^$*+?()[]{}|\\")


def smallest_instances(names):
    """One name per benchmark: the smallest value of its first argument, every other part kept."""
    best = {}
    for name in names:
        parts = name.split("/")
        first = next((i for i, p in enumerate(parts) if ARGUMENT.match(p)), None)
        if first is None:
            best[name] = (0.0, name)
            continue
        size, value = ARGUMENT.match(parts[first]).groups()
        key = "/".join(parts[:first] + [size + ":*"] + parts[first + 1 :])
        if key not in best or float(value) < best[key][0]:
            best[key] = (float(value), name)
    return sorted(name for _, name in best.values())


def escaped(name):
    return "".join("\\" + c if c in SPECIAL else c for c in name)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: smoke.py FIRELAB_BENCH")
    exe = sys.argv[1]
    listed = subprocess.run([exe, "--benchmark_list_tests=true"], capture_output=True, text=True, check=True)
    names = smallest_instances(listed.stdout.split())
    if not names:
        sys.exit("smoke.py: firelab_bench lists no benchmark")
    print(f"smoke.py: {len(names)} benchmarks at their smallest size, of {len(listed.stdout.split())} listed")
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        pattern = "^(" + "|".join(escaped(n) for n in names) + ")$"
        run = subprocess.run([exe, "--benchmark_min_time=0.001", f"--benchmark_filter={pattern}",
                              f"--benchmark_out={out.name}", "--benchmark_out_format=json"])
        if run.returncode != 0:
            sys.exit(f"smoke.py: firelab_bench exited {run.returncode}")
        with open(out.name) as f:
            results = json.load(f)["benchmarks"]
    ran = {r["name"]: r for r in results}
    missing = [n for n in names if n not in ran]
    failed = [f"{n}: {r.get('error_message', 'error')}" for n, r in ran.items() if r.get("error_occurred")]
    for problem in [f"{n}: did not run" for n in missing] + failed:
        print(f"smoke.py: FAILED: {problem}", file=sys.stderr)
    sys.exit(1 if missing or failed else 0)


if __name__ == "__main__":
    main()

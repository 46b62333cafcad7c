#!/usr/bin/python3
"""Reduces OpenFOAM probes of a fire (scripts/cfd_reference.sh's fireFoam case) to the files `firelab physics`
writes: physics.csv (a row per centreline probe), spectrum.csv (the attached flame tip's and the emitted power's
spectra) and meta.json, with the same columns (src/physics/record.h; a test checks the headers) and the same
estimators (src/physics/estimators.h), written again here on numpy so the two check each other:

- the probes are resampled by linear interpolation onto a fixed step --dt from --start to --end;
- a point's emission is a blackbody's luminance at 555 nm above the ambient's (Planck's law, at the wavelength
  where the eye's photopic response peaks), the counterpart of firelab's Y x alpha x size^2 under --color
  blackbody; each height's emission is summed across the section's probes (times their spacing), as firelab sums
  a bin's over its whole cross-section. The flame is present at a height in a sample where some point across it
  is at or above the Draper point, 798 K, where hot matter starts to glow visibly (--presence draper, the
  default: the gas has an absolute scale of light, which firelab's sprites lack), or where the height's emission
  is at least --flame-threshold times the largest time-mean height's (--presence relative, firelab's own rule);
- intermittency, its 0.5 height (linear between probe heights), the attached tip (the top of the run of present
  heights from the flame's base: the lowest height present half the time, above the burner's cold fuel), and the one-sided Hann-windowed power spectral density of the tip and of the summed
  emission, normalised as FFTW's is in firelab (2 |X_k|^2 dt / sum w^2, DC and Nyquist once);
- the centreline's temperature rise and upward velocity are time means at each point (a thermocouple's and an
  anemometer's, as McCaffrey measured), not firelab's emission-weighted and parcel-weighted means of particles.

The probe folders are OpenFOAM's `probes` function object output: FOLDER/centreline/<time>/T and U (points on the
axis) and FOLDER/section/<time>/T (rows of points across the fire at the same heights), every time folder in order
(a restarted run continues in a new one). A record that stops before --end, or holds a value that
is not finite, is a run that did not converge: it is refused (exit 1), never reduced. Bad options exit 2.

Usage: scripts/cfd_reduce.py POSTPROCESSING --out DIR --start S --end S [--dt S] [--ambient K]
       [--presence draper|relative] [--flame-threshold F] [--min-frequency HZ] [--diameter M] [--heat-release KW] [--line-power KW_PER_M]
       [--case NAME] [--solver-seconds S]"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

C2 = 1.438777e-2  # m K, Planck's second radiation constant
WAVELENGTH = 555e-9  # m
DRAPER_POINT = 798.0  # K: where hot matter starts to glow visibly (J. W. Draper, 1847)
HEIGHT_COLUMNS = ["z_m", "z_scaled", "intermittency", "emission", "centreline_temperature_rise_k",
                  "centreline_velocity_ms", "centreline_weight", "heat_release_kw_per_m",
                  "mccaffrey_temperature_rise_k", "mccaffrey_velocity_ms"]
SPECTRUM_COLUMNS = ["frequency_hz", "tip_power", "emission_power"]


def fail(message, code=2):
    print(f"cfd_reduce.py: {message}", file=sys.stderr)
    sys.exit(code)


def read_probes(folder, field):
    """(times, locations, values) of one probe field over every time folder; values is samples x probes
    (x 3 for a vector)."""
    if not os.path.isdir(folder):
        fail(f"{folder}: no probe folder (the case's probes function object writes it)")
    starts = sorted((d for d in os.listdir(folder) if re.fullmatch(r"[0-9.eE+-]+", d)), key=float)
    times, rows, locations = [], [], None
    for start in starts:
        path = os.path.join(folder, start, field)
        if not os.path.exists(path):
            continue
        here, leg_times, leg_rows = [], [], []
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"#\s*Probe\s+\d+\s+\(([^)]*)\)", line)
                if m:
                    here.append(tuple(float(v) for v in m.group(1).split()))
                    continue
                if line.startswith("#") or not line.strip():
                    continue
                parts = line.replace("(", " ").replace(")", " ").split()
                leg_times.append(float(parts[0]))
                leg_rows.append([float(v) for v in parts[1:]])
        if locations is None:
            locations = here
        elif here != locations:
            fail(f"{path}: its probes are not those of the earlier time folders")
        if leg_times:  # a restarted leg replaces what an earlier leg wrote from the leg's first time on
            keep = sum(1 for t in times if t < leg_times[0])
            times, rows = times[:keep] + leg_times, rows[:keep] + leg_rows
    if not times:
        fail(f"{folder}: no {field} probes in any time folder")
    values = np.array(rows)
    if field == "U":
        values = values.reshape(len(times), -1, 3)
    return np.array(times), locations, values


def luminance(kelvin):
    """A blackbody's spectral radiance at WAVELENGTH (relative units), Planck's law."""
    return 1.0 / np.expm1(C2 / (WAVELENGTH * np.asarray(kelvin, dtype=float)))


def resample(times, values, grid):
    out = np.empty((len(grid),) + values.shape[1:])
    flat = values.reshape(len(times), -1)
    res = out.reshape(len(grid), -1)
    for j in range(flat.shape[1]):
        res[:, j] = np.interp(grid, times, flat[:, j])
    return out


def half_intermittency_height(profile, heights):
    """Where the intermittency falls through 0.5 going up, linear between probe heights (NaN: none)."""
    if len(profile) == 0 or profile[0] < 0.5:
        return math.nan
    for b in range(1, len(profile)):
        if profile[b] < 0.5:
            above, below = profile[b - 1], profile[b]
            return heights[b - 1] + (above - 0.5) / (above - below) * (heights[b] - heights[b - 1])
    return math.nan


def attached_tip(present_row, tops):
    """The top of the run of present probes from the lowest (0 when the lowest is empty)."""
    b = 0
    while b < len(present_row) and present_row[b]:
        b += 1
    return tops[b - 1] if b > 0 else 0.0


def power_spectrum(series, dt, min_hz):
    n = len(series)
    w = 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(n) / n)
    x = np.fft.rfft((series - series.mean()) * w)
    power = 2.0 * np.abs(x) ** 2 * dt / np.sum(w * w)
    power[0] /= 2.0
    if n % 2 == 0:
        power[-1] /= 2.0
    freq = np.arange(len(power)) / (n * dt)
    eligible = np.where((freq >= min_hz) & (np.arange(len(power)) > 0) & (power > 0))[0]
    peak = eligible[np.argmax(power[eligible])] if len(eligible) else None
    return {"frequency": freq, "power": power, "peak_hz": float(freq[peak]) if peak is not None else None,
            "peak_power": float(power[peak]) if peak is not None else None, "resolution_hz": 1.0 / (n * dt)}


def cell(v):
    return "" if v is None or not math.isfinite(v) else f"{v:.6g}"


def write_csv(path, columns, rows):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(",".join(columns) + "\n")
        for r in rows:
            f.write(",".join(cell(v) for v in r) + "\n")
    os.replace(path + ".tmp", path)


def reduce(args):
    times, locations, temperature = read_probes(os.path.join(args.postprocessing, "centreline"), "T")
    utimes, _, velocity = read_probes(os.path.join(args.postprocessing, "centreline"), "U")
    if times[-1] + 1e-9 < args.end or utimes[-1] + 1e-9 < args.end:
        fail(f"the probes stop at {min(times[-1], utimes[-1]):.6g} s, before --end {args.end:g} s: the run did not "
             "converge or was cut short; not reduced", 1)
    if not (np.all(np.isfinite(temperature)) and np.all(np.isfinite(velocity))):
        fail("the probes hold values that are not finite: the run did not converge; not reduced", 1)
    first = max(times[0], utimes[0])
    if first > args.start + args.dt:
        fail(f"--start {args.start:g}: the probes begin at {first:g} s; start the window there or later")
    order = np.argsort([loc[1] for loc in locations])
    heights = np.array([locations[i][1] for i in order])
    grid = np.arange(args.start, args.end - 0.5 * args.dt, args.dt)
    if len(grid) < 4:
        fail(f"--dt {args.dt:g}: {len(grid)} samples from --start {args.start:g} to --end {args.end:g}; a spectrum needs "
             "at least 4")
    if len(heights) < 2:
        fail(f"{args.postprocessing}: {len(heights)} centreline probe; the column needs at least 2 heights")
    t = resample(times, temperature, grid)[:, order]
    uy = resample(utimes, velocity, grid)[:, order, 1]

    stimes, slocations, st = read_probes(os.path.join(args.postprocessing, "section"), "T")
    if stimes[-1] + 1e-9 < args.end or not np.all(np.isfinite(st)):
        fail("the section's probes stop before --end or hold values that are not finite: the run did not converge; "
             "not reduced", 1)
    if stimes[0] > args.start + args.dt:
        fail(f"--start {args.start:g}: the section's probes begin at {stimes[0]:g} s; start the window there or later")
    st = resample(stimes, st, grid)
    emission = np.zeros((len(grid), len(heights)))
    rows = []
    for b, z in enumerate(heights):
        row = sorted((loc[0], j) for j, loc in enumerate(slocations) if abs(loc[1] - z) < 1e-6)
        if len(row) < 2:
            fail(f"the section has {len(row)} probes at height {z:g} m, the centreline's: it needs a row across")
        rows.append([j for _, j in row])
        xs = np.array([x for x, _ in row])
        weights = np.gradient(xs)  # each probe's share of the row's width
        emission[:, b] = ((luminance(st[:, [j for _, j in row]]) - luminance(args.ambient)) * weights).sum(axis=1)
    mean_emission = emission.mean(axis=0)
    if args.presence == "relative":
        level = args.flame_threshold * mean_emission.max()
        present = (emission >= level) & (mean_emission.max() > 0)
        rule = (f"a height holds the flame in a sample where its blackbody luminance at 555 nm above the ambient's, "
                f"summed across the section, is at least {args.flame_threshold:g} x the largest time-mean height's")
    else:
        level = DRAPER_POINT
        present = np.stack([st[:, rows[b]].max(axis=1) >= DRAPER_POINT for b in range(len(heights))], axis=1)
        rule = (f"a height holds the flame in a sample where some point across it is at or above the Draper point, "
                f"{DRAPER_POINT:g} K, where hot matter starts to glow visibly")
    profile = present.mean(axis=0)
    # The flame's base: the lowest height that holds it half the time. The cold fuel just above the burner is
    # not flame; the flame height and the attached tip are read from the base up (firelab's fires start at it).
    held = np.where(profile >= 0.5)[0]
    base = int(held[0]) if len(held) else len(heights)
    flame_height = half_intermittency_height(profile[base:], heights[base:]) if len(held) else math.nan
    spacing = np.gradient(heights)
    tops = heights + 0.5 * spacing
    tip = np.array([attached_tip(row[base:], tops[base:]) for row in present])
    power = (emission * spacing).sum(axis=1)
    tip_spectrum = power_spectrum(tip, args.dt, args.min_frequency)
    power_spectrum_ = power_spectrum(power, args.dt, args.min_frequency)

    scale = args.heat_release ** 0.4 if args.heat_release else math.nan
    rows = [[z, z / scale, profile[b], mean_emission[b], (t[:, b] - args.ambient).mean(), uy[:, b].mean(),
             float(len(grid)), math.nan, math.nan, math.nan] for b, z in enumerate(heights)]
    os.makedirs(args.out, exist_ok=True)
    write_csv(os.path.join(args.out, "physics.csv"), HEIGHT_COLUMNS, rows)
    write_csv(os.path.join(args.out, "spectrum.csv"), SPECTRUM_COLUMNS,
              zip(tip_spectrum["frequency"], tip_spectrum["power"], power_spectrum_["power"]))

    def peak(s):
        return {k: s[k] for k in ("peak_hz", "peak_power", "resolution_hz")}
    meta = {
        "record": "physics",
        "source": "cfd",
        "case": args.case,
        "solver": "OpenFOAM fireFoam (Debian's openfoam package)",
        "solver_seconds": args.solver_seconds,
        "window_s": len(grid) * args.dt,
        "start_s": args.start,
        "dt_s": args.dt,
        "frames": len(grid),
        "ambient_k": args.ambient,
        "probes": {"centreline": [list(locations[i]) for i in order], "section": {
            "heights": len(heights), "points_per_height": len(slocations) // max(len(heights), 1),
            "x_m": [min(v[0] for v in slocations), max(v[0] for v in slocations)]}},
        "presence": rule,
        "presence_level": float(level),
        "flame_base_m": float(heights[base]) if base < len(heights) else None,
        "centreline": "time means at each probe (not firelab's emission- and parcel-weighted means); McCaffrey's "
                      "columns are left empty (firelab's own records hold them at any Q)",
        "summary": {"flame_height_m": flame_height if math.isfinite(flame_height) else None,
                    "mean_tip_m": float(tip.mean()), "tip_spectrum": peak(tip_spectrum),
                    "emission_spectrum": peak(power_spectrum_)},
        "fire": {"diameter_m": args.diameter, "heat_release_kw": args.heat_release,
                 "line_power_kw_per_m": args.line_power},
    }
    with open(os.path.join(args.out, "meta.json.tmp"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    os.replace(os.path.join(args.out, "meta.json.tmp"), os.path.join(args.out, "meta.json"))
    fh = f"{flame_height:.3g} m" if math.isfinite(flame_height) else "none"
    print(f"cfd_reduce.py: {len(grid)} samples: flame height {fh}, mean tip {tip.mean():.3g} m; the tip's spectrum "
          f"peaks at {tip_spectrum['peak_hz']} Hz, the emission's at {power_spectrum_['peak_hz']} Hz (resolution "
          f"{tip_spectrum['resolution_hz']:.3g} Hz)", file=sys.stderr)


def positive(name, allow_zero=False):
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--{name} '{text}': not a number")
        if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
            raise argparse.ArgumentTypeError(f"--{name} {text}: allowed a number {'>=' if allow_zero else '>'} 0")
        return v
    return parse


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("postprocessing")
    p.add_argument("--out", required=True)
    p.add_argument("--start", type=positive("start", True), required=True)
    p.add_argument("--end", type=positive("end"), required=True)
    p.add_argument("--dt", type=positive("dt"), default=0.005)
    p.add_argument("--ambient", type=positive("ambient"), default=300.0)
    p.add_argument("--presence", choices=["draper", "relative"], default="draper")
    p.add_argument("--flame-threshold", type=positive("flame-threshold"), default=0.05)
    p.add_argument("--min-frequency", type=positive("min-frequency"), default=1.0)
    p.add_argument("--diameter", type=positive("diameter"), default=None)
    p.add_argument("--heat-release", type=positive("heat-release"), default=None)
    p.add_argument("--line-power", type=positive("line-power"), default=None)
    p.add_argument("--case", default="")
    p.add_argument("--solver-seconds", type=positive("solver-seconds", True), default=None)
    args = p.parse_args()
    if args.flame_threshold > 1:
        fail(f"--flame-threshold {args.flame_threshold:g}: allowed (0, 1]")
    if args.start >= args.end:
        fail(f"--start {args.start:g} must be below --end {args.end:g}")
    window = args.end - args.start
    if window < 4.0 / args.min_frequency:
        fail(f"--start {args.start:g} to --end {args.end:g}: a window of {window:g} s, under four periods of "
             f"--min-frequency {args.min_frequency:g} Hz (at least {4.0 / args.min_frequency:g} s)")
    reduce(args)


if __name__ == "__main__":
    main()

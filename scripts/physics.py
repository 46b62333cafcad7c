#!/usr/bin/python3
"""Draws a fire's physics record (the folder `firelab physics --out DIR` writes) as DIR/physics.png: the flame's
intermittency by height with its 0.5 height, the centreline's mean temperature rise and upward velocity by
height, and the spectra of the attached flame's tip and of the emitted power with their peaks. From the CSVs and
meta.json alone; `firelab physics --plot` runs it.

Usage: scripts/physics.py DIR [--out PNG]"""
import argparse
import csv
import json
import math
import os
import sys


def read_csv(path):
    """The CSV's columns as lists of floats (an empty cell is NaN: no value there)."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return {}
    return {k: [float(r[k]) if r[k] != "" else math.nan for r in rows] for k in rows[0]}


def fail(message):
    """Bad input: the message on stderr, exit 2."""
    print(f"physics.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(folder):
    """The record's heights, spectrum and meta.json; exits 2 naming the file when one is missing or not a record."""
    meta_path = os.path.join(folder, "meta.json")
    try:
        with open(meta_path, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{meta_path}: {e}")
    if meta.get("record") != "physics":
        fail(f"{meta_path}: not a physics record (no \"record\": \"physics\")")
    try:
        return read_csv(os.path.join(folder, "physics.csv")), read_csv(os.path.join(folder, "spectrum.csv")), meta
    except OSError as e:
        fail(str(e))


def draw(heights, spectrum, meta, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = meta["summary"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    z = heights["z_m"]
    ax = axes[0]
    ax.plot(heights["intermittency"], z, color="tab:orange")
    if summary["flame_height_m"] is not None:
        ax.axhline(summary["flame_height_m"], color="k", ls="--", lw=0.8,
                   label=f"0.5 at {summary['flame_height_m']:.3g} m")
        ax.legend(loc="upper right")
    ax.axvline(0.5, color="0.6", lw=0.6)
    ax.set_xlabel("intermittency (fraction of frames with flame)")
    ax.set_ylabel("height above the base (m)")
    ax.set_title("flame presence")

    ax = axes[1]
    ax.plot(heights["centreline_velocity_ms"], z, color="tab:blue", label="upward velocity (m/s)")
    ax.set_xlabel("centreline velocity (m/s)", color="tab:blue")
    ax.set_ylabel("height above the base (m)")
    if meta.get("has_temperature"):
        twin = ax.twiny()
        twin.plot(heights["centreline_temperature_rise_k"], z, color="tab:red")
        twin.set_xlabel("centreline temperature rise (K)", color="tab:red")
    ax.set_title("centreline", pad=28 if meta.get("has_temperature") else 6)

    ax = axes[2]
    f = spectrum.get("frequency_hz", [])
    keep = [i for i, v in enumerate(f) if v > 0]
    for column, colour, label, key in (("tip_power", "tab:orange", "flame tip", "tip_spectrum"),
                                       ("emission_power", "tab:purple", "emitted power", "emission_spectrum")):
        if not keep:
            break
        values = [spectrum[column][i] for i in keep]
        top = max(values) or 1.0
        ax.loglog([f[i] for i in keep], [v / top for v in values], color=colour, lw=0.9,
                  label=f"{label}: peak {summary[key]['peak_hz']:.3g} Hz")
    resolution = summary["tip_spectrum"]["resolution_hz"]
    ax.set_xlabel(f"frequency (Hz), resolution {resolution:.3g} Hz" if resolution else "frequency (Hz)")
    ax.set_ylabel("power / its peak")
    ax.set_title("puffing")
    if keep:
        ax.legend(loc="lower left", fontsize=8)
    fig.suptitle(f"{meta['frames']} frames over {meta['window_s']:.3g} s at {meta['dt_s']:.3g} s", fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--out", help="the PNG (default DIR/physics.png)")
    args = parser.parse_args(argv)
    heights, spectrum, meta = load(args.folder)
    png = args.out or os.path.join(args.folder, "physics.png")
    draw(heights, spectrum, meta, png)
    print(f"physics.py: wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

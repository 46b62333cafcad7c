#!/usr/bin/python3
"""Writes the small probe record tests/physics/cfd_reduce_test.cpp reduces (tests/physics/data/cfd_probes/): a
flame of known behaviour in OpenFOAM's probes format. At heights 0.1, 0.3, ..., 0.9 m, on the axis and across it
(x = -0.1, 0, 0.1 m), the gas is at 1500 K below the flame's tip and 300 K above it; the tip moves as
h(t) = 0.55 + 0.3 sin(2 pi 2.5 t) m, so the flame puffs at 2.5 Hz and is present half the time near 0.55 m. The
upward velocity is 2 z m/s. Sampled every 0.02 s from 0 to 4.2 s, split in two time folders (0 and 2.1, as a
restarted run writes them, the restart repeating its first time). Run it to remake the record."""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HEIGHTS = [0.1, 0.3, 0.5, 0.7, 0.9]
XS = [-0.1, 0.0, 0.1]


def tip(t):
    return 0.55 + 0.3 * math.sin(2 * math.pi * 2.5 * t)


def temperature(z, t):
    return 1500.0 if z < tip(t) else 300.0


def write(folder, field, points, rows):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, field), "w", encoding="utf-8") as f:
        for i, (x, y) in enumerate(points):
            f.write(f"# Probe {i} ({x:g} {y:g} 0)\n")
        f.write("#       Probe" + "".join(f"{i:>14}" for i in range(len(points))) + "\n#        Time\n")
        for t, values in rows:
            f.write(f"{t:>13.6g}" + "".join(f"{v:>14}" for v in values) + "\n")


def main():
    centre = [(0.0, z) for z in HEIGHTS]
    section = [(x, z) for z in HEIGHTS for x in XS]
    for start, first, last in (("0", 0, 105), ("2.1", 105, 210)):
        times = [round(0.02 * k, 6) for k in range(first, last + 1)]
        base = os.path.join(HERE, "cfd_probes")
        write(os.path.join(base, "centreline", start), "T", centre,
              [(t, [f"{temperature(z, t):g}" for _, z in centre]) for t in times])
        write(os.path.join(base, "centreline", start), "U", centre,
              [(t, [f"(0 {2 * z:g} 0)" for _, z in centre]) for t in times])
        write(os.path.join(base, "section", start), "T", section,
              [(t, [f"{temperature(z, t):g}" for _, z in section]) for t in times])


if __name__ == "__main__":
    main()

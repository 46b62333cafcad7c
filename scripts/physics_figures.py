#!/usr/bin/python3
"""Draws results/physics/ from its records alone (the folders `firelab physics` and scripts/cfd_reduce.py write):
- flame_height.png: each fire's measured flame height (intermittency 0.5) against Heskestad's at its size and power;
- centreline.png: the centreline's mean temperature rise and velocity against z/Q^(2/5), beside McCaffrey's regimes;
- puffing.png: the tip's and the emitted power's spectral peaks against the diameter on log axes, with Cetegen &
  Ahmed's f = 1.5 D^(-1/2) line;
- table.md: a row per fire, each statistic beside its correlation with the error.
The correlations' values come from firelab's records (meta.json's `correlations`, physics.csv's McCaffrey columns),
never from formulas written again here; a CFD record is set beside the firelab record of the same diameter and
power (results/physics/cfd-size).

Usage: scripts/physics_figures.py [DIR]   (default results/physics)"""
import csv
import glob
import json
import math
import os
import sys


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) if r[k] != "" else math.nan for r in rows] for k in (rows[0] if rows else {})}


def load(folder, label):
    with open(os.path.join(folder, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    return {"label": label, "folder": folder, "meta": meta, "heights": read_csv(os.path.join(folder, "physics.csv")),
            "cfd": meta.get("source") == "cfd"}


def fires(root):
    """Every record under root, labelled: the named fires, each run of an experiment, the CFD."""
    out = []
    for name, label in (("paper", "paper's default"), ("campfire", "campfire")):
        if os.path.exists(os.path.join(root, name, "meta.json")):
            out.append(load(os.path.join(root, name), label))
    for folder in sorted(glob.glob(os.path.join(root, "pools", "run-*"))):
        r = load(folder, "")
        c = r["meta"]["correlations"]
        r["label"] = f"pool {c['diameter_m']:g} m, {c['heat_release_kw']:g} kW"
        out.append(r)
    for name, label in (("cfd-size", "firelab at the CFD's size"), ("cfd", "")):
        if os.path.exists(os.path.join(root, name, "meta.json")):
            r = load(os.path.join(root, name), label)
            r["label"] = r["label"] or f"fireFoam {r['meta'].get('case') or 'CFD'}"
            out.append(r)
    for r in out:  # a fire with no power (none given, no flame height to infer it from) cannot be placed
        if not r["cfd"] and r["meta"]["correlations"]["heat_release_kw"] is None:
            sys.exit(f"physics_figures.py: {r['folder']}: no heat release (none given and no flame height to infer "
                     "it from): remove it or measure it with a taller --top")
        if r["cfd"] and None in (r["meta"]["fire"]["diameter_m"], r["meta"]["fire"]["heat_release_kw"]):
            sys.exit(f"physics_figures.py: {r['folder']}: a CFD record needs its diameter and power "
                     "(cfd_reduce.py --diameter, --heat-release)")
    by_size = {}
    for r in out:
        if not r["cfd"]:
            c = r["meta"]["correlations"]
            by_size[(round(c["diameter_m"], 4), round(c["heat_release_kw"], 3))] = c
    for r in out:  # a CFD record takes the correlations of the firelab record of its size and power
        if r["cfd"]:
            fire = r["meta"]["fire"]
            r["meta"]["correlations"] = by_size.get((round(fire["diameter_m"], 4), round(fire["heat_release_kw"], 3)))
            if r["meta"]["correlations"] is None:
                sys.exit(f"physics_figures.py: {r['folder']}: no firelab record of its size and power to take the "
                         "correlations from (results/physics/cfd-size)")
    return out


def summary(r):
    s, c = r["meta"]["summary"], r["meta"]["correlations"]

    def err(measured, expected):
        return measured / expected - 1.0 if measured is not None and expected else None
    given = c["heat_release_from"] == "--heat-release" or r["cfd"]
    return {"D": c["diameter_m"], "Q": c["heat_release_kw"], "given": given,
            "L": s["flame_height_m"], "L_h": c["heskestad_flame_height_m"],
            "L_err": err(s["flame_height_m"], c["heskestad_flame_height_m"]) if given else None,
            # a peak of 0 Hz is none: the series did not vary above the lowest frequency sought
            "tip": s["tip_spectrum"]["peak_hz"] or None, "power": s["emission_spectrum"]["peak_hz"] or None,
            "res": s["tip_spectrum"]["resolution_hz"], "f": c["cetegen_ahmed_puffing_hz"],
            "tip_err": err(s["tip_spectrum"]["peak_hz"] or None, c["cetegen_ahmed_puffing_hz"]),
            "power_err": err(s["emission_spectrum"]["peak_hz"] or None, c["cetegen_ahmed_puffing_hz"])}


def fmt(v, pct=False):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "–"
    return f"{100 * v:+.0f} %" if pct else f"{v:.3g}"


def table(records):
    lines = ["| fire | D (m) | Q (kW) | flame height (m) | Heskestad (m) | error | tip peak (Hz) | power peak (Hz) "
             "| resolution (Hz) | Cetegen & Ahmed (Hz) | tip error | power error |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        s = summary(r)
        q = f"{s['Q']:.5g}" + ("" if s["given"] else " (inferred)")
        lines.append(f"| {r['label']} | {fmt(s['D'])} | {q} | {fmt(s['L'])} | {fmt(s['L_h'])} | "
                     f"{fmt(s['L_err'], True)} | {fmt(s['tip'])} | {fmt(s['power'])} | {fmt(s['res'])} | "
                     f"{fmt(s['f'])} | {fmt(s['tip_err'], True)} | {fmt(s['power_err'], True)} |")
    return "\n".join(lines) + "\n"


def style(r):
    if r["cfd"]:
        return {"color": "k", "marker": "s"}
    if r["label"].startswith("pool"):
        return {"color": "tab:orange", "marker": "o"}
    if r["label"].startswith("firelab at"):
        return {"color": "tab:purple", "marker": "D"}
    return {"color": "tab:blue" if "paper" in r["label"] else "tab:green", "marker": "^"}


def draw_flame_height(records, plt, png):
    fig, ax = plt.subplots(figsize=(6, 5))
    top = 0.0
    seen = set()
    for r in records:
        s = summary(r)
        if not s["given"]:
            continue  # an inferred power makes the height Heskestad's by construction
        st = style(r)
        if s["L"] is None:
            z = r["heights"]["z_m"][-1]
            ax.annotate("", xy=(s["L_h"], z * 1.4), xytext=(s["L_h"], z), arrowprops={"arrowstyle": "->"})
            ax.plot(s["L_h"], z, ls="none", mfc="none", **st, label=f"{r['label']} (above its domain, {z:g} m)")
            top = max(top, z * 1.4)
            continue
        pool = r["label"].startswith("pool")
        ax.plot(s["L_h"], s["L"], ls="none", **st, label=None if pool and seen else
                ("parameterised pools" if pool else r["label"]))
        if pool:
            seen.add("pool")
            ax.annotate(r["label"][5:], (s["L_h"], s["L"]), textcoords="offset points", xytext=(5, -10), fontsize=7)
        top = max(top, s["L"], s["L_h"])
    ax.plot([0.1, top * 1.1], [0.1, top * 1.1], "k--", lw=0.8, label="measured = Heskestad")
    ax.set_xscale("log"), ax.set_yscale("log")
    ax.set_xlabel("Heskestad's flame height 0.235 Q^(2/5) - 1.02 D (m)")
    ax.set_ylabel("measured flame height, intermittency 0.5 (m)")
    ax.set_title("Flame height (the 1 m, 1000 kW pool is the calibration point)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def draw_centreline(records, plt, png):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    curve = {}
    for r in records:
        if r["cfd"]:
            continue
        h, q = r["heights"], r["meta"]["correlations"]["heat_release_kw"]
        for eta, dt, u in zip(h["z_scaled"], h["mccaffrey_temperature_rise_k"], h["mccaffrey_velocity_ms"]):
            if math.isfinite(eta) and math.isfinite(dt):
                curve[round(eta, 5)] = (dt, u / q ** 0.2)
    etas = sorted(curve)
    axes[0].plot(etas, [curve[e][0] for e in etas], "k-", lw=2, alpha=0.5, label="McCaffrey 1979")
    axes[1].plot(etas, [curve[e][1] for e in etas], "k-", lw=2, alpha=0.5, label="McCaffrey 1979")
    for r in records:
        h, q = r["heights"], r["meta"]["correlations"]["heat_release_kw"]
        st = style(r)
        ok = [i for i, w in enumerate(h["centreline_weight"]) if w > 0 and math.isfinite(h["z_scaled"][i])]
        eta = [h["z_scaled"][i] for i in ok]
        axes[0].plot(eta, [h["centreline_temperature_rise_k"][i] for i in ok], color=st["color"], lw=1,
                     alpha=0.8 if r["cfd"] else 0.5, label=r["label"])
        axes[1].plot(eta, [h["centreline_velocity_ms"][i] / q ** 0.2 for i in ok], color=st["color"], lw=1,
                     alpha=0.8 if r["cfd"] else 0.5, label=r["label"])
    for ax in axes:
        ax.set_xscale("log"), ax.set_yscale("log")
        ax.set_xlabel("z / Q^(2/5) (m kW^-2/5)")
        for x in (0.08, 0.2):
            ax.axvline(x, color="grey", lw=0.6, ls=":")
    axes[0].set_ylabel("centreline mean temperature rise (K)")
    axes[1].set_ylabel("centreline mean velocity / Q^(1/5) (m s^-1 kW^-1/5)")
    axes[0].set_title("firelab: emission-weighted; CFD: time mean at the point")
    axes[1].set_title("firelab: parcel-weighted; CFD: time mean at the point")
    axes[1].legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def draw_puffing(records, plt, png):
    fig, ax = plt.subplots(figsize=(10, 5))
    line = sorted({(round(summary(r)["D"], 5), summary(r)["f"]) for r in records})
    d0, f0 = line[0]
    ds = [0.05 * 10 ** (k / 20) for k in range(0, 41)]
    ax.plot(ds, [f0 * (d / d0) ** -0.5 for d in ds], "k--", lw=1, label="Cetegen & Ahmed, f = 1.5 D^(-1/2)")
    seen = set()
    for r in records:
        s, st = summary(r), style(r)
        name = "parameterised pools" if r["label"].startswith("pool") else r["label"]
        for value, kind, shift, fill in ((s["tip"], "tip", 1.0, {}), (s["power"], "emitted power", 1.04, {"mfc": "none"})):
            if not value:
                continue
            label = f"{name}: {kind}"
            ax.errorbar(s["D"] * shift, value, yerr=s["res"], ls="none", **st, **fill,
                        label=None if label in seen else label)
            seen.add(label)
    ax.set_xscale("log"), ax.set_yscale("log")
    ax.set_xlabel("pool diameter D (m)")
    ax.set_ylabel("spectral peak (Hz)")
    ax.set_title("Puffing: each spectrum's peak, ± its resolution")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "results/physics"
    records = fires(root)
    if not records:
        sys.exit(f"physics_figures.py: {root}: no physics records")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    draw_flame_height(records, plt, os.path.join(root, "flame_height.png"))
    draw_centreline(records, plt, os.path.join(root, "centreline.png"))
    draw_puffing(records, plt, os.path.join(root, "puffing.png"))
    with open(os.path.join(root, "table.md"), "w", encoding="utf-8") as f:
        f.write(table(records))
    print(f"physics_figures.py: wrote {root}/flame_height.png, centreline.png, puffing.png, table.md", file=sys.stderr)


if __name__ == "__main__":
    main()

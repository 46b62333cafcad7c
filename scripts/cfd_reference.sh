#!/usr/bin/env bash
# The CFD reference of issue #33: OpenFOAM's fireFoam LES pool-fire tutorial, probed as firelab probes its own
# fires (src/physics/fire_probe.h) and reduced to the same physics.csv and spectrum.csv (scripts/cfd_reduce.py).
#
#   scripts/cfd_reference.sh [--end-time S] [--start S] [--probe-top M] [--work DIR] [--out DIR] [--continue]
#
# It copies Debian's tutorial combustion/fireFoam/LES/smallPoolFire2D (package openfoam-examples) into --work,
# changes only the end time and adds probe sets: the centreline (T and U every 0.02 m up the axis to --probe-top,
# default 0.99 m, inside the case's 1 m tall domain; every time step) and the section (T on a grid across the plume, 21 points 0.025 m apart at each of those heights, every
# 0.005 s), runs blockMesh, topoSet, createPatch and fireFoam as the tutorial's Allrun does, checks that the
# solver reached its end time without a fatal error or a non-finite value, and only then reduces the probes
# from --start to the end (scripts/cfd_reduce.py). --out gets physics.csv, spectrum.csv, meta.json and the
# case's settings (system/, constant/ and 0/ as text), never the fields. --continue carries on an interrupted
# case in --work from its latest written time (the probes of every leg are read, a later leg's from its start).
# Not part of CI: the 2D case takes about an hour and a half on two cores.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"

end_time=12
start=2
work="${TMPDIR:-/tmp}/firelab-cfd"
out="$root/results/physics/cfd"
resume=0
probe_top=0.99
need_value() { [[ $# -ge 2 && -n "$2" ]] || { echo "cfd_reference.sh: $1 needs a value" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
    case "$1" in
    --end-time) need_value "$@"; end_time="$2"; shift 2 ;;
    --start) need_value "$@"; start="$2"; shift 2 ;;
    --work) need_value "$@"; work="$2"; shift 2 ;;
    --out) need_value "$@"; out="$2"; shift 2 ;;
    --probe-top) need_value "$@"; probe_top="$2"; shift 2 ;;
    --continue) resume=1; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "cfd_reference.sh: unknown option '$1' (allowed: --end-time S, --start S, --probe-top M, --work DIR, --out DIR, --continue)" >&2; exit 2 ;;
    esac
done
positive='^[0-9]+([.][0-9]+)?$'
[[ "$end_time" =~ $positive ]] || { echo "cfd_reference.sh: --end-time '$end_time': a number of seconds > 0" >&2; exit 2; }
[[ "$start" =~ $positive ]] || { echo "cfd_reference.sh: --start '$start': a number of seconds >= 0" >&2; exit 2; }
awk -v s="$start" -v e="$end_time" 'BEGIN { exit !(e > 0 && s < e) }' ||
    { echo "cfd_reference.sh: --start $start must be below --end-time $end_time" >&2; exit 2; }
# The case's domain is x in [-0.5, 0.5] m and y in [0, 1] m (its blockMeshDict): every probe must lie inside it.
[[ "$probe_top" =~ $positive ]] && awk -v t="$probe_top" 'BEGIN { exit !(t >= 0.01 && t < 1) }' ||
    { echo "cfd_reference.sh: --probe-top '$probe_top': the probes must lie inside the case's domain, 0.01 to below 1 m" >&2; exit 2; }

mkdir -p "$work" "$(dirname "$out")"
work="$(cd "$work" && pwd)"  # absolute: the script runs the case from inside it
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

tutorial=/usr/share/doc/openfoam-examples/examples/combustion/fireFoam/LES/smallPoolFire2D
foam_bashrc=/usr/share/openfoam/etc/bashrc
need=()
[[ -f "$foam_bashrc" ]] || need+=(openfoam)
[[ -d "$tutorial" ]] || need+=(openfoam-examples)
if [[ ${#need[@]} -gt 0 ]]; then
    sudo_cmd=()
    [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get install -y "${need[@]}"
fi

case_dir="$work/smallPoolFire2D"
if [[ $resume -eq 0 ]]; then
    rm -rf "$case_dir"
    mkdir -p "$work"
    cp -r "$tutorial" "$case_dir"
    find "$case_dir" -name '*.gz' -exec gunzip -f {} +
    chmod -R u+w "$case_dir"
elif [[ ! -f "$case_dir/system/controlDict" ]]; then
    echo "cfd_reference.sh: --continue: no case in $case_dir to continue" >&2
    exit 2
fi

# The end time, and the probes (the reducer resamples them at a fixed step). They are the controlDict's last
# block, replaced on --continue.
control="$case_dir/system/controlDict"
sed -i '/^functions$/,$d' "$control"
sed -i "s/^endTime .*/endTime         $end_time;/" "$control"
[[ $resume -eq 0 ]] || sed -i "s/^startFrom .*/startFrom       latestTime;/" "$control"
heights=$(awk -v t="$probe_top" 'BEGIN { for (y = 0.01; y <= t + 1e-9; y += 0.02) printf "%.3f ", y }')
centreline=""
for y in $heights; do centreline+="(0 $y 0) "; done
section=""
for y in $heights; do
    for i in $(seq -10 10); do section+="($(awk -v i="$i" 'BEGIN { printf "%.3f", 0.025 * i }') $y 0) "; done
done
cat >>"$control" <<EOF
functions
{
    centreline
    {
        type            probes;
        libs            ("libsampling.so");
        writeControl    timeStep;
        writeInterval   1;
        fields          (T U);
        probeLocations  ($centreline);
    }
    section
    {
        type            probes;
        libs            ("libsampling.so");
        writeControl    runTime;
        writeInterval   0.005;
        fields          (T);
        probeLocations  ($section);
    }
}
EOF

set +u
# shellcheck disable=SC1090
source "$foam_bashrc" 2>/dev/null  # Debian's bashrc looks for tools the package does not ship; harmless
set -u
cd "$case_dir"
log() { echo "cfd_reference.sh: $*" >&2; }
began=$(date +%s)
log "case $case_dir, end time $end_time s, started $(date -u +%FT%TZ)"
solver_log=log.fireFoam
if [[ $resume -eq 0 ]]; then
    for step in blockMesh topoSet "createPatch -overwrite"; do
        $step >"log.${step%% *}" 2>&1 || { log "$step failed: $case_dir/log.${step%% *}"; exit 1; }
    done
    cp 0/ph_rgh.orig 0/ph_rgh
else
    solver_log="log.fireFoam.from-$(ls -d [0-9]* | sort -g | tail -1)"
fi
fireFoam >"$solver_log" 2>&1 || true
took=$(($(date +%s) - began))
log "fireFoam stopped after $took s"

# Converged: the log ends at the end time, with no fatal error and no non-finite residual or value.
last_time=$(grep -E '^Time = ' "$solver_log" | tail -1 | awk '{print $3}' || true)
if grep -qiE 'FOAM FATAL|printStack|Floating point exception \(core|\b-?nan\b' "$solver_log" ||
    ! awk -v t="${last_time:-0}" -v e="$end_time" 'BEGIN { exit !(t + 1e-6 >= e) }'; then
    log "the case did not converge (last time ${last_time:-none} of $end_time s; see $case_dir/$solver_log): not reduced"
    exit 1
fi

# Reduced into a new folder beside --out, which replaces --out whole only when the reducer succeeds.
staging="$out.reducing"
rm -rf "$staging"
mkdir -p "$staging/case"
for d in system constant 0; do
    mkdir -p "$staging/case/$d"
    find "$d" -maxdepth 1 -type f -size -64k -exec cp {} "$staging/case/$d/" \;
done
# The fire's size and power, from the tutorial's settings: a slot burner of 16 faces of 1/150 m
# (topoSetDict's box, |x| < 0.0529 m), pure methane at 0.05 m/s and 300 K (0/U, 0/T, 0/CH4), whose density is
# p M / (R T) = 101325 x 0.01604 / (8.314 x 300) = 0.652 kg/m^3 and heat of combustion 50.0 MJ/kg: 1629 kW/m^2
# over the slot, 173.8 kW per metre of its depth. The case is planar (one cell deep, empty front and back): a
# line fire. Set beside the correlations of round pools as the square of the slot's width, W x W, whose power is
# 1629 W^2 = 18.5 kW and whose diameter of equal area is 2 W / sqrt(pi) = 0.120 m.
width=$(awk 'BEGIN { printf "%.6f", 16 / 150 }')
flux=$(awk 'BEGIN { printf "%.6f", 101325 * 0.01604 / (8.314 * 300) * 0.05 * 50000 }')
diameter=$(awk -v w="$width" 'BEGIN { printf "%.6f", 2 * w / sqrt(3.14159265358979) }')
power=$(awk -v w="$width" -v q="$flux" 'BEGIN { printf "%.6f", q * w * w }')
/usr/bin/python3 "$here/cfd_reduce.py" "$case_dir/postProcessing" --out "$staging" --start "$start" \
    --end "$end_time" --ambient 300 --solver-seconds "$took" --case smallPoolFire2D \
    --diameter "$diameter" --heat-release "$power" --line-power "$(awk -v w="$width" -v q="$flux" 'BEGIN { printf "%.6f", q * w }')"
rm -rf "$out"
mv "$staging" "$out"
log "reduced into $out"

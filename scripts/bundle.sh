#!/usr/bin/env bash
# Makes a relocatable folder that runs firelab on a headless Linux server (e.g. an NVIDIA GPU through
# EGL) without installing anything there:  scripts/bundle.sh [OUT_DIR]   (default: .bundle/firelab)
#
#   OUT/firelab         launcher: sets LD_LIBRARY_PATH and SDL_VIDEODRIVER, then runs bin/firelab
#   OUT/bin/firelab     the binary; it finds shaders/ and textures/ in bin/.. by itself
#   OUT/lib/            the shared libraries it needs, except glibc and the GL/EGL/driver stack,
#                       which must be the target machine's own (they match its kernel driver)
#   OUT/lib/compat/     libstdc++ and libgcc_s, used only when the target's are older
#   OUT/shaders/ textures/ effects/ experiments/ scripts/*.py slurm_sweep.sh README.txt
#
# Environment: FIRELAB_BUILD_DIR (default build/), FIRELAB_NO_BUILD=1 to package the existing binary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/.bundle/firelab}"

if [ "${FIRELAB_NO_BUILD:-0}" = 1 ]; then
  FIRELAB_BUILD_DIR="${FIRELAB_BUILD_DIR:-$ROOT/build}"
else
  # shellcheck source-path=SCRIPTDIR source=setup.sh
  source "$ROOT/scripts/setup.sh"  # installs missing packages, builds into $FIRELAB_BUILD_DIR
fi
EXE="$FIRELAB_BUILD_DIR/src/firelab"
[ -x "$EXE" ] || { echo "bundle.sh: $EXE not found (build failed?)" >&2; exit 1; }

# Refuse to wipe anything that is not a previous bundle (a typo in OUT_DIR must not cost a folder).
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ] && [ ! -f "$OUT/.firelab-bundle" ]; then
  echo "bundle.sh: $OUT exists and is not a firelab bundle; choose another OUT_DIR" >&2
  exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/lib/compat"
touch "$OUT/.firelab-bundle"
cp "$EXE" "$OUT/bin/firelab"

# Libraries that must come from the target: glibc (tied to its ld.so), and the GL dispatch and
# driver libraries (libglvnd, Mesa, NVIDIA), which must match the target's GPU and kernel module.
skip_lib() {
  case "$1" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|linux-vdso*) return 0 ;;
    libGL*|libEGL*|libOpenGL*|libnvidia*|libgbm*|libdrm*) return 0 ;;  # libGL* covers GLX, GLdispatch, GLES
  esac
  return 1
}

# ldd lists the whole dependency closure (libraries of libraries too), as "name => path (addr)".
bundled=()
while read -r name _ path _; do
  skip_lib "$name" && continue
  [ "$path" = "not" ] && { echo "bundle.sh: $name not found by ldd; the bundle would not run" >&2; exit 1; }
  [ -f "$path" ] || continue
  case "$name" in
    libstdc++.so*|libgcc_s.so*) dest="$OUT/lib/compat" ;;
    *) dest="$OUT/lib" ;;
  esac
  cp -L "$path" "$dest/$name"  # -L: the real file under the soname the loader asks for
  bundled+=("$dest/$name")
done < <(ldd "$EXE" | grep '=>')

# Newest symbol versions in the binary and the bundled libraries. GLIBC: what they require (the launcher
# checks the target's glibc: a clear message beats a loader error). GLIBCXX: as the bundled libstdc++
# is included, the newest it provides, so the launcher uses whichever libstdc++ is newer.
max_version() {  # max_version PREFIX FILE... -> e.g. GLIBCXX_3.4.30
  local prefix="$1"; shift
  { objdump -T "$@" 2>/dev/null || true; } | grep -o "${prefix}_[0-9][0-9.]*" | sort -uV | tail -1 || true
}
GLIBC_NEEDED="$(max_version GLIBC "$EXE" "${bundled[@]}")"
GLIBCXX_NEEDED="$(max_version GLIBCXX "$EXE" "${bundled[@]}")"

cp -r "$ROOT/shaders" "$ROOT/textures" "$ROOT/effects" "$OUT/"  # effects/: --effect campfire, effects.toml...
mkdir -p "$OUT/experiments"
cp -r "$ROOT/experiments/." "$OUT/experiments/" 2>/dev/null || true
# The Python scripts where firelab looks for them (DATA/scripts/): sweep and merge plot and write the findings
# through them, `firelab stability` runs stability.py; they share firelab_runs.py, so all of them go.
mkdir -p "$OUT/scripts"
cp "$ROOT"/scripts/*.py "$OUT/scripts/"
[ -f "$ROOT/scripts/slurm_sweep.sh" ] && cp "$ROOT/scripts/slurm_sweep.sh" "$OUT/slurm_sweep.sh"
# The scripts firelab runs (sweep and merge: plot.py, which runs report.py, and findings.py; stability.py;
# physics.py) must import from the bundle alone: a module they share left out fails every plot there.
if command -v python3 >/dev/null; then
  python3 -I -c 'import sys; sys.path.insert(0, sys.argv[1]); import plot, report, findings, stability, physics' \
    "$OUT/scripts" || { echo "bundle.sh: a script in $OUT/scripts imports a module the bundle lacks" >&2; exit 1; }
fi

# The launcher. Quoted heredoc: nothing expands now; the two versions are filled in below.
cat > "$OUT/firelab" <<'EOF'
#!/usr/bin/env bash
# firelab bundle launcher: runs bin/firelab with the bundled libraries, from any working directory.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
GLIBC_NEEDED="@GLIBC_NEEDED@"
GLIBCXX_NEEDED="@GLIBCXX_NEEDED@"

# glibc cannot be bundled; say so plainly when the target's is older than the build machine's.
have="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print "GLIBC_" $2}' || true)"
if [ -n "$have" ] && [ -n "$GLIBC_NEEDED" ] &&
   [ "$(printf '%s\n' "$have" "$GLIBC_NEEDED" | sort -V | head -1)" != "$GLIBC_NEEDED" ]; then
  echo "firelab: this bundle needs glibc ${GLIBC_NEEDED#GLIBC_} or newer; this machine has ${have#GLIBC_}" >&2
  exit 1
fi

# The newer libstdc++/libgcc_s wins: the bundled one when the system's is older (or missing), else the
# system's, since a GL driver built against a newer one (Mesa's LLVM) would fail to load with ours.
libpath="$here/lib"
sys_cxx="$( (ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null) | awk '$1 == "libstdc++.so.6" && $2 != "(libc6)" {print $NF; exit}' || true)"  # not the 32-bit one
if [ -z "$sys_cxx" ] || ! grep -q "$GLIBCXX_NEEDED" "$sys_cxx" 2>/dev/null; then
  libpath="$libpath:$here/lib/compat"
fi
export LD_LIBRARY_PATH="$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# No display: SDL's offscreen driver makes an EGL context (the GPU vendor's EGL, or Mesa llvmpipe).
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-offscreen}"
fi
exec "$here/bin/firelab" "$@"
EOF
sed -i -e "s/@GLIBC_NEEDED@/$GLIBC_NEEDED/" -e "s/@GLIBCXX_NEEDED@/$GLIBCXX_NEEDED/" "$OUT/firelab"
chmod +x "$OUT/firelab" "$OUT/bin/firelab" "$OUT"/scripts/*.py

cat > "$OUT/README.txt" <<EOF
firelab bundle (built $(date -u +%Y-%m-%dT%H:%MZ) from commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown))
================================================================================================

A relocatable copy of firelab: copy this folder anywhere (scp -r, rsync, tar) and run it from
any directory. Nothing needs installing, except what must match the machine's GPU (below).

Run
  ./firelab list                      the rendering strategies
  ./firelab info                      the GL context it gets: check GL_RENDERER is your GPU, not llvmpipe
  ./firelab sweep experiments/paper.toml --width 1920 --height 1080 --out results-gpu/paper
  ./firelab --help

  With no DISPLAY the launcher sets SDL_VIDEODRIVER=offscreen: SDL makes an EGL context without a
  window or X server.

  Plots: sweep and merge draw them with scripts/plot.py through /usr/bin/python3 (needs matplotlib;
  without it you get a warning and the CSV). Elsewhere: python3 scripts/plot.py results-gpu/paper/runs.csv

  Slurm cluster: slurm_sweep.sh, run from this folder outside a job, submits one array task per shard
  of a sweep with the resources given (./slurm_sweep.sh --help lists them); each task runs
  firelab sweep --shard K/N --resume into OUT/shard-K. On GPU nodes, and on CPU-only ones (llvmpipe):
    ./slurm_sweep.sh --experiment experiments/paper.toml --shards 8 --gpus 1 --cpus 8 --mem 16G --time 02:00:00 --out results/paper -- --width 1920 --height 1080
    ./slurm_sweep.sh --experiment experiments/quick.toml --shards 4 --gpus 0 --cpus 4 --mem 4G --time 1:00:00 --out results/quick
    ./firelab merge results/paper/shard-* --out results/paper/merged     (once every task has finished)
  A task that failed or ran out of time: the same command with --resubmit K (e.g. 3, or 2,5); it
  continues its shard, measuring only the runs the folder lacks. Logs: OUT/slurm-JOB_K.log.

What the target machine must provide
  - Linux x86-64 with glibc ${GLIBC_NEEDED#GLIBC_} or newer (the launcher checks).
  - An EGL driver for its GPU, with the GL dispatch libraries (libEGL.so.1, libGL/libOpenGL):
      NVIDIA: the driver's libnvidia-egl* / libEGL_nvidia.so.0 and glvnd (libglvnd0, libegl1), as a
              normal driver install provides. glvnd finds the vendor through a JSON file in
              /usr/share/glvnd/egl_vendor.d/ (10_nvidia.json). If it is elsewhere (containers,
              user-space driver installs), point to it:
                export __EGL_VENDOR_LIBRARY_FILENAMES=/path/to/10_nvidia.json
      No GPU: Mesa (libegl-mesa0, libgl1-mesa-dri) gives llvmpipe, a software renderer.
  - Several GPUs: SDL's offscreen driver picks EGL device 0; SDL_HINT_EGL_DEVICE=N selects another.

Troubleshooting
  - "no GL context" / EGL errors: run ./firelab info with EGL_LOG_LEVEL=debug (Mesa) and check that
    the vendor JSON above exists and that /dev/nvidia* (or /dev/dri) is accessible to you.
  - "version ... not found" while loading a driver library: a library in lib/ is older than the
    one that driver expects; delete it from lib/ so the system's copy is used.

Layout: bin/firelab (binary), lib/ (bundled libraries; lib/compat holds libstdc++/libgcc_s, used only
when the system's lacks ${GLIBCXX_NEEDED:-their version}), shaders/, textures/, effects/, experiments/,
scripts/*.py (plots, report, findings, stability, physics), slurm_sweep.sh, firelab (launcher).
EOF

echo "bundle: $OUT ($(find "$OUT/lib" -name '*.so*' | wc -l) libraries; needs ${GLIBC_NEEDED:-?}, ${GLIBCXX_NEEDED:-?})"
du -sh "$OUT" | awk '{print "bundle size: " $1}'

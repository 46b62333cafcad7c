#!/usr/bin/env bash
# Spreads one firelab sweep over a Slurm cluster: array task K of N runs shard K/N of the experiment
# (firelab sweep --shard K/N) into OUT/shard-K. Copy a bundle (scripts/bundle.sh) to the cluster and run
# this script there, outside a job: it is the submitter, and calls sbatch with the resources asked for.
# Inside an array task (SLURM_ARRAY_TASK_ID set) it is the job body.
#
#   ./slurm_sweep.sh --experiment experiments/paper.toml --shards 8 --gpus 1 --cpus 8 --mem 16G \
#       --time 02:00:00 --out results/paper -- --width 1920 --height 1080
#   ./slurm_sweep.sh --experiment experiments/quick.toml --shards 4 --gpus 0 --cpus 4 --mem 4G   # CPU only
#   ./firelab merge results/paper/shard-* --out results/paper/merged      # once every task has finished
#   ./slurm_sweep.sh ...the same options... --resubmit 3                  # a task that failed or ran out of time
#
# Submitter options (each also read from the environment variable in brackets; a flag wins):
#   --experiment FILE  experiment file [EXPERIMENT; experiments/paper.toml]; a relative path that is not
#                      found here is looked up in the bundle
#   --shards N         array tasks, one shard each, N >= 1 [SHARDS; 8]
#   --gpus G           0 (CPU only: llvmpipe, no --gres) or 1 (--gres=gpu:1) per task [GPUS; 1]
#   --cpus C           CPUs per task, C >= 1 [CPUS; 8]
#   --mem M            memory per task, e.g. 4G, 16000M [MEM; 16G]
#   --time T           time limit per task: MM, HH:MM:SS, D-HH, D-HH:MM:SS... [TIME_LIMIT; 02:00:00]
#   --partition P      Slurm partition [PARTITION; the cluster's default]
#   --out DIR          results folder, shard K in DIR/shard-K, logs in DIR/slurm-JOB_K.log
#                      [OUT; results/NAME under the current folder]
#   --bundle DIR       the bundle folder holding ./firelab [BUNDLE; this script's folder, else the current one]
#   --resubmit LIST    submit only these tasks of the N (e.g. 3, 2,5 or 1-3); their folders continue with
#                      --resume, so give the same --shards, --experiment and sweep flags as the first time
#   --dry-run          print the sbatch command instead of running it
#   -- ARGS...         more firelab sweep flags, e.g. -- --width 1920 --height 1080 [SWEEP_ARGS, split on
#                      blanks; an argument cannot hold a blank]
# sbatch reads its own SBATCH_* variables too (SBATCH_ACCOUNT, SBATCH_QOS...). A bad value exits 2, naming
# the option, the value and what is allowed.
#
# The body (an array task) takes N from SHARDS in its environment (the submitter passes it; by hand:
# SHARDS=8 EXPERIMENT=... OUT=... sbatch --array=3 --gres=gpu:1 slurm_sweep.sh), since Slurm's own array
# size is that of the resubmitted array, not the sweep's; without SHARDS, from the shard folder's
# meta.json. It refuses a SHARDS that disagrees with that meta.json, prints the host and GPU, fails fast without GL (firelab info) and execs
#   firelab sweep EXPERIMENT --shard K/N --out OUT/shard-K --resume SWEEP_ARGS
# so a requeued or resubmitted task skips the runs its folder already holds, and Slurm's SIGTERM (time
# limit, preemption) reaches firelab, which drops the run in progress and leaves whole rows only.
#SBATCH --job-name=firelab-sweep
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail

me="slurm_sweep.sh"

# --- the job body: one array task, one shard --------------------------------------------------------------
run_task() {
  local k="$SLURM_ARRAY_TASK_ID"
  local bundle="${BUNDLE:-${SLURM_SUBMIT_DIR:-$PWD}}"
  local experiment="${EXPERIMENT:-experiments/paper.toml}"
  local out="${OUT:-${SLURM_SUBMIT_DIR:-$PWD}/results/$(basename "$experiment" .toml)}"
  local n="${SHARDS:-}"
  local extra=()
  read -ra extra <<< "${SWEEP_ARGS:-}"

  local folder="$out/shard-$k" recorded=""
  if [ -f "$folder/meta.json" ]; then
    recorded="$(grep -o '"shard": *"[0-9]*/[0-9]*"' "$folder/meta.json" | grep -o '[0-9]*/[0-9]*' || true)"
  fi
  if [ -z "$n" ] && [ -n "$recorded" ]; then
    n="${recorded#*/}"                            # a resubmit by hand: the shard folder knows N
    echo "$me: task $k: SHARDS not set; $folder records shard $recorded, so N=$n"
  elif [ -z "$n" ]; then
    echo "$me: task $k: SHARDS (the sweep's number of shards) is not set and $folder has no meta.json." >&2
    echo "  Submit with $me --shards N (or SHARDS=N sbatch --array=K $me); Slurm's array size is not the sweep's." >&2
    exit 2
  fi
  if ! [[ "$n" =~ ^[1-9][0-9]*$ ]] || [ "$k" -gt "$n" ] || [ "$k" -lt 1 ]; then
    echo "$me: task $k of SHARDS=$n: array indices must be 1..SHARDS" >&2
    exit 2
  fi
  if [ -n "$recorded" ] && [ "$recorded" != "$k/$n" ]; then
    echo "$me: $folder holds shard $recorded, not $k/$n; submit with the same --shards, or another --out" >&2
    exit 2
  fi

  # Say which machine and GPU this shard got, and fail fast (not one error row per run) without GL.
  echo "firelab shard $k/$n on $(hostname), job ${SLURM_ARRAY_JOB_ID:-?}_$k (${SLURM_JOB_ID:-?}), restart ${SLURM_RESTART_COUNT:-0}"
  if command -v nvidia-smi >/dev/null; then nvidia-smi -L || true; fi
  # Several GPUs visible to EGL and the wrong one used? export SDL_HINT_EGL_DEVICE=<index> (README.txt).
  "$bundle/firelab" info

  # exec: Slurm's SIGTERM (time limit, preemption) reaches firelab itself, which drops the run in
  # progress and stops with whole rows only; a requeued task (--requeue) continues with --resume.
  exec "$bundle/firelab" sweep "$experiment" --shard "$k/$n" --out "$folder" --resume ${extra[@]+"${extra[@]}"}  # bash < 4.4 (set -u) calls an empty array unbound
}

# --- the submitter ---------------------------------------------------------------------------------------
bad() {  # bad OPTION VALUE ALLOWED
  echo "$me: $1 '$2': $3" >&2
  exit 2
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep -v -e '^#SBATCH' -e '^set -euo' | sed 's/^# \{0,1\}//'
}

# True when each item of a Slurm array list (3, 2,5, 1-3) lies in 1..N.
array_in_range() {  # array_in_range LIST N
  local item lo hi
  local -a items
  IFS=, read -ra items <<< "$1"
  [ "${#items[@]}" -gt 0 ] || return 1
  for item in "${items[@]}"; do
    [[ "$item" =~ ^([1-9][0-9]*)(-([1-9][0-9]*))?$ ]] || return 1
    lo="${BASH_REMATCH[1]}"
    hi="${BASH_REMATCH[3]:-$lo}"
    [ "$lo" -le "$hi" ] && [ "$hi" -le "$2" ] || return 1
  done
}

submit() {
  local experiment="${EXPERIMENT:-experiments/paper.toml}" shards="${SHARDS:-8}" gpus="${GPUS:-1}"
  local cpus="${CPUS:-8}" mem="${MEM:-16G}" time_limit="${TIME_LIMIT:-02:00:00}" partition="${PARTITION:-}"
  local out="${OUT:-}" bundle="${BUNDLE:-}" resubmit="" dry_run=0
  local extra=()
  read -ra extra <<< "${SWEEP_ARGS:-}"

  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --dry-run) dry_run=1; shift; continue ;;
      --) shift; extra=("$@"); break ;;
      --experiment|--shards|--gpus|--cpus|--mem|--time|--partition|--out|--bundle|--resubmit)
        [ $# -ge 2 ] || bad "$1" "" "needs a value"
        case "$1" in
          --experiment) experiment="$2" ;;
          --shards) shards="$2" ;;
          --gpus) gpus="$2" ;;
          --cpus) cpus="$2" ;;
          --mem) mem="$2" ;;
          --time) time_limit="$2" ;;
          --partition) partition="$2" ;;
          --out) out="$2" ;;
          --bundle) bundle="$2" ;;
          --resubmit) resubmit="$2" ;;
        esac
        shift 2 ;;
      *) echo "$me: unknown option '$1' (--help lists them; firelab sweep flags go after --)" >&2; exit 2 ;;
    esac
  done

  [[ "$shards" =~ ^[1-9][0-9]*$ ]] || bad --shards "$shards" "a whole number of array tasks, 1 or more"
  [[ "$gpus" =~ ^[01]$ ]] || bad --gpus "$gpus" "0 (CPU only) or 1 GPU per task (firelab draws on one)"
  [[ "$cpus" =~ ^[1-9][0-9]*$ ]] || bad --cpus "$cpus" "a whole number of CPUs per task, 1 or more"
  [[ "$mem" =~ ^[1-9][0-9]*[KMGT]?$ ]] || bad --mem "$mem" "a positive amount with an optional K, M, G or T (e.g. 16G)"
  [[ "$time_limit" =~ ^([0-9]+-[0-9]+(:[0-9]+){0,2}|[0-9]+(:[0-9]+){0,2})$ ]] ||
    bad --time "$time_limit" "Slurm's MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 02:00:00)"
  if [ -n "$resubmit" ]; then
    array_in_range "$resubmit" "$shards" ||
      bad --resubmit "$resubmit" "task numbers or ranges in 1..$shards (--shards), e.g. 3, 2,5 or 1-3"
  fi
  local arg
  for arg in ${extra[@]+"${extra[@]}"}; do
    if [[ "$arg" =~ [[:space:]] ]]; then
      bad "sweep argument" "$arg" "no blanks inside one argument (they reach the task split on blanks)"
    fi
  done

  # The bundle: --bundle, else this script's folder (a bundle's slurm_sweep.sh), else the current folder.
  is_bundle() { [ -x "$1/firelab" ] && [ -x "$1/bin/firelab" ]; }
  if [ -z "$bundle" ]; then
    bundle="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    is_bundle "$bundle" || bundle="$PWD"
  fi
  is_bundle "$bundle" || bad --bundle "$bundle" "a bundle folder (scripts/bundle.sh) holding firelab and bin/firelab"
  bundle="$(cd "$bundle" && pwd)"

  # Absolute paths: the tasks start in another folder, and every one must name the same experiment.
  if [ -f "$experiment" ]; then
    experiment="$(cd "$(dirname "$experiment")" && pwd)/$(basename "$experiment")"
  elif [ "${experiment#/}" = "$experiment" ] && [ -f "$bundle/$experiment" ]; then
    experiment="$bundle/$experiment"
  else
    bad --experiment "$experiment" "an experiment file (here or in the bundle $bundle)"
  fi
  out="$(realpath -m "${out:-results/$(basename "$experiment" .toml)}")"

  command -v sbatch >/dev/null || [ "$dry_run" = 1 ] ||
    { echo "$me: sbatch not found: submit from a node of the Slurm cluster (or --dry-run)" >&2; exit 1; }

  local sbatch=(sbatch --parsable --export=ALL --array="${resubmit:-1-$shards}"
                --job-name="firelab-$(basename "$experiment" .toml)" --output="$out/slurm-%A_%a.log"
                --cpus-per-task="$cpus" --mem="$mem" --time="$time_limit")
  [ "$gpus" = 0 ] || sbatch+=(--gres="gpu:$gpus")
  [ -z "$partition" ] || sbatch+=(--partition="$partition")
  sbatch+=("$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")")

  # What the tasks need reaches them in the environment (--export=ALL): values may hold commas.
  export SHARDS="$shards" EXPERIMENT="$experiment" OUT="$out" BUNDLE="$bundle" SWEEP_ARGS="${extra[*]}"
  if [ "$dry_run" = 1 ]; then
    printf 'SHARDS=%q EXPERIMENT=%q OUT=%q BUNDLE=%q SWEEP_ARGS=%q' "$SHARDS" "$EXPERIMENT" "$OUT" "$BUNDLE" "$SWEEP_ARGS"
    printf ' %q' "${sbatch[@]}"
    echo
    return 0
  fi
  mkdir -p "$out"                                 # sbatch does not make the folder of its --output
  local job
  job="$("${sbatch[@]}")"
  job="${job%%;*}"                                # --parsable: JOBID[;CLUSTER]
  {
    echo "$me: submitted job $job, tasks ${resubmit:-1-$shards} of $shards: $(basename "$experiment") -> $out/shard-K"
    echo "  logs: $out/slurm-${job}_K.log; when every task has finished:"
    echo "  $bundle/firelab merge $out/shard-* --out $out/merged"
  } >&2
  echo "$job"                                     # stdout: the job id alone, for scripts
}

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  run_task
elif [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "$me: a job that is not an array task: submit with $me --shards N (outside a job), not plain sbatch" >&2
  exit 2
else
  submit "$@"
fi

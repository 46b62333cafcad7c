#!/usr/bin/env bash
# Spreads one firelab sweep over a Slurm cluster: array task K of N runs every N-th run of the
# experiment (--shard K/N) on its own GPU, into OUT/shard-K. Copy a bundle (scripts/bundle.sh) to the
# cluster, then submit from the bundle folder (sbatch passes your environment on):
#   cd ~/firelab && EXPERIMENT=experiments/paper.toml sbatch slurm_sweep.sh
# When every task has finished, join the shards into one runs.csv with plots:
#   ./firelab merge "$OUT"/shard-* --out "$OUT/merged"
# A task that failed or ran out of time: resubmit only it (sbatch --array=3 slurm_sweep.sh); --resume
# makes it skip the runs its shard folder already holds. Array indices must be 1..N.
#SBATCH --job-name=firelab-sweep
#SBATCH --array=1-8
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --mem=16G
#SBATCH --time=02:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=firelab-sweep-%A_%a.log
set -euo pipefail

BUNDLE="${BUNDLE:-${SLURM_SUBMIT_DIR:-$PWD}}"          # the bundle folder (holds ./firelab)
EXPERIMENT="${EXPERIMENT:-experiments/paper.toml}"     # a relative path is also looked up in the bundle
OUT="${OUT:-${SLURM_SUBMIT_DIR:-$PWD}/results/$(basename "$EXPERIMENT" .toml)}"
read -ra EXTRA <<< "${SWEEP_ARGS:-}"                   # more sweep flags, e.g. "--width 1920 --height 1080"

K="${SLURM_ARRAY_TASK_ID:?submit with sbatch --array}"
N="${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))}"

# Say which machine and GPU this shard got, and fail fast (not one error row per run) without GL.
echo "firelab shard $K/$N on $(hostname), job ${SLURM_JOB_ID:-?}, restart ${SLURM_RESTART_COUNT:-0}"
command -v nvidia-smi >/dev/null && nvidia-smi -L
# Several GPUs visible to EGL and the wrong one used? export SDL_HINT_EGL_DEVICE=<index> (README.txt).
"$BUNDLE/firelab" info

# exec: Slurm's SIGTERM (time limit, preemption) reaches firelab itself, which drops the run in
# progress and stops with whole rows only; a requeued task (--requeue) continues with --resume.
exec "$BUNDLE/firelab" sweep "$EXPERIMENT" --shard "$K/$N" --out "$OUT/shard-$K" --resume "${EXTRA[@]}"

#!/usr/bin/env bash
# Tests the Slurm path end to end on a real one-node Slurm cluster stood up on this machine:
#
#   scripts/slurm_local.sh [--keep]      # about 90 s on a 2-core VM without a GPU, after the install
#
# 1. Installs Debian's slurm-wlm and munge when missing (apt-get, through sudo when not root), the way
#    scripts/setup.sh installs firelab's packages (it is sourced with FIRELAB_EXTRA_PACKAGES).
# 2. Writes a cluster into a temporary folder: munge's key and socket, slurm.conf with this host as the only
#    node (its CPUs and memory as `slurmd -C` reports them), select/cons_tres with cores and memory
#    consumable, proctrack/linuxproc and task/none (no cgroups), spool, state and logs in the folder, the
#    daemons running as the current user on ports SLURM_LOCAL_PORT and SLURM_LOCAL_PORT+1 (16817, 16818),
#    so a system Slurm or munge is left alone. Starts munged, slurmctld and slurmd; waits for the node to be idle.
# 3. Makes a bundle (scripts/bundle.sh; FIRELAB_NO_BUILD=1 FIRELAB_BUILD_DIR=DIR packages an existing build)
#    and submits experiments/slurm-smoke.toml as two CPU-only array tasks through the bundle's
#    slurm_sweep.sh (--gpus 0, every CPU of the node per task, so the tasks run one after the other as on
#    two machines). Task 1 is cancelled (SIGTERM) once its sweep has started; both tasks are waited for.
# 4. Resubmits: task 1 with --resubmit 1 (it must complete its shard with --resume), task 2 with
#    --resubmit 2 (it must complete measuring nothing new: runs.csv unchanged), task 2 by hand with plain
#    `sbatch --array=2` and no SHARDS (N comes from the shard's meta.json), and task 1 with --shards 3,
#    which the task must refuse (exit 2: the folder holds shard 1/2). A bad submitter value must exit 2.
# 5. Merges the shards (firelab merge), runs the same sweep whole on this machine, and checks what sharding
#    must guarantee, none of it a timing: every baseline group (a count's points and point-sprites) measured
#    whole in one shard; the merged runs are the whole sweep's, each once; each merged ratio equals, column for
#    column, the one its shard computes from its own rounds (firelab compare on the shard): a pair measured on
#    one machine. The merged and the whole sweep's ratios are printed side by side for information only:
#    timings measured minutes apart on a busy machine differ by more than their intervals, and are no verdict.
#
# Every daemon it started is stopped and the temporary folder removed on exit, failed or not (--keep keeps
# the folder and says where). Exits non-zero on any failed check, naming it. Environment: SLURM_LOCAL_PORT,
# FIRELAB_NO_BUILD, FIRELAB_BUILD_DIR (passed to bundle.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXPERIMENT=experiments/slurm-smoke.toml
PORT="${SLURM_LOCAL_PORT:-16817}"
KEEP=0
case "${1:-}" in
  --keep) KEEP=1 ;;
  -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "slurm_local.sh: unknown option '$1' (--keep or --help)" >&2; exit 2 ;;
esac

say() { echo "slurm_local: $*"; }
fail() { echo "slurm_local: FAILED: $*" >&2; exit 1; }
started=$SECONDS

# --- 1. the packages ---------------------------------------------------------------------------------
# shellcheck source-path=SCRIPTDIR source=setup.sh
FIRELAB_EXTRA_PACKAGES="slurm-wlm munge" FIRELAB_SKIP_BUILD=1 source "$ROOT/scripts/setup.sh"
for tool in munged slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || fail "$tool not found after installing slurm-wlm and munge"
done
export PATH="$PATH:/usr/sbin"

# --- 2. the cluster in a temporary folder ------------------------------------------------------------
TMP="$(mktemp -d /tmp/firelab-slurm.XXXXXX)"
chmod 755 "$TMP"    # munged refuses a socket others cannot reach (mktemp makes the folder 700)
daemons=()          # "name:pid", started in this order, stopped in reverse
stop_pid() {  # stop_pid NAME PID: SIGTERM, up to 10 s, then SIGKILL
  kill -0 "$2" 2>/dev/null || return 0
  kill -TERM "$2" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$2" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$2" 2>/dev/null; then say "$1 ($2) ignored SIGTERM; killing it"; kill -KILL "$2" 2>/dev/null || true; fi
  wait "$2" 2>/dev/null || true
  say "stopped $1 ($2)"
}
# Processes of this cluster that outlived its daemons (a job's slurmstepd and what it runs): each has this
# cluster's slurm.conf in its environment. This shell's own environment never had it (exported later).
leftovers() {
  local f pid
  for f in /proc/[0-9]*/environ; do
    pid="${f#/proc/}"
    pid="${pid%/environ}"
    grep -qzx "SLURM_CONF=$TMP/etc/slurm.conf" "$f" 2>/dev/null && echo "$pid"
  done
  return 0
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true   # this cluster's jobs only (SLURM_CONF)
    for _ in $(seq 20); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 1; done
    export -n SLURM_CONF  # from here on, the commands run do not carry it (leftovers)
  fi
  local i pid
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do stop_pid "${daemons[i]%%:*}" "${daemons[i]##*:}"; done
  for pid in $(leftovers); do stop_pid "job process $(ps -o comm= -p "$pid" 2>/dev/null || true)" "$pid"; done
  if [ "$KEEP" = 1 ]; then say "kept $TMP"; else rm -rf "$TMP"; fi
  if [ "$rc" = 0 ]; then say "PASSED in $((SECONDS - started)) s"; else say "exit $rc after $((SECONDS - started)) s"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$TMP/etc" "$TMP/munge" "$TMP/socket" "$TMP/state" "$TMP/spool" "$TMP/log" "$TMP/results"
chmod 700 "$TMP/munge"   # the key: this user's alone
chmod 755 "$TMP/socket"  # munged wants everyone able to reach its socket, none able to replace it
say "cluster folder $TMP"

# munge: its own key, socket, pid and seed files, so that the system's munge (if any) is not touched.
dd if=/dev/urandom of="$TMP/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$TMP/munge/munge.key"
SOCKET="$TMP/socket/munge.socket"
munged --foreground --key-file="$TMP/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$TMP/munge/munged.pid" --seed-file="$TMP/munge/munged.seed" \
  --log-file="$TMP/log/munged.log" >>"$TMP/log/munged.log" 2>&1 &
daemons+=("munged:$!")
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.2; done
[ -S "$SOCKET" ] || { cat "$TMP/log/munged.log" >&2; fail "munged did not start"; }

# slurm.conf: this host as the only node, with the CPUs and memory slurmd itself finds.
HOST="$(hostname -s)"
USER_NAME="$(id -un)"
node="$(slurmd -C 2>/dev/null | grep '^NodeName=' | head -1)"
[ -n "$node" ] || fail "slurmd -C did not describe this node"
CPUS="$(grep -o 'CPUs=[0-9]*' <<< "$node" | cut -d= -f2)"
MEM_MB="$(grep -o 'RealMemory=[0-9]*' <<< "$node" | cut -d= -f2)"
hardware="${node#NodeName=* }"   # CPUs=2 Boards=1 ... RealMemory=23995 (UpTime=... dropped below)
cat > "$TMP/etc/slurm.conf" <<EOF
# A one-node cluster for scripts/slurm_local.sh (removed when it ends).
ClusterName=firelab-local
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/state/slurmctld.pid
SlurmdPidFile=$TMP/spool/slurmd.pid
SlurmctldLogFile=$TMP/log/slurmctld.log
SlurmdLogFile=$TMP/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=3600
KillWait=10
NodeName=$HOST NodeAddr=127.0.0.1 ${hardware%% UpTime=*} State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$TMP/etc/slurm.conf"
say "node: $(grep '^NodeName' "$SLURM_CONF")"

slurmctld -D -i >>"$TMP/log/slurmctld.out" 2>&1 &
daemons+=("slurmctld:$!")
slurmd -D >>"$TMP/log/slurmd.out" 2>&1 &
daemons+=("slurmd:$!")

show_logs() {
  local f
  for f in "$TMP"/log/*; do echo "--- $f"; tail -n 30 "$f"; done >&2
}
for _ in $(seq 120); do
  [ "$(sinfo -h -N -n "$HOST" -o '%t' 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -N -n "$HOST" -o '%t' 2>/dev/null)" = idle ] || { show_logs; fail "the node $HOST did not become idle"; }
say "slurm up: $(sinfo -h -o '%P %D %t %c CPUs %m MB')"

# --- 3. a bundle, two shards through slurm_sweep.sh --------------------------------------------------
say "making the bundle"
"$ROOT/scripts/bundle.sh" "$TMP/bundle"
BUNDLE="$TMP/bundle"
OUT="$TMP/results/slurm-smoke"
# As on a cluster: from the bundle folder, so that experiments/... is the bundle's own.
submit_args=(--experiment "$EXPERIMENT" --shards 2 --gpus 0 --cpus "$CPUS" --mem "$((MEM_MB / 4))M"
             --time 00:15:00 --out "$OUT")
submit() { (cd "$BUNDLE" && ./slurm_sweep.sh "${submit_args[@]}" "$@"); }

state_of() {  # state_of JOB TASK -> e.g. COMPLETED 0:0
  local line
  line="$(scontrol -o show job "${1}_${2}" 2>/dev/null || true)"
  echo "$(grep -o 'JobState=[A-Z_]*' <<< "$line" | cut -d= -f2) $(grep -o ' ExitCode=[0-9:]*' <<< "$line" | cut -d= -f2)"
}
wait_job() {  # wait_job JOB SECONDS: until no task of it is pending or running
  local deadline=$((SECONDS + $2))
  while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; do
    [ "$SECONDS" -lt "$deadline" ] || { squeue; show_logs; fail "job $1 still not finished after $2 s"; }
    sleep 1
  done
}
expect_task() {  # expect_task JOB TASK STATE... : the task's final state is one of these; prints its log
  local job="$1" task="$2" got
  shift 2
  got="$(state_of "$job" "$task")"
  echo "----- task log $OUT/slurm-${job}_${task}.log"
  cat "$OUT/slurm-${job}_${task}.log" 2>/dev/null || echo "(no log)"
  echo "-----"
  for want in "$@"; do [ "${got%% *}" = "$want" ] && { say "job ${job}_$task: $got"; return 0; }; done
  fail "job ${job}_$task ended $got, expected $*"
}
rows() {  # the data rows of a CSV (its header aside); 0 when it is not there
  if [ -f "$1" ]; then echo $(($(wc -l < "$1") - 1)); else echo 0; fi
}

say "a bad value must be refused before anything is submitted"
set +e
bad_out="$(submit --gpus 2 2>&1)"; bad_rc=$?
set -e
echo "$bad_out"
if [ "$bad_rc" != 2 ] || ! grep -q -- "--gpus '2'" <<< "$bad_out"; then
  fail "--gpus 2 exited $bad_rc, expected 2 and a message naming --gpus"
fi

say "submitting from $BUNDLE: ./slurm_sweep.sh ${submit_args[*]}"
job="$(submit)"
say "job $job; waiting for task 1's sweep to start, then cancelling it"
deadline=$((SECONDS + 300))
until [ -f "$OUT/shard-1/meta.json" ]; do
  [ "$SECONDS" -lt "$deadline" ] || { squeue; show_logs; fail "task 1 never started its sweep"; }
  sleep 0.5
done
sleep 3
scancel "${job}_1"
wait_job "$job" 600
expect_task "$job" 1 CANCELLED COMPLETED
expect_task "$job" 2 COMPLETED
say "after the cancel: shard-1 holds $(rows "$OUT/shard-1/runs.csv") rows, shard-2 $(rows "$OUT/shard-2/runs.csv")"

# --- 4. resubmits --------------------------------------------------------------------------------------
say "resubmitting task 1 (--resubmit 1): it must finish its shard with --resume"
job1="$(submit --resubmit 1)"
wait_job "$job1" 600
expect_task "$job1" 1 COMPLETED
grep -qE "(^|[^0-9])0 failed" "$OUT/slurm-${job1}_1.log" || fail "task 1's resubmit had failed runs"

say "resubmitting task 2 (--resubmit 2): it must complete, measuring nothing new"
before="$(md5sum < "$OUT/shard-2/runs.csv")"
job2="$(submit --resubmit 2)"
wait_job "$job2" 300
expect_task "$job2" 2 COMPLETED
grep -qE "(^|[^0-9])0 run\(s\) measured, 0 failed" "$OUT/slurm-${job2}_2.log" || fail "task 2's resubmit measured runs again"
[ "$(md5sum < "$OUT/shard-2/runs.csv")" = "$before" ] || fail "task 2's resubmit changed its runs.csv"

say "resubmitting task 2 by hand (sbatch --array=2, no SHARDS): N must come from the shard's meta.json"
job3="$(cd "$BUNDLE" && env -u SHARDS EXPERIMENT="$EXPERIMENT" OUT="$OUT" \
  sbatch --parsable --array=2 --cpus-per-task="$CPUS" --mem=1G --output="$OUT/slurm-%A_%a.log" slurm_sweep.sh)"
job3="${job3%%;*}"
wait_job "$job3" 300
expect_task "$job3" 2 COMPLETED
grep -q "records shard 2/2, so N=2" "$OUT/slurm-${job3}_2.log" || fail "the task did not take N from meta.json"

say "submitting task 1 with --shards 3: the task must refuse the folder of shard 1/2"
job4="$(submit --shards 3 --resubmit 1)"
wait_job "$job4" 300
expect_task "$job4" 1 FAILED
grep -q "holds shard 1/2, not 1/3" "$OUT/slurm-${job4}_1.log" || fail "the task did not say why it refused"

# --- 5. merge, the whole sweep, what sharding guarantees ----------------------------------------------------
say "merging the shards"
"$BUNDLE/firelab" merge "$OUT/shard-1" "$OUT/shard-2" --out "$OUT/merged"
say "the same sweep whole on this machine"
(cd "$BUNDLE" && ./firelab sweep "$EXPERIMENT" --out "$TMP/results/whole")
[ -f "$OUT/merged/ratios.csv" ] || fail "the merge wrote no ratios.csv"
[ -f "$OUT/merged/frame_time.png" ] || fail "the merge drew no plots (scripts/*.py in the bundle?)"
say "each shard's own ratios, from its own rounds alone (firelab compare)"
for k in 1 2; do
  "$BUNDLE/firelab" compare "$OUT/shard-$k" --baseline strategy=points --no-plots >/dev/null
done

say "what sharding guarantees: whole groups, the same runs, ratios from one shard's pairs"
python3 - "$OUT" "$TMP/results/whole" <<'EOF'
import csv, sys

out, whole_dir = sys.argv[1], sys.argv[2]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_key(path):
    return {r["run_key"]: r for r in rows(path)}


bad = []
shards = {k: rows(f"{out}/shard-{k}/runs.csv") for k in (1, 2)}
# 1. Every baseline group (a particle count: its points and point-sprites) is measured whole in one shard.
holder = {}
for k, shard_rows in shards.items():
    for r in shard_rows:
        holder.setdefault(r["particles"], set()).add(k)
for count, ks in sorted(holder.items()):
    strategies = {r["strategy"] for k in ks for r in shards[k] if r["particles"] == count}
    print(f"group particles={count}: shard {sorted(ks)}, strategies {sorted(strategies)}")
    if len(ks) != 1:
        bad.append(f"the group particles={count} is split across shards {sorted(ks)}")
    if strategies != {"points", "point-sprites"}:
        bad.append(f"the group particles={count} holds {sorted(strategies)}, not points and point-sprites")
# 2. The merged runs are the whole sweep's runs: the same run_keys, each once.
merged_keys = [r["run_key"] for r in rows(f"{out}/merged/runs.csv")]
whole_keys = {r["run_key"] for r in rows(f"{whole_dir}/runs.csv")}
if len(merged_keys) != len(set(merged_keys)):
    bad.append("a run_key is in the merged runs.csv more than once")
if set(merged_keys) != whole_keys:
    bad.append(f"the merged and the whole sweep's runs differ: {sorted(set(merged_keys) ^ whole_keys)}")
print(f"runs: {len(merged_keys)} merged, {len(whole_keys)} in the whole sweep")
# 3. Each merged ratio is the one its shard computes from its own rounds: a pair measured on one machine.
merged_ratios = by_key(f"{out}/merged/ratios.csv")
shard_ratios = {key: (k, r) for k in (1, 2) for key, r in by_key(f"{out}/shard-{k}/ratios.csv").items()}
if not merged_ratios:
    bad.append("no ratios")
for key, r in sorted(merged_ratios.items()):
    if key not in shard_ratios:
        bad.append(f"{key}: a merged ratio that no shard computes")
        continue
    k, own = shard_ratios[key]
    print(f"{key:40} merged {r['frame_ratio_median']}, shard {k}'s {own['frame_ratio_median']}: "
          f"{'the same row' if r == own else 'DIFFERENT'}")
    if r != own:
        diff = {c: (r.get(c), own.get(c)) for c in sorted(set(r) | set(own)) if r.get(c) != own.get(c)}
        bad.append(f"{key}: the merged ratio is not shard {k}'s: {diff}")
# For information, never a verdict: the whole sweep measured the same pairs minutes later on a machine doing
# other work, and timings measured apart differ by more than their intervals (one landing: 2.24 [2.16, 2.31]
# merged against 2.40 [2.37, 2.42] whole).
whole_ratios = by_key(f"{whole_dir}/ratios.csv")
for key, r in sorted(merged_ratios.items()):
    if key in whole_ratios:
        w = whole_ratios[key]
        print(f"(information) {key:40} merged {r['frame_ratio_median']} [{r['frame_ratio_ci_low']}, "
              f"{r['frame_ratio_ci_high']}], whole {w['frame_ratio_median']} [{w['frame_ratio_ci_low']}, "
              f"{w['frame_ratio_ci_high']}]")
for b in bad:
    print(f"slurm_local: FAILED: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
say "every check passed"

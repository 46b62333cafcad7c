# Stage timing for .ci/run, scripts/test.sh and scripts/sanitize_fuzz.sh (sourced, not run).
#   stage NAME COMMAND [ARGS...]   runs the command and prints its wall time; a failure sets stage_status and
#                                  returns 0, so that the later stages still run and say their times
#   stage_beside NAME COMMAND...   starts the command in the background as a stage, its output kept in a file
#   stage_join                     waits for the stage started beside, then prints its output, time and outcome
#   stage_summary                  every stage so far, the nested scripts' included, with its time and outcome
# Stages are appended to FIRELAB_STAGE_LOG, which the outermost script chooses and the scripts it calls inherit:
# .ci/run's summary lists the stages of test.sh and sanitize_fuzz.sh. A stage never wraps a script that has
# stages of its own. A stage run beside others overlaps them: the summary marks it and leaves it out of the sum.
stage_status=0
stage_log_owner=0
if [ -z "${FIRELAB_STAGE_LOG:-}" ]; then
  FIRELAB_STAGE_LOG="$(mktemp /tmp/firelab-stages.XXXXXX)"
  export FIRELAB_STAGE_LOG
  stage_log_owner=1
fi

stage() {
  local name="$1" start=$SECONDS rc=0
  shift
  echo "== stage: $name" >&2
  "$@" || rc=$?
  local seconds=$((SECONDS - start)) outcome=ok
  [ "$rc" = 0 ] || { outcome="FAILED (exit $rc)"; stage_status=$rc; }
  printf '%s\t%s\t%s\n' "$seconds" "$name" "$outcome" >>"$FIRELAB_STAGE_LOG"
  echo "== stage: $name took $seconds s: $outcome" >&2
  return 0
}

# One stage at a time runs beside the others (the pid, name, start and log of it, or empty).
beside_pid=""
beside_name=""
beside_start=0
beside_log=""

stage_beside() {
  [ -z "$beside_pid" ] || { echo "stages.sh: '$beside_name' already runs beside; join it first" >&2; return 2; }
  beside_name="$1"
  shift
  beside_log="$(mktemp /tmp/firelab-beside.XXXXXX)"
  beside_start=$(date +%s)
  echo "== stage: $beside_name starts beside the next stages (its output follows when it ends)" >&2
  # The stage's own end, kept in a file: it is joined later, when the stages beside it are done.
  (
    rc=0
    "$@" || rc=$?
    date +%s >"$beside_log.end"
    exit "$rc"
  ) >"$beside_log" 2>&1 &
  beside_pid=$!
}

stage_join() {
  [ -n "$beside_pid" ] || return 0
  local rc=0
  wait "$beside_pid" || rc=$?
  local seconds=$(($(cat "$beside_log.end" 2>/dev/null || date +%s) - beside_start)) outcome=ok
  [ "$rc" = 0 ] || { outcome="FAILED (exit $rc)"; stage_status=$rc; }
  cat "$beside_log"
  rm -f "$beside_log" "$beside_log.end"
  printf '%s\t%s\t%s\tbeside\n' "$seconds" "$beside_name" "$outcome" >>"$FIRELAB_STAGE_LOG"
  echo "== stage: $beside_name took $seconds s, beside the others: $outcome" >&2
  beside_pid=""
  return 0
}

stage_summary() {
  [ -s "$FIRELAB_STAGE_LOG" ] || return 0
  echo "== stage times (wall clock)"
  awk -F'\t' '$4 == "beside" { printf "  %-36s %6d s  %s, beside the others (not in the sum)\n", $2, $1, $3; next }
              { printf "  %-36s %6d s  %s\n", $2, $1, $3; s += $1 }
              END { printf "  %-36s %6d s\n", "all stages in turn", s }' "$FIRELAB_STAGE_LOG"
  if [ "$stage_log_owner" = 1 ]; then rm -f "$FIRELAB_STAGE_LOG"; fi
  return 0
}

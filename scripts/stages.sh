# Stage timing for .ci/run, scripts/test.sh and scripts/sanitize_fuzz.sh (sourced, not run).
#   stage NAME COMMAND [ARGS...]   runs the command and prints its wall time; a failure sets stage_status and
#                                  returns 0, so that the later stages still run and say their times
#   stage_summary                  every stage so far, the nested scripts' included, with its time and outcome
# Stages are appended to FIRELAB_STAGE_LOG, which the outermost script chooses and the scripts it calls inherit:
# .ci/run's summary lists the stages of test.sh and sanitize_fuzz.sh. A stage never wraps a script that has
# stages of its own, so the times do not overlap.
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

stage_summary() {
  [ -s "$FIRELAB_STAGE_LOG" ] || return 0
  echo "== stage times (wall clock)"
  awk -F'\t' '{ printf "  %-36s %6d s  %s\n", $2, $1, $3; s += $1 }
              END { printf "  %-36s %6d s\n", "all stages", s }' "$FIRELAB_STAGE_LOG"
  if [ "$stage_log_owner" = 1 ]; then rm -f "$FIRELAB_STAGE_LOG"; fi
  return 0
}

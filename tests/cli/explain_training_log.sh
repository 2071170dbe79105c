# explain on a whole 10,000-line training job's log (the one bench/explain_bench times): progress
# bars, NCCL, warnings and lines naming cuDNN without a problem around one real failure, which is
# the one finding, on the file's own line number.
source "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"
[[ -x $BUILD_DIR/bin/explain_bench ]] || skip "explain_bench is not built"
"$BUILD_DIR/bin/explain_bench" --log "$t/job.log"
expect_rc 0 cc --json explain - <"$t/job.log"
python3 - "$out" <<'PY' || fail "not the one finding: $out"
import json, sys
found = json.loads(sys.argv[1])
f = found[0]
ok = (len(found) == 1 and f["line"] == 7413 and f["kind"] == "version-mismatch"
      and f["runtime"] == "8.9.7" and f["built_with"] == "9.1.0" and f["framework"] == "pytorch")
sys.exit(0 if ok else 1)
PY
[[ $(sed -n 7413p "$t/job.log") == RuntimeError:* ]] || fail "line 7413 is not the failure"

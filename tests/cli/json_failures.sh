#!/usr/bin/env bash
# --json promises one JSON document on stdout, also for the answers a script most needs: a failure
# that has no document of its own (an invalid map, a missing one, a release not in the map, bad
# usage) prints one naming the error and the exit status (an outside tester's finding: nothing on
# stdout for these, the text on stderr only).
. "$(dirname "$0")/common.sh"

# json_failure N TEXT cmd...: cmd exits N, its stdout is one JSON document whose "exit" is N and
# whose "error" holds TEXT.
json_failure() {
  local want=$1 text=$2 rc=0; shift 2
  "$@" >"$t/stdout" 2>"$t/stderr" || rc=$?
  [[ $rc == "$want" ]] || fail "$* exited $rc, expected $want: $(cat "$t/stdout" "$t/stderr")"
  python3 - "$t/stdout" "$want" "$text" <<'PY' || fail "$*: stdout is not the document: $(cat "$t/stdout")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["exit"] == int(sys.argv[2]), doc
assert sys.argv[3] in doc["error"], doc
PY
}

printf 'schema = 7\n' >"$t/bad.toml"
json_failure 1 "unknown schema 7" cc --json resolve libcudnn.so.9 --require 9.1 --map "$t/bad.toml"
json_failure 1 "cannot read the map" cc --json map show --map "$t/missing.toml"
entries "9.1.0:$FAKES/9.1.0/lib64" >"$t/map.toml"
json_failure 1 "8.9.7" cc --json retire 8.9.7 --after 2030-01-01 --map "$t/map.toml"
json_failure 2 "--runtime is required" cc --json check --built-with 9.1.0
json_failure 2 "zz" cc resolve libcudnn.so.9 --require zz --map "$t/map.toml" --json
# Answers with a document of their own print that one alone.
cc --json resolve libcudnn.so.9 --require 9.1 --map "$t/map.toml" >"$t/stdout" 2>/dev/null || true
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$t/stdout" || fail "two documents: $(cat "$t/stdout")"

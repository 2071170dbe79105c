# Issue 21, item 2 ("a record never carries the environment or arguments"): a program that names
# itself (argv[0]) with a secret loads cuDNN from its own code; under LD_PRELOAD the record's
# requester is the main program as LD_AUDIT sees it (by=-), not the argv[0] that dladdr reports.
source "$(dirname "$0")/common.sh"
tf2016_client
mkdir "$t/spool"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
for mode in AUDIT PRELOAD; do
  LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 env "LD_$mode=$SHIM" \
    bash -c 'exec -a "/PASSWORD=hunter2 argv0" "$0"' "$t/tf2016" >/dev/null
done
out=$(cat "$t"/spool/*.usage)
count "U1 t=" 2
count " by=- " 2
lacks "hunter2"

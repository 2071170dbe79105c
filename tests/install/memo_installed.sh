#!/usr/bin/env bash
# Issue 20, item 4, as deployed: installed, moved, no CUDNN_COMPAT_* set, no XDG_RUNTIME_DIR (the
# memo in /tmp/cudnn-compat-<uid>), the need from the moved map's [[require]] rule. A user's own
# copy of FAKE 5.0.5 first on the path, which no table knows: the first process probes it and gets
# the map's 5.1.10; the second starts no process and gets the same. Under LD_AUDIT and LD_PRELOAD.
# (The landed shim started the engine and a probe in every process.)
. "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
unset XDG_RUNTIME_DIR
install_to "$t/first"
mv "$t/first" "$t/moved"
p=$t/moved
site_map >"$p/etc/cudnn-compat/map.toml"
expect_rc 0 "$p/bin/cudnn-compat" map validate
tf2016_client
cp -a "$FAKES/5.0.5" "$t/own"
memo=/tmp/cudnn-compat-$(id -u)
# A node of the test's own, learnt before the first process (as tests/shim's scenarios do): a
# scenario run beside it that learns this host's node anew rewrites that file, and the memo then
# keeps no decision resting on it for a second, so the second process would start the engine.
export SLURMD_NODENAME=installtest-$$-$RANDOM
node_file=$memo/node-$SLURMD_NODENAME
# Our entries only: other users of this machine's memo keep theirs.
trap 'grep -lsF "$t/" "$memo"/*.memo | xargs -r rm -f; rm -rf "$t" "$node_file"' EXIT
"$p/bin/cudnn-compat" doctor >/dev/null 2>&1 || true
[[ -f $node_file ]] || fail "doctor did not learn the test's node ($node_file)"
sleep 1.1  # the racy rule: files written within the last second are not trusted to stay

for mode in AUDIT PRELOAD; do
  { grep -lsF "$t/" "$memo"/*.memo || true; } | xargs -r rm -f  # both front ends make the same key
  for run in first second; do
    strace -f -qq -s 4096 -e trace=execve,clone,clone3,fork,vfork -o "$t/trace" \
      env LD_LIBRARY_PATH="$t/own/lib64" LD_$mode="$p/lib/cudnn-compat/libcudnn-compat.so" \
      "$t/apps/tf2016" >"$t/out" 2>&1 || true
    out=$(<"$t/out")
    has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
    n=$(($(grep -E '(clone3?|v?fork)\(|execve\(' "$t/trace" | grep -vc CLONE_THREAD) - 2))
    if [[ $run == first ]]; then
      grep -q "$p/lib/cudnn-compat/cudnn-compat-probe\", \[[^]]*\"$t/own/lib64/libcudnn.so.5\"" "$t/trace" ||
        fail "$mode: the first process did not probe the user's copy:"$'\n'"$(cat "$t/trace")"
    else
      [[ $n == 0 ]] || fail "$mode: the second process started $n processes:"$'\n'"$(cat "$t/trace")"
    fi
  done
done
[[ -n $(grep -lsF "$t/" "$memo"/*.memo) ]] || fail "no entry of ours in $memo"
[[ $(stat -c '%u %a' "$memo") == "$(id -u) 700" ]] || fail "$memo: $(stat -c '%U %a' "$memo")"

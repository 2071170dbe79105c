# Never break the host: for each bad input the TensorFlow-2016 client gets exactly the load it
# would get without the shim (the 2016 failure on FAKE 5.0.5), with at most one line on stderr
# from cudnn-compat, under LD_AUDIT and LD_PRELOAD alike.
source "$(dirname "$0")/common.sh"
tf2016_client
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
good() { fake_map 5.0.5 5.1.10; }
mkdir -p "$t/broken/lib64" "$t/crashing/lib64" "$t/engine-missing" "$t/engine-crashes" "$t/engine-garbage"
ln -s "$FAKES/crashing-7.6.5/lib64/libcudnn.so.7" "$t/crashing/lib64/libcudnn.so.5"  # crashes when loaded
echo "not a library" >"$t/broken/lib64/libcudnn.so.5"
cp "$SHIM" "$t/engine-missing/"
for e in crashes garbage; do cp "$SHIM" "$t/engine-$e/"; done
printf '#!/bin/sh\nkill -SEGV $$\n' >"$t/engine-crashes/cudnn-compat-select"
printf '#!/bin/sh\necho "use nonsense/../libcudnn.so.5"\n' >"$t/engine-garbage/cudnn-compat-select"
chmod +x "$t"/engine-*/cudnn-compat-select

# name | how the map/environment is spoiled (shell run before the client)
cases=(
  "map missing|rm -f \$CUDNN_COMPAT_MAP"
  "map empty|: >\$CUDNN_COMPAT_MAP"
  "map not TOML|echo '[[cudnn' >\$CUDNN_COMPAT_MAP"
  "map binary|head -c 4096 /dev/urandom >\$CUDNN_COMPAT_MAP"
  "map wrong schema|echo 'schema = 7' >\$CUDNN_COMPAT_MAP"
  "map is a directory|export CUDNN_COMPAT_MAP=$t/broken"
  "map is a FIFO|rm -f $t/fifo; mkfifo $t/fifo; export CUDNN_COMPAT_MAP=$t/fifo"
  "map unreadable|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_MAP=/proc/1/mem"
  "lib directory vanished|good | sed 's|$FAKES/5.1.10|$t/vanished|' >\$CUDNN_COMPAT_MAP"
  "map versions lie|good | sed 's|$FAKES/5.1.10|$FAKES/5.0.5|' >\$CUDNN_COMPAT_MAP"
  "library does not load|good | sed 's|$FAKES/5.1.10|$t/broken|' >\$CUDNN_COMPAT_MAP"
  "library crashes|good | sed 's|$FAKES/5.1.10/lib64|$t/crashing/lib64|' >\$CUDNN_COMPAT_MAP"
  "require unparsable|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_REQUIRE=five"
  "require nothing meets|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_REQUIRE=5.2"
  "require another major|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_REQUIRE=9.1"
  "cuda unparsable|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_CUDA=twelve"
  "cuda nothing meets|good >\$CUDNN_COMPAT_MAP; export CUDNN_COMPAT_CUDA=12"
  "engine missing|good >\$CUDNN_COMPAT_MAP; SHIM=$t/engine-missing/libcudnn-compat.so"
  "engine crashes|good >\$CUDNN_COMPAT_MAP; SHIM=$t/engine-crashes/libcudnn-compat.so"
  "engine prints garbage|good >\$CUDNN_COMPAT_MAP; SHIM=$t/engine-garbage/libcudnn-compat.so"
)
(( ${#cases[@]} >= 15 )) || fail "the table must hold at least 15 bad inputs"
for c in "${cases[@]}"; do
  name=${c%%|*} spoil=${c#*|}
  for mode in audit preload; do
    (
      eval "$spoil"
      expect_rc 1 timeout 60 env LD_${mode^^}=$SHIM "$t/tf2016"
      has "Loaded runtime CuDNN library: 5005 (compatibility version 5000)"
      # Exactly one: at most one is the promise, and each input here has something to say, so a
      # silent run would be a shim that was never loaded.
      lines=$(grep -c "cudnn-compat" <<<"$out" || true)
      (( lines == 1 )) || fail "$name ($mode): $lines lines from cudnn-compat:"$'\n'"$out"
      echo "ok: $name ($mode)${lines/#1/: }$(grep "cudnn-compat" <<<"$out" | cut -c1-150 || true)"
    ) || fail "bad input: $name ($mode)"
  done
done

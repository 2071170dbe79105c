# resolve names the file a process gets with the shim on: for names with and without a major,
# main and sub-libraries, needs and none, and each release first on LD_LIBRARY_PATH, the file
# resolve names is the one the shim's process maps (an outside tester's finding: resolve answered
# sub-libraries and names without a major by the map's ranking while the shim kept the loader's
# family, or routed the name to the required major). Where nothing fits, the file resolve says the
# process loads as usual is the one it maps, and where it says the load fails, it does.
source "$(dirname "$0")/common.sh"
entries "5.0.5:$FAKES/5.0.5/lib64" "8.1.0:$FAKES/8.1.0/lib64" "8.9.7:$FAKES/8.9.7/lib64" \
  "9.1.0:$FAKES/9.1.0/lib64" "9.20.0:$FAKES/9.20.0/lib64" "9.23.0:$FAKES/9.23.0/lib64" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
shim=$(cc shim-path)
# The real path of every file of the name's stem the process maps after loading it.
cat >"$t/maps.py" <<'PY'
import ctypes, os, re, sys
name = sys.argv[1]
ctypes.CDLL(name)
stem = re.match(r"(libcudnn(_[a-z_]+)?)\.so", os.path.basename(name)).group(1) + ".so"
with open("/proc/self/maps") as maps:
    files = {os.path.realpath(l.split(None, 5)[5].strip()) for l in maps if len(l.split(None, 5)) == 6}
print("\n".join(sorted(f for f in files if os.path.basename(f).startswith(stem))))
PY
compared=0
for first in 5.0.5 8.1.0 8.9.7 9.1.0 9.20.0; do
  for need in "" 5.1 8.9 9.1 9.30; do
    # By path too: the file asked for is the loader's choice (helper 109: resolve judged the
    # ld.so.cache's instead).
    for name in libcudnn.so libcudnn.so.8 libcudnn_ops_infer.so.8 libcudnn_ops.so.9 libcudnn_ops.so \
      "$FAKES/9.1.0/lib64/libcudnn.so.9" "$FAKES/8.1.0/lib64/libcudnn.so.8" \
      "$FAKES/9.1.0/lib64/libcudnn.so.9.1.0"; do
      case=" (LD_LIBRARY_PATH=$FAKES/$first/lib64 CUDNN_COMPAT_REQUIRE=$need $name)"
      rc=0
      answer=$(LD_LIBRARY_PATH=$FAKES/$first/lib64 CUDNN_COMPAT_REQUIRE=$need \
        "$CUDNN_COMPAT" --json resolve "$name" 2>/dev/null) || rc=$?
      [[ $rc == 0 || $rc == 1 ]] || fail "resolve exited $rc$case: $answer"
      field=file
      [[ $rc == 0 ]] || field=loaded_as_usual  # nothing fits: the ordinary load
      file=$(sed -n "s/^  \"$field\": \"\(.*\)\",\$/\1/p" <<<"$answer")
      rc=0
      got=$(LD_LIBRARY_PATH=$FAKES/$first/lib64 CUDNN_COMPAT_REQUIRE=$need LD_AUDIT=$shim \
        python3 "$t/maps.py" "$name" 2>/dev/null) || rc=$?
      # resolve says the load fails: the process's must (libcudnn.so routed as libcudnn.so.8 took
      # the loader's libcudnn.so, a cuDNN 5, where resolve said it failed).
      if [[ -z $file ]]; then
        [[ $rc != 0 ]] || fail "resolve said the load fails, the shim's process mapped '$got'$case"
        compared=$((compared + 1))
        continue
      fi
      [[ $rc == 0 ]] || continue  # the process's load failed
      [[ $got == "$(realpath "$file")" ]] || fail "resolve named $file, the shim's process mapped '$got'$case"
      compared=$((compared + 1))
    done
  done
done
(( compared >= 80 )) || fail "only $compared cases compared"
echo "compared $compared cases"
# A path that is not there: the shim leaves the load failing, and resolve says so (it named a
# release of the map).
expect_rc 1 cc resolve "$t/nothing/libcudnn.so.9" --require 9.1
has "no such file; a load by a path that is not there fails"

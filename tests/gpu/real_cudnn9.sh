# The real cuDNN 9 under /usr/local/cuda: the architectures its libraries carry, read from their
# .nv_fatbin sections, and the answer for a Volta node (none of its libraries runs there).
source "$(dirname "$0")/common.sh"
real=/usr/local/cuda/lib64
[[ -e $real/libcudnn.so.9 ]] || skip "no real cuDNN 9 at $real"
expect_rc 0 "$CUDNN_COMPAT" probe "$real/libcudnn.so.9" --json
version=$(sed -n 's/.*"version": *"\([0-9.]*\)".*/\1/p' <<<"$out" | head -1)
cuda=$(sed -n 's/.*"cuda": *"\([0-9.]*\)".*/\1/p' <<<"$out" | head -1)
[[ -n $version && -n $cuda ]] || fail "no version or CUDA probed:"$'\n'"$out"
printf 'schema = 1\n[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "%s"\n' "$version" "$real" "$cuda" >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml" --json
echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin)["device_code"][0]
for lib, c in sorted(d["libraries"].items()): print(lib, "sm", *c["cubin"], "ptx", *c["ptx"])
print("runs_on", *d["runs_on"])'
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "cuDNN $version in $real (CUDA $cuda) runs on compute capability 7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.1 10.3 12.0 12.1;"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0 --driver 13.0
has "carries no code for compute capability 7.0"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 9.0 --driver 13.0
has "-> $real/libcudnn.so.9"

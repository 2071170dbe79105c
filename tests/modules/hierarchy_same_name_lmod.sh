# One module name in two branches of an Lmod hierarchy (cudnn/5 under gcc/11.3.0 is 5.0.5, under
# gcc/12.2.0 5.1.10): scan lists both, each with its parent, and the hook judges the one the loaded
# compiler reaches (an outside admin's finding: scan left one out and the hook warned that the
# fitting cudnn/5 under gcc/12.2.0 provided 5.0.5).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
hierarchy_tree 5 5

expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod --replace -o "$t/map.toml"  # over common.sh's map
lacks "not added"
[[ $(grep -c '^module = "cudnn/5"$' "$t/map.toml") == 2 ]] || fail "not both cudnn/5: $(cat "$t/map.toml")"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"

module load gcc/12.2.0 tensorflow/1.0 cudnn/5; msg
lacks "was built with"
[[ :$LOADEDMODULES: == *:cudnn/5:* ]] || fail "cudnn/5 not loaded: $LOADEDMODULES"
module purge
module load gcc/11.3.0 tensorflow/1.0 cudnn/5 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5 provides 5.0.5"
has "module load gcc/12.2.0 cudnn/5 (5.1.10"

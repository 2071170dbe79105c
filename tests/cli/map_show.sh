#!/usr/bin/env bash
# map show prints the map normalised (the form `scan` will write), or as JSON; bad maps are refused.
. "$(dirname "$0")/common.sh"

fake_map >"$t/map.toml"
CUDNN_COMPAT_MAP="$t/map.toml" expect_rc 0 cc map show
has 'prefer = "newest"'
has 'module = "cuDNN/8.9.7.29-CUDA-12.2.0"'
# The normalised form reads back to itself.
cc map show "$t/map.toml" >"$t/again.toml"
expect_rc 0 cc map show "$t/again.toml"
[[ $out == "$(cat "$t/again.toml")" ]] || fail "map show is not a fixed point"

expect_rc 0 cc map show --json "$t/map.toml"
has '"rule": "nvidia"'
has '"match": "/opt/apps/tensorflow/1.0/*"'

printf 'schema = 3\n' >"$t/future.toml"
expect_rc 1 cc map show "$t/future.toml"
has "unknown schema 3"

# With no map found, the advice names --map (an outside tester's finding: show and validate took
# the map only as FILE, and refused the --map the advice names).
unset CUDNN_COMPAT_MAP
expect_rc 1 cc map show
has "pass --map"
expect_rc 0 cc module-check --system lmod --need tf/1=5.1 --loaded cudnn/5.0=
has "no version map found"
has "tell the site's admins"  # a user at module load can pass no --map to the hook
lacks "pass --map"
expect_rc 1 cc map show --map "$t/future.toml"
has "unknown schema 3"
expect_rc 1 cc map validate --map "$t/future.toml"
has "unknown schema 3"
# The map once, as FILE or as --map: both is one too many, said as such; an empty FILE is named so.
expect_rc 2 cc map show "$t/future.toml" --map "$t/future.toml"
has "--map excludes FILE"
expect_rc 2 cc map validate ""
has "FILE: an empty argument"
# A map validate calls invalid (a relative lib, which jobs skip) is shown as read, and exits 1 as
# validate does (an outside tester's finding: exit 0, nothing said).
printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\nlib = "rel/lib64"\n' >"$t/relative.toml"
expect_rc 1 cc map validate "$t/relative.toml"
expect_rc 1 cc map show "$t/relative.toml"
has 'lib = "rel/lib64"'
has "is relative: each job would load it from its own working directory"

# A map whose only fitting release has a relative lib: resolve said "no installed cuDNN fits" and
# asked the admins for a release the site has (an outside tester's finding); now it names that
# release and its lib, and the mend is the map's.
# (cuDNN 8: a machine's own cuDNN 9 in ld.so.cache would fit, and the shim, and so resolve, keeps it.)
source "$(dirname "$0")/common.sh"
mkdir -p "$t/rel"
cp -a "$FAKES/8.1.0/lib64" "$t/rel/lib"
printf 'schema = 1\n[[cudnn]]\nversion = "8.1.0"\nlib = "rel/lib"\nmodule = "cudnn/8.1.0"\n' >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
cd "$t"  # where the relative lib would even be found
expect_rc 1 cc resolve libcudnn.so.8 --require 8.0
has "no cuDNN the map can hand out fits cuDNN 8.0"
has "one would fit but its lib is a relative path: 8.1.0 (lib \"rel/lib\")"
has "Write that lib in $t/map.toml as an absolute path"
lacks "Ask the admins"
# A release that would not fit anyway is no reason to mend the map.
expect_rc 1 cc resolve libcudnn.so.8 --require 8.9
lacks "relative path: 8.1.0"
has "Ask the admins for cuDNN 8.9 or a newer 8.x"

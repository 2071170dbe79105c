# A site map that does not parse, beside a Python environment: the shim judges the environment's
# cuDNN alone, and its one line says the map is not used and why, not only that no installed
# cuDNN fits (helper 105 r09: the line blamed the installs, and asked the admins for a release the
# broken map listed).
source "$(dirname "$0")/common.sh"
torch_above_its_wheel
printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0\n' >"$t/map.toml"
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92000"
has "the map is not used: $t/map.toml:3:"
count "cudnn-compat:" 1
# A map CUDNN_COMPAT_MAP names but that is not there (mistyped) is said the same way where the
# line is said anyway (helper 106: "no installed cuDNN fits" alone), and no line is added where
# the environment's release fits.
export CUDNN_COMPAT_MAP=$t/mistyped.toml
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92000"
has "the map is not used: $t/mistyped.toml: error: cannot read the map: No such file or directory"
count "cudnn-compat:" 1

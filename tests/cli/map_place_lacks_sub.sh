#!/usr/bin/env bash
# A map's place (a tarball's layout, not a wheel) whose directory lacks a sub-library its family
# names: its probe fails, and map validate advised "make it load (ldd ... names what it lacks)",
# though ldd names none of what cuDNN dlopens (helper 117, r03). It names the file and the remedy.
. "$(dirname "$0")/common.sh"
mkdir "$t/place"
cp -a "$FAKES/9.20.0/lib64/." "$t/place/"
rm "$t/place"/libcudnn_ops.so*
printf 'schema = 1\n[[cudnn]]\nversion = "9.20.0"\nlib = "%s"\n' "$t/place" >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
has "cuDNN 9.20.0 is left out of the decision table: $t/place/libcudnn.so.9 did not load"
has "its directory lacks libcudnn_ops.so.9, which its own libraries load"
has "install the release whole there again, or remove the entry"
lacks "ldd"

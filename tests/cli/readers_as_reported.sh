# Every reader of the map takes a release as its library reports it (an outside tester's
# findings, each failing before): module-check, which the hooks ask where no table is believed,
# advised a swap into the misfit when two entries' libraries swap their versions, and believed a
# map's CUDA its library contradicts; modulefiles wrote the map's version into whatis and help;
# map validate let a CUDA minor the library contradicts pass, and advised "set version" for one
# entry whose places hold two releases; doctor called the tables in use after a library they were
# written with had been replaced.
source "$(dirname "$0")/common.sh"
entries "5.1.10:$FAKES/5.0.5/lib64:cudnn/5.1-lie" "5.0.5:$FAKES/5.1.10/lib64:cudnn/5.0-lie" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
expect_rc 1 cc module-check --system lmod --need app/51=5.1 --loaded cudnn/5.1-lie --loaded app/51
has "cudnn/5.1-lie provides 5.0.5"
has "Use: module swap cudnn/5.1-lie cudnn/5.0-lie"
expect_rc 0 cc module-check --system lmod --need app/51=5.1 --loaded cudnn/5.0-lie --loaded app/51
lacks "warning"

cc modulefiles --format lua -o "$t/lua" >/dev/null 2>"$t/err"
grep -q 'whatis("Version: 5.0.5")' "$t/lua/cudnn/5.1-lie.lua" || fail "whatis: $(grep whatis "$t/lua/cudnn/5.1-lie.lua")"
grep -q "the map says 5.1.10 but $FAKES/5.0.5/lib64/libcudnn.so.5 reports 5.0.5; written as its library reports it" "$t/err" ||
  fail "modulefiles said: $(cat "$t/err")"

# CUDA: 9.0.0 listed for CUDA 11.8, its library built for 12.2.
printf 'schema = 1\n[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "11.8"\nmodule = "cudnn/9.0"\n' \
  "$FAKES/9.0.0/lib64" >"$t/map.toml"
expect_rc 0 cc module-check --need app/1=9.0,cuda=12 --loaded cudnn/9.0 --loaded app/1
lacks "11.8"
expect_rc 1 cc module-check --need app/1=9.0,cuda=11 --loaded cudnn/9.0 --loaded app/1
has "built for CUDA 12.2, not CUDA 11"

# A CUDA minor the library contradicts: a warning, with --probe too (no decision changes).
cuda=$(cc --json probe "$FAKES/9.0.0/lib64/libcudnn.so.9" | sed -n 's/.*"cuda": "\([0-9.]*\)".*/\1/p' | head -1)
[[ $cuda == 12.2 ]] || fail "the FAKE 9.0.0 reports CUDA '$cuda'"
sed -i 's/cuda = "11.8"/cuda = "12.7"/' "$t/map.toml"
for probe in "" --probe; do
  expect_rc 0 cc map validate $probe "$t/map.toml"
  has "warning: the map says CUDA 12.7 but the library of cuDNN 9.0.0 was built for CUDA 12.2"
done

# One entry whose places hold two releases: split it, not "set version".
printf 'schema = 1\n[[cudnn]]\nversion = "9.1.0"\nlib = ["%s", "%s"]\n' "$FAKES/9.1.0/lib64" \
  "$FAKES/9.20.0/lib64" >"$t/map.toml"
expect_rc 1 cc map validate --probe "$t/map.toml"
has "the places of this entry hold different builds"
has "give each a [[cudnn]] entry of its own"
count "hold different builds" 1
lacks "set version"

# A library replaced after map validate: doctor says the tables judge it as it was.
cp -a "$FAKES/9.20.0" "$t/rel"
entries "9.20.0:$t/rel/lib64:cudnn/9.20" >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
# doctor's exit says what it found on this machine, not what is checked here.
expect_rc_any() { out=$("$@" 2>&1) || true; }
expect_rc_any cc doctor
lacks "changed since map validate"
rm -rf "$t/rel" && cp -a "$FAKES/9.0.0" "$t/rel"
(cd "$t/rel/lib64" && for f in *9.0.0*; do mv "$f" "${f/9.0.0/9.20.0}"; done)
expect_rc_any cc doctor
has "$t/rel/lib64/libcudnn.so.9 changed since map validate wrote the tables"

# An entry whose directory holds only another major's library (5.1.10 over cuDNN 6.0.21's): the
# hooks' tables and module-check called its module a fit for 5.1 (helper 89), though it gives a
# program no libcudnn.so.5; as its library reports it, it is a cuDNN 6.
entries "5.1.10:$FAKES/6.0.21/lib64:cudnn/5.1-six" "5.0.5:$FAKES/5.0.5/lib64:cudnn/5.0" >"$t/map.toml"
expect_rc 0 cc map validate
grep -qP '^F\tcudnn/5.1-six\t5' "$t/map.toml.fits" && fail "fits table: $(grep 5.1-six "$t/map.toml.fits")"
grep -qP '^F\tcudnn/5.1-six\t6.0.21$' "$t/map.toml.fits" || fail "fits table: $(cat "$t/map.toml.fits")"
for tables in kept removed; do
  [[ $tables == removed ]] && rm "$t/map.toml."*
  expect_rc 1 cc module-check --system lmod --need app/51=5.1 --loaded cudnn/5.1-six --loaded app/51
  has "cudnn/5.1-six provides 6.0.21; it is cuDNN 6.0.21, not a cuDNN 5"
done
expect_rc 1 cc resolve libcudnn.so.5 --require 5.1
has "as its library reports it: the map says 5.1.10 but $FAKES/6.0.21/lib64/libcudnn.so.6 reports 6.0.21"

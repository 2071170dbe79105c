# Issue 21, retire as an outside tester tried it. A release in two places with two modules (an
# EasyBuild and a Spack build) retires in both: the Lmod entry keys both ("A|B", as Lmod reads
# it; the real Lmod shows its message for each) and module-forbid/module-warn name both. A
# modulerc holding this release's begin line and no end line is not written (replacing to the end
# would take the admin's lines after it); one file given for two stanzas, or the usage database,
# is refused, all or nothing; --json prints one document. Before: the second module was left out,
# the admin's lines deleted, one stanza lost while both were said written, text after the JSON.
source "$(dirname "$0")/common.sh"
cp -a "$FAKES/9.0.0" "$t/spack-9.0.0"
printf '[[cudnn]]\nversion = "9.0.0"\nlib = ["%s", "%s"]\ncuda = "12.3"\nmodule = ["cudnn/9.0", "cudnn/9.0-spack"]\n' \
  "$FAKES/9.0.0/lib64" "$t/spack-9.0.0/lib64" >>"$t/map.toml"
cc map validate "$t/map.toml" >/dev/null
soon=$(date -u -d '+30 days' +%F)
snapshot() { cat "$t/map.toml" "$t/admin.list" "$t/modulerc" 2>/dev/null | sha256sum; }

printf '#%%Module\n' >"$t/modulerc"
expect_rc 0 cc retire 9.0.0 --after "$soon" --lmod "$t/admin.list" --envmodules "$t/modulerc"
out=$(cat "$t/admin.list")
has '^cudnn/9%.0$|^cudnn/9%.0%-spack$: cuDNN 9.0.0 (cudnn/9.0, cudnn/9.0-spack) retires on'
out=$(cat "$t/modulerc")
count "{cudnn/9.0} {cudnn/9.0-spack}" 2
if [[ -x $lmod_cmd ]]; then
  for m in cudnn/9.0 cudnn/9.0-spack; do
    mkdir -p "$t/mf/$(dirname "$m")" && echo 'whatis("fake")' >"$t/mf/$m.lua"
    out=$(env -i HOME="$t" PATH=/usr/bin:/bin LMOD_ADMIN_FILE="$t/admin.list" MODULEPATH="$t/mf" \
      bash -c "source /usr/share/lmod/lmod/init/bash; module load $m" 2>&1)
    has "retires on $soon"
  done
fi

# A begin line without its end: nothing written, every line kept.
printf '#%%Module\n# cudnn-compat retire 9.0.0 (begin)\nmodule-forbid gcc/4.8\n' >"$t/modulerc"
before=$(snapshot)
expect_rc 1 cc retire 9.0.0 --after "$soon" --envmodules "$t/modulerc"
has "holds the start of this release's stanza (# cudnn-compat retire 9.0.0 (begin)) but not its end"
[[ $(snapshot) == "$before" ]] || fail "a file was written"

# One file for two stanzas, and the database: refused, nothing written.
printf '#%%Module\n' >"$t/modulerc"
before=$(snapshot)
expect_rc 1 cc retire 9.0.0 --after "$soon" --lmod "$t/modulerc" --envmodules "$t/modulerc"
has "is the same file as the Lmod admin.list $t/modulerc"
expect_rc 1 cc retire 9.0.0 --after "$soon" --lmod "$t/map.toml"
has "is the same file as the Lmod admin.list $t/map.toml"
[[ $(snapshot) == "$before" ]] || fail "a file was written"

# --json: one document on stdout.
expect_rc 0 cc --json retire 9.0.0 --after "$soon" --dry-run
python3 -c 'import json,sys; json.loads(sys.argv[1])' "$(cc --json retire 9.0.0 --after "$soon" --dry-run 2>/dev/null)" ||
  fail "--json retire printed no one JSON document"

# Module names that Tcl and Lmod read specially: one ending in a backslash is one Tcl word (the
# modulerc still parses, for every user, and names it exactly); a '|', which Lmod splits its keys
# at, matches as any one character (an outside tester: the modulerc broke, the key split).
sed 's|module = \["cudnn/9.0", "cudnn/9.0-spack"\]|module = ["cudnn/9.0\\\\", "cudnn/9\|0"]|' "$t/map.toml" >"$t/odd.toml"
grep -q 'cudnn/9|0' "$t/odd.toml" || fail "the odd map was not made"
cc map validate "$t/odd.toml" >/dev/null
printf '#%%Module\n' >"$t/odd.modulerc"
expect_rc 0 cc retire 9.0.0 --after "$soon" --map "$t/odd.toml" --lmod "$t/odd.list" --envmodules "$t/odd.modulerc"
out=$(printf 'proc module-forbid {args} {puts [lindex $args end-1]; puts [lindex $args end]}\nproc module-warn {args} {}\nsource %s\n' \
  "$t/odd.modulerc" | tclsh 2>&1)
has 'cudnn/9.0\'
has 'cudnn/9|0'
out=$(cat "$t/odd.list")
has '^cudnn/9%.0\$|^cudnn/9.0$: cuDNN 9.0.0'

# Issue 21, item 4 on the real Lmod: `retire 9.0.0 --after DATE --lmod admin.list` writes an entry
# Lmod prints at `module load` (LMOD_ADMIN_FILE), naming the replacement the one decision chooses
# (9.1.0, cudnn/9.1); a second retire replaces its own entry and keeps the admin's others; the map
# gets retire_after, and once the day has come resolve hands 9.0.0 over no more.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs lmod)"
retiring_release
lmod_tree
printf 'cudnn/5.0: the admins keep this line\n\n' >"$t/admin.list"
expect_rc 0 cc retire 9.0.0 --after 2099-01-31 --lmod "$t/admin.list" --envmodules "$t/modulerc"
has "replacement for the needs of its own x.y (9.0 on CUDA 12): cuDNN $repl_version ($repl)"
has "Lmod admin.list written: $t/admin.list"
has "retire_after = \"2099-01-31\""
expect_rc 0 cc retire 9.0.0 --after 2099-02-01 --lmod "$t/admin.list"
out=$(cat "$t/admin.list")
count "# cudnn-compat retire 9.0.0" 1
has "cudnn/5.0: the admins keep this line"
export LMOD_ADMIN_FILE=$t/admin.list
lmod_module load cudnn/9.0; msg
has "cuDNN 9.0.0 (cudnn/9.0) retires on 2099-02-01"
has "$repl"
lmod_module purge
lmod_module load cudnn/9.1; msg
lacks "retires"
out=$(cat "$t/map.toml")
count 'retire_after = "2099-02-01"' 1

# The day has come: the engine hands it over no more (the table leaves it to the engine).
expect_rc 0 cc resolve libcudnn.so.9 --rule exact --require 9.0.0
has "$FAKES/9.0.0/lib64"
today=$(date +%F)
expect_rc 0 cc retire 9.0.0 --after "$today"
expect_rc 1 cc resolve libcudnn.so.9 --rule exact --require 9.0.0
has "retired on $today"

# Exactly x.y.z is retired; --dry-run says all and writes nothing.
for bad in 9.0.0.1 v9.0.0 "9.0.0 " 9.0; do
  expect_rc 2 cc retire "$bad" --after 2099-03-01
  has "expected the release to retire, x.y.z"
done
before=$(cat "$t/map.toml" "$t/admin.list" | sha256sum)
expect_rc 0 cc retire 9.1.0 --after 2099-03-01 --dry-run --lmod "$t/admin.list"
has "dry run: nothing written"
has "^cudnn/9%.1$: cuDNN 9.1.0 (cudnn/9.1) retires on 2099-03-01"
[[ $(cat "$t/map.toml" "$t/admin.list" | sha256sum) == "$before" ]] || fail "--dry-run wrote"

# A site's admin.list is often a link to a shared file: written through it, the link stays.
mkdir "$t/shared" && printf 'x: the admins keep this\n' >"$t/shared/admin.list"
ln -s "$t/shared/admin.list" "$t/linked.list"
expect_rc 0 cc retire 9.1.0 --after 2099-03-01 --lmod "$t/linked.list"
[[ -L $t/linked.list ]] || fail "the link to the shared admin.list was replaced by a file"
out=$(cat "$t/shared/admin.list")
has "x: the admins keep this"
has "cuDNN 9.1.0 (cudnn/9.1) retires on 2099-03-01"

#!/usr/bin/env bash
# Issue 25 item 3: a map distributed as sites do (cp -p, a plain cp that rewrites mtimes, tables
# written elsewhere with validate --tables-dir) keeps its tables: on the installed and moved tree,
# with no CUDNN_COMPAT_MAP, a fitting job is redirected by the shim without a process, both hooks
# answer a misfit without module-check, and doctor says the tables are in use (and why not when
# they are not).
. "$(dirname "$0")/common.sh"
need_module_systems
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
install_to "$t/stage" && mv "$t/stage" "$t/opt"
p=$t/opt etc=$t/opt/etc/cudnn-compat
tool() { "$p/bin/cudnn-compat" "$@"; }
mkdir -p "$t/admin" "$etc"
site_map >"$t/admin/map.toml"
for f in lua tcl; do CUDNN_COMPAT_MAP=$t/admin/map.toml tool modulefiles --format $f -o "$t/modules/$f" >/dev/null; done
app_modules "$t/modules"
tf2016_client

# in_use: every reader on this "node" takes the tables beside the installed map.
in_use() {
  # The shim: the redirect without the engine (execve: env and the client only).
  strace -f -qq -e trace=execve -o "$t/trace" env CUDNN_COMPAT_REQUIRE=5.1 \
    LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$p/lib/cudnn-compat/libcudnn-compat.so" \
    "$t/apps/tf2016" >"$t/job" 2>&1 || fail "$1: the job failed: $(cat "$t/job")"
  grep -qF "cuDNN 5110 from $FAKES/5.1.10/lib64" "$t/job" || fail "$1: not redirected: $(cat "$t/job")"
  [[ $(grep -c 'execve(' "$t/trace") == 2 ]] || fail "$1: the shim started the engine:"$'\n'"$(cat "$t/trace")"
  # Both hooks: the misfit told from the tables, module-check never started.
  printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$t/started" "$p/bin/cudnn-compat" >"$t/counted"
  chmod +x "$t/counted"
  for system in lmod tcl; do
    CUDNN_COMPAT_BIN=$t/counted $system "$p" load tensorflow/1.0 cudnn/5.0 || true
    has "$misfit"
    [[ ! -e $t/started ]] || fail "$1: $system started module-check: $(cat "$t/started")"
    $system "$p" purge
  done
  expect_rc 0 tool doctor
  count "not in use" 0
  count "table: $etc/map.toml" 4
  echo "$1: tables in use"
}

expect_rc 0 tool map validate "$t/admin/map.toml"
cp -p "$t/admin"/map.toml* "$etc/"
in_use "cp -p"

# Configuration management writes new files: new inodes and mtimes, the map last.
rm "$etc"/map.toml*
cp "$t/admin"/map.toml.* "$etc/" && sleep 1.1 && cp "$t/admin/map.toml" "$etc/"
in_use "cp"

# A map directory the validator cannot write (a configuration repository, an image being built):
# the tables are written elsewhere and shipped beside the map.
rm "$etc"/map.toml* "$t/admin"/map.toml.*
mkdir "$t/out"
expect_rc 0 tool map validate --tables-dir "$t/out" "$t/admin/map.toml"
has "tables written: $t/out/map.toml.cache "
[[ ! -e $t/admin/map.toml.cache ]] || fail "--tables-dir wrote beside the map"
cp "$t/admin/map.toml" "$t/out"/map.toml.* "$etc/"
in_use "--tables-dir"

# The map edited on the node: doctor says which tables are not in use, and why.
echo '# edited on the node' >>"$etc/map.toml"
expect_rc 0 tool doctor
count "not in use: $etc/map.toml.decide was made from another map" 1
count "not in use" 4

# Sourced by every tests/modules/*.sh scenario: the real Lmod (Debian package) and the real
# Environment Modules (unpacked into .deps/ by scripts/deps.sh), over a module tree the tests
# build: FAKE cuDNN 5.0.5, 5.1.10, 7.6.5, 8.9.7 (EasyBuild-named) and 9.1.0, the real cuDNN 9 when
# present, and the applications tensorflow/1.0 (built with cuDNN 5.1) and pytorch/2.1 (8.9, CUDA 12).
# CTest passes CUDNN_COMPAT, FAKES, CC, SHARE (build/share/cudnn-compat) and ENVMODULES (the
# unpacked prefix).
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${CUDNN_COMPAT:?}" "${FAKES:?}" "${SHARE:?}" "${ENVMODULES:?}" "${CC:?}"
unset LOADEDMODULES _LMFILES_ _ModuleTable_ MODULEPATH LMOD_PACKAGE_PATH MODULES_SITECONFIG
unset __MODULES_LMALTNAME __MODULES_LMCONFLICT __MODULES_SHARE_LD_LIBRARY_PATH
export LMOD_IGNORE_CACHE=1 HOME=$t  # no spider cache, no ~/.lmod.d from elsewhere
export CUDNN_COMPAT_MAP=$t/map.toml CUDNN_COMPAT_BIN=$CUDNN_COMPAT
cc() { "$CUDNN_COMPAT" "$@"; }
lmod_cmd=/usr/share/lmod/lmod/libexec/lmod
modulecmd=$ENVMODULES/usr/lib/x86_64-linux-gnu/modulecmd.tcl

# The site's map, with the module each release comes from.
{
  echo 'schema = 1'
  echo '[policy]'
  echo "rule = \"nvidia\""
  entry() { printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "%s"\nmodule = "%s"\n' "$@"; }
  entry 5.0.5 "$FAKES/5.0.5/lib64" 8.0 cudnn/5.0
  entry 5.1.10 "$FAKES/5.1.10/lib64" 8.0 cudnn/5.1
  entry 7.6.5 "$FAKES/7.6.5/lib64" 10.2 cudnn/7.6
  entry 8.9.7 "$FAKES/8.9.7/lib64" 12.2 cuDNN/8.9.7.29-CUDA-12.2.0
  entry 9.1.0 "$FAKES/9.1.0/lib64" 12.4 cudnn/9.1
  if [[ -e /usr/local/cuda/lib64/libcudnn.so.9 ]]; then
    real=$(cc --json probe /usr/local/cuda/lib64)
    entry "$(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' <<<"$real")" /usr/local/cuda/lib64 \
      "$(sed -n 's/.*"cuda": "\([^"]*\)".*/\1/p' <<<"$real")" cudnn/9-real
  fi
} >"$t/map.toml"
cc map validate "$t/map.toml" >/dev/null

# lmod_tree / tcl_tree: the cuDNN modules generated from the map, plus the applications.
lmod_tree() {
  cc modulefiles --format lua -o "$t/lua" >/dev/null
  mkdir -p "$t/lua/tensorflow" "$t/lua/pytorch"
  echo 'cudnn_requires("5.1")' >"$t/lua/tensorflow/1.0.lua"
  echo 'cudnn_requires("8.9", {cuda = "12"})' >"$t/lua/pytorch/2.1.lua"
  export MODULEPATH=$t/lua LMOD_PACKAGE_PATH=$SHARE/lmod
}
tcl_tree() {
  cc modulefiles --format tcl -o "$t/tcl" >/dev/null
  mkdir -p "$t/tcl/tensorflow" "$t/tcl/pytorch"
  printf '#%%Module1.0\ncudnn-requires 5.1\n' >"$t/tcl/tensorflow/1.0"
  printf '#%%Module1.0\ncudnn-requires 8.9 --cuda 12\n' >"$t/tcl/pytorch/2.1"
  export MODULEPATH=$t/tcl MODULES_SITECONFIG=$SHARE/envmodules/siteconfig.tcl
}

# module ARGS...: the user's `module` command of each system; its messages land in $t/msg.
lmod_module() { eval "$("$lmod_cmd" bash "$@" 2>"$t/msg")"; }
tcl_module() { eval "$(tclsh8.6 "$modulecmd" bash "$@" 2>"$t/msg")"; }
# msg: what the last module command printed, with the module system's line wrapping undone.
msg() { out=$(tr '\n' ' ' <"$t/msg" | tr -s ' '); }
# occurs TEXT N: $out (one line after msg, where `count` cannot tell) holds TEXT exactly N times.
occurs() {
  local n; n=$(grep -oF -- "$1" <<<"$out" | wc -l)
  [[ $n == "$2" ]] || fail "expected '$1' $2 times, got $n in:"$'\n'"$out"
}

# counted_starts: the hooks' cudnn-compat becomes one that notes each start in $t/started.
counted_starts() {
  printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$t/started" "$CUDNN_COMPAT" >"$t/counted"
  chmod +x "$t/counted"
  export CUDNN_COMPAT_BIN=$t/counted
}

# told_from_table SYSTEM APPFILE SWAP: the misfit cudnn/5.0 beside tensorflow/1.0 (modulefile
# APPFILE) is told from the tables, no module-check started, in the very words module-check prints
# for SYSTEM (lmod or envmodules), whose advice says SWAP.
told_from_table() {
  module load cudnn/5.0 tensorflow/1.0 || true
  msg
  [[ ! -e $t/started ]] || fail "module-check was started: $(cat "$t/started")"
  local expected
  expected=$({ cc module-check --system "$1" --need tensorflow/1.0=5.1 --loaded cudnn/5.0 \
    --loaded "tensorflow/1.0=$2" || true; } | tr -s ' ')
  [[ $expected == "warning: tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0"*"$3 cudnn/5.0 cudnn/5.1"* ]] ||
    fail "module-check said: $expected"
  has "${expected#warning: }"
  occurs "was built with" 1
  module purge
}

# strict_from_engine TEXT: under on_module_mismatch = "error" the misfit fails the command with
# TEXT, told by module-check (the tables hold warnings only): the advice after a refusal is the
# refused command again, which only module-check is told.
# huge_map_not_read: after the tables of $t/map.toml are made and believed, the map grows to 4 GB
# (sparse). The hook does not read it to compare with the tables' stamp (a size other than the
# stamped one is another map): the misfit cudnn/5.0 beside tensorflow/1.0 returns at once, told by
# module-check, which refuses a map over 16 MiB unread (before: 31 s under Lmod; Tcl failed with
# "max size for a Tcl value exceeded"). The map is put back.
huge_map_not_read() {
  cc map validate "$t/map.toml" >/dev/null
  rm -f "$t/started"
  module load tensorflow/1.0 cudnn/5.0 || true
  module purge
  [[ ! -e $t/started ]] || fail "the freshly validated tables were not believed"
  cp -p "$t/map.toml" "$t/map.saved"
  truncate -s 4G "$t/map.toml" || skip "no sparse 4 GB file here"
  local start=$SECONDS
  module load tensorflow/1.0 cudnn/5.0 || true; msg
  ((SECONDS - start < 20)) || fail "module load took $((SECONDS - start)) s with a 4 GB map"
  [[ -s $t/started ]] || fail "the tables of a map of another size were believed: $out"
  has "16777216"
  module purge
  mv "$t/map.saved" "$t/map.toml"
}

strict_from_engine() {
  strict_map
  ! grep -q '^W' "$t/map.toml.misfits" || fail "a strict map's misfits table holds advice: $(cat "$t/map.toml.misfits")"
  rm -f "$t/started"
  local rc=0
  module load tensorflow/1.0 cudnn/5.0 || rc=$?
  msg
  [[ $rc != 0 ]] || fail "strict mode did not fail the command"
  has "$1"
  has "Use: module load tensorflow/1.0 cudnn/5.1 (5.1.10)"
  [[ -s $t/started ]] || fail "a refusal was told from the table, without the refused command"
}

# strict_map: the same map with [policy] on_module_mismatch = "error" (lenient_map puts it back).
strict_map() {
  cp "$t/map.toml" "$t/map.lenient"
  sed -i 's/^\[policy\]$/[policy]\non_module_mismatch = "error"/' "$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
}
lenient_map() {
  mv "$t/map.lenient" "$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
}
# tf2016_client: issue 3's TensorFlow-2016-like program, built into $t/tf2016.
tf2016_client() {
  "$CC" -o "$t/tf2016" "$(dirname "${BASH_SOURCE[0]}")/../shim/tf2016_client.c" -ldl
}

# hierarchy_tree OLD NEW: an Lmod hierarchy in $t/hier, MODULEPATH at its Core: gcc/11.3.0 and
# gcc/12.2.0 (one family), cudnn/OLD (FAKE 5.0.5) only under gcc/11.3.0, cudnn/NEW (FAKE 5.1.10)
# only under gcc/12.2.0, and tensorflow/1.0 (cuDNN 5.1) in Core; module() is Lmod's.
hierarchy_tree() {
  local h=$t/hier v
  mkdir -p "$h/Core/gcc" "$h/Core/tensorflow" "$h/gcc/11.3.0/cudnn" "$h/gcc/12.2.0/cudnn" "$h/opt"
  for v in 11.3.0 12.2.0; do
    printf 'family("compiler")\nprepend_path("MODULEPATH", "%s")\n' "$h/gcc/$v" >"$h/Core/gcc/$v.lua"
  done
  cp -a "$FAKES/5.0.5" "$h/opt/5.0.5" && cp -a "$FAKES/5.1.10" "$h/opt/5.1.10"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$h/opt/5.0.5/lib64" >"$h/gcc/11.3.0/cudnn/$1.lua"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$h/opt/5.1.10/lib64" >"$h/gcc/12.2.0/cudnn/$2.lua"
  echo 'cudnn_requires("5.1")' >"$h/Core/tensorflow/1.0.lua"
  export MODULEPATH=$h/Core LMOD_PACKAGE_PATH=$SHARE/lmod
  module() { lmod_module "$@"; }
}

# followed: runs the advice in $t/msg as printed, and checks that tensorflow/1.0 and cudnn/5.1 are
# loaded then.
followed() {
  local advice
  advice=$(grep -o 'Use: module [^(]*' "$t/msg" | head -1)
  [[ -n $advice ]] || fail "no advice after the refusal: $(cat "$t/msg")"
  eval "${advice#Use: }" || fail "the advice failed: ${advice#Use: }"
  [[ :$LOADEDMODULES: == *:tensorflow/1.0:* && :$LOADEDMODULES: == *:cudnn/5.1:* ]] ||
    fail "after '${advice#Use: }': $LOADEDMODULES"
}

# check_hooks: the scenarios both module systems must pass, through module() and $swap: silent when
# everything fits; one warning with both versions, the rule and the fix in either load order and
# gone after a swap; CUDA and EasyBuild names; an error that leaves the environment as it was under
# on_module_mismatch = "error"; a broken map costing one line; and the shim's module curing the job.
check_hooks() {
  fix="tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5; before cuDNN 7 the minor version must match (5.0 vs 5.1). Use: module $swap cudnn/5.0 cudnn/5.1 (5.1.10)"

  module load tensorflow/1.0 cudnn/5.1; msg
  [[ -z $out ]] || fail "expected silence when everything fits, got: $out"
  [[ $CUDNN_COMPAT_REQUIRE == 5.1 ]] || fail "cudnn_requires did not set CUDNN_COMPAT_REQUIRE"
  module purge
  [[ -z ${CUDNN_COMPAT_REQUIRE:-} ]] || fail "unloading did not undo CUDNN_COMPAT_REQUIRE"

  module load cudnn/5.0 tensorflow/1.0 || true; msg; has "$fix"
  module purge; module load tensorflow/1.0; module load cudnn/5.0 || true; msg; has "$fix"
  module $swap cudnn/5.0 cudnn/5.1; msg; lacks "was built with"
  module purge

  # CUDA counts too, and the EasyBuild-named module is known by the map, not by its name.
  module load pytorch/2.1 cudnn/7.6 || true; msg
  has "pytorch/2.1 was built with cuDNN 8.9 for CUDA 12 but cudnn/7.6 provides 7.6.5"
  has "Use: module $swap cudnn/7.6 cuDNN/8.9.7.29-CUDA-12.2.0 (8.9.7)"
  module $swap cudnn/7.6 cuDNN/8.9.7.29-CUDA-12.2.0; msg; lacks "was built with"
  module purge

  # A map edited after the fits table was written: the stale table is not trusted. (The edit
  # points cudnn/5.1 at another release's directory: its library's word is the release.)
  cp "$t/map.toml" "$t/map.good"
  sed -i 's#/5.1.10/lib64"$#/5.0.5/lib64"#' "$t/map.toml"
  grep -q '/5.0.5/lib64"$' "$t/map.toml" || fail "the edit did not apply"
  module load tensorflow/1.0 cudnn/5.1 || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.1 provides 5.0.5"
  module purge
  cp "$t/map.good" "$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null

  # Strict: the command fails and changes nothing.
  strict_map
  module load tensorflow/1.0
  rc=0; module load cudnn/5.0 || rc=$?; msg
  [[ $rc != 0 ]] || fail "strict mode did not fail the command"
  has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  [[ $LOADEDMODULES == tensorflow/1.0 ]] || fail "the environment changed: $LOADEDMODULES"
  [[ -z ${LD_LIBRARY_PATH:-} ]] || fail "LD_LIBRARY_PATH changed: $LD_LIBRARY_PATH"
  # The refused command loaded nothing: its advice works from where it left the user (Lmod's
  # swap of a module that is not loaded fails).
  advice=$(grep -o 'Use: module [a-z]* [^ ]*\( [^ (]*\)\?' "$t/msg" | head -1)
  [[ -n $advice ]] || fail "no advice after the refusal: $out"
  eval "${advice#Use: }" || fail "the advice after a refusal failed: ${advice#Use: } ($(cat "$t/msg"))"
  [[ $LOADEDMODULES == tensorflow/1.0:cudnn/5.1 ]] || fail "the advice loaded $LOADEDMODULES"
  module purge
  # A refused command loaded nothing, the framework included: the advice is that command again
  # with the fitting cuDNN, or the swap and then its loads (an outside tester's finding: following
  # the advice left the user without TensorFlow; Environment Modules' advised the switch alone).
  rc=0; module load tensorflow/1.0 cudnn/5.0 || rc=$?
  [[ $rc != 0 && -z ${LOADEDMODULES:-} ]] || fail "strict mode loaded ${LOADEDMODULES:-}"
  followed
  module purge
  module load cudnn/5.0
  rc=0; module load tensorflow/1.0 || rc=$?
  [[ $rc != 0 && $LOADEDMODULES == cudnn/5.0 ]] || fail "strict mode loaded $LOADEDMODULES"
  followed
  module purge
  # A refused swap leaves the old module loaded: the advice swaps that one.
  cp "$t/map.good" "$t/map.toml"
  module load tensorflow/1.0 cudnn/7.6 || true
  strict_map
  rc=0; module $swap cudnn/7.6 cudnn/5.0 || rc=$?
  [[ $rc != 0 && $LOADEDMODULES == tensorflow/1.0:cudnn/7.6 ]] || fail "strict mode left $LOADEDMODULES"
  followed
  module purge
  # Two applications no one cuDNN module fits: said, with no command the other would refuse in
  # turn (an outside admin's finding: the advice went round in a circle).
  module load pytorch/2.1 cuDNN/8.9.7.29-CUDA-12.2.0
  rc=0; module load tensorflow/1.0 || rc=$?; msg
  [[ $rc != 0 ]] || fail "strict mode let tensorflow/1.0 beside pytorch/2.1's cuDNN"
  has "No cuDNN module fits both tensorflow/1.0 (cuDNN 5.1) and pytorch/2.1 (cuDNN 8.9 for CUDA 12): load them in separate shells or jobs"
  lacks "Use:"
  module purge

  # A broken map never breaks `module load`: at most one line.
  echo "schema = 7" >"$t/map.toml"
  module load tensorflow/1.0 cudnn/5.0; msg
  [[ $LOADEDMODULES == tensorflow/1.0:cudnn/5.0 ]] || fail "a broken map broke module load"
  occurs "cudnn-compat: note: cannot check the cuDNN modules" 1  # the name once (it came twice)
  module purge

  # The cure: the shim's module in the job, cudnn/5.0 loaded and still 5.1.10 for tensorflow/1.0.
  cp "$t/map.good" "$t/map.toml"
  tf2016_client
  module load tensorflow/1.0 cudnn/5.0 cudnn-compat || true
  expect_rc 0 "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
}

# The modules `cudnn-compat modulefiles` wrote, for the syntax checks.
generated=(cudnn/5.0 cudnn/5.1 cudnn/7.6 cuDNN/8.9.7.29-CUDA-12.2.0 cudnn/9.1 cudnn-compat)

# check_needs: issue 12 item 6. An application's need is the state its modulefile left in the
# module system (CUDNN_COMPAT_NEEDS), not a pattern in its text: a dead call (commented out, or in
# a branch never taken) is not the need, a call with a variable is, and unload, swap and purge
# undo it. Needs the trees of need_lua_apps / need_tcl_apps.
check_needs() {
  module load dead/1.0 cudnn/5.1; msg
  [[ -z $out ]] || fail "a dead cudnn_requires was taken for the need: $out"
  [[ $CUDNN_COMPAT_NEEDS == dead/1.0=5.1 ]] || fail "CUDNN_COMPAT_NEEDS is '$CUDNN_COMPAT_NEEDS'"
  module purge

  module load byvar/1.0 cudnn/5.0 || true; msg
  has "byvar/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  module purge

  module load tensorflow/1.0 pytorch/2.1 cudnn/5.1 || true; msg
  has "pytorch/2.1 was built with cuDNN 8.9 for CUDA 12 but cudnn/5.1"
  [[ :$CUDNN_COMPAT_NEEDS: == *:tensorflow/1.0=5.1:* && :$CUDNN_COMPAT_NEEDS: == *:pytorch/2.1=8.9,cuda=12:* ]] ||
    fail "CUDNN_COMPAT_NEEDS is '$CUDNN_COMPAT_NEEDS'"
  module unload pytorch/2.1; msg
  [[ $CUDNN_COMPAT_NEEDS == tensorflow/1.0=5.1 ]] || fail "unload left '$CUDNN_COMPAT_NEEDS'"
  # The shim's need is tensorflow/1.0's again (an outside admin's finding: unset).
  [[ ${CUDNN_COMPAT_REQUIRE:-} == 5.1 && -z ${CUDNN_COMPAT_CUDA:-} ]] ||
    fail "unload left CUDNN_COMPAT_REQUIRE='${CUDNN_COMPAT_REQUIRE:-}' CUDNN_COMPAT_CUDA='${CUDNN_COMPAT_CUDA:-}'"
  module $swap cudnn/5.1 cudnn/5.0 || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0"
  lacks "pytorch/2.1"
  module $swap cudnn/5.0 cudnn/5.1; msg; lacks "was built with"
  module unload tensorflow/1.0
  [[ -z ${CUDNN_COMPAT_NEEDS:-} ]] || fail "unload left '$CUDNN_COMPAT_NEEDS'"
  module load tensorflow/1.0 cudnn/5.1
  module purge
  [[ -z ${CUDNN_COMPAT_NEEDS:-}${CUDNN_COMPAT_REQUIRE:-} ]] || fail "purge left the need"
  module load cudnn/5.0; msg
  [[ -z $out ]] || fail "a purged application was still checked: $out"
  module purge
}
# check_unload_order: the shim's need is that of the application loaded last among those still
# loaded, in any unload order (an outside tester's finding: after `module load old/1.0
# tensorflow/1.0; module unload old/1.0` Lmod's pushenv restored old/1.0's CUDNN_COMPAT_REQUIRE,
# and the job was held to cuDNN 5.0). Needs old/1.0 (cuDNN 5.0) in the tree; module() set.
check_unload_order() {
  tf2016_client
  module load old/1.0 tensorflow/1.0 cudnn/5.0 cudnn-compat || true
  module unload old/1.0
  [[ $CUDNN_COMPAT_NEEDS == tensorflow/1.0=5.1 ]] || fail "unload left '$CUDNN_COMPAT_NEEDS'"
  expect_rc 0 "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  expect_rc 0 cc resolve libcudnn.so.5
  has "$FAKES/5.1.10/lib64/libcudnn.so.5"
  has "fit cuDNN 5.1 under rule nvidia (from CUDNN_COMPAT_NEEDS (tensorflow/1.0))"
  # The user's own word still wins over the modules'.
  CUDNN_COMPAT_REQUIRE=5.0.5 expect_rc 1 "$t/tf2016"
  has "Loaded runtime CuDNN library: 5005"
  module purge
  # A CUDA that pytorch/2.1 pushed is no need of tensorflow/1.0, loaded after it (an outside
  # tester's finding on Environment Modules, where that variable stays: "5.1 for CUDA 12" fit
  # nothing and the job got 5.0.5).
  module load pytorch/2.1 tensorflow/1.0 cudnn/5.0 cudnn-compat || true
  expect_rc 0 "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  module purge
}
need_lua_apps() {
  mkdir -p "$t/lua/dead" "$t/lua/byvar"
  printf -- '-- cudnn_requires("8.9")\ncudnn_requires("5.1")\n' >"$t/lua/dead/1.0.lua"
  printf 'local built_with = "5.1"\ncudnn_requires(built_with)\n' >"$t/lua/byvar/1.0.lua"
}
need_tcl_apps() {
  mkdir -p "$t/tcl/dead" "$t/tcl/byvar"
  printf '#%%Module1.0\nif {0} {\n  cudnn-requires 8.9\n}\ncudnn-requires 5.1\n' >"$t/tcl/dead/1.0"
  printf '#%%Module1.0\nset built_with 5.1\ncudnn-requires $built_with\n' >"$t/tcl/byvar/1.0"
}

# check_standard_form [APP]: issue 12 item 7. An application modulefile written only with standard
# commands (path-like CUDNN_COMPAT_NEEDS and CUDNN_COMPAT_REQUIRE; APP, plain/1.0 by default,
# built with 5.1) loads where the site's hooks are absent, and is checked where they are. $site is
# the variable that names the hooks.
check_standard_form() {
  local app=${1:-plain/1.0} hooks=${!site}
  unset "$site"
  module load "$app" cudnn/5.0; msg
  [[ -z $out ]] || fail "the standard form printed without the hooks: $out"
  [[ $CUDNN_COMPAT_NEEDS == $app=5.1 && $CUDNN_COMPAT_REQUIRE == 5.1 ]] ||
    fail "the standard form set '${CUDNN_COMPAT_NEEDS:-}' / '${CUDNN_COMPAT_REQUIRE:-}'"
  module purge
  [[ -z ${CUDNN_COMPAT_NEEDS:-}${CUDNN_COMPAT_REQUIRE:-} ]] || fail "purge left the need"
  export "$site=$hooks"
  module load "$app" cudnn/5.0 || true; msg
  has "$app was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  module purge
}

# check_site_map_kept: issue 12 item 2. Unloading the shim's module, or a purge, gives back the
# CUDNN_COMPAT_MAP the site set before; it never leaves the shell without a map.
check_site_map_kept() {
  cp "$t/map.toml" "$t/site-map.toml"
  export CUDNN_COMPAT_MAP=$t/site-map.toml
  module load cudnn-compat
  [[ $CUDNN_COMPAT_MAP == "$t/map.toml" ]] || fail "cudnn-compat set CUDNN_COMPAT_MAP=$CUDNN_COMPAT_MAP"
  module unload cudnn-compat
  [[ ${CUDNN_COMPAT_MAP:-} == "$t/site-map.toml" ]] || fail "unload left CUDNN_COMPAT_MAP='${CUDNN_COMPAT_MAP:-}'"
  module load cudnn-compat
  module purge
  [[ ${CUDNN_COMPAT_MAP:-} == "$t/site-map.toml" ]] || fail "purge left CUDNN_COMPAT_MAP='${CUDNN_COMPAT_MAP:-}'"
  export CUDNN_COMPAT_MAP=$t/map.toml
}

# advice_site: issue 12 item 5's site, a tree of its own in $t/site for $format (lua or tcl):
# EasyBuild's hierarchy (cuDNN 8.9.7 and 9.0.0 in Core/, named as EasyBuild names them, with no
# family, and the application jax/0.4.23 in Compiler/GCC/12.3.0/), Spack's tree (cudnn 9.1.0 with
# a hash, the application py-jax/0.4.23-hijklmn) and an application of neither (plain9/1.0); every
# application was built with cuDNN 9.0 for CUDA 12. The map lists the three releases.
advice_site() {
  local eb=$t/site/eb spack=$t/site/spack/linux-debian12-x86_64/Core apps=$t/site/apps
  mod() {  # mod DIR NAME LIBDIR [NEED]: one modulefile in $format
    mkdir -p "$1/${2%/*}"
    if [[ $format == lua ]]; then
      {
        [[ -n $3 ]] && printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$3"
        [[ -n ${4:-} ]] && printf 'cudnn_requires("9.0", {cuda = "12"})\n'
        [[ $2 == jax/* ]] && printf 'setenv("EBROOTJAX", "%s")\n' "$t/site/eb/software/jax"
      } >"$1/$2.lua"
    else
      {
        echo '#%Module'
        [[ $2 == cuDNN/* ]] && echo 'conflict cuDNN'  # as EasyBuild writes its Tcl modules
        [[ -n $3 ]] && echo "prepend-path LD_LIBRARY_PATH $3"
        [[ -n ${4:-} ]] && echo 'cudnn-requires 9.0 --cuda 12'
        [[ $2 == jax/* ]] && echo "setenv EBROOTJAX $t/site/eb/software/jax"
      } >"$1/$2"
    fi
    return 0
  }
  mod "$eb/Core" cuDNN/8.9.7.29-CUDA-12.2.0 "$FAKES/8.9.7/lib64"
  mod "$eb/Core" cuDNN/9.0.0.312-CUDA-12.2.0 "$FAKES/9.0.0/lib64"
  mod "$eb/Compiler/GCC/12.3.0" jax/0.4.23 "" need
  mod "$spack" cudnn/9.1.0.70-12-abcdefg "$FAKES/9.1.0/lib64"
  mod "$spack" py-jax/0.4.23-hijklmn "" need
  mod "$apps" plain9/1.0 "" need
  export MODULEPATH=$eb/Core:$eb/Compiler/GCC/12.3.0:$spack:$apps
  {
    echo 'schema = 1'
    echo '[policy]'
    echo 'rule = "nvidia"'
    entry() { printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "%s"\nmodule = "%s"\n' "$@"; }
    entry 8.9.7 "$FAKES/8.9.7/lib64" 12.2 cuDNN/8.9.7.29-CUDA-12.2.0
    entry 9.0.0 "$FAKES/9.0.0/lib64" 12.2 cuDNN/9.0.0.312-CUDA-12.2.0
    entry 9.1.0 "$FAKES/9.1.0/lib64" 12.4 cudnn/9.1.0.70-12-abcdefg
  } >"$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
}

# follow_advice APP EXPECTED: with cuDNN 8.9.7 loaded beside APP, the warning advises EXPECTED (the
# release the command loads); running the advised command as the user would clears the warning.
follow_advice() {
  module purge
  module load cuDNN/8.9.7.29-CUDA-12.2.0 "$1" || true; msg
  has "$1 was built with cuDNN 9.0 for CUDA 12 but cuDNN/8.9.7.29-CUDA-12.2.0 provides 8.9.7"
  has "Use: module $swap cuDNN/8.9.7.29-CUDA-12.2.0 $2 ("
  local advised
  advised=$(sed -n 's/.*Use: module \([a-z]* [^ ]* [^ ]*\) (.*/\1/p' <<<"$out")
  module $advised; msg
  lacks "was built with"
  [[ :$LOADEDMODULES: == *:$2:* && :$LOADEDMODULES: != *:cuDNN/8.9.7.29-CUDA-12.2.0:* ]] ||
    fail "after 'module $advised': $LOADEDMODULES"
  module purge
}

# check_advice: the command advised is the one that works in this module system, never a hidden
# module, and of the application's own toolchain first.
check_advice() {
  follow_advice plain9/1.0 cudnn/9.1.0.70-12-abcdefg      # no toolchain: the newest
  follow_advice jax/0.4.23 cuDNN/9.0.0.312-CUDA-12.2.0    # EasyBuild's, though older
  sed -i 's/^rule = "nvidia"$/rule = "nvidia"\nprefer = "oldest"/' "$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
  follow_advice plain9/1.0 cuDNN/9.0.0.312-CUDA-12.2.0    # no toolchain: the oldest, now
  follow_advice py-jax/0.4.23-hijklmn cudnn/9.1.0.70-12-abcdefg  # Spack's, though newer
  # A hidden module is never advised, even where it would be the first choice.
  local spack=$t/site/spack/linux-debian12-x86_64/Core/cudnn
  for f in "$spack"/9.1.0.70-12-abcdefg*; do mv "$f" "$spack/.${f##*/}"; done
  sed -i 's|^module = "cudnn/9.1.0.70-12-abcdefg"$|module = "cudnn/.9.1.0.70-12-abcdefg"|' "$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
  follow_advice py-jax/0.4.23-hijklmn cuDNN/9.0.0.312-CUDA-12.2.0
}

# need_module APP NEED: an application modulefile APP (name/version) in $format that needs NEED.
need_module() {
  mkdir -p "$t/$format/${1%/*}"
  if [[ $format == lua ]]; then
    printf 'cudnn_requires("%s")\n' "$2" >"$t/lua/$1.lua"
  else
    printf '#%%Module1.0\ncudnn-requires %s\n' "$2" >"$t/tcl/$1"
  fi
}

# check_gone_release: a release whose files the site removed (its module left behind) is never
# advised, and its module, loaded, is said to give none, by the hooks' tables nor by module-check without them; the advice, followed, fits
# (helper 103: `module swap cudnn/9.1 cudnn/9.23` was advised after 9.23's directory was gone, and
# the program then got the system's cuDNN). Appends FAKE 9.20.0 and 9.23.0, each a copy of its
# own, and app/1.0 (9.20) to the map and the tree in $format; module() and $swap set.
check_gone_release() {
  local v dir=$t/lua
  [[ $format == lua ]] || dir=$t/tcl
  for v in 9.20.0 9.23.0; do
    cp -a "$FAKES/$v" "$t/copy-$v"
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$t/copy-$v/lib64" \
      "${v%.0}" >>"$t/map.toml"
  done
  cc map validate "$t/map.toml" >/dev/null
  cc modulefiles --format "$format" -o "$dir" >/dev/null
  need_module app/1.0 9.20
  module load app/1.0 cudnn/9.1 || true; msg
  has "Use: module $swap cudnn/9.1 cudnn/9.23 (9.23.0)"
  module purge
  rm -rf "$t/copy-9.23.0"
  expect_rc 0 cc map validate "$t/map.toml"
  has "of cuDNN 9.23.0 is not a directory"
  for tables in kept removed; do
    [[ $tables == kept ]] || rm -f "$t/map.toml".{cache,fits,misfits,decide}
    module load app/1.0 cudnn/9.1 || true; msg
    has "Use: module $swap cudnn/9.1 cudnn/9.20 (9.20.0)"
    lacks "cudnn/9.23"
    module $swap cudnn/9.1 cudnn/9.20; msg
    lacks "was built with"
    module purge
    # The gone release's own module, loaded: it gives no cuDNN, which is said, with the fix
    # (helper 105 r01: silent, as its places had been left out).
    module load app/1.0 cudnn/9.23 || true; msg
    has "app/1.0 was built with cuDNN 9.20 but cudnn/9.23 provides none: $t/copy-9.23.0/lib64 holds no cuDNN library (removed?)"
    has "Use: module $swap cudnn/9.23 cudnn/9.20 (9.20.0)"
    module purge
  done
}

# check_own_module: a cuDNN module the map does not list (a user's own, in $t/own) is checked by
# the library it puts on LD_LIBRARY_PATH, and the advice, followed, clears the warning (issue 12,
# low). own_module NAME RELEASE writes it in $format with a copy of that FAKE release.
own_module() {
  cp -a "$FAKES/$2" "$t/own-$2"
  mkdir -p "$t/own/${1%/*}"
  if [[ $format == lua ]]; then
    printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$t/own-$2/lib64" >"$t/own/$1.lua"
  else
    printf '#%%Module\nprepend-path LD_LIBRARY_PATH %s\n' "$t/own-$2/lib64" >"$t/own/$1"
  fi
  export MODULEPATH=$MODULEPATH:$t/own
}
check_own_module() {
  own_module mycudnn/5.0 5.0.5
  own_module mycudnn/5.1 5.1.10
  module load tensorflow/1.0 mycudnn/5.1; msg
  [[ -z $out ]] || fail "a user's module that fits was warned about: $out"
  module purge
  module load tensorflow/1.0 mycudnn/5.0 || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but mycudnn/5.0 provides 5.0.5"
  has "Use: module $swap mycudnn/5.0 cudnn/5.1 (5.1.10)"
  module $swap mycudnn/5.0 cudnn/5.1; msg
  lacks "was built with"
  module purge
  # One that puts a directory of the map's on the path is judged by the release the map lists there.
  mkdir -p "$t/own/listed"
  if [[ $format == lua ]]; then
    printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/5.0.5/lib64" >"$t/own/listed/cudnn.lua"
  else
    printf '#%%Module\nprepend-path LD_LIBRARY_PATH %s\n' "$FAKES/5.0.5/lib64" >"$t/own/listed/cudnn"
  fi
  mv "$t/own/listed" "$t/own/mycudnn-listed"
  module load tensorflow/1.0 mycudnn-listed/cudnn || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but mycudnn-listed/cudnn provides 5.0.5"
  module purge
}

# check_cli_advice: doctor, explain and resolve advise the same command as the hook, for the
# module system of the shell (LMOD_CMD / MODULES_CMD, as its init sets them), and it works.
check_cli_advice() {
  module purge
  module load cuDNN/8.9.7.29-CUDA-12.2.0 jax/0.4.23 || true
  local want="module $swap cuDNN/8.9.7.29-CUDA-12.2.0 cuDNN/9.0.0.312-CUDA-12.2.0"
  expect_rc 1 cc doctor
  has "fix: $want   # cuDNN 9.0.0"
  expect_rc 0 cc explain "Loaded runtime CuDNN library: 8.9.7 but source was compiled with: 9.0.0.  CuDNN library needs to have matching major version and equal or higher minor version."
  has "fix: $want   # cuDNN 9.0.0"
  expect_rc 0 cc resolve libcudnn.so.9
  has "without the shim: $want   # cuDNN 9.0.0"
  module ${want#module }; msg
  lacks "was built with"
  expect_rc 0 cc doctor
  lacks "problem:"
  module purge
}

# site_tree: a module tree as a real site has it, under $t/site (issue 12), in Lua for Lmod
# ($t/site/lua, an EasyBuild hierarchy Core/ + Compiler/GCC/12.3.0/ opened by GCC/12.3.0, plus
# Spack's tree) and in Tcl for Environment Modules ($t/site/tcl, the same modules; Spack's with
# `prepend-path --delim ":"`). Installs are FAKE copies, each in its own directory:
#   cuDNN/8.9.7.29-CUDA-12.2.0 (EasyBuild, Core) and cudnn/8.9.7.29-12-abcdef (Spack): one release
#     installed twice; cudnn/9.1.0-12-fedcba (Spack, -d ":" and --duplicates);
#   cudnn/5.1 (plain, the default) and the hidden cudnn/.5.0; cuda/10.2, whose lib64 carries 7.6.5;
#   tensorflow/1.0 (5.1) and pytorch/2.1 (8.9, CUDA 12) in Compiler/GCC/12.3.0.
# site_lmod / site_tcl set MODULEPATH and the hooks for it.
site_tree() {
  local s=$t/site eb spack
  eb=$s/eb/software spack=$s/spack/opt/linux-x86_64/gcc-12.3.0
  mkdir -p "$eb/cuDNN" "$spack" "$s/opt/cudnn" "$s/opt/cuda/10.2"
  cp -a "$FAKES/8.9.7" "$eb/cuDNN/8.9.7.29-CUDA-12.2.0"
  cp -a "$FAKES/8.9.7" "$spack/cudnn-8.9.7.29-12-abcdef"
  cp -a "$FAKES/9.1.0" "$spack/cudnn-9.1.0-12-fedcba"
  cp -a "$FAKES/5.1.10" "$s/opt/cudnn/5.1"
  cp -a "$FAKES/5.0.5" "$s/opt/cudnn/5.0"
  cp -a "$FAKES/7.6.5/lib64" "$s/opt/cuda/10.2/lib64"
  local l=$s/lua c=$s/tcl
  mkdir -p "$l/Core/cuDNN" "$l/Core/GCC" "$l/Core/cudnn" "$l/Core/cuda" "$l/spack/cudnn" \
    "$l/Compiler/GCC/12.3.0/tensorflow" "$l/Compiler/GCC/12.3.0/pytorch"
  printf 'prepend_path("MODULEPATH", "%s")\n' "$l/Compiler/GCC/12.3.0" >"$l/Core/GCC/12.3.0.lua"
  printf 'setenv("EBROOTCUDNN", "%s")\nprepend_path("LD_LIBRARY_PATH", "%s/lib64")\n' \
    "$eb/cuDNN/8.9.7.29-CUDA-12.2.0" "$eb/cuDNN/8.9.7.29-CUDA-12.2.0" >"$l/Core/cuDNN/8.9.7.29-CUDA-12.2.0.lua"
  printf 'family("cudnn")\nprepend_path("LD_LIBRARY_PATH", "%s")\n' "$spack/cudnn-8.9.7.29-12-abcdef/lib64" \
    >"$l/spack/cudnn/8.9.7.29-12-abcdef.lua"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$spack/cudnn-9.1.0-12-fedcba/lib64" \
    >"$l/spack/cudnn/9.1.0-12-fedcba.lua"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$s/opt/cudnn/5.1/lib64" >"$l/Core/cudnn/5.1.lua"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$s/opt/cudnn/5.0/lib64" >"$l/Core/cudnn/.5.0.lua"
  ln -s 5.1.lua "$l/Core/cudnn/default"
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$s/opt/cuda/10.2/lib64" >"$l/Core/cuda/10.2.lua"
  echo 'cudnn_requires("5.1")' >"$l/Compiler/GCC/12.3.0/tensorflow/1.0.lua"
  echo 'cudnn_requires("8.9", {cuda = "12"})' >"$l/Compiler/GCC/12.3.0/pytorch/2.1.lua"

  mkdir -p "$c/Core/cuDNN" "$c/Core/GCC" "$c/Core/cudnn" "$c/Core/cuda" "$c/spack/cudnn" \
    "$c/Compiler/GCC/12.3.0/tensorflow" "$c/Compiler/GCC/12.3.0/pytorch"
  printf '#%%Module1.0\nmodule use %s\n' "$c/Compiler/GCC/12.3.0" >"$c/Core/GCC/12.3.0"
  printf '#%%Module1.0\nsetenv EBROOTCUDNN %s\nprepend-path LD_LIBRARY_PATH %s/lib64\n' \
    "$eb/cuDNN/8.9.7.29-CUDA-12.2.0" "$eb/cuDNN/8.9.7.29-CUDA-12.2.0" >"$c/Core/cuDNN/8.9.7.29-CUDA-12.2.0"
  # As Spack's Tcl template writes them.
  printf '#%%Module1.0\nconflict cudnn\nprepend-path --delim ":" LD_LIBRARY_PATH "%s"\nprepend-path --delim ":" CMAKE_PREFIX_PATH "%s"\n' \
    "$spack/cudnn-8.9.7.29-12-abcdef/lib64" "$spack/cudnn-8.9.7.29-12-abcdef" >"$c/spack/cudnn/8.9.7.29-12-abcdef"
  printf '#%%Module1.0\nconflict cudnn\nprepend-path -d ":" --duplicates LD_LIBRARY_PATH "%s"\n' \
    "$spack/cudnn-9.1.0-12-fedcba/lib64" >"$c/spack/cudnn/9.1.0-12-fedcba"
  printf '#%%Module1.0\nprepend-path LD_LIBRARY_PATH %s\n' "$s/opt/cudnn/5.1/lib64" >"$c/Core/cudnn/5.1"
  printf '#%%Module1.0\nprepend-path LD_LIBRARY_PATH %s\n' "$s/opt/cudnn/5.0/lib64" >"$c/Core/cudnn/.5.0"
  printf '#%%Module1.0\nset ModulesVersion 5.1\n' >"$c/Core/cudnn/.version"
  printf '#%%Module1.0\nprepend-path LD_LIBRARY_PATH %s\n' "$s/opt/cuda/10.2/lib64" >"$c/Core/cuda/10.2"
  printf '#%%Module1.0\ncudnn-requires 5.1\n' >"$c/Compiler/GCC/12.3.0/tensorflow/1.0"
  printf '#%%Module1.0\ncudnn-requires 8.9 --cuda 12\n' >"$c/Compiler/GCC/12.3.0/pytorch/2.1"
}
# The module trees of the site: Lmod walks the hierarchy from Core/; Environment Modules gets
# Compiler/GCC/12.3.0 on MODULEPATH too, as after `module load GCC/12.3.0`.
site_lmod() { export MODULEPATH=$t/site/lua/Core:$t/site/lua/spack LMOD_PACKAGE_PATH=$SHARE/lmod; }
site_tcl() {
  export MODULEPATH=$t/site/tcl/Core:$t/site/tcl/spack:$t/site/tcl/Compiler/GCC/12.3.0
  export MODULES_SITECONFIG=$SHARE/envmodules/siteconfig.tcl
}

# retiring_release: FAKE 9.0.0 (cudnn/9.0) added to the map, and the one decision's replacement
# for a 9.0 need with it set aside: $repl (module) and $repl_version (the newest 9; the real one
# when here).
retiring_release() {
  printf '[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "12.3"\nmodule = "cudnn/9.0"\n' \
    "$FAKES/9.0.0/lib64" >>"$t/map.toml"
  cc map validate "$t/map.toml" >/dev/null
  # Its replacement runs on its CUDA 12: FAKE 9.1.0 (CUDA 12.4), never the real cuDNN 9 of
  # CUDA 13 the map may also hold, though newer.
  repl=cudnn/9.1 repl_version=9.1.0
}

# use_system lmod|envmodules: the scenario runs on that module system, skipped where it is not
# here: $system, $format, $swap and $site for it, its tree of generated modules (lmod_tree,
# tcl_tree) and module().
use_system() {
  system=$1
  if [[ $1 == lmod ]]; then
    [[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
    format=lua swap=swap site=LMOD_PACKAGE_PATH
    lmod_tree
    module() { lmod_module "$@"; }
  else
    [[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
    format=tcl swap=switch site=MODULES_SITECONFIG
    tcl_tree
    module() { tcl_module "$@"; }
  fi
}

# hidden_site: issue 25 item 2's tree in $t/hid for $format (lua or tcl): cudnn/7.6 and cudnn/9.0
# visible; cudnn/.9.1 hidden by its name and cudnn/8.9 hidden by the modulerc (Lmod hide_version,
# Environment Modules module-hide), as sites withdraw builds; the applications app9/1.0 (built
# with 9.0), app91/1.0 (9.1: only the hidden 9.1.0 fits) and app89/1.0 (8.9: only the hidden
# 8.9.7 fits). MODULEPATH is the tree; the map is what scan makes of it.
hidden_site() {
  local h=$t/hid
  mkdir -p "$h/cudnn" "$h/app9" "$h/app91" "$h/app89"
  hmod() {  # hmod NAME FAKE-RELEASE
    if [[ $format == lua ]]; then
      printf 'family("cudnn")\nprepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/$2/lib64" >"$h/$1.lua"
    else
      printf '#%%Module\nconflict cudnn\nprepend-path LD_LIBRARY_PATH %s\n' "$FAKES/$2/lib64" >"$h/$1"
    fi
  }
  happ() {  # happ NAME NEED
    if [[ $format == lua ]]; then
      printf 'cudnn_requires("%s")\n' "$2" >"$h/$1.lua"
    else
      printf '#%%Module\ncudnn-requires %s\n' "$2" >"$h/$1"
    fi
  }
  hmod cudnn/7.6 7.6.5
  hmod cudnn/9.0 9.0.0
  hmod cudnn/.9.1 9.1.0
  hmod cudnn/8.9 8.9.7
  if [[ $format == lua ]]; then
    echo 'hide_version("cudnn/8.9")' >"$h/cudnn/.modulerc.lua"
  else
    printf '#%%Module4.6\nmodule-hide cudnn/8.9\n' >"$h/cudnn/.modulerc"
  fi
  happ app9/1.0 9.0
  happ app91/1.0 9.1
  happ app89/1.0 8.9
  export MODULEPATH=$h
}

# check_hidden: scan marks the hidden modules' places (hand_out = false) and --merge keeps the
# mark; resolve, the shim (decision table and engine alike) and the module advice all hand out the
# visible 9.0.0, never the newer hidden 9.1.0; where only a hidden one fits, the warning says so
# instead of "no installed module fits"; a user who loads a hidden module keeps it.
check_hidden() {
  # --replace: over the map common.sh wrote for the other scenarios.
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules "$system" --replace \
    -o "$t/map.toml"
  out=$(cat "$t/map.toml"); count "hand_out = false" 2
  grep -A4 'version = "9.1.0"' "$t/map.toml" | grep -q 'hand_out = false' || fail "9.1.0 not withheld: $(cat "$t/map.toml")"
  grep -A4 'version = "8.9.7"' "$t/map.toml" | grep -q 'hand_out = false' || fail "8.9.7 not withheld: $(cat "$t/map.toml")"
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules "$system" --merge -o "$t/map.toml"
  out=$(cat "$t/map.toml"); count "hand_out = false" 2

  # CUDA 12: the real cuDNN 9 of this machine, which ld.so.cache may hold, is built for CUDA 13 and
  # does not fit, so the loader's pick is replaced by what the map hands out (the shim keeps a
  # loader's file that fits, and resolve says so).
  expect_rc 0 cc resolve libcudnn.so.9 --require 9.0 --cuda 12
  has "libcudnn.so.9 -> $FAKES/9.0.0/lib64/libcudnn.so.9"
  has "the map does not hand it out"

  local shim; shim=$(cc shim-path)
  compile_family
  for debug in 0 1; do  # with CUDNN_COMPAT_DEBUG=1 the engine always decides
    expect_rc 0 env CUDNN_COMPAT_REQUIRE=9.0 CUDNN_COMPAT_CUDA=12 CUDNN_COMPAT_DEBUG=$debug \
      LD_AUDIT="$shim" "$t/family" libcudnn.so.9
    has "version 90000"
  done

  module load cudnn/7.6 app9/1.0 || true; msg
  has "Use: module $swap cudnn/7.6 cudnn/9.0 (9.0.0)"
  lacks "cudnn/.9.1"
  module purge
  module load cudnn/7.6 app91/1.0 || true; msg
  has "No cuDNN module the site hands out fits: cudnn/.9.1 (9.1.0) would, but the map withholds it"
  lacks "No installed cuDNN module fits"
  module purge
  module load cudnn/7.6 app89/1.0 || true; msg
  has "No cuDNN module the site hands out fits: cudnn/8.9 (8.9.7) would"
  lacks "module $swap cudnn/7.6 cudnn/8.9"
  module purge

  # Loaded by hand, the hidden build is the user's own choice: kept where it fits.
  module load cudnn/.9.1; msg
  expect_rc 0 env CUDNN_COMPAT_REQUIRE=9.0 CUDNN_COMPAT_CUDA=12 LD_AUDIT="$shim" "$t/family" libcudnn.so.9
  has "version 90100"
  module purge
}
# compile_family: a client that dlopens argv[1] and prints the cuDNN version it got, into
# $t/family.
compile_family() {
  "$CC" -o "$t/family" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  return 0;
}
C
}

# check_major_need: issue 25 item 7. An application built against a major alone
# (cudnn_requires("5"): any 5.x) is a valid need: silent beside a 5.x module, decided by the fits
# table without starting module-check, and beside another major warned with the 5.x to load.
check_major_need() {
  printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$t/started" "$CUDNN_COMPAT" >"$t/counted"
  chmod +x "$t/counted"
  module load major5/1.0 cudnn/5.0; msg
  [[ -z $out ]] || fail "a major alone was refused beside cudnn/5.0: $out"
  module purge
  CUDNN_COMPAT_BIN=$t/counted module load major5/1.0 cudnn/5.1; msg
  [[ -z $out ]] || fail "a major alone was refused beside cudnn/5.1: $out"
  [[ ! -e $t/started ]] || fail "module-check was started for a fitting major: $(cat "$t/started")"
  module purge
  module load major5/1.0 cudnn/9.1 || true; msg
  has "major5/1.0 was built with cuDNN 5 but cudnn/9.1 provides 9.1.0"
  has "Use: module $swap cudnn/9.1 cudnn/5.1 (5.1.10)"
  module purge
}
major_apps() { need_module major5/1.0 5; }

# check_portable_need: issue 25 item 9. The lines `modulefiles --requires` prints are the
# application's need in standard commands: the modulefile loads without the site package and
# leaves the need set, and with it a misfit is warned (check_standard_form); a warning leaves
# `module load`'s exit status 0 (a `bash -e` job script goes on) and keeps the advised command on
# one line; a need the check cannot read is answered in the author's own language.
check_portable_need() {
  mkdir -p "$t/$format/portable"
  local file=$t/$format/portable/1.0
  [[ $format == lua ]] && file+=.lua || echo '#%Module1.0' >"$file"
  cc modulefiles --format "$format" --requires 5.1 >>"$file"
  check_standard_form portable/1.0
  local rc=0
  module load portable/1.0 cudnn/5.0 || rc=$?
  [[ $rc == 0 ]] || fail "a warning made module load exit $rc"
  grep -qF "Use: module $swap cudnn/5.0 cudnn/5.1" "$t/msg" ||
    fail "the advised command is not on one line: $(cat "$t/msg")"
  msg; has "portable/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  module purge
  # A job script under bash -e: a separate shell, so that -e holds inside it.
  bash -e -c "$(declare -p t lmod_cmd modulecmd; declare -f lmod_module tcl_module module)
    module load portable/1.0 cudnn/5.0
    echo went on >\"\$t/went-on\"" || true
  [[ -e $t/went-on ]] || fail "a bash -e script stopped at a warning"
  module purge
  need_module oddneed/1.0 9.x
  module load oddneed/1.0 cudnn/5.0 || true; msg
  has "cannot check oddneed/1.0: '9.x' is not a version"
  if [[ $format == lua ]]; then has 'cudnn_requires("8.9")'; lacks 'cudnn-requires 8.9'
  else has 'cudnn-requires 8.9'; lacks 'cudnn_requires('; fi
  module purge
}

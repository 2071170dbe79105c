# `modulefiles -o DIR` replaces only the files it wrote; a site's own module of the same name (an
# EasyBuild cuDNN with its CUDA dependency and EBROOTCUDNN) is kept and reported unless --force
# (issue 12 item 8). Both formats.
source "$(dirname "$0")/common.sh"
for format in lua tcl; do
  tree=$t/site-$format
  ext=$([[ $format == lua ]] && echo .lua || true)
  site=$tree/cuDNN/8.9.7.29-CUDA-12.2.0$ext
  mkdir -p "$(dirname "$site")"
  if [[ $format == lua ]]; then
    printf 'depends_on("CUDA/12.2.0")\nsetenv("EBROOTCUDNN", "/apps/cuDNN/8.9.7.29")\n' >"$site"
  else
    printf '#%%Module\nprereq CUDA/12.2.0\nsetenv EBROOTCUDNN /apps/cuDNN/8.9.7.29\n' >"$site"
  fi
  expect_rc 1 cc modulefiles --format $format -o "$tree"
  has "$site was not written by \`cudnn-compat modulefiles\`; kept it (use --force"
  grep -q EBROOTCUDNN "$site" || fail "$format: the site's module was overwritten"
  [[ -f $tree/cudnn/5.1$ext ]] || fail "$format: the other modules were not written"
  # A second run replaces what the first one wrote and still keeps the site's file.
  expect_rc 1 cc --json modulefiles --format $format -o "$tree"
  kept=$(python3 -c 'import json, sys; print(*[k["file"] for k in json.loads(sys.argv[1])["kept"]])' \
    "$(sed -n '/^{/,$p' <<<"$out")")
  [[ $kept == "$site" ]] || fail "$format: --json kept '$kept'"
  grep -q EBROOTCUDNN "$site" || fail "$format: the site's module was overwritten"
  expect_rc 0 cc modulefiles --format $format --force -o "$tree"
  ! grep -q EBROOTCUDNN "$site" || fail "$format: --force did not replace the site's module"
  expect_rc 0 cc modulefiles --format $format -o "$tree"
done

# The site's module in the other format: its Tcl cuDNN/8.9.7.29-CUDA-12.2.0 beside which a
# generated .lua would take its place (Lmod reads the .lua first), and the reverse. Kept and
# reported; no twin written.
for format in lua tcl; do
  tree=$t/twin-$format
  mkdir -p "$tree/cuDNN"
  if [[ $format == lua ]]; then
    site=$tree/cuDNN/8.9.7.29-CUDA-12.2.0 ours=$site.lua
    printf '#%%Module\nsetenv EBROOTCUDNN /apps/cuDNN/8.9.7.29\n' >"$site"
  else
    site=$tree/cuDNN/8.9.7.29-CUDA-12.2.0.lua ours=$tree/cuDNN/8.9.7.29-CUDA-12.2.0
    printf 'setenv("EBROOTCUDNN", "/apps/cuDNN/8.9.7.29")\n' >"$site"
  fi
  expect_rc 1 cc modulefiles --format $format -o "$tree"
  has "$site was not written by \`cudnn-compat modulefiles\`; kept it (use --force"
  [[ ! -e $ours ]] || fail "$format: written beside the site's module in the other format: $ours"
done

# An earlier run's own cuDNN/8.9.7.29-CUDA-12.2.0.lua beside the site's Tcl module of that name
# (Lmod read it instead of the site's): removed, and said, when the site's file is kept.
tree=$t/stale
expect_rc 0 cc modulefiles --format lua -o "$tree"
[[ -f $tree/cuDNN/8.9.7.29-CUDA-12.2.0.lua ]] || fail "no module written to $tree"
printf '#%%Module\nsetenv EBROOTCUDNN /apps/cuDNN/8.9.7.29\n' >"$tree/cuDNN/8.9.7.29-CUDA-12.2.0"
expect_rc 1 cc modulefiles --format lua -o "$tree"
has "removed $tree/cuDNN/8.9.7.29-CUDA-12.2.0.lua, written by an earlier run"
[[ ! -e $tree/cuDNN/8.9.7.29-CUDA-12.2.0.lua ]] || fail "the earlier run's .lua still shadows the site's module"

# A module named by an absolute path or with "..": not written anywhere, said, exit 1; the others
# are written.
for name in "$t/elsewhere/cudnn/5.1" "../outside/cudnn/5.1"; do
  sed "s|module = \"cudnn/5.1\"|module = \"$name\"|" "$t/map.toml" >"$t/escape.toml"
  rm -rf "$t/escape" "$t/elsewhere" "$t/outside"
  expect_rc 1 cc modulefiles --format lua -o "$t/escape" --map "$t/escape.toml"
  has "is no name within the module tree"
  [[ ! -e $t/elsewhere && ! -e $t/outside ]] || fail "$name: written outside the tree"
  [[ -f $t/escape/cudnn/5.0.lua ]] || fail "$name: the other modules were not written"
done

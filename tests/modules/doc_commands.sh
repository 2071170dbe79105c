# Every cudnn-compat command that README.md, docs/*.md and the man page's examples (each
# subcommand's --help, from which the man page is rendered) show is run as a user or an admin would
# type it, on a site of FAKE releases with a real Lmod: /etc/, /opt/ and <prefix> stand for
# directories of the test. None may be refused as bad usage (exit 2), crash, or fail inside.
. "$(dirname "$0")/common.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
lmod_tree
export LMOD_CMD=$lmod_cmd LMOD_DIR=/usr/share/lmod/lmod/libexec
site=$t/site
mkdir -p "$site/etc/cudnn-compat" "$site/opt/apps/tf/bin" "$site/prefix"
cp "$t/map.toml" "$site/etc/cudnn-compat/map.toml"
export CUDNN_COMPAT_MAP=$site/etc/cudnn-compat/map.toml
cc map validate >/dev/null
cp /bin/true "$site/opt/apps/tf/bin/python"
cat >"$site/slurm-123456.out" <<'LOG'
Epoch 1/10
E tensorflow/stream_executor/cuda/cuda_dnn.cc:347] Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100).
LOG

# The command lines: those of the documents' sh blocks that run cudnn-compat (also inside $(...)),
# then the examples of every subcommand's help. Those run inside a Slurm allocation (salloc ...)
# are tests/slurm's: doctor_nodes.sh runs them on the two-node cluster.
{
  awk '/^```sh/ {on = 1; next} /^```/ {on = 0} on' "$root/README.md" "$root"/docs/*.md |
    sed 's/[[:space:]]#.*$//' | grep -v '^salloc ' | grep -oE '(^|[ (])cudnn-compat [a-z-]+[^)]*' | sed 's/^[ (]//' || true
  for sub in $(cc --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NF && !/:$/ {print $1}') \
    "map validate" "map show"; do
    # shellcheck disable=SC2086
    # An example wrapped for the terminal goes on in lines indented further: joined here.
    cc $sub --help | awk '/^  cudnn-compat / {if (c) print c; c = substr($0, 3); next}
      c && /^    [^ ]/ {sub(/^ +/, " "); c = c $0; next} {if (c) print c; c = ""}
      END {if (c) print c}' | sed 's/[[:space:]]#.*$//'
  done
} | sed -E "s#(^|[ =])/(etc|opt)/#\\1$site/\\2/#g; s#<prefix>#$site/prefix#g" | sort -u >"$t/commands"
n=$(wc -l <"$t/commands")
((n >= 30)) || fail "only $n documented commands found:"$'\n'"$(cat "$t/commands")"

cd "$site"
while IFS= read -r line; do
  rc=0
  out=$(timeout 120 bash -c "cudnn-compat() { \"\$CUDNN_COMPAT\" \"\$@\"; }; $line" </dev/null 2>&1) || rc=$?
  ((rc == 0 || rc == 1)) || fail "'$line' exited $rc:"$'\n'"$out"
  lacks "internal error"
done <"$t/commands"
echo "ran $n documented commands"

# The layer edges (docs/architecture.md, "Layout"): a file of a layer is compiled exactly as the build compiles it
# (its command from compile_commands.json) with one line added, an #include of a layer header. The
# headers of the layers it may use must compile; every other layer's header must not be found.
source "$(dirname "$0")/../scenario.sh"
: "${SOURCE:?}" "${BUILD_DIR:?}"
commands=$BUILD_DIR/compile_commands.json
[[ -f $commands ]] || fail "no $commands (CMAKE_EXPORT_COMPILE_COMMANDS is on in CMakeLists.txt)"

# The header of each layer, and the layers each may use besides itself.
declare -A header=([lib/text]=text.h [lib/io]=atomic_write.h [model]=model.h [map]=map.h
                   [system]=system.h [decide]=decide.h [report]=reports.h [inputs]=decision_inputs.h
                   [facts]=facts.h [usage]=usage.h)
declare -A uses=(
  [lib/text]=""
  [lib/io]=""
  [model]="lib/text"
  [map]="lib/text lib/io model"
  [system]="lib/text lib/io model"
  [decide]="lib/text model map"
  [report]="lib/text model map decide"
  [inputs]="lib/text model map system decide"
  [facts]="lib/io lib/text model map system decide report inputs"
  [usage]="lib/text model map decide"
)

# The compile command of the first file of a layer, with the file replaced by $t/probe.cc and
# nothing written.
probe_command() {
  python3 - "$commands" "$SOURCE/src/core/$1/" "$t/probe.cc" <<'PY'
import json, shlex, sys
entries, layer_dir, probe = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
for e in entries:
    if e["file"].startswith(layer_dir) and e["file"].endswith(".cc"):
        args = shlex.split(e["command"])
        out = []
        skip = False
        for a in args:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a == e["file"]:
                out.append(probe)
            elif a != "-c":
                out.append(a)
        print(shlex.join(out + ["-fsyntax-only"]))
        break
PY
}

checked=0
for layer in "${!header[@]}"; do
  command=$(probe_command "$layer")
  [[ -n $command ]] || fail "no compile command for a file of src/core/$layer"
  for other in "${!header[@]}"; do
    echo "#include \"${header[$other]}\"" >"$t/probe.cc"
    if [[ $other == "$layer" || " ${uses[$layer]} " == *" $other "* ]]; then
      (cd "$BUILD_DIR" && eval "$command") >"$t/out" 2>&1 ||
        { cat "$t/out"; fail "$layer cannot include ${header[$other]} of $other, which it may use"; }
    else
      (cd "$BUILD_DIR" && eval "$command") >"$t/out" 2>&1 &&
        fail "$layer compiles with ${header[$other]} of $other, a layer it may not use"
      grep -q "${header[$other]}: No such file" "$t/out" ||
        { cat "$t/out"; fail "$layer including ${header[$other]}: not the missing header"; }
    fi
    checked=$((checked + 1))
  done
done
# A path that climbs out of a layer's directory would pass any include path by.
climbing=$(grep -rn '#include "\.\./' "$SOURCE/src/core" || true)
[[ -z $climbing ]] || fail "an include climbs out of its layer's directory: $climbing"
echo "ok: $checked layer/header pairs as the table says"

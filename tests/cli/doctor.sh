# doctor: environments built from the fakes (doctor_real.sh: the real cuDNN 9) - fitting,
# misfit, mixed family, another CUDA, shim on and off, and a program that links cuDNN.
source "$(dirname "$0")/common.sh"
standin=$(standin_shim)
fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml

LD_LIBRARY_PATH=$FAKES/5.1.10/lib64 expect_rc 0 cc doctor --require 5.1
has "ok: libcudnn.so.5 resolves to $FAKES/5.1.10/lib64/libcudnn.so.5 (LD_LIBRARY_PATH, module): cuDNN 5.1.10"
has "which fits cuDNN 5.1 (from --require)"
has "ok: the shim is off"

LD_LIBRARY_PATH=$FAKES/5.0.5/lib64:$FAKES/5.1.10/lib64 expect_rc 1 cc doctor --require 5.1
has "problem: libcudnn.so.5 resolves to $FAKES/5.0.5/lib64/libcudnn.so.5 (LD_LIBRARY_PATH, module): cuDNN 5.0.5, but cuDNN 5.1 (from --require) does not fit it: before cuDNN 7 the minor version must match"
has "fix: module load cudnn/5.1   # cuDNN 5.1.10"
has "the shim is off; it would load $FAKES/5.1.10/lib64/libcudnn.so.5"
has "warning: 2 cuDNN 5 releases on LD_LIBRARY_PATH"

mkdir "$t/stray"
cp "$FAKES/8.1.0/lib64/libcudnn_cnn_infer.so.8.1.0" "$t/stray/libcudnn_cnn_infer.so.8"
LD_LIBRARY_PATH=$t/stray:$FAKES/8.9.7/lib64 expect_rc 1 cc doctor
has "problem: mixed family: the cuDNN 8.9.7 dispatcher in $FAKES/8.9.7/lib64 would load libcudnn_cnn_infer.so.8 from $t/stray/libcudnn_cnn_infer.so.8"
# With the shim on, the same environment is only a warning: the shim keeps the family whole.
LD_AUDIT=$standin LD_LIBRARY_PATH=$t/stray:$FAKES/8.9.7/lib64 expect_rc 0 cc doctor
has "the shim, which is on, keeps the family whole"
has "ok: the shim is on (LD_AUDIT)"
# Where the family's directory lacks that sub-library, the shim cannot tell the stray file (which
# names no release) another release's and lets it load: still a problem, and turning the shim on
# no fix (helper 109: "keeps the family whole", then CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH).
mkdir "$t/lacking" "$t/stray9"
cp -P "$FAKES"/9.20.0/lib64/libcudnn* "$t/lacking/"
rm "$t"/lacking/libcudnn_engines_tensor_ir.so*
cp "$FAKES/9.23.0/lib64/libcudnn_engines_tensor_ir.so.9.23.0" "$t/stray9/libcudnn_engines_tensor_ir.so.9"
LD_AUDIT=$standin LD_LIBRARY_PATH=$t/stray9:$t/lacking expect_rc 1 cc doctor
has "problem: mixed family: the cuDNN 9.20.0 dispatcher in $t/lacking would load libcudnn_engines_tensor_ir.so.9 from $t/stray9/libcudnn_engines_tensor_ir.so.9"
has "its file names no release, so the shim cannot tell it apart and lets it load"
has "fix: install the whole family in $t/lacking"
lacks "keeps the family whole"

LOADEDMODULES=cuda/11.8:cudnn/8.9 LD_LIBRARY_PATH=$FAKES/8.9.7/lib64 expect_rc 1 cc doctor
has "problem: cuDNN 8.9.7 is built for CUDA 12.2 but CUDA 11 is loaded (module cuda/11.8)"

# A program that links libcudnn.so.5 (DT_NEEDED), and a [[require]] rule on it.
# (`command cc` is the C compiler: cc() here is cudnn-compat.)
printf '#include <stddef.h>\nsize_t cudnnGetVersion(void);\nint main(void) { return cudnnGetVersion() == 0; }\n' |
  command cc -x c - -o "$t/linked" -L"$FAKES/5.0.5/lib64" -lcudnn
printf '[[require]]\nmatch = "%s"\ncudnn = "5.1"\n' "$t/linked" >>"$t/map.toml"
LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 expect_rc 1 cc doctor --for "$t/linked"
has "$t/linked links libcudnn.so.5"
has "does not fit it"
has "[[require]] match"

# --for as a shell runs it: a bare name from PATH (helper 94: it named $PWD/NAME); a path that is
# not there, or a directory, is said once, not judged as a program that links no cuDNN.
mkdir -p "$t/bin" && cp "$t/linked" "$t/bin/linked-on-path"
(cd / && PATH=$t/bin:$PATH LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 expect_rc 0 cc doctor --for linked-on-path &&
  has "$t/bin/linked-on-path links libcudnn.so.5") || exit 1
for missing in "$t/no/such/prog" "$t"; do
  out=$(cc doctor --for "$missing" 2>&1) || true
  has "--for $missing: "
  has "what it links and pins is not known"
  lacks "links no cuDNN library"
done

expect_rc 1 cc --json doctor --require 9.1 --for "$t/linked"
has '"severity": "problem"'
has "links libcudnn.so.5, which the loader finds nowhere: it will not start"


# A copy whose family is mixed does not load: doctor says why, and what mends it (an outside
# tester's finding: "which does not load" and no fix).
mkdir -p "$t/mixed"
cp -a "$FAKES/9.1.0/lib64/." "$t/mixed/"
rm "$t/mixed/libcudnn_heuristic.so.9.1.0"
cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/mixed/"
ln -sf libcudnn_heuristic.so.9.0.0 "$t/mixed/libcudnn_heuristic.so.9"
LD_LIBRARY_PATH=$t/mixed expect_rc 1 cc doctor --require 9.0
has "problem: libcudnn.so.9 resolves to $t/mixed/libcudnn.so.9 (LD_LIBRARY_PATH), which does not load (its sub-libraries are not one release: $t/mixed/libcudnn_heuristic.so.9 is libcudnn_heuristic.so.9.0.0, of cuDNN 9.0.0, the library 9.1.0)"
has "fix: install the cuDNN in $t/mixed again, whole, or take it off LD_LIBRARY_PATH"

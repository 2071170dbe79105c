# doctor: environments built from the fakes (doctor_real.sh: the real cuDNN 9) - fitting,
# misfit, mixed family, another CUDA, shim on and off, and a program that links cuDNN.
source "$(dirname "$0")/common.sh"
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
LD_AUDIT=/x/libcudnn-compat.so LD_LIBRARY_PATH=$t/stray:$FAKES/8.9.7/lib64 expect_rc 0 cc doctor
has "the shim, which is on, keeps the family whole"
has "ok: the shim is on (LD_AUDIT)"

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

expect_rc 1 cc --json doctor --require 9.1 --for "$t/linked"
has '"severity": "problem"'
has "links libcudnn.so.5, which the loader finds nowhere: it will not start"


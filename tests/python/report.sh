# CUDNN_COMPAT_REPORT=1: at exit, one line per cuDNN library of the process - its path, its
# version asked of the library (or its file name), its source and who chose it - a mixed family
# flagged, and the command that makes the next run coherent. Under both front ends (the report
# is the shim's destructor: DT_FINI_ARRAY runs for an audit module and a preloaded library
# alike). Without the variable nothing is said.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
export LD_LIBRARY_PATH=$t/other:$FAKES/9.23.0/lib64

for mode in audit preload; do
  # The shim on: one family, the refused file, and how to get a whole one.
  CUDNN_COMPAT_REPORT=1 expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  has "cudnn-compat: report: $wheel/libcudnn.so.9: cuDNN 9.20.0 (reported by the library), wheel, chosen by the loader, kept by the shim (rule pytorch, needs 9.20.0 from the pin of torch 2.6.0"
  has "cudnn-compat: report: $wheel/libcudnn_ops.so.9: cuDNN 9.20.0 (as its directory's family), wheel, chosen by the shim (the family of its directory)"
  has "cudnn-compat: report: refused libcudnn_engines_tensor_ir.so.9: not in $wheel"
  lacks "MIXED"
  has "cudnn-compat: report: next run: cudnn-compat resolve libcudnn_engines_tensor_ir.so.9 --require 9.20.0"

  # The loader alone (the shim passes everything through) mixes 9.20.0 and 9.23.0: flagged, and
  # the next run drops the foreign directory from LD_LIBRARY_PATH.
  CUDNN_COMPAT_DISABLE=1 CUDNN_COMPAT_REPORT=1 expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  has "cudnn-compat: report: $FAKES/9.23.0/lib64/libcudnn_graph.so.9: cuDNN 9.23.0 (by its file name), user, chosen by the loader"
  has "cudnn-compat: report: MIXED cuDNN family: 9.20.0 from $wheel and 9.23.0 from $FAKES/9.23.0/lib64"
  has "cudnn-compat: report: next run: export LD_LIBRARY_PATH=$t/other"
  # The foreign directory the only entry: nothing is left to export.
  LD_LIBRARY_PATH=$FAKES/9.23.0/lib64 CUDNN_COMPAT_DISABLE=1 CUDNN_COMPAT_REPORT=1 \
    expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  has "cudnn-compat: report: next run: unset LD_LIBRARY_PATH"

  # A lone copy whose file names no release, which the shim lets through where the wheel lacks
  # the file: the report says the loader chose it (helper 109: "chosen by the shim (another place
  # of the family's release)", then "MIXED").
  mkdir -p "$t/lone"
  cp "$FAKES/9.23.0/lib64/libcudnn_engines_tensor_ir.so.9.23.0" "$t/lone/libcudnn_engines_tensor_ir.so.9"
  LD_LIBRARY_PATH=$t/lone CUDNN_COMPAT_REPORT=1 expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  has "cudnn-compat: report: $t/lone/libcudnn_engines_tensor_ir.so.9: cuDNN unknown (no version function), user, chosen by the loader"
  lacks "another place of the family's release"

  # Without CUDNN_COMPAT_REPORT, no report.
  expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  lacks "report"
done

# A coherent process: nothing to change; from Python too.
unset LD_LIBRARY_PATH
wheel_cudnn "$site" 9.20.0
for mode in audit preload; do
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode py_client "$lib"
  count "/nvidia/cudnn/lib/libcudnn" 18  # nine loaded, nine in the report
  count ", wheel, chosen by " 9
  has "cudnn-compat: report: next run: nothing to change (one whole family per cuDNN major)"
  # With no decision to name the source, the directory as the loader names it (torch's RUNPATH,
  # torch/lib/../../nvidia/cudnn/lib) says it is the wheel's; the report shows it without the
  # dots (helper 94).
  CUDNN_COMPAT_DISABLE=1 CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode py_client "$lib"
  count ", wheel, chosen by the loader" 9
  lacks "/../"
  # Debugging too: the line that says the load fits is a note, no warning to repeat at exit (an
  # outside tester's finding: "warned at the load: ... fits", and the next run sent to doctor).
  CUDNN_COMPAT_DEBUG=1 CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode py_client "$lib"
  has "cudnn-compat: libcudnn.so.9 -> "
  lacks "warned at the load"
  has "cudnn-compat: report: next run: nothing to change (one whole family per cuDNN major)"
done

# One directory whose family is of two releases (its exact sub-library name links to another
# release's file): the loader alone mixes them, and the report says so, not "nothing to change";
# the shim refuses the link and says why.
mix=$t/mix
mkdir "$mix" && cp -P "$FAKES/9.20.0/lib64/"* "$mix/" && cp "$FAKES/9.23.0/lib64/libcudnn_ops.so.9.23.0" "$mix/"
ln -sfn libcudnn_ops.so.9.23.0 "$mix/libcudnn_ops.so.9.20.0"
for mode in audit preload; do
  CUDNN_COMPAT_DISABLE=1 CUDNN_COMPAT_REPORT=1 expect_rc 3 $mode c_client "$lib" "$mix/libcudnn.so.9"
  has "cudnn-compat: report: MIXED cuDNN family: 9.20.0 from $mix and 9.23.0 (by its file name) in its own libcudnn_ops.so.9.20.0"
  has "cudnn-compat: report: next run: cudnn-compat resolve libcudnn.so.9 --require 9.20.0   # a place with the whole family; or reinstall the one in $mix"
  # The shim hands torch the wheel's whole 9.20.0 instead.
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode c_client "$lib" "$mix/libcudnn.so.9"
  has "cudnn-compat: report: $wheel/libcudnn.so.9: cuDNN 9.20.0 (reported by the library), wheel, chosen by the shim (rule pytorch"
  lacks "MIXED"
  # With no other place of 9.20.0, it keeps the directory, refuses the link and says why.
  mv "$wheel" "$t/wheel-away"
  CUDNN_COMPAT_REPORT=1 expect_rc 3 $mode c_client "$lib" "$mix/libcudnn.so.9"
  mv "$t/wheel-away" "$wheel"
  has "cudnn-compat: report: refused libcudnn_ops.so.9: links to $mix/libcudnn_ops.so.9.23.0, another release's file, in $mix, where"
  lacks "MIXED"
done

# A wheel whose METADATA cannot be read is no place the map knows, and its directory, as torch's
# RUNPATH names it, is still the wheel's.
rm -rf "$mix"
metadata=$(echo "$site"/nvidia_cudnn_cu12-*.dist-info/METADATA)
rm "$metadata" && mkfifo "$metadata"
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit py_client "$lib"
has "report: $site/nvidia/cudnn/lib/libcudnn.so.9: cuDNN 9.20.0 (reported by the library), wheel, chosen by the loader, kept by the shim"

# A program that links cuDNN and never dlopens it: under LD_PRELOAD it asks the shim nothing, and
# the report is made all the same (the environment is read at exit).
"$CC" -o "$t/linked" -x c - -L"$FAKES/9.20.0/lib64" -Wl,--no-as-needed -lcudnn \
  -Wl,-rpath,"$FAKES/9.20.0/lib64" <<<'int main(void) { return 0; }'
for mode in audit preload; do
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode "$t/linked"
  has "report: $FAKES/9.20.0/lib64/libcudnn.so.9: cuDNN 9.20.0 (reported by the library)"
  expect_rc 0 $mode "$t/linked"
  lacks "report"
done

# A need no installed release meets: the load keeps the loader's choice with a warning, and the
# report repeats the warning and sends the next run to doctor, not "nothing to change".
for mode in audit preload; do
  CUDNN_COMPAT_REQUIRE=9.30 CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode py_client "$lib"
  has "cudnn-compat: report: warned at the load: libcudnn.so.9: needs 9.30 from CUDNN_COMPAT_REQUIRE"
  has "cudnn-compat: report: next run: cudnn-compat doctor   # the shim had no fitting release to hand over"
  lacks "nothing to change"
done

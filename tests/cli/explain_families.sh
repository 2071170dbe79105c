# explain on one job log that meets cuDNN through many tools (messages written here in each
# tool's own format): every error found, each of the right kind, fixes with the versions parsed.
source "$(dirname "$0")/common.sh"
fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
printf '%s\n' \
  '+ module load tensorrt/8.6' \
  '[06/11/2024-09:12:44] [TRT] [I] [MemUsageChange] Init cuDNN: CPU +2, GPU +10, now: CPU 538, GPU 1110 (MiB)' \
  '[06/11/2024-09:12:44] [TRT] [W] TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.6.0' \
  'W0314 08:01:22.339100  4411 dynamic_loader.cc:307] The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 127)' \
  'RuntimeError: Mixed dnn version. The header is version 5110 while the library is version 5005.' \
  "/home/u/torch/install/share/lua/5.1/cudnn/ffi.lua:1618: 'libcudnn (R5) not found in library path." \
  'Could not load library libcudnn_cnn_train.so.8. Error: libcudnn_ops_train.so.8: symbol _ZN5cudnn3ops18getInternalVersionEv version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time reference' \
  'RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (9, 1, 0) but linked against (8, 9, 7)' \
  'src/conv.cu:3:10: fatal error: cudnn.h: No such file or directory' \
  'epoch 3: loss 0.12' >"$t/job.log"
expect_rc 0 cc --json explain <"$t/job.log"
python3 - "$out" <<'PY' || fail "unexpected findings: $out"
import json, sys
got = [(f["line"], f["kind"], f["framework"], f["runtime"], f["built_with"], f["required"],
        f["library"], f["windows_error"], f["stage"]) for f in json.loads(sys.argv[1])]
want = [
    (3, "version-mismatch", "tensorrt", "8.6.0", "8.9.0", None, None, None, "run"),
    (4, "sublibrary-mismatch", "paddlepaddle", None, None, None, "cudnn64_8.dll", 127, "run"),
    (5, "version-mismatch", "theano", "5.0.5", "5.1.10", None, None, None, "run"),
    (6, "library-not-found", "torch7", None, None, "5", None, None, "run"),
    (7, "sublibrary-mismatch", None, None, None, None, "libcudnn_cnn_train.so.8", None, "run"),
    (8, "version-mismatch", "pytorch", "8.9.7", "9.1.0", None, None, None, "run"),
    (9, "library-not-found", None, None, None, None, "cudnn.h", None, "build"),
]
for g, w in zip(got, want):
    if g != w: sys.exit(f"got {g}\nwant {w}")
sys.exit(0 if len(got) == len(want) else f"{len(got)} findings, want {len(want)}")
PY
# The fixes use the versions the messages gave, and the map's modules.
expect_rc 0 cc explain <"$t/job.log"
has "fix: cudnn-compat resolve libcudnn.so.9 --require 9.1.0"
has "fix: module load cudnn/9.1   # cuDNN 9.1.0"
has "fix: module load cudnn/5.1   # cuDNN 5.1.10"
has "Windows error 127"
lacks "CUDNN_STATUS"

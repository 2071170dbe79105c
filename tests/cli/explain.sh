# explain: a job log on stdin, one message as arguments, --json for scripts, and input that holds
# no cuDNN error at all (exit 1, never a crash).
source "$(dirname "$0")/common.sh"
fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
cat >"$t/job.log" <<'LOG'
+ srun python train.py
2018-03-27 15:29:16.782566: I tensorflow/core/platform/cpu_feature_guard.cc:140] Your CPU supports AVX2
2018-03-27 15:29:16.900000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:347] Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100).  If using a binary install, upgrade your CuDNN library to match.
2018-03-27 15:29:16.900100: F tensorflow/core/kernels/conv_ops.cc:717] Check failed: stream->parent()->GetConvolveAlgorithms(&algorithms)
LOG
expect_rc 0 cc explain <"$t/job.log"
has "line 3: 2018-03-27"
has "what happened: tensorflow loaded cuDNN 5.0.5 but was built with cuDNN 5.1.3"
has "5005 is cuDNN 5.0.5, 5000 is cuDNN 5.0.0, 5103 is cuDNN 5.1.3"
has "rule tensorflow-2016 refuses"
has "NVIDIA's own policy agrees: before cuDNN 7 the minor version must match"
has "fix: module load cudnn/5.1   # cuDNN 5.1.10"

expect_rc 0 cc --json explain 'RuntimeError: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH'
has '"kind": "sublibrary-mismatch"'
has 'LD_AUDIT=$(cudnn-compat shim-path)'

expect_rc 0 cc --json explain - <<<'Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file or directory'
has '"kind": "dependency-not-found"'
has '"library": "libcudnn_cnn_infer.so.8"'
has '"missing": "libnvrtc.so"'

# Nothing there: exit 1 with one line, for empty input, plain noise and binary data alike.
expect_rc 1 cc explain </dev/null
has "found no cuDNN error in the 0 bytes read"
expect_rc 1 cc explain 'epoch 3: loss 0.12'
head -c 2000000 /dev/urandom >"$t/binary"
expect_rc 1 cc explain <"$t/binary"
has "found no cuDNN error"

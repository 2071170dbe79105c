#!/usr/bin/env bash
# probe asks the real cuDNN 9 under /usr/local/cuda for its version (no GPU needed).
. "$(dirname "$0")/common.sh"

lib=/usr/local/cuda/lib64
if [[ ! -e $lib/libcudnn.so.9 ]]; then
  skip "no real cuDNN 9 under $lib on this machine"
fi
expect_rc 0 cc probe --json "$lib"
has '"source": "library"'
has '"version": "9.'
version=$(sed -n 's/.*"version": "\(.*\)".*/\1/p' <<<"$out")
header=$(awk '/define CUDNN_MAJOR/{a=$3} /define CUDNN_MINOR/{b=$3} /define CUDNN_PATCHLEVEL/{c=$3} END{print a"."b"."c}' /usr/local/cuda/include/cudnn_version.h)
[[ $version == "$header" ]] || fail "library reports $version, its header says $header"
echo "real cuDNN $version: $(grep -o '"cuda": "[^"]*"' <<<"$out")"

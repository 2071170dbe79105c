#!/usr/bin/env bash
# Every subcommand documents itself and its exit status; usage errors exit 2.
. "$(dirname "$0")/common.sh"

expect_rc 0 cc --help
has "CUDNN_COMPAT_MAP"
has "Exit status"
for sub in decode check probe resolve "map validate" "map show" scan explain doctor modulefiles \
  module-check shim-path container-env; do
  # shellcheck disable=SC2086
  expect_rc 0 cc $sub --help
  has "Exit status"
done
expect_rc 0 cc --version
has "cudnn-compat "
expect_rc 2 cc
expect_rc 2 cc frobnicate
expect_rc 2 cc decode
expect_rc 2 cc resolve
expect_rc 2 cc map
expect_rc 2 cc probe --no-such-flag x
for sub in decode check probe resolve scan explain doctor modulefiles container-env; do
  expect_rc 0 cc $sub --help
  has "Examples:"
done
expect_rc 2 cc scan --modules slurm
expect_rc 2 cc module-check
expect_rc 2 cc module-check --need tensorflow

# A host under a seccomp filter that kills it as it makes a file or a directory (open with O_CREAT,
# mkdir: a sandbox that may read and change nothing) loads a cuDNN the table does not know (a
# user's own copy), on a node whose memo is cold: the shim learns of the filter before it makes the
# memo's directory or its lock, and the load is the ordinary one with one line; it made both first,
# and the host died of SIGSYS (an outside tester's finding). Where a process without the filter
# decided before, the memo's answer holds under it.
source "$(dirname "$0")/common.sh"
compile no_files -I"$(dirname "$0")/.." <<C
#include "seccomp_filters.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
/* no_files free CMD... | proof | CMD...: CMD without the filter, a file made under it, CMD under it. */
int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "free")) return execv(argv[2], argv + 2), 127;
  if (argc < 2 || !kill_file_making()) return 2;
  if (!strcmp(argv[1], "proof")) return fopen("$t/made", "w") ? 3 : 4;
  return execv(argv[1], argv + 1), 127;
}
C
memo_setting
settle
expect_rc 159 "$t/no_files" proof  # SIGSYS: the filter kills what makes a file
[[ ! -e $t/made ]] || fail "the filter let a file be made"

for mode in audit preload; do
  rm -rf "$memo"  # on, and cold: the first process of this user on the node
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/no_files" "$t/family" libcudnn.so.9
  has "loaded $t/own/lib64/libcudnn.so.9"
  has "cudnn-compat: could not check libcudnn.so.9: this process runs under a seccomp filter"
  count "cudnn-compat:" 1
  [[ ! -e $memo ]] || fail "$mode: the shim made $memo under the filter"
  # Decided once without the filter, remembered, and the memo's answer holds under it.
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/no_files" free "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/no_files" "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
done

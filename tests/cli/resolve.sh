#!/usr/bin/env bash
# resolve names the file a request should get, keeps families whole, and says what to do when
# nothing fits.
. "$(dirname "$0")/common.sh"

fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP="$t/map.toml"

expect_rc 0 cc resolve libcudnn.so.5 --require 5.1
has "libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5  ($FAKES/5.1.10/lib64/libcudnn.so.5.1.10)"
has "no    5.0.5 (module cudnn/5.0)"
has "source: module cudnn/5.1"
has "before cuDNN 7 the minor version must match (5.0 vs 5.1)"

# The requirement from the environment, as the shim will read it.
CUDNN_COMPAT_REQUIRE=5.0 expect_rc 0 cc resolve libcudnn.so.5
has "$FAKES/5.0.5/lib64/libcudnn.so.5"
has "from CUDNN_COMPAT_REQUIRE"

# A sub-library resolves into the directory of its main library.
expect_rc 0 cc resolve libcudnn_cnn_infer.so.8 --require 8.9 --cuda 12
has "-> $FAKES/8.9.7/lib64/libcudnn_cnn_infer.so.8"
expect_rc 0 cc resolve libcudnn_graph.so.9.1.0
has "-> $FAKES/9.1.0/lib64/libcudnn_graph.so.9.1.0"

# The map's [[require]] rule, matched on the program.
line=$(grep -n '^\[\[require\]\]' "$t/map.toml" | cut -d: -f1)
expect_rc 0 cc resolve libcudnn.so.5 --for /opt/apps/tensorflow/1.0/bin/python --json
has '"version": "5.1.10"'
has '"source": "'"$t/map.toml:$line"' ([[require]] match \"/opt/apps/tensorflow/1.0/*\" on /opt/apps/tensorflow/1.0/bin/python)"'

# Nothing fits: exit 1, every candidate with its reason, and the release to ask for.
expect_rc 1 cc resolve libcudnn.so.5 --require 5.2
has "no installed cuDNN fits cuDNN 5.2 under rule nvidia (from --require)"
has "Ask the admins for cuDNN 5.2.x"
expect_rc 1 cc resolve libcudnn.so.8 --require 8.9 --cuda 11
has "built for CUDA 12.2, not CUDA 11"
has "built for CUDA 11"

# A directory that lost its library is skipped for the next fitting release. (The heuristic
# library: one its main library loads without, as cuDNN 9's dispatcher maps it only at first use;
# a directory without libcudnn_ops does not load, tests/cli/resolve_unloadable.sh.)
cp -r "$FAKES/9.1.0" "$t/9.1.0-copy"
sed "s|$FAKES/9.1.0/lib64|$t/9.1.0-copy/lib64|" "$t/map.toml" >"$t/map2.toml"
printf '\n[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\n' "$FAKES/9.0.0/lib64" >>"$t/map2.toml"
rm "$t/9.1.0-copy/lib64/libcudnn_heuristic."*
# (A node whose driver runs CUDA 12.4: this machine's own cuDNN 9, if any, in ld.so.cache and
# built for CUDA 13, would be kept by the shim otherwise, and resolve says so.)
expect_rc 0 cc resolve libcudnn_heuristic.so.9 --map "$t/map2.toml" --driver 12.4
has "skipped: $t/9.1.0-copy/lib64 (listed for cuDNN 9.1.0) holds no file for libcudnn_heuristic.so.9"
has "cuDNN 9.0.0 is the next of 2 installed releases that fit, after 1 whose directory holds no libcudnn_heuristic.so.9"
lacks "is the newest"  # the one skipped (an outside tester's finding)

# Bad input is exit 2, a bad map exit 1.
expect_rc 2 cc resolve libcudart.so.12
has "is not a cuDNN library name"
CUDNN_COMPAT_REQUIRE=five expect_rc 2 cc resolve libcudnn.so.5
has "CUDNN_COMPAT_REQUIRE: 'five' is not a version"
printf 'schema = 1\n[[cudnn]]\nversion = "x"\n' >"$t/bad.toml"
expect_rc 1 cc resolve libcudnn.so.5 --map "$t/bad.toml"
has "$t/bad.toml:3:11: error:"

# No release of the map fits, but the loader's own choice does (a user's own cuDNN first on
# LD_LIBRARY_PATH): the shim keeps it, and resolve - which the Slurm plugin asks whether a node
# can serve --cudnn - names it and exits 0 (an outside tester's finding: "cannot serve", and
# --cudnn-strict failed a step the node served).
entries "9.0.0:$FAKES/9.0.0/lib64" >"$t/only9.0.toml"
LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 expect_rc 0 cc resolve libcudnn.so.9 --require 9.1 --map "$t/only9.0.toml"
has "libcudnn.so.9 -> $FAKES/9.1.0/lib64/libcudnn.so.9"
has "the loader's own choice (from LD_LIBRARY_PATH) is cuDNN 9.1.0, which fits (same major, and runtime minor 1 >= built minor 1): the shim keeps it; of the map's places, no installed cuDNN fits"
LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 expect_rc 1 cc resolve libcudnn.so.9 --require 9.1 --map "$t/only9.0.toml"
has "no installed cuDNN fits"
# ... and what the process gets then (an outside tester's finding: no file was named).
has "the process loads $FAKES/9.0.0/lib64/libcudnn.so.9 as usual (from LD_LIBRARY_PATH), which does not fit"
LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 expect_rc 1 cc --json resolve libcudnn.so.9 --require 9.1 --map "$t/only9.0.toml"
has "\"loaded_as_usual\": \"$FAKES/9.0.0/lib64/libcudnn.so.9\""

# A 100 kB requirement is named by its start and its length, on one short line.
CUDNN_COMPAT_REQUIRE=$(head -c 100000 /dev/zero | tr '\0' 'x') expect_rc 2 cc resolve libcudnn.so.5
has "...' (100000 bytes) is not a version"
(( ${#out} < 400 )) || fail "a ${#out}-byte message"

# The loader's own choice fits though the map prefers another fitting release: the shim keeps the
# loader's, and resolve names that one too (a maintainer's finding: resolve named the map's newest
# while the shim kept the loader's file, by a copy of the engine's rule that looked only where no
# release of the map fit).
entries "9.20.0:$FAKES/9.20.0/lib64" "9.23.0:$FAKES/9.23.0/lib64" >"$t/two9.toml"
LD_LIBRARY_PATH=$FAKES/9.20.0/lib64 expect_rc 0 cc resolve libcudnn.so.9 --require 9.1 --map "$t/two9.toml"
has "libcudnn.so.9 -> $FAKES/9.20.0/lib64/libcudnn.so.9"
has "the loader's own choice (from LD_LIBRARY_PATH) is cuDNN 9.20.0, which fits"
LD_LIBRARY_PATH=$FAKES/9.20.0/lib64 expect_rc 0 cc --json resolve libcudnn.so.9 --require 9.1 --map "$t/two9.toml"
has '"version": "9.20.0"'
shim=$(cc shim-path)
LD_LIBRARY_PATH=$FAKES/9.20.0/lib64 LD_AUDIT=$shim CUDNN_COMPAT_MAP=$t/two9.toml CUDNN_COMPAT_REQUIRE=9.1 \
  CUDNN_COMPAT_REPORT=1 expect_rc 0 python3 -c 'import ctypes; ctypes.CDLL("libcudnn.so.9")'
has "$FAKES/9.20.0/lib64/libcudnn.so.9"
lacks "9.23.0"
# With no loader's file that fits (this machine's ld.so.cache may hold the real 9.19), the map's
# preference.
expect_rc 0 cc resolve libcudnn.so.9 --require 9.20 --map "$t/two9.toml"
has "libcudnn.so.9 -> $FAKES/9.23.0/lib64/libcudnn.so.9"
# --for a FIFO (a mistake): said, and not read - resolve blocked on it forever (helper 109).
mkfifo "$t/fifo"
expect_rc 0 timeout 20 "$CUDNN_COMPAT" resolve libcudnn.so.9 --require 9.20 --map "$t/two9.toml" --for "$t/fifo"
has "--for $t/fifo: not a file"

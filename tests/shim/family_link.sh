# A family is handed over whole whichever path reaches its main library (issue 27 item 8):
# libcudnn.so.9 of FAKE 9.1.0 linked into a directory of stray 9.0.0 sub-libraries is the 9.1.0
# release by its identity, but ld.so takes $ORIGIN from the link's directory and the dispatcher's
# sub-libraries from there: a mixed family (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH). The shim
# hands the release over at the path it was probed at, from the table, from the engine with the
# table (CUDNN_COMPAT_DEBUG=1) and without it, for the bare name and for the link's path, under
# both front ends, installed and moved. The shim of main kept the link (the table said "fits").
source "$(dirname "$0")/common.sh"
deployed
family_client
mkdir "$t/mix"
ln -s "$FAKES/9.1.0/lib64/libcudnn.so.9" "$t/mix/libcudnn.so.9"
cp -L "$FAKES"/9.0.0/lib64/libcudnn_*.so.9 "$t/mix/"
fake_map 9.0.0 9.1.0 >"$map"
export LD_LIBRARY_PATH=$t/mix
checks=(cudnnGraphVersionCheck cudnnOpsVersionCheck cudnnCnnVersionCheck cudnnAdvVersionCheck)

# The setting mixes the family without the shim.
expect_rc 3 "$t/family" libcudnn.so.9 "${checks[@]}"
has "loaded $t/mix/libcudnn_graph.so.9"

for table in yes no; do
  table_state $table
  for front in AUDIT PRELOAD; do
    for name in libcudnn.so.9 "$t/mix/libcudnn.so.9"; do
      for debug in 0 1; do
        expect_rc 0 env CUDNN_COMPAT_DEBUG=$debug "LD_$front=$SHIM" "$t/family" "$name" "${checks[@]}"
        has "version 90100"
        has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
        lacks "loaded $t/mix"
      done
    done
  done
done

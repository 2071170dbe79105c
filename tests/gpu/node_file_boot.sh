# The node file is believed only from this boot (shim/shared/node_file.h): one modified before
# the boot moment (an earlier boot's, where /tmp outlives a reboot) is read by neither the shim's
# fast path nor the engine, and one whose boot line is another boot's not by the engine: each
# time the node is learnt anew (NVML asked again) and the file written anew.
source "$(dirname "$0")/common.sh"
node_scenario
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020 FAKE_NVML_LOG=$t/nvml.log
run() {
  expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
  has "loaded $t/volta/lib64/libcudnn.so.9"
}
run && nvml_asked 1 # learnt
run && nvml_asked 1 # remembered
[[ -f $node_file ]] || fail "no node file $node_file"

# An earlier boot's file: modified a minute before this boot began.
touch -c -d "@$(($(date +%s) - $(cut -d. -f1 /proc/uptime) - 60))" "$node_file"
run && nvml_asked 2
run && nvml_asked 2 # written anew: remembered again

# This boot's time, another boot's id: the engine's check (no decision table: the engine decides).
rm -f "$t/map.toml.decide"
sed -i '1s/.*/boot\tanother-boot/' "$node_file"
run && nvml_asked 3

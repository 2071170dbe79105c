# git's racy-clean rule for the files jobs read instead of the map: a cache or decision table that
# is not younger than the map may hide an edit made in the same clock tick, with the same size,
# inode and mtime - it must not be trusted. The edit here (prefer newest -> oldest) changes which
# of two fitting releases a job gets.
source "$(dirname "$0")/common.sh"
family_client
fake_map 8.1.0 8.9.7 | sed 's/^\[policy\]$/[policy]\nprefer = "newest"/' >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
export CUDNN_COMPAT_REQUIRE=8.1  # both fit; nothing on the path
for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.8
  has "version 8907"
done
# The edit, in place (same inode and size), and the map's mtime put back as it was; the derived
# files as if made in the same tick (their mtime is the map's).
stamp=$(stat -c %y "$t/map.toml")
python3 - "$t/map.toml" <<'PY'
import sys
with open(sys.argv[1], 'r+') as f:
    text = f.read().replace('prefer = "newest"', 'prefer = "oldest"')
    f.seek(0); f.write(text)
PY
touch -d "$stamp" "$t/map.toml" "$t/map.toml.cache" "$t/map.toml.decide"
for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.8
  has "version 8100"
done

# Issue 21: a spool directory [usage] names that is missing, no directory, or not writable by every
# user loses every record, each process counting only its drop, and map validate said nothing
# (admin tester helper 115, finding 6). It warns now, with the mode docs/usage.md asks for, also
# of one usage ingest refuses (no sticky bit, not root's), and is quiet for root's 1733 one. The records themselves: no process is touched either way.
source "$(dirname "$0")/common.sh"
spool_map() {
  fake_map 5.0.5 5.1.10 >"$t/map.toml"
  printf '[usage]\nmode = "record"\nto = "%s"\n' "$1" >>"$t/map.toml"
}
spool_map "$t/nowhere"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "[usage] sends records to the spool directory $t/nowhere, which is not there on this node (No such file or directory): every record is dropped"
has "chmod 1733 $t/nowhere"
: >"$t/file"
spool_map "$t/file"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "which is no directory"
mkdir "$t/closed" && chmod 0755 "$t/closed"
spool_map "$t/closed"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "which is not writable by every user (mode 0755)"
# Writable by all but what usage ingest refuses: no sticky bit, or not root's (helper 117).
mkdir "$t/open" && chmod 0777 "$t/open"
spool_map "$t/open"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "which lets any user remove or replace another's records (mode 0777, no sticky bit): usage ingest refuses to read it"
mkdir "$t/spool" && chmod 1733 "$t/spool"
spool_map "$t/spool"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
owner=$EUID
if ((EUID == 0)); then
  lacks "spool directory"
  mkdir "$t/theirs" && chmod 1733 "$t/theirs" && chown 65534 "$t/theirs" && owner=65534
  spool_map "$t/theirs"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
fi
has "which is owned by uid $owner, not root: usage ingest refuses to read it"

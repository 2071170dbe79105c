# Issue 21, item 3: `usage report --html FILE` writes its page as a page and nothing else: into a
# regular file (replaced whole, through a link, the link kept), to stdout ("-", or a pipe behind
# /dev/stdout, which stays the link it is), and never over the usage database or what is no
# regular file; --since takes 1970-01-01 as a date. Before, the page was renamed over whatever
# FILE was - /dev/stdout, a device node, the database itself - and exited 0 (an outside tester).
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
usage_spool
db=$t/usage.db
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
page() { grep -c "<svg" <<<"$1" || true; }

expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db" --html "$t/page.html"
has "page written: $t/page.html"
[[ $(page "$(cat "$t/page.html")") -ge 1 ]] || fail "no chart in the page"
ln -s page.html "$t/link.html" && echo old >"$t/page.html"
expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db" --html "$t/link.html"
[[ -L $t/link.html && $(page "$(cat "$t/page.html")") -ge 1 ]] || fail "the link was replaced, not written through"

out=$("$CUDNN_COMPAT" usage report --db "$db" --html - 2>&1)
[[ $(page "$out") -ge 1 ]] || fail "--html - printed no page"
lacks "page written"
out=$("$CUDNN_COMPAT" usage report --db "$db" --html /dev/stdout 2>&1 | cat)
[[ $(page "$out") -ge 1 ]] || fail "--html /dev/stdout into a pipe printed no page"
[[ -L /dev/stdout ]] || fail "/dev/stdout is no longer a link"

before=$(sha256sum <"$db")
expect_rc 1 "$CUDNN_COMPAT" usage report --db "$db" --html "$db"
has "is the usage database given with --db; the page is not written over it"
[[ $(sha256sum <"$db") == "$before" ]] || fail "the database was written over"
mkdir "$t/adir"
expect_rc 1 "$CUDNN_COMPAT" usage report --db "$db" --html "$t/adir"
has "is no regular file, pipe or terminal; not written over"

expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db" --since 1970-01-01

# A record's values are the user's words: the text report writes control characters out, so no
# record moves the admin's cursor, retitles the terminal or forges a row (an outside tester).
python3 "$(dirname "$0")/usage_records.py" escapes "$spool"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
for by in release module user job; do
  expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db" --by "$by"
  [[ $out != *$'\e'* && $out != *$'\a'* && $out != *$'\r'* ]] || fail "--by $by printed a control character"
done
expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db"
has '9.3.0\x1b]0;owned\x07\x1b[2J'

# Errors and the map's diagnostics are coloured on a terminal, and only there: never through a
# pipe, never with NO_COLOR set; the words stay the same.
source "$(dirname "$0")/common.sh"
command -v script >/dev/null || skip "script(1) is not installed (bsdutils): no terminal to test on"
on_tty() { script -qec "$(printf '%q ' "$@")" /dev/null; }
red=$'\e[1;31m' reset=$'\e[0m'
printf 'schema = 7\n' >"$t/bad.toml"

out=$(unset NO_COLOR; on_tty "$CUDNN_COMPAT" resolve libfoo.so.1 2>&1) || true
has "${red}cudnn-compat:${reset} "
out=$(unset NO_COLOR; on_tty "$CUDNN_COMPAT" map validate "$t/bad.toml" 2>&1) || true
has "$t/bad.toml:1:10: ${red}error:${reset} unknown schema 7"

out=$(export NO_COLOR=1; on_tty "$CUDNN_COMPAT" resolve libfoo.so.1 2>&1) || true
has "cudnn-compat: "
lacks $'\e['

expect_rc 2 cc resolve libfoo.so.1
has "cudnn-compat: "
lacks $'\e['

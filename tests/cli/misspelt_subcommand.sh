# A misspelt subcommand said only "A subcommand is required" (helper 92): the word typed is what
# the user needs to see, with the subcommand it was likely meant for, or the list of them.
source "$(dirname "$0")/common.sh"
expect_rc 2 cc resolv 5.1
has "'resolv' is not a cudnn-compat subcommand; did you mean 'resolve'?"
expect_rc 2 cc frobnicate
has "the subcommands are decode, check, map"
expect_rc 2 cc --json mpa validate
out=$(cc --json mpa validate 2>/dev/null) && fail "--json mpa exited 0"
has "\"error\": \"'mpa' is not a cudnn-compat subcommand; did you mean 'map'?\""
# Subcommands themselves are untouched.
expect_rc 0 cc decode 5103
has "5.1.3"

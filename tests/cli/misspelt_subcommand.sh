# A misspelt subcommand said only "A subcommand is required" (helper 92): the word typed is what
# the user needs to see, with the subcommand it was likely meant for, or the list of them.
source "$(dirname "$0")/common.sh"
expect_rc 2 cc resolv 5.1
has "'resolv' is not a cudnn-compat subcommand; did you mean 'resolve'?"
expect_rc 2 cc frobnicate
has "the subcommands are decode, check, map"
rc=0 && out=$(cc --json mpa validate 2>/dev/null) || rc=$?
[[ $rc == 2 ]] || fail "--json mpa exited $rc, expected 2"
has "\"error\": \"'mpa' is not a cudnn-compat subcommand; did you mean 'map'?\""
# Subcommands themselves are untouched.
expect_rc 0 cc decode 5103
has "5.1.3"
# One level down too (helper 94: `map valdate` said "A subcommand is required"), and a missing
# subcommand lists the ones there are.
expect_rc 2 cc map valdate
has "'valdate' is not a cudnn-compat map subcommand; did you mean 'validate'?"
expect_rc 2 cc usage ingset x
has "did you mean 'ingest'?"
expect_rc 2 cc map
has "cudnn-compat map needs a subcommand: validate, show"
expect_rc 2 cc
has "cudnn-compat needs a subcommand: decode, check, map"
expect_rc 0 cc map validate --help
has "Usage: cudnn-compat map validate"
# A misspelt option is named with the one meant (helper 94: CLI11 said "The following arguments
# were not expected: 9.1 --requre"), at any depth, global options included.
expect_rc 2 cc resolve libcudnn.so.9 --requre 9.1
has "'--requre' is not an option of cudnn-compat resolve; did you mean '--require'?"
expect_rc 2 cc map validate --mpa x.toml
has "did you mean '--map'?"
expect_rc 2 cc doctor --jsn
has "did you mean '--json'?"
expect_rc 2 cc resolve libcudnn.so.9 --frobnicate
has "'--frobnicate' is not an option of cudnn-compat resolve"

#!/usr/bin/env bash
# decode reads both integer encodings and every name form, and refuses to guess.
. "$(dirname "$0")/common.sh"

expect_rc 0 cc decode 5005 5103 5110 91001
has "5005: cuDNN 5.0.5;"
has "5103: cuDNN 5.1.3;"
has "5110: cuDNN 5.1.10;"
has "91001: cuDNN 9.10.1;"
has '"compatibility version" 5100'

expect_rc 0 cc decode --json 5005
has '"version": "5.0.5"'
has '"compat": 5000'
has '"patch": 5'
has '"cuda": null'

expect_rc 0 cc decode --json cuDNN/8.9.2.26-CUDA-12.1.1
has '"version": "8.9.2.26"'
has '"cuda": "12.1.1"'

expect_rc 0 cc --json decode libcudnn.so.5 90100
has '"version": "5"'
has '"minor": null'
[[ $(head -c1 <<<"$out") == "[" ]] || fail "several values give a JSON array"

expect_rc 2 cc decode 12020
has "use --cudart"
expect_rc 0 cc decode --cudart --json 12.2
has '"version": "12.2"'
has '"compat": null'
lacks '120200'
expect_rc 0 cc decode --cudart 12020 13010
has "12020: CUDA 12.2"
has "13010: CUDA 13.1"
expect_rc 2 cc decode libcudnn.so
has "carries no version"
expect_rc 2 cc decode --json 5.x
has '"error":'

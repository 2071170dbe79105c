#!/usr/bin/env bash
# check judges by the named rule and says when NVIDIA's own policy disagrees.
. "$(dirname "$0")/common.sh"

expect_rc 1 cc check --built-with 5103 --runtime 5005 --rule tensorflow-2016
has "incompatible: runtime cuDNN 5.0.5, built with 5.1.3, rule tensorflow-2016"
has "compatibility version 5000 vs 5100"

expect_rc 0 cc check -b 7.4.1 -r 7.6.5
has "compatible: runtime cuDNN 7.6.5"

expect_rc 1 cc check -b 7.4.1 -r 7.6.5 --rule tensorflow-2016
has "NVIDIA's own policy allows it"

expect_rc 1 cc check -b '(8, 9, 2)' -r 8.5.0 --rule pytorch --json
has '"compatible": false'
has '"rule": "pytorch"'
has '"built_with": "8.9.2"'

expect_rc 2 cc check -b 5103 -r 5005 --rule tensorflw
has "unknown rule 'tensorflw'"
has "tensorflow-2016"
expect_rc 2 cc check -b 5103

# explain --json carries both verdicts: the framework's rule (compatible) and NVIDIA's policy
# (nvidia_compatible), which differ for a newer minor under TensorFlow's 2016 rule.
source "$(dirname "$0")/common.sh"
expect_rc 0 cc --json explain 'Loaded runtime CuDNN library: 7605 (compatibility version 7600) but source was compiled with 7102 (compatibility version 7100).'
has '"compatible": false'
has '"nvidia_compatible": true'
has '"rule": "tensorflow-2016"'
has '"required": null'
# And they agree where both refuse.
expect_rc 0 cc --json explain 'TensorRT was linked against cuDNN 8.9.0 but loaded cuDNN 8.6.0'
has '"compatible": false'
has '"nvidia_compatible": false'
# A check that calls one release two (OpenCV 4.10 reads cuDNN 9's number as cuDNN 8's, opencv#26332)
# is a false alarm: no other cuDNN silences it, so none is advised.
expect_rc 0 cc explain 'global init.hpp:32 checkVersions cuDNN reports version 90.5 which is not compatible with the version 9.5 with which OpenCV was built'
has "what happened: opencv loaded cuDNN 9.5 and was built with the same release: its check misreads the version"
has "fix: none needed: the message is a false alarm of opencv's version check"
lacks "resolve"
lacks "ask the admins"
# A minimum stated at run time is of the SONAME's major, and before 7 of its minor too: "5.1 or
# newer" sent the admins to 5.2 or 6.0, neither of which a program built with 5.1 loads.
expect_rc 0 cc explain 'needs cudnn 5.1 but i have 5.0.5'
has "what happened: the program needs cuDNN 5.1.x but found cuDNN 5.0.5"
has "fix: ask the admins for cuDNN 5.1.x"
lacks "or newer"
expect_rc 0 cc explain 'RuntimeError: cuDNN frontend requires cuDNN 8.9.6 or newer, found 8.9.2'
has "what happened: the program needs cuDNN 8.9.6 or a newer 8.x but found cuDNN 8.9.2"

# Issue 9, item 5 (stalls): one deadline for the whole decision. With CUDNN_COMPAT_TIMEOUT=2, an
# engine that hangs, one that trickles a byte a second forever, and the real engine whose probes
# hang all end in the ordinary load (FAKE 5.0.5) and one line, within 8 s. The landed shim waited
# 30 s for a hung engine, had no overall deadline for a trickling one, and the engine 10 s more
# per hanging library.
source "$(dirname "$0")/common.sh"
deadline_setting

for mode in audit preload; do
  for engine in hang trickle hanging-probes; do
    if [[ $engine == hanging-probes ]]; then
      cp "$real_lib/cudnn-compat-select" "$t/lib/"
      fake_engine hang cudnn-compat-probe
      ran=$t/lib/cudnn-compat-probe.fds
    else
      fake_engine $engine
      ran=$t/lib/cudnn-compat-select.fds
    fi
    rm -f "$ran"
    expect_rc_within 1 8 env LD_${mode^^}=$SHIM "$t/tf2016"
    [[ -e $ran ]] || fail "$engine: the engine (or its probe) never ran ($mode)"
    has "Loaded runtime CuDNN library: 5005"
    count "cudnn-compat:" 1
    end_ours
  done
done

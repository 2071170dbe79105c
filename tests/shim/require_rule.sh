# With no environment saying what a program needs, the map's [[require]] glob on the executable
# decides; and when the newest entry of the map lies about its version, the next one is taken.
source "$(dirname "$0")/common.sh"
tf2016_client
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
{
  fake_map 5.0.5 5.1.10
  printf '[[require]]\nmatch = "%s/tf*"\ncudnn = "5.1.3"\n' "$t"
} >"$t/map.toml"
for mode in audit preload; do
  CUDNN_COMPAT_DEBUG=1 expect_rc 0 $mode "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  has "needs 5.1.3 from $t/map.toml:"
  has "[[require]] match \"$t/tf*\" on $t/tf2016"
done

# A liar: listed as 5.1.99 (the newest) but its directory holds 5.0.5. It is the 5.0.5 its library
# reports, which does not fit: the next is handed over without a word, as the decision table does
# (an outside tester's finding: the same decision said a line only without the table); the map's
# word is map validate's to report, and CUDNN_COMPAT_DEBUG's.
printf '[[cudnn]]\nversion = "5.1.99"\nlib = "%s"\n' "$FAKES/5.0.5/lib64" >>"$t/map.toml"
for mode in audit preload; do
  expect_rc 0 $mode "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  count "cudnn-compat:" 0
  CUDNN_COMPAT_DEBUG=1 expect_rc 0 $mode "$t/tf2016"
  has "the map says 5.1.99 but $FAKES/5.0.5/lib64/libcudnn.so.5 reports 5.0.5"
done

# Two consumers in one process with different needs: a torch-like library pinning
# nvidia-cudnn-cu12==9.20.0.48 (PyTorch's rule: 9.20 or a newer 9.x) and a JAX-plugin-like one
# whose range asks >=9.23,<10. With the jax plugin loaded first, torch's load gets the release
# that fits both (the map's 9.23.0), not the wheel's 9.20.0 that fits torch alone. When no
# release fits both, torch gets its own and one line names both needs.
source "$(dirname "$0")/common.sh"
two_consumers_site
both='import ctypes, sys
ctypes.CDLL(sys.argv[2])  # the plugin, loaded first; it asks for no cuDNN yet
sys.exit(ctypes.CDLL(sys.argv[1]).framework_load(b""))'

expect_rc 0 python3 -c "$both" "$torch" "$jax"
has "version 92000"
for mode in audit preload; do
  expect_rc 0 $mode python3 -c "$both" "$torch" "$jax"
  has "version 92300"
  has "loaded $FAKES/9.23.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
done

# No release fits both: torch's own (the loader's pick, its wheel, serves it), and one line with
# both needs.
sed -i 's/>=9.23/>=9.24/' "$site"/jax_cuda12_plugin-*.dist-info/METADATA
expect_rc 0 audit python3 -c "$both" "$torch" "$jax"
has "version 92000"
count "cudnn-compat:" 1
has "cudnn-compat: libcudnn.so.9 -> $site/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9: no installed cuDNN serves both cuDNN 9.20.0 for CUDA 12 under rule pytorch (from the pin of torch 2.6.0"
has "and cuDNN 9.24 for CUDA 12 under rule jax (from the pin of jax-cuda12-plugin 0.7.2"

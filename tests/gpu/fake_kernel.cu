// The device code of the FAKE releases' libraries: one trivial kernel, compiled by nvcc for the
// architectures a test names (tests/gpu/CMakeLists.txt). Never run: no GPU is needed.
__global__ void fake_kernel(float *x) { x[threadIdx.x] *= 2.0f; }

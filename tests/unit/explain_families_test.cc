// explain's family readers on messages written here in each tool's own format (see the sources
// named in src/core/explain_*.cc), each inside a log with noise around it, and the negatives that
// must never be read as a cuDNN version problem.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

std::string str(const std::optional<Version> &v) {
  return v ? to_string(*v) : "-";
}

// kind runtime built required library missing rule status windows-error stage
std::string summary(const Finding &f) {
  return std::string(to_string(f.kind)) + " " + str(f.runtime) + " " + str(f.built_with) + " " +
         str(f.required) + " " + (f.library.empty() ? "-" : f.library) + " " +
         (f.missing.empty() ? "-" : f.missing) + " " +
         (f.rule ? std::string(rule_name(*f.rule)) : "-") + " " +
         (f.status.empty() ? "-" : f.status) + " " +
         (f.windows_error ? std::to_string(*f.windows_error) : "-") +
         (f.build_time ? " build" : " run");
}

// The message between lines of noise a job log carries, so the reader must find it there.
std::string in_noise(const std::string &message) {
  return "+ srun python train.py\n"
         "2024-05-02 10:11:12.123456: I tensorflow/core/platform/cpu_feature_guard.cc:182] AVX2 "
         "FMA\n"
         "epoch 1/10\r  3%|#         | 30/1000 [00:01<00:40, 24.1it/s]\r" +
         message +
         "\n"
         "srun: error: node017: task 0: Exited with exit code 1\n";
}

struct Case {
  const char *message;
  const char *expect;
};

class ExplainFamily : public testing::TestWithParam<Case> {};

TEST_P(ExplainFamily, ReadsTheMessageInsideALog) {
  const std::vector<Finding> found = find_errors(in_noise(GetParam().message));
  ASSERT_EQ(found.size(), 1u) << GetParam().message;
  EXPECT_EQ(summary(found.front()), GetParam().expect) << GetParam().message;
  // Numbered as the file numbers lines: a \r starts a piece of line 3, not a line.
  EXPECT_EQ(found.front().line, 3u);
}

INSTANTIATE_TEST_SUITE_P(
    Tools, ExplainFamily,
    testing::Values(
        // TensorRT's logger, both prefix orders.
        Case{"[06/11/2024-09:12:44] [TRT] [W] TensorRT was linked against cuDNN 8.9.0 but loaded "
             "cuDNN 8.6.0",
             "version-mismatch 8.6.0 8.9.0 - - - nvidia - - run"},
        Case{"[11/03/2022-14:02:10] [W] [TRT] TensorRT was linked against cuDNN 8.4.1 but loaded "
             "cuDNN 8.2.4",
             "version-mismatch 8.2.4 8.4.1 - - - nvidia - - run"},
        // PaddlePaddle's loader and its Windows error codes.
        Case{"W0314 08:01:22.339100  4411 dynamic_loader.cc:307] The third-party dynamic library "
             "(libcudnn.so) that Paddle depends on is not configured correctly. (error code is "
             "/opt/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or "
             "directory)",
             "library-not-found - - - libcudnn.so - - - - run"},
        Case{"RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) "
             "that Paddle depends on is not configured correctly. (error code is 126)",
             "library-not-found - - - cudnn64_8.dll - - - 126 run"},
        Case{"RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) "
             "that Paddle depends on is not configured correctly. (error code is 127)",
             "sublibrary-mismatch - - - cudnn64_8.dll - - - 127 run"},
        Case{"PreconditionNotMetError: Cannot load cudnn shared library. Cannot invoke method "
             "cudnnGetVersion.",
             "library-not-found - - - - - - - - run"},
        // Theano.
        Case{"RuntimeError: Mixed dnn version. The header is version 7104 while the library is "
             "version 7605.",
             "version-mismatch 7.6.5 7.1.4 - - - exact - - run"},
        Case{"Using gpu device 0: Tesla K40m (CNMeM is disabled, cuDNN Version is too old. Update "
             "to v5, was 4007.)",
             "outdated 4.0.7 - 5 - - - - - run"},
        // TensorFlow: the Windows self-check and the 2016 form.
        Case{"ImportError: Could not find 'cudnn64_6.dll'. TensorFlow requires that this DLL be "
             "installed in a directory that is named in your %PATH% environment variable.",
             "library-not-found - - - cudnn64_6.dll - - - - run"},
        Case{"F tensorflow/stream_executor/cuda/cuda_dnn.cc:221] Check failed: s.ok() could not "
             "find cudnnCreate in cudnn DSO; dlerror: /usr/local/cuda/lib64/libcudnn.so.5: "
             "undefined symbol: cudnnCreate",
             "version-mismatch - - - libcudnn.so.5 - - - - run"},
        Case{"E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded cudnn library: 5005 but "
             "source was compiled against 5110.",
             "version-mismatch 5.0.5 5.1.10 - - - exact - - run"},
        Case{"- Could not find cuDNN 6.", "library-not-found - - 6 - - - - - run"},
        // Torch7's cudnn.torch.
        Case{"/home/u/torch/install/bin/luajit: /home/u/torch/install/share/lua/5.1/cudnn/"
             "ffi.lua:1618: 'libcudnn (R7) not found in library path.",
             "library-not-found - - 7 - - - - - run"},
        // CuPy: its cuDNN module against another release, and its setup.
        Case{"ImportError: /opt/conda/lib/python3.9/site-packages/cupy_backends/cuda/libs/"
             "cudnn.cpython-39-x86_64-linux-gnu.so: undefined symbol: cudnnSetRNNDescriptor_v6",
             "version-mismatch - - - - - - - - run"},
        Case{"*** WARNING: Unsupported cuDNN version: 7001",
             "version-mismatch 7.0.1 - - - - - - - build"},
        // ONNX Runtime on Windows.
        Case{
            "[E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_CUDA] "
            "Error loading \"D:\\env\\Lib\\site-packages\\onnxruntime\\capi\\"
            "onnxruntime_providers_cuda.dll\" which depends on \"cudnn64_9.dll\" which is missing. "
            "(Error 126: \"The specified module could not be found.\")",
            "library-not-found - - - cudnn64_9.dll - - - 126 run"},
        Case{"[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
             "CreateExecutionProviderFactoryInstance] Failed to create CUDAExecutionProvider. "
             "Require cuDNN 9.* and CUDA 12.*, and the latest MSVC runtime.",
             "library-not-found - - 9 - - - - - run"},
        // PyTorch: 2022's tuples and a bundled, renamed libcudnn.
        Case{"RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) "
             "but linked against (8, 0, 5)",
             "version-mismatch 8.0.5 8.3.2 - - - pytorch - - run"},
        Case{"OSError: libcudnn-3f2b1c9a.so.7: cannot open shared object file: No such file or "
             "directory",
             "library-not-found - - - libcudnn-3f2b1c9a.so.7 - - - - run"},
        Case{"OSError: [WinError 127] The specified procedure could not be found. Error loading "
             "\"C:\\py\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its "
             "dependencies.",
             "sublibrary-mismatch - - - cudnn_cnn_infer64_8.dll - - - 127 run"},
        // cuDNN itself: a status code with no loader line beside it, symbol versions of 8.
        Case{"RuntimeError: cudnnFinalize Descriptor Failed cudnn_status: "
             "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED",
             "library-not-found - - - - - - CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED - run"},
        Case{"Could not load library libcudnn_cnn_train.so.8. Error: /usr/lib/x86_64-linux-gnu/"
             "libcudnn_ops_train.so.8: symbol _ZN5cudnn3ops18getInternalVersionEv version "
             "libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time "
             "reference",
             "sublibrary-mismatch - - - libcudnn_cnn_train.so.8 - - - - run"},
        Case{"python: symbol lookup error: /opt/cudnn-8.9/lib/libcudnn_cnn_infer.so.8: undefined "
             "symbol: _ZN5cudnn14backend10Descriptor, version libcudnn_ops_infer.so.8",
             "sublibrary-mismatch - - - libcudnn_cnn_infer.so.8 - - - - run"},
        Case{"ImportError: /opt/jax/jaxlib/xla_extension.so: symbol cudnnSetCTCLossDescriptorEx "
             "version libcudnn.so.7 not defined in file libcudnn.so.7 with link time reference",
             "version-mismatch - - - libcudnn.so.7 - - - - run"},
        // A dependency of another CUDA release under cuDNN: not a mixed cuDNN family.
        Case{"Could not load library libcudnn_cnn_infer.so.8. Error: /usr/local/cuda-10.2/targets/"
             "x86_64-linux/lib/libnvrtc.so: undefined symbol: nvrtcGetCUBIN",
             "dependency-not-found - - - libcudnn_cnn_infer.so.8 libnvrtc.so - - - run"},
        // MindSpore's extension built against another cuDNN, and its build.
        Case{"ImportError: /opt/ms/lib/python3.9/site-packages/mindspore/_c_expression.cpython-39-"
             "x86_64-linux-gnu.so: undefined symbol: cudnnGetConvolutionForwardAlgorithm_v7, "
             "version libcudnn.so.8",
             "version-mismatch - - - libcudnn.so.8 - - - - run"},
        Case{"  Failed to find cudnn library file, please set environment variable CUDNN_HOME to "
             "cudnn installation position.",
             "library-not-found - - - - - - - - build"},
        // TensorFlow's first loader; CTranslate2 (faster-whisper) through cuDNN 9's dispatcher on
        // Windows; Julia's CUDA.jl.
        Case{"I tensorflow/stream_executor/cuda/cuda_dnn.cc:1062] Unable to load cuDNN DSO.",
             "library-not-found - - - - - - - - run"},
        Case{"Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!\n"
             "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor",
             "library-not-found - - - cudnn_ops64_9.dll - - - - run"},
        Case{"┌ Warning: cuDNN not available for your platform",
             "library-not-found - - - - - - - - run"},
        // LD_DEBUG's view of the same.
        Case{"      4711:\t/opt/cudnn/lib/libcudnn_cnn_infer.so.8: error: symbol lookup error: "
             "undefined symbol: _ZN5cudnn3ops18getInternalVersionEv (fatal)",
             "sublibrary-mismatch - - - libcudnn_cnn_infer.so.8 - - - - run"},
        // A broken copy; .NET's HRESULTs for Windows' 126 and 127; a DLL name in capitals.
        Case{"OSError: /usr/local/cuda/lib64/libcudnn.so.6: file too short",
             "library-not-found - - - libcudnn.so.6 - - - - run"},
        Case{"DllNotFoundException: Unable to load DLL 'cudnn64_6.dll': The specified module could "
             "not be found. (Exception from HRESULT: 0x8007007E)",
             "library-not-found - - - cudnn64_6.dll - - - 126 run"},
        Case{"EntryPointNotFoundException: Unable to load DLL 'cudnn64_8.dll': The specified "
             "procedure could not be found. (Exception from HRESULT: 0x8007007F)",
             "sublibrary-mismatch - - - cudnn64_8.dll - - - 127 run"},
        Case{"Error: Cudnn64_7.dll not found", "library-not-found - - - Cudnn64_7.dll - - - - run"},
        // cuDNN's own dependencies, ldd.
        Case{"Could not locate zlibwapi.dll. Please make sure it is in your library path!",
             "dependency-not-found - - - - zlibwapi.dll - - - run"},
        Case{"\tlibcudnn.so.9 => not found", "library-not-found - - - libcudnn.so.9 - - - - run"},
        // Build time: compiler, linker, CMake, dlib, configure, an API the source did not expect.
        Case{"Cuda Configuration Error: Cannot find cudnn.h under /usr/local/cuda",
             "library-not-found - - - cudnn.h - - - - build"},
        Case{"src/conv.cu:3:10: fatal error: cudnn.h: No such file or directory",
             "library-not-found - - - cudnn.h - - - - build"},
        Case{"/usr/bin/ld: cannot find -lcudnn: No such file or directory",
             "library-not-found - - - libcudnn.so - - - - build"},
        Case{"  Could NOT find CUDNN: Found unsuitable version \"7.6.5\", but required is at least "
             "\"8.0\" (found /usr/lib64/libcudnn.so)",
             "outdated 7.6.5 - 8.0 - - - - - build"},
        Case{"CMake Warning at cmake/Dependencies.cmake:1100 (message): CuDNN not found. Compiling "
             "without CuDNN support",
             "library-not-found - - - - - - - - build"},
        Case{"RuntimeError: cuDNN not found", "library-not-found - - - - - - - - run"},
        Case{"CMake Error at cmake/public/cuda.cmake:239 (message): PyTorch requires cuDNN 8.1 and "
             "above.",
             "outdated - - 8.1 - - - - - build"},
        Case{"-- *** cuDNN V5.0 OR GREATER NOT FOUND.                                  ***",
             "library-not-found - - 5.0 - - - - - build"},
        Case{"Could not find any cudnn.h matching version '8' in any subdirectory:",
             "library-not-found - - 8 cudnn.h - - - - build"},
        Case{"./src/convolutional_layer.c:153:13: error: 'CUDNN_CONVOLUTION_FWD_SPECIFY_WORKSPACE_"
             "LIMIT' undeclared (first use in this function)",
             "version-mismatch - - - - - - - - build"},
        Case{"Can not use cuDNN on context None: Version is too old. Update to v5, was 3007.",
             "outdated 3.0.7 - 5 - - - - - run"},
        Case{"caffe/src/caffe/util/cudnn.hpp:112:3: error: too few arguments to function "
             "'cudnnStatus_t cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t, int, "
             "int, int, int, int, int, cudnnConvolutionMode_t, cudnnDataType_t)'",
             "version-mismatch - - - - - - - - build"}));

// Wordings no family reader knows: the general reader takes the roles from the words around the
// versions.
INSTANTIATE_TEST_SUITE_P(
    Unseen, ExplainFamily,
    testing::Values(
        Case{"ERROR: mytool was built against cuDNN 9.3.0, found cuDNN 9.1.1 at runtime",
             "version-mismatch 9.1.1 9.3.0 - - - - - - run"},
        Case{"[E] libfoo: cuDNN 8.9.7 loaded, but this plugin requires cuDNN 9.0 or newer",
             "outdated 8.9.7 - 9.0 - - - - - run"},
        Case{"fatal: unable to load libcudnn_graph.so.9 (needed by libtorch_cuda.so)",
             "library-not-found - - - libcudnn_graph.so.9 - - - - run"},
        Case{"Warning: the installed cuDNN (8.2) is older than the cuDNN 8.6 TensorFlow was built "
             "with",
             "version-mismatch 8.2 8.6 - - - tensorflow - - run"},
        Case{"thread 'main' panicked: Unable to dynamically load the \"cudnn\" shared library",
             "library-not-found - - - - - - - - run"},
        Case{"cuDNN version mismatch detected between the loaded libraries",
             "version-mismatch - - - - - - - - run"},
        Case{"[W] cudnn version 8.0.5 is linked, built against 8.2.1",
             "version-mismatch 8.0.5 8.2.1 - - - - - - run"},
        Case{"Warning: cuDNN 8.9.7 (runtime) != 8.9.6 (compile time)",
             "version-mismatch 8.9.7 8.9.6 - - - - - - run"},
        Case{"cuDNN mismatch: header 8.9.7, library 8.9.2",
             "version-mismatch 8.9.2 8.9.7 - - - - - - run"},
        Case{"UserWarning: Your cuDNN (8.1.0) is older than the one this build of Foo requires "
             "(8.6.0).",
             "outdated 8.1.0 - 8.6.0 - - - - - run"},
        Case{"CMake Error at cmake/FindCUDNN.cmake:80 (message): cuDNN version 7.6.5 found, but "
             "8.0 or newer is required",
             "outdated 7.6.5 - 8.0 - - - - - build"},
        Case{"/usr/bin/ld: warning: libcudnn.so.7, needed by /usr/lib/libcaffe.so, not found "
             "(try using -rpath or -rpath-link)",
             "library-not-found - - - libcudnn.so.7 - - - - build"},
        Case{"The cuDNN version (8.0.5) installed on this machine does not match the version "
             "(8.1.0) this package was built with",
             "version-mismatch 8.0.5 8.1.0 - - - - - - run"},
        Case{"error: found cudnn 8.2.4 < required 8.6", "outdated 8.2.4 - 8.6 - - - - - run"},
        Case{"cuDNN 7.6.5 is too old for this release of mytool (need 8.x)",
             "outdated 7.6.5 - 8 - - - - - run"},
        Case{"UserWarning: Applied workaround for CuDNN issue, install nvrtc.so",
             "dependency-not-found - - - - nvrtc.so - - - run"},
        // Tools that pass the loader's words on: Triton's model load, Horovod's extension,
        // EXLA's NIF.
        Case{"E0601 12:00:00.000000 1 model_lifecycle.cc:626] failed to load 'resnet50' version 1: "
             "Internal: unable to load backend library: libcudnn.so.8: cannot open shared object "
             "file: No such file or directory",
             "library-not-found - - - libcudnn.so.8 - - - - run"},
        Case{
            "ImportError: /opt/conda/lib/python3.10/site-packages/horovod/torch/mpi_lib_v2.cpython-"
            "310-x86_64-linux-gnu.so: undefined symbol: cudnnSetTensorNdDescriptorEx",
            "version-mismatch - - - - - - - - run"},
        Case{
            "** (RuntimeError) failed to load NIF library: libcudnn_graph.so.9: cannot open shared "
            "object file: No such file or directory",
            "library-not-found - - - libcudnn_graph.so.9 - - - - run"},
        // Users who paste in Chinese, Japanese or Korean (held-out-11: "提示zlibwapi.dll找不到").
        Case{"错误：找不到cudnn_ops_infer64_8.dll，请检查路径",
             "library-not-found - - - cudnn_ops_infer64_8.dll - - - - run"},
        Case{"cudnn64_8.dll が見つかりません", "library-not-found - - - cudnn64_8.dll - - - - run"},
        Case{"cudnn64_8.dll를 찾을 수 없습니다",
             "library-not-found - - - cudnn64_8.dll - - - - run"},
        // zlib's Windows DLL is cuDNN's dependency whoever names it.
        Case{"Error: zlibwapi.dll was not found.",
             "dependency-not-found - - - - zlibwapi.dll - - - run"},
        // The releases under a version refused or tolerated (Caffe2's "CUDNN version under 6.0 is
        // supported at best effort" as a compiler note, in held-out-10 and held-out-11).
        Case{"src/dnn_helper.h:12:9: note: #pragma message: cuDNN below 7.0 is supported at best "
             "effort",
             "outdated - - 7.0 - - - - - build"},
        Case{"RuntimeError: cuDNN versions lower than 8.1 are not supported by this build",
             "outdated - - 8.1 - - - - - run"},
        // An upper bound, not a minimum (an outside tester's finding: read as "needs 9.0 or
        // newer", the opposite of the message's advice).
        Case{"This op is only supported with cudnn version below 9.0; please use cudnn 8.x",
             "version-mismatch - - - - - - - - run"},
        // The refusal before the version (PyTorch's cuDNN frontend, held-out-12).
        Case{"RuntimeError: cuDNN Frontend error: this layout is not supported with cudnn version "
             "below 8.9.5",
             "outdated - - 8.9.5 - - - - - run"},
        // cuDNN's own loader naming only the dependency it lacks, and a line that names cuDNN and
        // only its dependency (held-out-11 and held-out-12).
        Case{"Could not load library libcublasLt.so.11. Error: libcublasLt.so.11: cannot open "
             "shared object file: No such file or directory",
             "dependency-not-found - - - - libcublasLt.so.11 - - - run"},
        Case{"initialising cuDNN failed: libnvrtc.so.12: cannot open shared object file",
             "dependency-not-found - - - - libnvrtc.so.12 - - - run"},
        // MSVC's LNK1104 and CMake's find_path (held-out-12).
        Case{"LINK : fatal error LNK1104: cannot open file 'cudnn_adv.lib'",
             "library-not-found - - - cudnn_adv.lib - - - - build"},
        Case{"  Could not find CUDNN_HEADER using the following files: cudnn_version.h",
             "library-not-found - - - cudnn_version.h - - - - build"},
        // GNU ld in Chinese (onnx/onnx-tensorrt#530): a versioned symbol names the file the
        // library was linked against; an API cuDNN 9 removed, asked of libcudnn.so.8, is that
        // file missing, not a cuDNN too new.
        Case{
            "/home/u/TensorRT-7.1.3.4/lib/libnvinfer.so：对‘cudnnSetTensorNdDescriptor@libcudnn.so."
            "8’未定义的引用",
            "library-not-found - - - libcudnn.so.8 - - - - build"},
        Case{"/home/u/TensorRT-7.1.3.4/lib/"
             "libnvinfer.so：对‘cudnnSetRNNMatrixMathType@libcudnn.so.8’"
             "未定义的引用",
             "library-not-found - - - libcudnn.so.8 - - - - build"},
        // ld's other locales, in binutils' wordings as users paste them (German, French, Russian,
        // Japanese and Spanish builds quoted in the corpus: "undefinierter Verweis auf »X«",
        // "référence indéfinie vers « X »", "неопределённая ссылка на «X»", "`X' に対する定義さ
        // れていない参照です", "referencia a `X' sin definir").
        Case{"conv.c:(.text+0x1d): undefinierter Verweis auf »cudnnCreate«",
             "library-not-found - - - - - - - - build"},
        Case{"/usr/bin/ld : conv.c:9 : référence indéfinie vers « cudnnCreate »",
             "library-not-found - - - - - - - - build"},
        Case{"conv.c:(.text+0x1d): неопределённая ссылка на «cudnnCreate»",
             "library-not-found - - - - - - - - build"},
        Case{"conv.c:(.text+0x11): `cudnnCreate' に対する定義されていない参照です",
             "library-not-found - - - - - - - - build"},
        Case{"conv.c:21: referencia a `cudnnCreate' sin definir",
             "library-not-found - - - - - - - - build"},
        // A numbered form of an old release's API (autumnai/leaf#105; the _v3 forms went in 5).
        Case{"cudnn.0.rs:(.text._ZN22convolution_descriptor3new+0x29c): undefined reference to "
             "`cudnnSetConvolutionNdDescriptor_v3'",
             "version-mismatch - - - - - - - - build"},
        // Missing said of cuDNN (dotnet/machinelearning-modelbuilder#2910; mszhanyi/VSIXTorch#11,
        // a project wizard's, so a build's).
        Case{"cuDNN 7.6.4 is missing", "library-not-found - - 7.6.4 - - - - - run"},
        Case{"cudnn 9 missing", "library-not-found - - 9 - - - - - run"},  // as users write it
        Case{"you choose to create a torch project with cuda but cuDNN isn't installed.",
             "library-not-found - - - - - - - - build"},
        // TensorFlow's configure (mozilla/DeepSpeech#1522, tensorflow#8702 with the header's
        // #define blanks kept): the header's cuDNN is the one there, TF_CUDNN_VERSION the build's.
        Case{"Cuda Configuration Error: cuDNN version detected from /usr/lib/x86_64-linux-gnu/"
             "include/cudnn.h (7.2.1) does not match TF_CUDNN_VERSION (7.1.1)",
             "version-mismatch 7.2.1 7.1.1 - - - - - - build"},
        Case{"Auto-Configuration Error: cuDNN version detected from /usr/local/cuda-8.0/include/"
             "cudnn.h (      5.      1. 5) does not match TF_CUDNN_VERSION (5.1.5)",
             "version-mismatch 5.1.5 5.1.5 - - - - - - build"}));

// The GPU's architecture and the driver are read as what they are (issue 22), never as a cuDNN
// version problem, whatever cuDNN release the line also names.
TEST(ExplainNegatives, GpuAndDriverAreNotVersionProblems) {
  const std::vector<Finding> driver = find_errors(
      "cudaGetDevice() failed. Status: CUDA driver version is insufficient for CUDA "
      "runtime version (cuDNN 8.1.0)");
  ASSERT_EQ(driver.size(), 1u);
  EXPECT_EQ(driver[0].kind, FindingKind::driver_too_old);
  EXPECT_FALSE(driver[0].runtime || driver[0].built_with);
  const std::vector<Finding> arch = find_errors(
      "F0327 11:50:10.866304 26661 cudnn_conv_layer.cpp:53] Check failed: status == "
      "CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH");
  ASSERT_EQ(arch.size(), 1u);
  EXPECT_EQ(arch[0].kind, FindingKind::arch_mismatch);
  EXPECT_EQ(arch[0].status, "CUDNN_STATUS_ARCH_MISMATCH");
}

// Messages about other things that mention cuDNN: never a cuDNN version problem.
TEST(ExplainNegatives, OtherTroubleIsNotAVersionMismatch) {
  for (const char *message : {
           "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED (CUDA out of memory?)",
           "RuntimeError: CUDA error: out of memory; cuDNN 8.9.7 was in use",
           "[TRT] [W] TensorRT was linked against cuBLAS/cuBLAS LT 11.8.0 but loaded cuBLAS/cuBLAS "
           "LT 11.5.1",
           "cuFFT version 11.0.2 does not match the version 10.9.0 cuDNN 8.9 expects",
           "[TRT] [I] [MemUsageChange] Init cuDNN: CPU +5120, GPU +8192, now: CPU 5216, GPU 9300 "
           "(MiB)",
           "cuDNN Build Version          : 8906",
           "Using cuDNN 8.9.7 with CUDA 12.1 (TensorFlow 2.15.0)",
           "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution",
           "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register "
           "cuDNN factory: Attempting to register factory for plugin cuDNN when one has already "
           "been registered",
           "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
           "UserWarning: cuDNN SDPA backward got grad_output.strides() != output.strides()",
           "Enabling cuDNN for mixed precision training; results may differ slightly",
           "Disabling cuDNN: this cuDNN version is incompatible with compute capability 3.0",
           "[cudnn_frontend] Error: No execution plans support the graph.",
           "cuDNN SDPA is not available on this GPU, falling back to math kernel",
           "W tensorflow/stream_executor/cuda/cuda_dnn.cc:1200] Failed to find cudnn algorithm; "
           "trying next",
           "Warning: cuDNN attention is missing support for dropout on sm_75",
           "ImportError: /opt/cudnn/8.9/lib64/libfoo.so: cannot open shared object file",
           // An outside tester's near misses of this round's shapes: another product's version
           // under a refusal, a failure word of another object, a reason that is no missing
           // file, zlib's import library at link time.
           "CUDA version under 11.0 is supported at best effort (cuDNN 8.9.7 loaded)",
           "TensorRT version under 8.6 is supported at best effort; cuDNN 8.9.7 found",
           "已找到 libcudnn.so.8，但找不到 GPU",
           "libcudnn.so.8 已加载，但找不到 CUDA 驱动程序",
           "CUDA ドライバが見つかりません",
           "找不到 nvidia-smi; cuDNN 8.9.7",
           "Could not load library libnvrtc.so.12. Error: out of memory",
           "Could not load library libcudnn_cnn_infer.so.8. Error: out of memory",
           "LINK : fatal error LNK1104: cannot open file 'zlibwapi.lib'",
           // A regression tester's: the product that is not supported named first, and a CJK
           // failure word whose object is not cuDNN though cuDNN's version follows.
           "CUDA version below 11.8 is not supported; cuDNN 8.9.7 loaded",
           "CUDA 10.2 is not supported; cuDNN 8.9.7 loaded",
           "PyTorch versions below 2.0 are not supported (cuDNN 8.9.7)",
           "This build targets cuDNN 9.1.0 and drivers prior to 525 are unsupported",
           "CUDA ドライバが見つかりません (cuDNN 8.9.7)",
           "GPU를 찾을 수 없습니다 (cuDNN 8.9.7)",
           "找不到 GPU (cuDNN 8.9.7)",
           // A third tester's: the product after the refusal, an OS or a GPU generation as the
           // subject, a bound of CUDA's, a parenthetical after a Chinese failure word.
           "not supported with CUDA version below 11.8 (cuDNN 8.9.2 loaded)",
           "only supported with CUDA version below 12.0 (cudnn 8.9.2)",
           "Windows 7 is not supported by cudnn 9.0",
           "cuDNN 8.9 is unsupported on Kepler",
           "CUDA 驱动 找不到 (cudnn 8.6)",
       }) {
    for (const Finding &f : find_errors(in_noise(message)))
      EXPECT_NE(f.kind, FindingKind::version_mismatch) << message;
    EXPECT_TRUE(find_errors(message).empty()) << message;
  }
}

// A version after another product's declared mismatch is that product's, even where cuDNN is
// named later on the line (lc0#911: "CUDA Runtime version mismatch, was compiled with version
// 10.0.0" then "Cudnn version: 7.4.2").
TEST(ExplainNegatives, AnotherProductsMismatchIsNotCudnns) {
  for (const char *message : {
           "WARNING: CUDA Runtime version mismatch, was compiled with version 10.0.0 Cudnn "
           "version: 7.4.2",
           "warning: NCCL version mismatch, built with 2.18.1 (cuDNN 8.9.7 loaded)",
           "Driver version mismatch: was compiled with version 535.104, cudnn 9.1.0 in use",
       })
    for (const Finding &f : find_errors(in_noise(message)))
      EXPECT_NE(f.kind, FindingKind::version_mismatch) << message;
  // cuDNN's own mismatch keeps its versions.
  const std::vector<Finding> own =
      find_errors("cuDNN version mismatch, was compiled with version 8.9.7 but loaded 8.6.0");
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(to_string(*own[0].built_with), "8.9.7");
}

// cuDNN's own API log names the library that runs ("CuDNN (v92400 43) function ... called"): a
// sub-library of that major that did not load is of that release (CUDA.jl#3205).
TEST(ExplainContext, CudnnsApiLogIsTheRunsBanner) {
  const std::vector<Finding> found = find_errors(
      "Could not locate cudnn_engines_tensor_ir64_9.dll. Please make sure it is in your library "
      "path!\n\u250c Error: CuDNN (v92400 43) function "
      "cudnnGetConvolutionForwardAlgorithmMaxCount() "
      "called:");
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].kind, FindingKind::library_not_found);
  ASSERT_TRUE(found[0].runtime);
  EXPECT_EQ(to_string(*found[0].runtime), "9.24.0");
}

// A cue that qualifies the product gives the version its role whatever the predicate after it
// ("Compiled-against cuDNN version 6021 is too old": the build's, not the run's).
TEST(ExplainRoles, ACueBeforeTheProductWins) {
  const std::vector<Finding> found = find_errors(
      "error: static assertion failed: Compiled-against cuDNN version 6021 is too old, please "
      "upgrade system to version 7000 or later.");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].built_with);
  EXPECT_EQ(to_string(*found[0].built_with), "6.0.21");
  EXPECT_FALSE(found[0].runtime);
}

// Shapes the sixteenth held-out set showed (tests/explain/held-out-16.jsonl): Theano's refusal of
// a GPU below compute capability 3.0, cuDNN's own words for a dependency it cannot find, CuArrays'
// undefined libcudnn, a minimum written "< 7", ONNX Runtime's requirement after its unnamed 126.
INSTANTIATE_TEST_SUITE_P(
    HeldOutSixteen, ExplainFamily,
    testing::Values(
        Case{"Can not use cuDNN on context None: Device not supported",
             "arch-mismatch - - - - - - - - run"},
        Case{"Could not locate cublasLt64_10.dll. Please make sure it is in your library path!",
             "dependency-not-found - - - - cublasLt64_10.dll - - - run"},
        Case{"LoadError: LoadError: UndefVarError: libcudnn not defined",
             "library-not-found - - - libcudnn - - - - run"},
        Case{"CUDNN < 7 doesn't support groups, please upgrade!", "outdated - - 7 - - - - - run"},
        Case{"[E:onnxruntime:Default, provider_bridge_ort.cc:1992] LoadLibrary failed with error "
             "126 \"\" when trying to load \"C:\\ort\\onnxruntime_providers_cuda.dll\"\n\n"
             "[W:onnxruntime:Default] Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
             "and CUDA 12.*, and the latest MSVC runtime.",
             "library-not-found - - 9 - - - - 126 run"}));

// Users' own retellings (helper 94 found both read as no error): "was linked" gives the build's
// release, and a module's name carries the one loaded.
INSTANTIATE_TEST_SUITE_P(
    Retold, ExplainFamily,
    testing::Values(Case{"torch says cudnn 90100 was linked but 90000 loaded",
                         "version-mismatch 9.0.0 9.1.0 - - - pytorch - - run"},
                    Case{"I built against cuDNN 9.23 and module cudnn/9.1 is loaded",
                         "version-mismatch 9.1 9.23 - - - - - - run"},
                    Case{"module cuDNN/8.9.2.26-CUDA-12.1.1 is loaded but the code was built "
                         "with cuDNN 8.9.7",
                         "version-mismatch 8.9.2.26 8.9.7 - - - - - - run"}));

}  // namespace
}  // namespace cudnn_compat

/* A FAKE cuDNN dispatcher (libcudnn.so.<major>) for tests: not NVIDIA's code.
 *
 * It carries what cudnn-compat and the loader care about: the SONAME and file names, the version
 * functions (cudnnGetVersion, and from 6.0 cudnnGetCudartVersion and cudnnGetProperty), and for 8.x
 * and 9.x the sub-library loading of the real dispatcher - by bare name through its RUNPATH
 * $ORIGIN, with 9.x trying the exact-version name first - and the version checks that fail when a
 * family is mixed. Built per version by add_fake_cudnn() in CMakeLists.txt. */
#include <dlfcn.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define EXPORT __attribute__((visibility("default")))

#if FAKE_MAJOR >= 9
#define FAKE_VERSION (FAKE_MAJOR * 10000 + FAKE_MINOR * 100 + FAKE_PATCH)
enum {
  STATUS_SUCCESS = 0,
  STATUS_NOT_INITIALIZED = 1001,
  STATUS_MISMATCH = 1002,
  STATUS_LOADING_FAILED = 1008
};
#else
#define FAKE_VERSION (FAKE_MAJOR * 1000 + FAKE_MINOR * 100 + FAKE_PATCH)
enum {
  STATUS_SUCCESS = 0,
  STATUS_NOT_INITIALIZED = 1,
  STATUS_MISMATCH = 14,
  STATUS_LOADING_FAILED = 1
};
#endif

#ifdef FAKE_CRASH_ON_LOAD
/* Stands for a library that cannot even be loaded on this machine. */
__attribute__((constructor)) static void crash(void) {
  raise(SIGSEGV);
}
#endif

EXPORT size_t cudnnGetVersion(void) {
  return FAKE_VERSION;
}

#if FAKE_MAJOR >= 6
EXPORT size_t cudnnGetCudartVersion(void) {
  return FAKE_CUDART;
}

EXPORT int cudnnGetProperty(int type, int *value) {
  const int parts[] = {FAKE_MAJOR, FAKE_MINOR, FAKE_PATCH};
  if (type < 0 || type > 2 || !value) return 3; /* CUDNN_STATUS_BAD_PARAM */
  *value = parts[type];
  return STATUS_SUCCESS;
}
#endif

#if FAKE_MAJOR >= 8
static const char *const subs[] = {FAKE_SUBLIBS};
enum { NSUBS = sizeof subs / sizeof subs[0] };
static void *handles[NSUBS];

/* The real dispatchers' search: 8.x asks for libcudnn_<sub>.so.8; 9.x for the exact release first,
 * then ever shorter names, and lists them all when none loads. */
static void *load_sub(int i) {
  if (handles[i]) return handles[i];
  char names[4][128];
  int n = 0;
#if FAKE_MAJOR >= 9
  snprintf(names[n++], 128, "%s.%d.%d.%d", subs[i], FAKE_MAJOR, FAKE_MINOR, FAKE_PATCH);
  snprintf(names[n++], 128, "%s.%d.%d", subs[i], FAKE_MAJOR, FAKE_MINOR);
  snprintf(names[n++], 128, "%s.%d", subs[i], FAKE_MAJOR);
  snprintf(names[n++], 128, "%s", subs[i]);
#else
  snprintf(names[n++], 128, "%s.%d", subs[i], FAKE_MAJOR);
#endif
  for (int k = 0; k < n && !handles[i]; ++k) handles[i] = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
  if (handles[i]) return handles[i];
#if FAKE_MAJOR >= 9
  fprintf(stderr, "Unable to load any of {%s, %s, %s, %s}\n", names[0], names[1], names[2],
          names[3]);
#else
  fprintf(stderr, "Could not load library %s. Error: %s\n", names[0], dlerror());
#endif
  return NULL;
}

/* 0, or the status the real library returns for a missing or foreign sub-library. */
static int check_sub(int i) {
  void *h = load_sub(i);
  if (!h) return STATUS_LOADING_FAILED;
  size_t (*version)(void) = (size_t(*)(void))dlsym(h, "fakecudnn_sublibrary_version");
  return version && version() == FAKE_VERSION ? STATUS_SUCCESS : STATUS_MISMATCH;
}

static int check_named(const char *sub) {
  char stem[128];
  snprintf(stem, sizeof stem, "libcudnn_%s.so", sub);
  for (int i = 0; i < NSUBS; ++i)
    if (strcmp(subs[i], stem) == 0) return check_sub(i);
  return STATUS_NOT_INITIALIZED;
}

/* Creating a handle loads the whole family, as the real one does on first use. */
EXPORT int cudnnCreate(void **handle) {
  for (int i = 0; i < NSUBS; ++i) {
    const int status = check_sub(i);
    if (status != STATUS_SUCCESS) return status;
  }
  if (handle) *handle = (void *)handles;
  return STATUS_SUCCESS;
}

EXPORT int cudnnDestroy(void *handle) {
  return handle ? STATUS_SUCCESS : 3;
}

#if FAKE_MAJOR >= 9
EXPORT int cudnnGraphVersionCheck(void) {
  return check_named("graph");
}
EXPORT int cudnnOpsVersionCheck(void) {
  return check_named("ops");
}
EXPORT int cudnnCnnVersionCheck(void) {
  return check_named("cnn");
}
EXPORT int cudnnAdvVersionCheck(void) {
  return check_named("adv");
}
#else
EXPORT int cudnnOpsInferVersionCheck(void) {
  return check_named("ops_infer");
}
EXPORT int cudnnOpsTrainVersionCheck(void) {
  return check_named("ops_train");
}
EXPORT int cudnnCnnInferVersionCheck(void) {
  return check_named("cnn_infer");
}
EXPORT int cudnnCnnTrainVersionCheck(void) {
  return check_named("cnn_train");
}
EXPORT int cudnnAdvInferVersionCheck(void) {
  return check_named("adv_infer");
}
EXPORT int cudnnAdvTrainVersionCheck(void) {
  return check_named("adv_train");
}
#endif
#endif

EXPORT const char *cudnnGetErrorString(int status) {
  switch (status) {
    case STATUS_SUCCESS:
      return "CUDNN_STATUS_SUCCESS";
    case STATUS_MISMATCH:
      return FAKE_MAJOR >= 9 ? "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"
                             : "CUDNN_STATUS_VERSION_MISMATCH";
    case STATUS_LOADING_FAILED:
      return FAKE_MAJOR >= 9 ? "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED"
                             : "CUDNN_STATUS_NOT_INITIALIZED";
    default:
      return "CUDNN_STATUS_UNKNOWN";
  }
}

/* Tells a test (or a curious admin running strings) that this is not NVIDIA's library. */
EXPORT const char fakecudnn_notice[] = "FAKE cuDNN " STR(FAKE_MAJOR) "." STR(FAKE_MINOR) "." STR(
    FAKE_PATCH) " built by cudnn-compat's tests";

/* cudnn-compat-probe LIBRARY: loads one cuDNN library and prints what it says of itself.
 *
 * From 8.0 on the dispatcher's own sub-library version checks run too: a library whose family
 * does not load whole, or mixed, is no answer (probe.cc gives the child the family of the
 * library's own directory, as the shim hands it over).
 *
 * A process of its own, so that a library that crashes, hangs or prints in its constructor cannot
 * take the tool down, and so that no shim or preload of the caller's environment takes part
 * (probe.cc starts it with those removed). Output, one line each: "reports N", what the library's
 * own cudnnGetVersion says before its family is checked (the shim asks a place's release of its
 * dispatcher even where that place's family is not whole); "version N", "cudart N", or
 * "error TEXT"; then "load_us N", what loading and checking the library took (bench/memo_bench
 * counts it in the floor of a first load); "family PATH" for each sub-library that load mapped
 * (after an error too, when a version check failed: the answer rests on them either way).
 *
 * cudnn-compat-probe --nvml: the node's GPUs and driver from NVML (node_facts.cc), which must
 * never be loaded into a job's own process: "gpu X.Y" per GPU, "driver N" (the CUDA it runs,
 * 12020 for 12.2), "libcuda N" (what the libcuda on the library path says it runs: cuda-compat's
 * forward compatibility), "absent TEXT" when there is no NVML, "error TEXT" when it fails. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef size_t (*version_fn)(void);
typedef int (*check_fn)(void);

/* FACTS.md section 2: cuDNN 8's and 9's sub-library version checks; 0 is CUDNN_STATUS_SUCCESS. */
static const char *const checks[] = {"cudnnOpsInferVersionCheck", "cudnnOpsTrainVersionCheck",
                                     "cudnnCnnInferVersionCheck", "cudnnCnnTrainVersionCheck",
                                     "cudnnAdvInferVersionCheck", "cudnnAdvTrainVersionCheck",
                                     "cudnnGraphVersionCheck",    "cudnnOpsVersionCheck",
                                     "cudnnCnnVersionCheck",      "cudnnAdvVersionCheck"};

/* "family PATH" for each cuDNN library the load and its checks mapped besides the one probed (its
 * sub-libraries, as cuDNN's own dlopen found them): the answer rests on them too, and the engine's
 * memo keeps it only while each is the file it was. */
static int print_family(struct dl_phdr_info *info, size_t size, void *probed) {
  (void)size;
  const char *name = info->dlpi_name, *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (strncmp(base, "libcudnn", 8) == 0 && strcmp(name, (const char *)probed) != 0 &&
      strchr(name, '\n') == NULL)
    printf("family %s\n", name);
  return 0;
}

typedef int (*nvml_fn)(void);
typedef int (*count_fn)(unsigned *);
typedef int (*handle_fn)(unsigned, void **);
typedef int (*capability_fn)(void *, int *, int *);
typedef int (*int_fn)(int *);
typedef const char *(*error_fn)(int);

/* "Failed to initialize NVML: Driver/library version mismatch", as nvidia-smi says it. */
static int nvml_error(void *nvml, const char *what, int status) {
  error_fn text = (error_fn)dlsym(nvml, "nvmlErrorString");
  printf("error %s: %s\n", what, text ? text(status) : "unknown error");
  return 3;
}

static int nvml(void) {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("absent %s\n", dlerror());
    return 0;
  }
  nvml_fn init = (nvml_fn)dlsym(lib, "nvmlInit_v2");
  count_fn count = (count_fn)dlsym(lib, "nvmlDeviceGetCount_v2");
  handle_fn handle = (handle_fn)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
  capability_fn capability = (capability_fn)dlsym(lib, "nvmlDeviceGetCudaComputeCapability");
  int_fn driver = (int_fn)dlsym(lib, "nvmlSystemGetCudaDriverVersion_v2");
  if (!init || !count || !handle || !capability || !driver) {
    puts("error libnvidia-ml.so.1 lacks the functions of NVML 10 or newer");
    return 3;
  }
  int status = init();
  if (status != 0) return nvml_error(lib, "Failed to initialize NVML", status);
  unsigned n = 0;
  int version = 0;
  if ((status = count(&n)) != 0) return nvml_error(lib, "nvmlDeviceGetCount_v2 failed", status);
  for (unsigned i = 0; i < n; ++i) {
    void *device = 0;
    int major = 0, minor = 0;
    if ((status = handle(i, &device)) != 0 || (status = capability(device, &major, &minor)) != 0)
      return nvml_error(lib, "nvmlDeviceGetCudaComputeCapability failed", status);
    printf("gpu %d.%d\n", major, minor);
  }
  if ((status = driver(&version)) != 0)
    return nvml_error(lib, "nvmlSystemGetCudaDriverVersion_v2 failed", status);
  printf("driver %d\n", version);
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  int_fn cuda_version = cuda ? (int_fn)dlsym(cuda, "cuDriverGetVersion") : 0;
  if (cuda_version && cuda_version(&version) == 0) printf("libcuda %d\n", version);
  return 0;
}

/* Loads the library and prints its answer; the exit status. */
static int probe(const char *path) {
  /* ld.so opens without O_NONBLOCK: a FIFO planted where a library was would hold the probe until
   * the engine's deadline ends it, in every process, since no answer is remembered. */
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    printf("error %s is not a regular file\n", path);
    return 3;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("error %s\n", dlerror());
    return 3;
  }
  version_fn version = (version_fn)dlsym(lib, "cudnnGetVersion");
  /* cudnnGetCudartVersion appeared in cuDNN 6; its absence is an answer, not an error. */
  version_fn cudart = (version_fn)dlsym(lib, "cudnnGetCudartVersion");
  if (!version) {
    printf("error %s exports no cudnnGetVersion\n", path);
    return 3;
  }
  printf("reports %zu\n", version());
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; ++i) {
    check_fn check = (check_fn)dlsym(lib, checks[i]);
    const int status = check ? check() : 0;
    if (status != 0) {
      printf("error its sub-libraries do not load as one release (%s returned %d)\n", checks[i],
             status);
      dl_iterate_phdr(print_family, (void *)path); /* the answer holds while they are as they are */
      return 3;
    }
  }
  const size_t v = version(), cuda = cudart ? cudart() : 0;
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("version %zu\n", v);
  if (cudart) printf("cudart %zu\n", cuda);
  dl_iterate_phdr(print_family, (void *)path);
  printf("load_us %ld\n",
         (long)((end.tv_sec - start.tv_sec) * 1000000 + (end.tv_nsec - start.tv_nsec) / 1000));
  return 0;
}

struct job {
  const char *path; /* 0: the node's GPUs and driver */
  int status;
};

static void *run(void *arg) {
  struct job *job = arg;
  job->status = job->path ? probe(job->path) : nvml();
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: cudnn-compat-probe LIBRARY | --nvml\n", stderr);
    return 2;
  }
  /* The probe inherits the job's `ulimit -s`, and the real cuDNN 9's constructors need more than
   * a 64 KiB limit leaves (an outside tester's finding: the probe died of it, and the loader's
   * fitting library was taken for one that does not load). Under a limit below 8 MiB, on a
   * thread of 8 MiB (its stack is mapped, not bound by RLIMIT_STACK); else on this stack, which
   * grows as far as the host's main thread may (a second tester's library needed 12 MiB under
   * `ulimit -s unlimited`). Where no thread can be made, here. */
  struct job job = {strcmp(argv[1], "--nvml") == 0 ? 0 : argv[1], 3};
  const rlim_t kStack = (rlim_t)8 << 20;
  struct rlimit limit;
  pthread_attr_t attr;
  pthread_t thread;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < kStack && pthread_attr_init(&attr) == 0 &&
      pthread_attr_setstacksize(&attr, kStack) == 0 &&
      pthread_create(&thread, &attr, run, &job) == 0)
    pthread_join(thread, 0);
  else
    run(&job);
  fflush(stdout);
  /* The answer is out: its reader sees the end now, not once the kernel has unmapped the whole
   * family (exit tears the address space down before it closes the files). And a library whose
   * destructors misbehave must not turn the answer into a failure. */
  close(1);
  close(2);
  _exit(job.status);
}

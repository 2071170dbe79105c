/* A FAKE libnvidia-ml.so.1 standing for a node's GPUs and driver, for the tests:
 *   FAKE_NVML_GPUS      "7.0,8.0": one GPU per compute capability (FAKE_NVML_GPUS_<node> first,
 *                       <node> being $SLURMD_NODENAME: two test nodes on one host differ)
 *   FAKE_NVML_DRIVER    the CUDA its driver runs, as NVML numbers it (12020 for 12.2)
 *   FAKE_NVML_FAIL=1    nvmlInit_v2 fails as a node after a driver update does
 * (NVML_ERROR_LIB_RM_VERSION_MISMATCH) FAKE_NVML_HANG=1    nvmlInit_v2 never returns
 *   FAKE_NVML_LOG=FILE  a line appended per nvmlInit_v2: how often the node was asked */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char gpus[64][8];
static unsigned count;

static const char *setting(const char *name) {
  static char key[256];
  const char *node = getenv("SLURMD_NODENAME");
  if (node && snprintf(key, sizeof key, "%s_%s", name, node) < (int)sizeof key && getenv(key))
    return getenv(key);
  return getenv(name);
}

int nvmlInit_v2(void) {
  const char *log = getenv("FAKE_NVML_LOG");
  if (log) {
    const int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) (void)!write(fd, "init\n", 5), close(fd);
  }
  if (getenv("FAKE_NVML_HANG"))
    for (;;) pause();
  if (getenv("FAKE_NVML_FAIL")) return 18;
  const char *list = setting("FAKE_NVML_GPUS");
  for (count = 0; list && *list && count < 64; ++count) {
    size_t n = strcspn(list, ",");
    snprintf(gpus[count], sizeof gpus[count], "%.*s", (int)n, list);
    list += n + (list[n] == ',');
  }
  return 0;
}

const char *nvmlErrorString(int status) {
  return status == 18 ? "Driver/library version mismatch" : "Unknown Error";
}
int nvmlDeviceGetCount_v2(unsigned *n) {
  return *n = count, 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **device) {
  return i < count ? (*device = gpus[i], 0) : 2;
}
int nvmlDeviceGetCudaComputeCapability(void *device, int *major, int *minor) {
  return sscanf(device, "%d.%d", major, minor) == 2 ? 0 : 2;
}
int nvmlSystemGetCudaDriverVersion_v2(int *version) {
  const char *v = setting("FAKE_NVML_DRIVER");
  return v ? (*version = atoi(v), 0) : 3;
}

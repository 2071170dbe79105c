// See check_cache.h. As the user (user_init) or as root for the user's directory (the epilog):
// nothing is followed through a symbolic link, and a directory not owned by the user, or open to
// others, is not used.
#define _GNU_SOURCE
#include "check_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cache_dir(uid_t uid, int create) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/cudnn-compat-spank.%u", (unsigned)uid);
  if (create) mkdir(path, 0700);
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat s;
  if (fd >= 0 && (fstat(fd, &s) != 0 || s.st_uid != uid || (s.st_mode & 077) != 0)) {
    close(fd);
    return -1;
  }
  return fd;
}

static void file_name(char *name, size_t size, uint32_t job, const char *key) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a: a name, not a check (the key is compared)
  for (const unsigned char *p = (const unsigned char *)key; *p; ++p)
    h = (h ^ *p) * 1099511628211ull;
  snprintf(name, size, "%u.%016llx", job, (unsigned long long)h);
}

int check_cache_key(char *key, size_t size, uint32_t job, const char *node, const char *require,
                    const char *map, const char *cuda) {
  struct stat s;
  if (!map || stat(map, &s) != 0) return -1;
  const int n = snprintf(key, size,
                         "job=%u node=%s require=%s cuda=%s map=%s stamp=%llu:%llu:%llu:%lld.%09ld",
                         job, node, require, cuda ? cuda : "", map, (unsigned long long)s.st_dev,
                         (unsigned long long)s.st_ino, (unsigned long long)s.st_size,
                         (long long)s.st_mtim.tv_sec, s.st_mtim.tv_nsec);
  return n > 0 && (size_t)n < size && !strchr(key, '\n') ? 0 : -1;
}

int check_cache_get(uint32_t job, const char *key, enum node_fit *fit, char *line, size_t size) {
  char name[64], text[4096];
  const int dir = cache_dir(geteuid(), 0);
  if (dir < 0) return -1;
  file_name(name, sizeof name, job, key);
  const int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  close(dir);
  if (fd < 0) return -1;
  const ssize_t got = read(fd, text, sizeof text - 1);
  close(fd);
  if (got <= 0) return -1;
  text[got] = '\0';
  const size_t k = strlen(key);
  // "<key>\n<fit digit>\n<line>\n"
  if (strncmp(text, key, k) != 0 || text[k] != '\n' || text[k + 1] < '0' ||
      text[k + 1] > '0' + NODE_MISFIT || text[k + 2] != '\n')
    return -1;
  *fit = (enum node_fit)(text[k + 1] - '0');
  snprintf(line, size, "%.*s", (int)strcspn(text + k + 3, "\n"), text + k + 3);
  return 0;
}

void check_cache_put(uint32_t job, const char *key, enum node_fit fit, const char *line) {
  char name[64], tmp[80];
  const int dir = cache_dir(geteuid(), 1);
  if (dir < 0) return;
  file_name(name, sizeof name, job, key);
  snprintf(tmp, sizeof tmp, ".%s.%d", name, (int)getpid());
  const int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    const int ok = dprintf(fd, "%s\n%d\n%s\n", key, (int)fit, line) > 0;
    close(fd);
    if (!ok || renameat(dir, tmp, dir, name) != 0) unlinkat(dir, tmp, 0);
  }
  close(dir);
}

void check_cache_drop(uint32_t job, uid_t uid) {
  char prefix[16];
  const int dir = cache_dir(uid, 0);
  if (dir < 0) return;
  DIR *d = fdopendir(dir);
  if (!d) {
    close(dir);
    return;
  }
  const size_t n = (size_t)snprintf(prefix, sizeof prefix, "%u.", job);
  for (struct dirent *e; (e = readdir(d));)
    if (strncmp(e->d_name, prefix, n) == 0) unlinkat(dir, e->d_name, 0);
  closedir(d);
}

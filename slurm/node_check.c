// Runs `cudnn-compat --json resolve libcudnn.so.<major> --require V` as the job's user, with the
// job's environment and the node's map, and reads its answer (see node_check.h).
#define _GNU_SOURCE
#include "node_check.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TIMEOUT_MS = 10000, OUT_MAX = 64 * 1024, ENV_MAX = 4096 };

// The string value after `"key": ` at or after from, unescaped into buf; NULL when there is none.
static const char *json_string(const char *from, const char *key, char *buf, size_t size,
                               const char **end) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": \"", key);
  const char *p = strstr(from, pattern);
  if (!p) return NULL;
  size_t n = 0;
  for (p += strlen(pattern); *p && *p != '"'; ++p) {
    if (*p == '\\' && p[1]) ++p;
    if (n + 1 < size) buf[n++] = *p;
  }
  buf[n] = '\0';
  if (end) *end = p;
  return buf;
}

// The first line of text, without cudnn-compat's own prefix.
static void first_line(const char *text, char *buf, size_t size) {
  if (strncmp(text, "cudnn-compat: ", 14) == 0) text += 14;
  snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
}

// Whether version is one of the items of list (" A, B, C").
static int named(const char *list, const char *version) {
  const size_t len = strlen(version);
  for (const char *at = list; (at = strstr(at, version)) != NULL; at += len)
    if (at > list && at[-1] == ' ' && (at[len] == ',' || at[len] == '\0')) return 1;
  return 0;
}

enum node_fit node_check_judge(int rc, const char *out, const char *err, char *line, size_t size) {
  line[0] = '\0';
  if (rc == 0) return NODE_FITS;
  char reason[512], version[64];
  const char *considered = strstr(out, "\"considered\": [");
  if (rc != 1 || !strstr(out, "\"file\": null") || !considered ||
      !json_string(out, "reason", reason, sizeof reason, NULL)) {
    if (*err)
      first_line(err, line, size);
    else
      snprintf(line, size, "cudnn-compat resolve exited with status %d", rc);
    return NODE_UNCHECKED;
  }
  size_t n = (size_t)snprintf(line, size, "%s; it has", reason);
  const char *p = considered;
  int any = 0;
  const size_t listed = n;  // a release in two places is named once
  while (n < size && json_string(p, "version", version, sizeof version, &p)) {
    if (named(line + listed, version)) continue;
    n += (size_t)snprintf(line + n, size - n, "%s %s", any ? "," : "", version);
    any = 1;
  }
  if (!any && n < size) snprintf(line + n, size - n, " no cuDNN at all");
  return NODE_MISFIT;
}

// The job's environment for the check: without audit or preload modules (the check is not a job's
// process) and with the node's map and the requirement put in by hand.
static void check_env(const struct node_check *c, char **env, size_t max, char *map_var,
                      size_t map_size) {
  static const char *const dropped[] = {
      "LD_AUDIT=", "LD_PRELOAD=", "CUDNN_COMPAT_REQUIRE=", "CUDNN_COMPAT_DISABLE="};
  size_t n = 0;
  for (char *const *e = c->env; e && *e && n + 2 < max; ++e) {
    int keep = !(c->map && strncmp(*e, "CUDNN_COMPAT_MAP=", 17) == 0);
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; ++i)
      keep &= strncmp(*e, dropped[i], strlen(dropped[i])) != 0;
    if (keep) env[n++] = *e;
  }
  if (c->map) {
    snprintf(map_var, map_size, "CUDNN_COMPAT_MAP=%s", c->map);
    env[n++] = map_var;
  }
  env[n] = NULL;
}

// The child: the user's identity in full (slurmstepd has only set the effective ids, and a
// process whose real and effective ids differ runs its programs in secure-execution mode, where
// CUDNN_COMPAT_MAP is ignored), its answer into the pipes, then cudnn-compat.
static void exec_check(const char *bin, char **argv, char **env, int out, int err) {
  const gid_t gid = getegid();
  const uid_t uid = geteuid();
  if (setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) _exit(126);
  if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0) _exit(126);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, STDIN_FILENO);
  closefrom(STDERR_FILENO + 1);  // slurmstepd's own sockets and files are none of its business
  execve(bin, argv, env);
  dprintf(STDERR_FILENO, "cannot run %s: %s\n", bin, strerror(errno));
  _exit(127);
}

static long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// Reads both pipes to their end or to the deadline; 0 when both ended in time.
static int drain(int fds[2], char *bufs[2], size_t lens[2], size_t size) {
  const long deadline = now_ms() + TIMEOUT_MS;
  int open_fds = 2;
  while (open_fds > 0) {
    struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    const long left = deadline - now_ms();
    if (left <= 0) return -1;
    if (poll(p, 2, (int)left) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char scratch[4096];
      const size_t room = size - 1 - lens[i];
      const ssize_t got =
          read(fds[i], room ? bufs[i] + lens[i] : scratch, room ? room : sizeof scratch);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        fds[i] = -1, --open_fds;
        continue;
      }
      if (room) lens[i] += (size_t)got;
    }
  }
  return 0;
}

// The major of a requirement: the number before its first dot.
static int major_of(const char *require) {
  return atoi(require);
}

enum node_fit node_check_run(const struct node_check *c, char *line, size_t size) {
  char name[32], map_var[4200], *env[ENV_MAX];
  snprintf(name, sizeof name, "libcudnn.so.%d", major_of(c->require));
  char *argv[] = {(char *)c->bin, "--json", "resolve", name, "--require", (char *)c->require, NULL};
  check_env(c, env, ENV_MAX, map_var, sizeof map_var);
  static char out[OUT_MAX], err[OUT_MAX];
  char *bufs[2] = {out, err};
  size_t lens[2] = {0, 0};
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) != 0) goto failed;
  if (pipe2(pe, O_CLOEXEC) != 0) {
    close(po[0]), close(po[1]);
    goto failed;
  }
  const pid_t pid = fork();
  if (pid == 0) exec_check(c->bin, argv, env, po[1], pe[1]);
  close(po[1]), close(pe[1]);
  int fds[2] = {po[0], pe[0]}, status = 0;
  const int timed_out = pid > 0 ? drain(fds, bufs, lens, OUT_MAX) : 0;
  close(po[0]), close(pe[0]);
  if (pid < 0) goto failed;
  if (timed_out) kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out[lens[0]] = err[lens[1]] = '\0';
  if (timed_out) {
    snprintf(line, size, "cudnn-compat resolve gave no answer within %d s", TIMEOUT_MS / 1000);
    return NODE_UNCHECKED;
  }
  return node_check_judge(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out,
                          err, line, size);
failed:
  snprintf(line, size, "cannot start cudnn-compat: %s", strerror(errno));
  return NODE_UNCHECKED;
}

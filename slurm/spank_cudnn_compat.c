// spank-cudnn-compat.so: `srun|sbatch|salloc --cudnn=VERSION` switches the shim on for every task
// of a job with that requirement, after checking on each node that its map holds a release that
// fits. plugstack.conf arguments: shim=on|off (the site's default for every job), map=PATH (the
// node's map; %n is the node's name), strict (a node that cannot serve fails the step).
//
// It must never break a job: whatever goes wrong (a broken map, no cudnn-compat, no shim beside
// the plugin, a bad argument in plugstack.conf) costs one line and the job runs as it would
// without the plugin. Only a node that
// truly cannot serve, under --cudnn-strict or `strict`, fails the step: in slurm_spank_task_init,
// because on Slurm 22.05 a failure in slurm_spank_user_init still lets srun exit 0.
#define _GNU_SOURCE
#include "check_cache.h"
#include "node_check.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

SPANK_PLUGIN(cudnn_compat, 1);

enum { OPT_CUDNN = 1, OPT_STRICT = 2, OPT_REPORT_ONLY = 3 };

static struct {
  int shim;            // plugin argument shim=on
  int strict;          // plugin argument strict, or --cudnn-strict
  int report_only;     // --cudnn-report-only: the shim decides and records, the loads stay
  char map[PATH_MAX];  // plugin argument map=PATH, unexpanded
  char cudnn[64];      // --cudnn: a version, "off", or "" when not given
  enum node_fit fit;   // this node's answer (user_init), read in each task (task_init)
  char line[1024];     // what the task says about it; empty when all is well
} st = {.fit = NODE_FITS};

// A version as --cudnn takes it: 1 to 4 dot-separated numbers (5.1, 8.9.7, 8.9.2.26). Whether it
// is a cuDNN that anything fits is for cudnn-compat to say on each node.
static int valid_version(const char *v) {
  int fields = 0, digits = 0;
  for (const char *p = v;; ++p) {
    if (*p >= '0' && *p <= '9' && digits < 6) {
      ++digits;
    } else if ((*p == '.' || *p == '\0') && digits > 0) {
      if (++fields > 4) return 0;
      if (*p == '\0') return 1;
      digits = 0;
    } else {
      return 0;
    }
  }
}

static int option_cb(int val, const char *arg, int remote) {
  (void)remote;
  if (val == OPT_STRICT || val == OPT_REPORT_ONLY) {
    *(val == OPT_STRICT ? &st.strict : &st.report_only) = 1;
    return 0;
  }
  if (!arg || (strcmp(arg, "off") != 0 && !valid_version(arg))) {
    slurm_error(
        "cudnn-compat: --cudnn=%s: expected the cuDNN the program was built with, "
        "like --cudnn=5.1 or --cudnn=8.9.7, or --cudnn=off",
        arg ? arg : "");
    return -1;
  }
  snprintf(st.cudnn, sizeof st.cudnn, "%s", arg);
  return 0;
}

static struct spank_option options[] = {
    {"cudnn", "VERSION",
     "cudnn-compat: the cuDNN the program was built with (5.1, 8.9.7): every task gets a release "
     "that fits from the node's map, checked on each node first. off: no shim for this job.",
     1, OPT_CUDNN, option_cb},
    {"cudnn-strict", NULL,
     "cudnn-compat: a node whose map has no cuDNN that fits --cudnn fails the step, instead of "
     "warning.",
     0, OPT_STRICT, option_cb},
    {"cudnn-report-only", NULL,
     "cudnn-compat: decide and record (docs/usage.md) what each task would be handed, but load "
     "what it would load without the shim.",
     0, OPT_REPORT_ONLY, option_cb},
};

// A mistake in plugstack.conf is the admins' to mend: it goes to the Slurm daemons' log
// (slurmstepd, slurmd) alone, never to a user of srun, sbatch or salloc, who can do nothing about
// it (those load the plugin before they read -v).
static void parse_argument(const char *arg, spank_context_t ctx) {
  if (strcmp(arg, "shim=on") == 0 || strcmp(arg, "shim=off") == 0)
    st.shim = arg[6] == 'n';
  else if (strcmp(arg, "strict") == 0)
    st.strict = 1;
  else if (strncmp(arg, "map=", 4) == 0 && arg[4] == '/')
    snprintf(st.map, sizeof st.map, "%s", arg + 4);
  else if (ctx != S_CTX_LOCAL && ctx != S_CTX_ALLOCATOR)
    slurm_error(
        "cudnn-compat: plugstack.conf argument '%s' ignored: expected shim=on|off, "
        "map=/ABSOLUTE/PATH (%%n: the node's name) or strict",
        arg);
}

int slurm_spank_init(spank_t sp, int ac, char **av) {
  const spank_context_t ctx = spank_context();
  for (int i = 0; i < ac; ++i) parse_argument(av[i], ctx);
  if (ctx != S_CTX_LOCAL && ctx != S_CTX_REMOTE && ctx != S_CTX_ALLOCATOR) return 0;
  // Registered here rather than in a spank_options table: sbatch and salloc list only these.
  for (size_t i = 0; i < sizeof options / sizeof options[0]; ++i)
    if (spank_option_register(sp, &options[i]) != ESPANK_SUCCESS)
      slurm_error("cudnn-compat: could not register --%s", options[i].name);
  return 0;
}

// The directory this plugin was loaded from: the shim lives beside it, cudnn-compat in ../../bin,
// as in the install tree (lib/cudnn-compat/) and the build tree alike.
static int own_dir(char *dir, size_t size) {
  Dl_info info;
  if (!dladdr((void *)&slurm_spank_init, &info) || !info.dli_fname) return -1;
  const char *slash = strrchr(info.dli_fname, '/');
  if (!slash) return -1;
  return snprintf(dir, size, "%.*s", (int)(slash - info.dli_fname), info.dli_fname) < (int)size
             ? 0
             : -1;
}

// This node's name in the step's node list (slurmstepd has no item for it, and SLURMD_NODENAME
// is set only for the tasks): several slurmd may share one host, so the host name will not do.
static void node_name(spank_t sp, char *node, size_t size) {
  char list[4096];
  uint32_t id = 0;
  hostlist_t hosts = NULL;
  if (spank_get_item(sp, S_JOB_NODEID, &id) == ESPANK_SUCCESS &&
      (spank_getenv(sp, "SLURM_STEP_NODELIST", list, sizeof list) == ESPANK_SUCCESS ||
       spank_getenv(sp, "SLURM_JOB_NODELIST", list, sizeof list) == ESPANK_SUCCESS) &&
      (hosts = slurm_hostlist_create(list))) {
    char *host = NULL;
    for (uint32_t i = 0; i <= id; ++i) {
      free(host);
      host = slurm_hostlist_shift(hosts);
    }
    slurm_hostlist_destroy(hosts);
    if (host) {
      snprintf(node, size, "%s", host);
      free(host);
      return;
    }
  }
  gethostname(node, size - 1);
}

// The node's map: map= with %n replaced by the node's name, else CUDNN_COMPAT_MAP from the node's
// own environment (slurmd's), else none (the job's own variable, then the installed map).
static const char *node_map(const char *node, char *buf, size_t size) {
  if (!st.map[0]) {
    const char *env = getenv("CUDNN_COMPAT_MAP");
    return env && *env ? env : NULL;
  }
  size_t n = 0;
  for (const char *p = st.map; *p && n + 1 < size; ++p) {
    if (p[0] == '%' && p[1] == 'n') {
      n += (size_t)snprintf(buf + n, size - n, "%s", node);
      ++p;
    } else {
      buf[n++] = *p;
    }
  }
  buf[n < size ? n : size - 1] = '\0';
  return n < size ? buf : NULL;
}

// The job's LD_AUDIT and LD_PRELOAD without the shim (an entry named libcudnn-compat.so: the
// shim's file wherever it is installed, as a user's `cudnn-compat` module puts it there), and the
// shim told to pass everything through, in case a copy under another name is left: --cudnn=off
// means off.
static void switch_shim_off(spank_t sp) {
  static const char *const vars[] = {"LD_AUDIT", "LD_PRELOAD"};
  for (size_t v = 0; v < sizeof vars / sizeof vars[0]; ++v) {
    char have[4096], kept[4096] = "";
    if (spank_getenv(sp, vars[v], have, sizeof have) != ESPANK_SUCCESS || !have[0]) continue;
    size_t n = 0;
    for (char *save = NULL, *e = strtok_r(have, ": ", &save); e; e = strtok_r(NULL, ": ", &save)) {
      const char *base = strrchr(e, '/');
      if (strcmp(base ? base + 1 : e, "libcudnn-compat.so") == 0) continue;
      n += (size_t)snprintf(kept + n, sizeof kept - n, "%s%s", n ? ":" : "", e);
      if (n >= sizeof kept) return;  // cannot be rewritten whole: left as it was
    }
    if (kept[0])
      spank_setenv(sp, vars[v], kept, 1);
    else
      spank_unsetenv(sp, vars[v]);
  }
  spank_setenv(sp, "CUDNN_COMPAT_DISABLE", "1", 1);
}

// LD_AUDIT=<shim>, after whatever audit modules the job already names.
static void switch_shim_on(spank_t sp, const char *shim) {
  char have[4096], want[4096 + PATH_MAX + 64];
  if (spank_getenv(sp, "LD_AUDIT", have, sizeof have) == ESPANK_SUCCESS && have[0]) {
    if (strstr(have, shim)) return;
    snprintf(want, sizeof want, "%s:%s", have, shim);
  } else {
    snprintf(want, sizeof want, "%s", shim);
  }
  spank_setenv(sp, "LD_AUDIT", want, 1);
}

// The node's answer: remembered from an earlier step of this job on this node while the map is
// unchanged, else asked of cudnn-compat.
static enum node_fit answer(spank_t sp, const struct node_check *c, const char *node, char *said,
                            size_t size) {
  char key[2 * PATH_MAX], env_map[PATH_MAX] = "", cuda[64] = "";
  uint32_t job = 0;
  if (!c->map) spank_getenv(sp, "CUDNN_COMPAT_MAP", env_map, sizeof env_map);
  spank_getenv(sp, "CUDNN_COMPAT_CUDA", cuda, sizeof cuda);
  const int cacheable = spank_get_item(sp, S_JOB_ID, &job) == ESPANK_SUCCESS &&
                        check_cache_key(key, sizeof key, job, node, c->require,
                                        c->map       ? c->map
                                        : env_map[0] ? env_map
                                                     : NULL,
                                        cuda) == 0;
  enum node_fit fit;
  if (cacheable && check_cache_get(job, key, &fit, said, size) == 0) return fit;
  fit = node_check_run(c, said, size);
  if (cacheable && fit != NODE_UNCHECKED) check_cache_put(job, key, fit, said);
  return fit;
}

static void check_node(spank_t sp, const char *dir, const char *map, const char *node) {
  char bin[PATH_MAX + 32], **env = NULL;
  snprintf(bin, sizeof bin, "%s/../../bin/cudnn-compat", dir);
  spank_get_item(sp, S_JOB_ENV, &env);
  const struct node_check c = {.bin = bin, .require = st.cudnn, .map = map, .env = env};
  char said[512];
  st.fit = answer(sp, &c, node, said, sizeof said);
  if (st.fit == NODE_MISFIT)
    snprintf(st.line, sizeof st.line, "cudnn-compat: %s cannot serve --cudnn=%s: %s%s", node,
             st.cudnn, said, st.strict ? "; --cudnn-strict: the step fails on this node" : "");
  else if (st.fit == NODE_UNCHECKED)
    snprintf(st.line, sizeof st.line,
             "cudnn-compat: %s: could not check --cudnn=%s (%s); the job runs without the shim",
             node, st.cudnn, said);
}

// Slurm's own log (slurmd's, through slurmstepd): one line per node check; and the job's ids and
// its report-only word for the usage records of its tasks (docs/usage.md).
static void log_and_mark(spank_t sp, const char *node, int checked) {
  uint32_t job = 0, step = 0;
  char ids[64], step_word[16];
  spank_get_item(sp, S_JOB_ID, &job);
  spank_get_item(sp, S_JOB_STEPID, &step);
  snprintf(step_word, sizeof step_word, "%u", step);
  const char *named = step == SLURM_BATCH_SCRIPT  ? "batch"
                      : step == SLURM_EXTERN_CONT ? "extern"
                                                  : step_word;
  static const char *const verdict[] = {
      [NODE_FITS] = "fits", [NODE_MISFIT] = "cannot serve", [NODE_UNCHECKED] = "could not check"};
  if (checked)
    slurm_info("cudnn-compat: job %u step %s node %s need %s verdict %s%s%s", job, named, node,
               st.cudnn, verdict[st.fit], st.line[0] ? ": " : "",
               st.line[0] ? st.line + strlen("cudnn-compat: ") : "");
  snprintf(ids, sizeof ids, "%u.%s", job, named);
  spank_setenv(sp, "CUDNN_COMPAT_JOB", ids, 1);
  if (st.report_only) spank_setenv(sp, "CUDNN_COMPAT_USAGE", "report-only", 1);
}

// For `cudnn-compat doctor --nodes`, which asks each node with CUDNN_COMPAT_NODE_REPORT=1 in its
// step: what this plugin does on this node, for the doctor's own task - the plugin's file, the
// map a job gets here (%n expanded; empty: none, the shim searches as usual), whether shim=on.
// The doctor checks the files and answers with that map. Nothing is set for any other step.
static int report_asked(spank_t sp) {
  char asked[8];
  return spank_getenv(sp, "CUDNN_COMPAT_NODE_REPORT", asked, sizeof asked) == ESPANK_SUCCESS &&
         strcmp(asked, "1") == 0;
}
static void report_self(spank_t sp, const char *map) {
  char self[PATH_MAX] = "";
  Dl_info info;
  if (dladdr((void *)&slurm_spank_init, &info) && info.dli_fname)
    snprintf(self, sizeof self, "%s", info.dli_fname);
  spank_setenv(sp, "CUDNN_COMPAT_SPANK_PLUGIN", self, 1);
  spank_setenv(sp, "CUDNN_COMPAT_SPANK_MAP", map ? map : "", 1);
  spank_setenv(sp, "CUDNN_COMPAT_SPANK_SHIM", st.shim ? "on" : "off", 1);
}

// In slurmstepd, as the user, once per node and step, before any task exists.
int slurm_spank_user_init(spank_t sp, int ac, char **av) {
  (void)ac, (void)av;
  if (!spank_remote(sp)) return 0;
  const int off = strcmp(st.cudnn, "off") == 0, requested = st.cudnn[0] && !off;
  const int active = requested || (st.shim && !st.cudnn[0]), report = report_asked(sp);
  if (off) switch_shim_off(sp);
  if (!active && !report) return 0;
  char dir[PATH_MAX], shim[PATH_MAX + 32], node[256] = "", mapbuf[PATH_MAX];
  node_name(sp, node, sizeof node);
  const char *map = node_map(node, mapbuf, sizeof mapbuf);
  if (report) report_self(sp, map);
  if (!active) return 0;
  if (own_dir(dir, sizeof dir) != 0) {
    slurm_error("cudnn-compat: cannot tell where the plugin was loaded from; shim not set");
    return 0;
  }
  // A shim that is not there would cost every process of the job ld.so's error line instead.
  snprintf(shim, sizeof shim, "%s/libcudnn-compat.so", dir);
  if (access(shim, R_OK) != 0) {
    st.fit = NODE_UNCHECKED;
    snprintf(st.line, sizeof st.line,
             "cudnn-compat: %.200s: the shim %.600s is missing; the job runs without it "
             "(reinstall cudnn-compat on this node)",
             node, shim);
    return 0;
  }
  if (requested) check_node(sp, dir, map, node);
  log_and_mark(sp, node, requested);
  if (st.fit == NODE_UNCHECKED) return 0;
  switch_shim_on(sp, shim);
  if (map) spank_setenv(sp, "CUDNN_COMPAT_MAP", map, 1);
  if (!requested) return 0;
  spank_setenv(sp, "CUDNN_COMPAT_REQUIRE", st.cudnn, 1);
  // --cudnn is the user's word: a module system's record of a value it pushed (carried in from
  // the submitting shell) would make an equal value read as the module's (shim/shared/asked_need.h).
  spank_unsetenv(sp, "__LMOD_STACK_CUDNN_COMPAT_REQUIRE");
  spank_unsetenv(sp, "__MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE");
  return 0;
}

// In each task just before exec: the node's first task says what the check found, and under
// strict every task of a node that cannot serve exits 1 instead, which fails the step. The task
// exits itself because Slurm ignores an error returned by a plugin marked `optional`.
int slurm_spank_task_init(spank_t sp, int ac, char **av) {
  (void)ac, (void)av;
  int task = 0;
  if (!spank_remote(sp) || !st.line[0]) return 0;
  if (spank_get_item(sp, S_TASK_ID, &task) == ESPANK_SUCCESS && task == 0)
    dprintf(STDERR_FILENO, "%s\n", st.line);
  if (st.fit == NODE_MISFIT && st.strict) _exit(1);
  return 0;
}

// At the end of the job, as root: the answers remembered for its steps go.
int slurm_spank_job_epilog(spank_t sp, int ac, char **av) {
  (void)ac, (void)av;
  uint32_t job = 0;
  uid_t uid = 0;
  if (spank_get_item(sp, S_JOB_ID, &job) == ESPANK_SUCCESS &&
      spank_get_item(sp, S_JOB_UID, &uid) == ESPANK_SUCCESS)
    check_cache_drop(job, uid);
  return 0;
}

// CUDNN_COMPAT_REPORT=1: what this process loaded, said when it exits. The router notes what it
// chose and why; at exit (a destructor: DT_FINI_ARRAY, which ld.so runs for an audit module and
// a preloaded library alike) one line per cuDNN library in the process, its version asked of the
// library itself, its source and who chose it, a mixed family flagged, and the command that makes
// the next run coherent. A process that never asked for cuDNN, or did not ask for the report,
// pays one test of a flag.
#pragma once

#include <link.h>

#include "shared/advice.h"

#pragma GCC visibility push(hidden)

// The environment asks for the report: CUDNN_COMPAT_REPORT=1.
int report_asked(char **env);
// The report was asked for (CUDNN_COMPAT_REPORT=1 when a cuDNN load was decided).
void report_wanted(const char *map);
// A file the shim handed the loader and why ("the family of /dir", "rule pytorch, ...").
void report_choice(const char *path, const char *how, const char *source);
// What decided a major's main library when the loader's own pick was kept.
void report_kept(int major, const char *how, const char *source);
// A decision that kept the loader's choice with a warning (its line, as said at the load).
void report_warned(const char *line);
// Report-only (CUDNN_COMPAT_USAGE, the map's [usage] mode) kept the loader's choice where the shim
// would have handed `would` over; or CUDNN_COMPAT_DISABLE=1 left every load unjudged. The next
// run's advice says so: "nothing to change" was not known for either (helper 92).
void report_withheld(const char *would);
void report_disabled(void);
// A sub-library the shim refused: dir, its family's directory, lacks base, or holds it as a link
// to another release's file (foreign), or one this user cannot read.
void report_refused(const char *dir, const char *base, const char *release, const char *foreign,
                    int unreadable);
// path as the report shows it: without a RUNPATH's $ORIGIN/../.. (one buffer: one path at a time).
const char *report_path(const char *path);
// The shim's own look at exit (shim.c), before the next run's advice: its lines about the process
// as it is then, and advice for the next run, or 0.
const char *recheck_at_exit(const struct link_map *head);
// The map the shim reads in this process (shim.c).
const char *shim_map_path(void);
// The release the shim learnt of the place in dir, whose files name none, from the dispatcher
// beside them (shim.c, place_release); 0 when it asked none.
unsigned long shim_place_release(const char *dir);
// The next run's advice where no installed release fits.
#define REPORT_NOTHING_FITS "cudnn-compat doctor   # the shim had no fitting release to hand over"
// The next run's advice where the loader linked a cuDNN the LD_PRELOAD front never saw.
#define REPORT_USE_AUDIT \
  CUDNN_COMPAT_USE_AUDIT "   # the shim then sees the libraries a program links, too"
// Under LD_AUDIT: the first object of the base namespace, where the report starts its walk.
void report_main_program(const struct link_map *map);

#pragma GCC visibility pop

// Usage records (issue 21; the format: shared/usage_record.h, docs/usage.md): one per process and
// decision of a cuDNN main library, written by the shim itself, to syslog or a spool directory,
// when the map's [usage] asks for them. What a decision learned reaches it from the decision
// table (the fast path) or the engine's answer; with records off nothing else happens.
#pragma once

#include "fast_path.h"

#pragma GCC visibility push(hidden)

// The table the fast path read for request r, its answer a, the file it hands over (use, for
// FAST_USE) and the entries it resolved: the map's usage settings (the table's second line) and,
// when they ask for records, the record's fields from the entries' rows.
void record_table(const char *table, const struct fast_request *r, enum fast_answer a,
                  const char *use, const struct fast_resolved *got);
// The engine's answer (shim/shared/protocol.h): its "usage" and "record" lines, if any.
void record_answer(const char *answer);
// After the decision for `name` (a main library of `major`, asked by `requester`, "" for the
// program) that hands over `chosen` (0: the ordinary load): sends this process's record of it when
// the settings ask for one and it has none for that major yet, and returns what the process is to
// load - chosen, or 0 in report-only mode. What the decision learned is forgotten either way.
const char *record_decision(const char *name, int major, const char *requester, const char *chosen);
// A decision of this process ran in report-only mode (or CUDNN_COMPAT_USAGE says so): the loader's
// own choices stand, the family of sub-libraries included.
int record_report_only(void);

#pragma GCC visibility pop

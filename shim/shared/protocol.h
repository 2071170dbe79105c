/* How the shim (libcudnn-compat.so, C) and its engine (cudnn-compat-select, C++) speak: the one
 * place this is written down, included by both. A shim and an engine from two different installs
 * on one path notice it here instead of misreading each other.
 *
 * The shim runs
 *   cudnn-compat-select PROTOCOL NAME EXECUTABLE REQUESTER DEADLINE_MS MEMO KEY PROBE [DIR...]
 * with stdin and stderr on /dev/null and stdout on a pipe, in a process group of its own:
 *   NAME         the name or path the process asked the loader for
 *   EXECUTABLE   the main program; REQUESTER the object that asks ("" for the main program)
 *   DEADLINE_MS  what is left of the decision's deadline; the engine's probes stay within it
 *   MEMO KEY     where the engine writes its decision for the next process of the node, and
 *                the key it writes there (memo_format.h); "-" "-" for nothing to remember
 *   PROBE        the file whose probe (cudnn-compat-probe FILE, its stdout and stderr) the shim
 *                started beside the engine, in the engine's process group, and whose output the
 *                engine reads on fd CUDNN_COMPAT_PROBE_FD; "-" for none. The engine takes it for
 *                the loader's own file when it is the same file, else probes as it would.
 *   DIR...       the directories the loader searches before ld.so.cache for this requester, in
 *                its order, as the shim read them from the loader's own data, each prefixed with
 *                where it comes from: "P:" RPATH, "L:" LD_LIBRARY_PATH as at process start,
 *                "R:" RUNPATH; one "?" when
 *                it could not, and the engine then reads the requester's dynamic section itself.
 * and reads its answer, line by line:
 *   say TEXT     a line for stderr (at most one unless CUDNN_COMPAT_DEBUG=1): a warning
 *   note TEXT    a line for stderr under CUDNN_COMPAT_DEBUG=1 only: what went well (a shim that
 *                does not know the line ignores it)
 *   use PATH     load this file instead, or
 *   pass         keep the ordinary load
 *   how SOURCE TEXT  where the file loaded comes from (module, wheel, conda, system, user) and
 *                the need that chose it, for CUDNN_COMPAT_REPORT (a shim that does not know
 *                the line ignores it)
 *   usage ...    the map's [usage] settings, and
 *   record ...   the decision's fields of a usage record, when records are asked for (both in
 *                shim/shared/usage_record.h; a shim that does not know them ignores them)
 *   end PROTOCOL the answer is complete; anything else before the deadline is "no answer".
 */
#pragma once

#define CUDNN_COMPAT_PROTOCOL "4"
/* The engine's file name, in the shim's own directory: a copy of the shim without it decides
 * nothing (doctor says so). */
#define CUDNN_COMPAT_ENGINE_NAME "cudnn-compat-select"
#define CUDNN_COMPAT_PROBE_FD 3
#define CUDNN_COMPAT_NO_PROBE "-"
#define CUDNN_COMPAT_NO_DIRS "?"

// The shim's one line: on stderr, or where CUDNN_COMPAT_LOG sends it (docs/shim.md).
#pragma once

#pragma GCC visibility push(hidden)

// Writes line where CUDNN_COMPAT_LOG says: "syslog" (a datagram to /dev/log), an absolute file
// path (appended), else fd 2 - only while fd 2 is still what the process started with. Never at
// the host's expense: a reader that has gone raises no SIGPIPE, a full pipe or FIFO is not waited
// for (the line is dropped), a closed fd 2 costs nothing.
void say(const char *line);
// A slip of the settings (a misspelt CUDNN_COMPAT_USAGE) is said with the line of the decision
// under way, as one line: say_with_next(text) joins it to the next say(); say_held(), when the
// decision has ended, says it alone if nothing was said. text must outlive the decision.
void say_with_next(const char *text);
// What the next line is about where the process asked under another name ("asked for
// libcudnn.so, which loads ..."), put at its end, made only if a line is said; cleared by
// say_held().
void say_ending_with(const char *(*text)(void));
void say_held(void);
// say() of the concatenation of parts (0-terminated list), cut at 4 KiB.
void say_parts(const char *const *parts);

// "EAGAIN: the limit on processes ... is reached": an errno's name and what it usually means for
// starting a program, into out (size bytes).
void errno_text(int error, char *out, long size);

#pragma GCC visibility pop

// One datagram to the local syslog socket, as syslog(3) sends it: for the shim's one line
// (say.c, CUDNN_COMPAT_LOG=syslog) and for usage records (record.c).
#pragma once

#pragma GCC visibility push(hidden)

// Sends "<PRIORITY>TAG[PID]: TEXT" (length bytes of text) to /dev/log without ever waiting or
// raising a signal; 0 when the datagram was taken, else the errno: nothing listens (ENOENT,
// ECONNREFUSED), the socket's queue is full (EAGAIN), ...
int syslog_send(int priority, const char *tag, const char *text, long length);

#pragma GCC visibility pop

#include "syslog_socket.h"

#include <sys/socket.h>

#include "shim_text.h"
#include "sys.h"

int syslog_send(int priority, const char *tag, const char *text, long length) {
  const long fd = sys(SYS_socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return (int)-fd;
  char head[96], number[24];
  long n = append_text(head, sizeof head, 0, "<");
  n = append_text(head, sizeof head, n, format_decimal((unsigned long)priority, number));
  n = append_text(head, sizeof head, n, ">");
  n = append_text(head, sizeof head, n, tag);
  n = append_text(head, sizeof head, n, "[");
  n = append_text(head, sizeof head, n,
                  format_decimal((unsigned long)sys(SYS_getpid, 0, 0, 0), number));
  n = append_text(head, sizeof head, n, "]: ");
  struct {
    unsigned short family;
    char path[108];
  } log = {1, "/dev/log"};
  struct {
    const void *base;
    long length;
  } parts[2] = {{head, n}, {text, length}};
  const struct {
    void *name;
    unsigned int name_length;
    void *parts;
    long count;
    void *control;
    long control_length;
    int flags;
  } message = {&log, sizeof log, parts, 2, 0, 0, 0};
  const long r = sys_retry(SYS_sendmsg, fd, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
  sys(SYS_close, fd, 0, 0);
  return r < 0 ? (int)-r : 0;
}

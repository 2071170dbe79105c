# Issue 9, item 7: a process with more than 256 KiB of /proc/self/maps (12,000 small mappings of
# alternating protections: a large Python process has thousands) still gets the redirect. The
# landed shim read its own directory from the first 256 KiB of the maps, did not find it, and lost
# the redirect.
source "$(dirname "$0")/common.sh"
compile big_maps <<C
$load5_main
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void) {
  for (int i = 0; i < 12000; ++i)
    if (mmap(NULL, 4096, i % 2 ? PROT_READ : PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
             -1, 0) == MAP_FAILED)
      return 2;
  char buf[65536];
  long size = 0, n;
  const int fd = open("/proc/self/maps", O_RDONLY);
  while ((n = read(fd, buf, sizeof buf)) > 0) size += n;
  close(fd);
  printf("maps %ld bytes\n", size);
  return load5() ? 0 : 1;
}
C
tf2016_setting

for mode in audit preload; do
  expect_rc 0 $mode "$t/big_maps"
  size=$(sed -n 's/^maps \([0-9]*\) bytes$/\1/p' <<<"$out")
  ((size > 262144)) || fail "the maps are only $size bytes; the test proves nothing"
  has "$redirected"
done

# A program that calls setlocale() gets glibc's loader reasons from dlerror() in its locale: explain
# read the translated "No such file or directory" and found nothing in the translated "file too
# short" and "Permission denied" (helper 92). The messages here are glibc's own, made by a tiny
# program under private locales, for a cut-short and an unreadable cuDNN sub-library.
source "$(dirname "$0")/common.sh"
command -v localedef >/dev/null || skip "no localedef (libc-bin)"
[[ -f /usr/share/locale/de/LC_MESSAGES/libc.mo ]] || skip "no glibc translations (libc-l10n)"
mkdir -p "$t/loc"
for l in de_DE zh_CN ru_RU; do
  localedef -i $l -f UTF-8 "$t/loc/$l.UTF-8" 2>/dev/null || skip "localedef $l failed (locales)"
done
command cc -o "$t/dle" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <locale.h>
#include <stdio.h>
int main(int argc, char **argv) {
  setlocale(LC_ALL, "");
  for (int i = 1; i < argc; ++i)
    if (!dlopen(argv[i], RTLD_NOW)) puts(dlerror());
  return 0;
}
C
chmod 755 "$t"
printf x >"$t/libcudnn_ops.so.9"
head -c 200 /dev/zero | tr '\0' x >"$t/libcudnn_adv.so.9"  # a Git LFS pointer's kind: no ELF
mkdir "$t/libcudnn_graph.so.9"
cp "$FAKES/9.1.0/lib64/libcudnn_cnn.so.9.1.0" "$t/libcudnn_cnn.so.9"
chmod 000 "$t/libcudnn_cnn.so.9"
# Root reads any file: the unreadable one is opened as nobody.
unreadable() { if [[ $(id -u) == 0 ]]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
for l in de_DE zh_CN ru_RU; do
  short=$(env LOCPATH="$t/loc" LC_ALL=$l.UTF-8 "$t/dle" "$t/libcudnn_ops.so.9")
  noelf=$(env LOCPATH="$t/loc" LC_ALL=$l.UTF-8 "$t/dle" "$t/libcudnn_adv.so.9")
  dir=$(env LOCPATH="$t/loc" LC_ALL=$l.UTF-8 "$t/dle" "$t/libcudnn_graph.so.9")
  denied=$(unreadable env LOCPATH="$t/loc" LC_ALL=$l.UTF-8 "$t/dle" "$t/libcudnn_cnn.so.9")
  for english in "file too short" "invalid ELF header" "Is a directory" "Permission denied"; do
    [[ $short$noelf$dir$denied != *"$english"* ]] || fail "not translated: $short / $noelf / $dir / $denied"
  done
  expect_rc 0 cc explain "$short"
  has "the loader found libcudnn_ops.so.9 but could not load it: file too short"
  has "fix: install cuDNN again"
  expect_rc 0 cc explain "$noelf"
  has "the loader found libcudnn_adv.so.9 but could not load it: invalid ELF header"
  expect_rc 0 cc explain "$dir"
  has "the loader found libcudnn_graph.so.9 but could not load it: cannot read file data: Is a directory"
  expect_rc 0 cc explain "$denied"
  has "the loader found libcudnn_cnn.so.9 but could not load it: Permission denied"
  has "readable by this user"
done
# The translated "No such file or directory" is still a file not found.
expect_rc 0 cc explain "libcudnn_ops.so.8: Kann die Shared-Object-Datei nicht öffnen: Datei oder Verzeichnis nicht gefunden"
has "the loader found no libcudnn_ops.so.8 on its search path"

/* An audit module that does nothing: what glibc's LD_AUDIT machinery costs a process by itself
 * (a namespace of its own, its own TLS), the floor under the shim's /bin/true row in shim_bench. */
unsigned int la_version(unsigned int version) {
  return version;
}

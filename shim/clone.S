// long shim_clone(unsigned long flags, void *stack_top, int (*fn)(void *), void *arg, int *pidfd,
//                 int *child_tid)
//
// clone(2) onto a stack of the shim's own, as musl's posix_spawn does: the child shares the host's
// memory (CLONE_VM), so it must never return into the host's frames; it runs fn(arg) on its own
// stack and exits with fn's result. Returns the child's pid (or -errno) in the parent. pidfd is
// where CLONE_PIDFD puts the child's pidfd, child_tid the word CLONE_CHILD_CLEARTID has the kernel
// clear (and wake) once the child no longer uses the shared memory.
  .text
  .globl shim_clone
  .hidden shim_clone
  .type shim_clone, @function
shim_clone:
  .cfi_startproc
  and $-16, %rsi
  sub $16, %rsi
  mov %rdx, 0(%rsi)            // fn
  mov %rcx, 8(%rsi)            // arg
  mov %r8, %rdx                // parent_tid: where CLONE_PIDFD puts the pidfd
  mov %r9, %r10                // child_tid
  xor %r8d, %r8d               // tls
  mov $56, %eax                // SYS_clone
  syscall
  test %rax, %rax
  jnz 1f
  xor %ebp, %ebp               // the child: no frame above this one
  pop %rax
  pop %rdi
  call *%rax
  mov %eax, %edi
  mov $60, %eax                // SYS_exit: this thread only
  syscall
  hlt
1:
  ret
  .cfi_endproc
  .size shim_clone, .-shim_clone
  .section .note.GNU-stack,"",@progbits

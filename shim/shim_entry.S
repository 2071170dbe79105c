// dlopen for the LD_PRELOAD front end. glibc finds the caller's RUNPATH and $ORIGIN from the
// return address dlopen sees, so this entry must not become the caller: it asks the router which
// name to load, then jumps (not calls) to the real dlopen with the caller's frame intact. Written
// in assembly so that no compiler, at no optimisation level, can turn the jump into a call.
  .text
  .globl dlopen
  .type dlopen, @function
dlopen:
  .cfi_startproc
  push %rdi                    // name
  .cfi_adjust_cfa_offset 8
  push %rsi                    // flags
  .cfi_adjust_cfa_offset 8
  sub $8, %rsp                 // 16-byte alignment for the call
  .cfi_adjust_cfa_offset 8
  mov %rsi, %rdx               // flags
  mov 24(%rsp), %rsi           // the caller's return address
  call shim_dlopen_route       // (name, caller, flags) -> the name to load; sets shim_real_dlopen
  add $8, %rsp
  .cfi_adjust_cfa_offset -8
  pop %rsi
  .cfi_adjust_cfa_offset -8
  pop %rdi
  .cfi_adjust_cfa_offset -8
  mov %rax, %rdi
  jmp *shim_real_dlopen(%rip)
  .cfi_endproc
  .size dlopen, .-dlopen
  .section .note.GNU-stack,"",@progbits

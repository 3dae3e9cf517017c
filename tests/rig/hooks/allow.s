; A Token-2022 transfer hook that lets every transfer through (its
; ExtraAccountMetaList still names a config account, which it ignores).
.globl entrypoint
entrypoint:
  mov64 r0, 0
  exit

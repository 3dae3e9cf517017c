; A Token-2022 transfer hook that refuses every transfer it is called on
; (its ExtraAccountMetaList still names a config account, which it ignores):
; nobody's tokens move, the pool's included.
.globl entrypoint
entrypoint:
  mov64 r0, 6001
  exit

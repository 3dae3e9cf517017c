; A Token-2022 transfer hook that refuses transfers into one account: the
; pool's token account its owner wrote into the hook's config, the extra
; account its ExtraAccountMetaList names (a PDA of ["config", mint]).
; Execute's accounts: 0 source, 1 mint, 2 destination, 3 authority,
; 4 validation list, 5 config. The runtime lays each out (aligned) as:
; dup marker, flags, padding (8), key (32), owner (32), lamports (8),
; data length (8), data, 10,240 bytes to grow, padding to 8, rent epoch (8);
; a duplicate is the marker (its first index) and 7 bytes of padding.
.globl entrypoint
entrypoint:
  ldxdw r2, [r1+0]
  jlt r2, 6, missing
  mov64 r2, r1
  add64 r2, 8
  mov64 r3, 0
walk:
  jge r3, 6, found
  mov64 r5, r2
  ldxb r4, [r2+0]
  jeq r4, 0xff, whole
  ; a duplicate: the record of its first index
  lsh64 r4, 3
  mov64 r9, r10
  sub64 r9, r4
  ldxdw r5, [r9-8]
  add64 r2, 8
  ja keep
whole:
  ldxdw r6, [r2+80]
  add64 r6, 7
  and64 r6, -8
  add64 r2, r6
  add64 r2, 10336
keep:
  ; the record of index r3 at [r10 - 8 * (r3 + 1)]
  mov64 r6, r3
  lsh64 r6, 3
  mov64 r9, r10
  sub64 r9, r6
  stxdw [r9-8], r5
  add64 r3, 1
  ja walk
found:
  ldxdw r7, [r10-24]
  ldxdw r8, [r10-48]
  ldxdw r6, [r8+80]
  jlt r6, 32, allow
  ldxdw r4, [r7+8]
  ldxdw r5, [r8+88]
  jne r4, r5, allow
  ldxdw r4, [r7+16]
  ldxdw r5, [r8+96]
  jne r4, r5, allow
  ldxdw r4, [r7+24]
  ldxdw r5, [r8+104]
  jne r4, r5, allow
  ldxdw r4, [r7+32]
  ldxdw r5, [r8+112]
  jne r4, r5, allow
  mov64 r0, 6000
  exit
allow:
  mov64 r0, 0
  exit
missing:
  ; NotEnoughAccountKeys
  lddw r0, 0xb00000000
  exit

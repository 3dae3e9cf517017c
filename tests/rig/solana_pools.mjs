// Account bytes of every Solana pool family, encoded by each family's own
// SDK, so the Rust decoders are checked against an independent
// implementation: pump.fun and PumpSwap by the Anchor coders of the IDLs
// @pump-fun/pump-sdk and @pump-fun/pump-swap-sdk ship; Raydium AMM v4,
// CPMM and CLMM by @raydium-io/raydium-sdk-v2's layouts; Orca Whirlpools by
// @orca-so/whirlpools-client's encoders; Meteora DLMM by the Anchor coder
// of the IDL @meteora-ag/dlmm ships. Program-derived addresses come from
// the same SDKs. Addresses are base58 strings; amounts BigInt.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import * as orca from "@orca-so/whirlpools-client";

const require = createRequire(import.meta.url);
const { PublicKey } = require("@solana/web3.js");
const BN = require("bn.js");
const { BorshAccountsCoder } = require("@coral-xyz/anchor");
const pump = require("@pump-fun/pump-sdk");
const pumpSwap = require("@pump-fun/pump-swap-sdk");
const raydiumV4 = require("@raydium-io/raydium-sdk-v2/lib/raydium/liquidity/layout.js");
const raydiumCpmm = require("@raydium-io/raydium-sdk-v2/lib/raydium/cpmm/layout.js");
const raydiumClmm = require("@raydium-io/raydium-sdk-v2/lib/raydium/clmm/layout.js");
const raydiumPda = require("@raydium-io/raydium-sdk-v2/lib/raydium/clmm/libraries/pda.js");
const raydiumCpmmPda = require("@raydium-io/raydium-sdk-v2/lib/raydium/cpmm/pda.js");
const raydiumTick = require("@raydium-io/raydium-sdk-v2/lib/raydium/clmm/libraries/tickArrayUtil.js");
const meteora = require("@meteora-ag/dlmm");

const pk = (a) => new PublicKey(a);
const bn = (n) => new BN(BigInt(n).toString());
const b58 = (k) => k.toBase58();

export const PROGRAMS = {
  pump: b58(pump.PUMP_PROGRAM_ID),
  pumpSwap: b58(pumpSwap.PUMP_AMM_PROGRAM_ID),
  ammV4: "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8",
  cpmm: "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
  clmm: "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK",
  whirlpool: orca.WHIRLPOOL_PROGRAM_ADDRESS,
  dlmm: meteora.IDL.address,
  raydiumLock: "LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE",
};

// An Anchor account of `idl` with its discriminator; fields left out are
// zero (the layout skips them). Accounts past Anchor's 1,000-byte encode
// buffer go through the account's layout directly.
function anchor(idl, name, fields, size) {
  const coder = new BorshAccountsCoder(idl);
  const { layout } = coder.accountLayouts.get(name);
  const body = Buffer.alloc(size - 8);
  layout.encode(fields, body);
  const discriminator = Buffer.from(idl.accounts.find((a) => a.name === name).discriminator);
  return Buffer.concat([discriminator, body]);
}
// A Raydium layout; unnamed fields (the discriminator among them) stay
// zero, so an Anchor account's discriminator is written here.
function raydium(layout, fields, name = null) {
  const data = Buffer.alloc(layout.span);
  layout.encode(fields, data);
  if (name) createHash("sha256").update(`account:${name}`).digest().copy(data, 0, 0, 8);
  return data;
}
// A Codama (Orca) account: every field from a zeroed account, then ours.
function codama(decoder, encoder, size, fields) {
  return Buffer.from(encoder.encode({ ...decoder.decode(new Uint8Array(size)), ...fields }));
}

// --- pump.fun and PumpSwap
export function pumpGlobal(f) {
  return anchor(pump.pumpIdl, "Global", {
    initialized: true, authority: pk(PROGRAMS.pump),
    initial_virtual_token_reserves: bn(f.initialVirtualTokenReserves), initial_virtual_sol_reserves: bn(f.initialVirtualSolReserves),
    initial_real_token_reserves: bn(f.initialRealTokenReserves), token_total_supply: bn(f.tokenTotalSupply), fee_basis_points: bn(f.feeBasisPoints),
  }, 1087);
}
export function pumpBondingCurve(f) {
  return anchor(pump.pumpIdl, "BondingCurve", {
    virtual_token_reserves: bn(f.virtualTokenReserves), virtual_quote_reserves: bn(f.virtualQuoteReserves),
    real_token_reserves: bn(f.realTokenReserves), real_quote_reserves: bn(f.realQuoteReserves),
    token_total_supply: bn(f.tokenTotalSupply), complete: f.complete, creator: pk(f.creator),
  }, 125);
}
export function pumpPdas(mint) {
  return {
    global: b58(pump.GLOBAL_PDA),
    bondingCurve: b58(pump.bondingCurvePda(pk(mint))),
    poolAuthority: b58(pump.pumpPoolAuthorityPda(pk(mint))),
    canonicalPool: b58(pump.canonicalPumpPoolPda(pk(mint))),
  };
}
export function pumpSwapPool(f) {
  const idl = pumpSwap.OFFLINE_PUMP_AMM_PROGRAM.rawIdl;
  return anchor(idl, "Pool", {
    pool_bump: 255, index: f.index, creator: pk(f.creator), base_mint: pk(f.baseMint), quote_mint: pk(f.quoteMint), lp_mint: pk(f.lpMint),
    pool_base_token_account: pk(f.poolBaseTokenAccount), pool_quote_token_account: pk(f.poolQuoteTokenAccount),
    lp_supply: bn(f.lpSupply), coin_creator: pk(f.coinCreator), virtual_quote_reserves: bn(f.virtualQuoteReserves),
  }, pumpSwap.POOL_SIZE);
}

// --- Raydium
export function ammV4(f) {
  return raydium(raydiumV4.liquidityStateV4Layout, {
    status: bn(f.status), baseDecimal: bn(f.coinDecimals), quoteDecimal: bn(f.pcDecimals),
    swapFeeNumerator: bn(f.swapFeeNumerator), swapFeeDenominator: bn(f.swapFeeDenominator),
    baseNeedTakePnl: bn(f.needTakePnlCoin), quoteNeedTakePnl: bn(f.needTakePnlPc), poolOpenTime: bn(f.poolOpenTime),
    baseVault: pk(f.coinVault), quoteVault: pk(f.pcVault), baseMint: pk(f.coinMint), quoteMint: pk(f.pcMint),
    lpMint: pk(f.lpMint), owner: pk(f.ammOwner), lpReserve: bn(f.lpAmount),
  });
}
export function cpmmConfig(f) {
  return raydium(raydiumCpmm.CpmmConfigInfoLayout, {
    bump: 255, disableCreatePool: false, index: f.index, tradeFeeRate: bn(f.tradeFeeRate), protocolFeeRate: bn(f.protocolFeeRate),
    fundFeeRate: bn(f.fundFeeRate), createPoolFee: bn(0), protocolOwner: PublicKey.default, fundOwner: PublicKey.default,
    creatorFeeRate: bn(f.creatorFeeRate ?? 0),
  }, "AmmConfig");
}
export const cpmmConfigPda = (index) => b58(raydiumCpmmPda.getCpmmPdaAmmConfigId(pk(PROGRAMS.cpmm), index).publicKey);
export function cpmmPool(f) {
  return raydium(raydiumCpmm.CpmmPoolInfoLayout, {
    configId: pk(f.ammConfig), poolCreator: pk(f.poolCreator), vaultA: pk(f.vault0), vaultB: pk(f.vault1), mintLp: pk(f.lpMint),
    mintA: pk(f.mint0), mintB: pk(f.mint1), mintProgramA: pk(f.mint0Program), mintProgramB: pk(f.mint1Program),
    observationId: pk(f.observationKey), bump: 255, status: 0, lpDecimals: f.lpDecimals, mintDecimalA: f.decimals0, mintDecimalB: f.decimals1,
    lpAmount: bn(f.lpSupply), protocolFeesMintA: bn(f.protocolFees0 ?? 0), protocolFeesMintB: bn(f.protocolFees1 ?? 0),
    fundFeesMintA: bn(0), fundFeesMintB: bn(0), openTime: bn(f.openTime ?? 0),
  }, "PoolState");
}
export function clmmConfig(f) {
  return raydium(raydiumClmm.ClmmConfigLayout, {
    bump: 255, index: f.index, owner: PublicKey.default, protocolFeeRate: f.protocolFeeRate, tradeFeeRate: f.tradeFeeRate,
    tickSpacing: f.tickSpacing, fundFeeRate: f.fundFeeRate, fundOwner: PublicKey.default,
  }, "AmmConfig");
}
export const clmmConfigPda = (index) => b58(raydiumPda.getPdaAmmConfigId(pk(PROGRAMS.clmm), index).publicKey);
export function clmmPool(f) {
  return raydium(raydiumClmm.PoolInfoLayout, {
    bump: 255, configId: pk(f.ammConfig), creator: pk(f.owner), mintA: pk(f.mint0), mintB: pk(f.mint1), vaultA: pk(f.vault0), vaultB: pk(f.vault1),
    observationId: PublicKey.default, mintDecimalsA: f.decimals0, mintDecimalsB: f.decimals1, tickSpacing: f.tickSpacing,
    liquidity: bn(f.liquidity), sqrtPriceX64: bn(f.sqrtPriceX64), tickCurrent: f.tickCurrent,
    protocolFeesTokenA: bn(f.protocolFees0 ?? 0), protocolFeesTokenB: bn(f.protocolFees1 ?? 0),
  }, "PoolState");
}
export function clmmTickArray(f) {
  const ticks = Array.from({ length: 60 }, (_, i) => ({ tick: f.startTickIndex + i * f.tickSpacing, liquidityNet: bn(0), liquidityGross: bn(0) }));
  for (const t of f.ticks) {
    ticks[(t.tick - f.startTickIndex) / f.tickSpacing] = { tick: t.tick, liquidityNet: bn(t.liquidityNet), liquidityGross: bn(t.liquidityGross) };
  }
  return raydium(raydiumClmm.TickArrayLayout, { poolId: pk(f.pool), startTickIndex: f.startTickIndex, ticks, initializedTickCount: f.ticks.length }, "TickArrayState");
}
export const clmmTickArrayPda = (pool, start) => b58(raydiumPda.getPdaTickArrayAddress(pk(PROGRAMS.clmm), pk(pool), start).publicKey);
export const clmmSqrtPriceX64AtTick = (tick) => BigInt(raydiumTick.TickUtil.getSqrtPriceAtTick(tick).toString());
export function clmmPosition(f) {
  return raydium(raydiumClmm.PersonalPositionLayout, {
    bump: 255, nftMint: pk(f.nftMint), poolId: pk(f.pool), tickLower: f.tickLower, tickUpper: f.tickUpper, liquidity: bn(f.liquidity),
  }, "PersonalPositionState");
}
export const clmmPositionPda = (nftMint) => b58(raydiumPda.getPdaPersonalPositionAddress(pk(PROGRAMS.clmm), pk(nftMint)).publicKey);
export function clmmLock(f) {
  return raydium(raydiumClmm.LockClPositionLayoutV2, {
    bump: 255, lockOwner: pk(f.lockOwner), poolId: pk(f.pool), positionId: pk(f.position), nftAccount: pk(f.nftAccount), lockNftMint: pk(f.lockNftMint),
  }, "LockedClmmPositionState");
}

// --- Orca Whirlpools
export function whirlpool(f) {
  return codama(orca.getWhirlpoolDecoder(), orca.getWhirlpoolEncoder(), orca.getWhirlpoolSize(), {
    whirlpoolsConfig: f.config, whirlpoolBump: new Uint8Array([255]), tickSpacing: f.tickSpacing, feeRate: f.feeRate, protocolFeeRate: f.protocolFeeRate,
    liquidity: BigInt(f.liquidity), sqrtPrice: BigInt(f.sqrtPrice), tickCurrentIndex: f.tickCurrentIndex,
    protocolFeeOwedA: BigInt(f.protocolFeeOwedA ?? 0), protocolFeeOwedB: BigInt(f.protocolFeeOwedB ?? 0),
    tokenMintA: f.mintA, tokenVaultA: f.vaultA, tokenMintB: f.mintB, tokenVaultB: f.vaultB,
  });
}
const orcaTick = (t) => ({ initialized: true, liquidityNet: BigInt(t.liquidityNet), liquidityGross: BigInt(t.liquidityGross), feeGrowthOutsideA: 0n, feeGrowthOutsideB: 0n, rewardGrowthsOutside: [0n, 0n, 0n] });
const slot = (f, t) => (t.tick - f.startTickIndex) / f.tickSpacing;
export function whirlpoolTickArray(f) {
  const empty = orca.getFixedTickArrayDecoder().decode(new Uint8Array(orca.getFixedTickArraySize()));
  const ticks = empty.ticks.map((t) => ({ ...t }));
  for (const t of f.ticks) ticks[slot(f, t)] = orcaTick(t);
  return Buffer.from(orca.getFixedTickArrayEncoder().encode({ ...empty, startTickIndex: f.startTickIndex, whirlpool: f.whirlpool, ticks }));
}
export function whirlpoolDynamicTickArray(f) {
  const ticks = Array.from({ length: 88 }, () => ({ __kind: "Uninitialized" }));
  let bitmap = 0n;
  for (const t of f.ticks) {
    const { initialized, ...data } = orcaTick(t);
    ticks[slot(f, t)] = { __kind: "Initialized", fields: [data] };
    bitmap |= 1n << BigInt(slot(f, t));
  }
  return Buffer.from(orca.getDynamicTickArrayEncoder().encode({ startTickIndex: f.startTickIndex, whirlpool: f.whirlpool, tickBitmap: bitmap, ticks }));
}
export const whirlpoolTickArrayPda = async (whirlpool, start) => (await orca.getTickArrayAddress(whirlpool, start))[0];
export function whirlpoolPosition(f) {
  return codama(orca.getPositionDecoder(), orca.getPositionEncoder(), orca.getPositionSize(), {
    whirlpool: f.whirlpool, positionMint: f.positionMint, liquidity: BigInt(f.liquidity), tickLowerIndex: f.tickLower, tickUpperIndex: f.tickUpper,
  });
}
export const whirlpoolPositionPda = async (mint) => (await orca.getPositionAddress(mint))[0];
// On chain a LockConfig is 241 bytes: its fields and 128 reserved (the encoder writes the fields).
export function whirlpoolLockConfig(f) {
  const fields = codama(orca.getLockConfigDecoder(), orca.getLockConfigEncoder(), orca.getLockConfigSize(), {
    position: f.position, positionOwner: f.positionOwner, whirlpool: f.whirlpool, lockedTimestamp: 1n,
  });
  return Buffer.concat([fields, Buffer.alloc(241 - fields.length)]);
}

// --- Meteora DLMM
export function dlmmPair(f) {
  return anchor(meteora.IDL, "LbPair", {
    parameters: { base_factor: f.baseFactor, variable_fee_control: f.variableFeeControl, base_fee_power_factor: f.baseFeePowerFactor },
    active_id: f.activeId, bin_step: f.binStep, token_x_mint: pk(f.tokenXMint), token_y_mint: pk(f.tokenYMint),
    reserve_x: pk(f.reserveX), reserve_y: pk(f.reserveY), oracle: pk(f.oracle), creator: pk(f.creator),
    protocol_fee: { amount_x: bn(f.protocolFeeX ?? 0), amount_y: bn(f.protocolFeeY ?? 0) },
  }, 904);
}
export function dlmmBinArray(f) {
  const bins = Array.from({ length: 70 }, () => ({ amount_x: bn(0), amount_y: bn(0), liquidity_supply: bn(0) }));
  for (const b of f.bins) {
    bins[b.binId - f.index * 70] = { amount_x: bn(b.amountX), amount_y: bn(b.amountY), liquidity_supply: bn(b.liquiditySupply) };
  }
  return anchor(meteora.IDL, "BinArray", { index: bn(f.index), lb_pair: pk(f.lbPair), bins }, 10136);
}
export const dlmmBinArrayPda = (pair, index) => b58(meteora.deriveBinArray(pk(pair), bn(index), pk(PROGRAMS.dlmm))[0]);
export function dlmmPosition(f) {
  const shares = Array.from({ length: 70 }, (_, i) => bn(f.shares[i] ?? 0));
  return anchor(meteora.IDL, "PositionV2", {
    lb_pair: pk(f.lbPair), owner: pk(f.owner), liquidity_shares: shares, lower_bin_id: f.lowerBinId, upper_bin_id: f.upperBinId,
    lock_release_point: bn(f.lockReleasePoint ?? 0),
  }, 8120);
}

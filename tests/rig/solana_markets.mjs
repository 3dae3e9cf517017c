// Pools of every Solana family for the fixture: pool, curve, config, tick
// and bin array accounts encoded by each family's own SDK
// (solana_pools.mjs); vaults, LP mints and holders are real token accounts
// and mints made by the SPL Token program in LiteSVM. Every value is chosen
// so the price, liquidity and LP shares the analysis must find are known.
import { getProgramDerivedAddress } from "@solana/kit";
import * as spl from "@solana-program/token";
import * as pools from "./solana_pools.mjs";

const SOL = 10n ** 9n;
const D6 = 10n ** 6n;
const LP_ISSUED = 1_000_000_000_000n;

export async function buildMarkets(rig) {
  const { svm, send, payer, scenario, createMint, tokenAccount, ata, mintTo, holders, renounce, randomOwner, setAccount, WSOL, SPL } = rig;
  const expect = {};
  for (const [family, program] of Object.entries(pools.PROGRAMS)) scenario[`program_${family}`] = program;

  const vault = async (mint, amount, owner = null) => {
    const account = await tokenAccount(SPL, mint, owner ?? (await randomOwner()));
    if (amount > 0n) await mintTo(SPL, mint, account, amount);
    return account;
  };
  // An LP mint: `issued` minted to `holder` (its associated account when
  // `associated`), then `burned` of it burned.
  const lpMint = async ({ issued = LP_ISSUED, burned = LP_ISSUED, holder = payer, associated = false }) => {
    const mint = await createMint({ decimals: 9 });
    const account = associated ? await ata(SPL, mint, holder.address) : await tokenAccount(SPL, mint, holder.address);
    await mintTo(SPL, mint, account, issued);
    if (burned > 0n) await send([spl.getBurnInstruction({ account, mint, authority: holder, amount: burned })]);
    return mint;
  };
  const token = async (name, { keepAuthority = false, age = 30 * 86400 } = {}) => {
    const mint = await createMint({ decimals: 6 });
    await holders(SPL, mint, 6, Array(20).fill(20_000_000));
    scenario[name] = mint;
    rig.ages[name] = age;
    if (!keepAuthority) rig.renounceLater.push(mint);
    return mint;
  };
  const pool = async (name, program, data) => {
    const address = await randomOwner();
    setAccount(address, data, program);
    scenario[name] = address;
    return address;
  };

  // --- SOL priced by three SOL/USDC pools: two at $150, one thin pool pushed to $1,000.
  const cpmmConfig = pools.cpmmConfigPda(0);
  setAccount(cpmmConfig, pools.cpmmConfig({ index: 0, tradeFeeRate: 2500n, protocolFeeRate: 120000n, fundFeeRate: 40000n }), pools.PROGRAMS.cpmm);
  const cpmm = async (name, { mint0, mint1, decimals0, decimals1, amount0, amount1, owed1 = 0n, lp, creator = payer.address }) => {
    const v0 = await vault(mint0, amount0);
    const v1 = await vault(mint1, amount1 + owed1);
    return pool(name, pools.PROGRAMS.cpmm, pools.cpmmPool({
      ammConfig: cpmmConfig, poolCreator: creator, vault0: v0, vault1: v1, lpMint: lp, mint0, mint1,
      mint0Program: SPL, mint1Program: SPL, observationKey: await randomOwner(), decimals0, decimals1, lpDecimals: 9,
      lpSupply: LP_ISSUED, protocolFees1: owed1,
    }));
  };
  const ammV4 = async (name, { coin, pc, coinDecimals, pcDecimals, coinAmount, pcAmount, pnlCoin = 0n, pnlPc = 0n, lp }) => {
    const coinVault = await vault(coin, coinAmount + pnlCoin);
    const pcVault = await vault(pc, pcAmount + pnlPc);
    return pool(name, pools.PROGRAMS.ammV4, pools.ammV4({
      status: 6n, coinDecimals: BigInt(coinDecimals), pcDecimals: BigInt(pcDecimals), swapFeeNumerator: 25n, swapFeeDenominator: 10000n,
      needTakePnlCoin: pnlCoin, needTakePnlPc: pnlPc, coinVault, pcVault, coinMint: coin, pcMint: pc, lpMint: lp, lpAmount: LP_ISSUED,
      poolOpenTime: 1_700_000_000n, ammOwner: await randomOwner(),
    }));
  };
  await cpmm("price_pool", { mint0: WSOL, mint1: scenario.usdc, decimals0: 9, decimals1: 6, amount0: 1_000n * SOL, amount1: 150_000n * D6, owed1: 1_500n * D6, lp: await lpMint({}) });
  await ammV4("price_pool_v4", { coin: WSOL, pc: scenario.usdc, coinDecimals: 9, pcDecimals: 6, coinAmount: 2_000n * SOL, pcAmount: 300_000n * D6, pnlCoin: 10n * SOL, pnlPc: 1_000n * D6, lp: await lpMint({}) });
  await ammV4("price_pool_pushed", { coin: WSOL, pc: scenario.usdc, coinDecimals: 9, pcDecimals: 6, coinAmount: 1n * SOL, pcAmount: 1_000n * D6, lp: await lpMint({}) });

  // --- Raydium CPMM: the launch token (99% of LP burned, the rest not the
  // creator's) and the whale token (LP unburned, in the creator's hands).
  await cpmm("launch_pool", { mint0: scenario.launch, mint1: WSOL, decimals0: 6, decimals1: 9, amount0: 100_000_000n * D6, amount1: 100n * SOL, owed1: 1n * SOL, lp: await lpMint({ burned: 990_000_000_000n }) });
  await cpmm("whale_pool", { mint0: WSOL, mint1: scenario.whale, decimals0: 9, decimals1: 6, amount0: 10n * SOL, amount1: 1_000_000n * D6, lp: await lpMint({ burned: 0n, associated: true }) });

  // --- Raydium AMM v4: 0.0001 SOL a token; uncollected protocol fees in the vaults.
  for (const [name, tokens, sol, lp] of [
    ["v4_healthy", 10_000_000n, 1_000n, {}],
    ["v4_thin", 100_000n, 10n, {}],
    ["v4_owner_lp", 10_000_000n, 1_000n, { burned: 0n, associated: true }],
  ]) {
    const mint = await token(name, { keepAuthority: name === "v4_owner_lp" });
    await ammV4(`${name}_pool`, { coin: mint, pc: WSOL, coinDecimals: 6, pcDecimals: 9, coinAmount: tokens * D6, pcAmount: sol * SOL, pnlCoin: 50_000n * D6, pnlPc: 2n * SOL, lp: await lpMint(lp) });
  }

  // --- pump.fun: a curve mid-way and a graduated coin in its canonical PumpSwap pool.
  const global = pools.pumpPdas(scenario.usdc).global;
  setAccount(global, pools.pumpGlobal({ initialVirtualTokenReserves: 1_073_000_000n * D6, initialVirtualSolReserves: 30n * SOL, initialRealTokenReserves: 793_100_000n * D6, tokenTotalSupply: 1_000_000_000n * D6, feeBasisPoints: 95n }), pools.PROGRAMS.pump);
  scenario.curve_creator = await randomOwner();
  {
    const mint = await token("curve_mid", { age: 3600 });
    const pdas = pools.pumpPdas(mint);
    // 473M of 793.1M sold: virtual 600M tokens × 53.65 SOL = 1,073M × 30 SOL.
    setAccount(pdas.bondingCurve, pools.pumpBondingCurve({
      virtualTokenReserves: 600_000_000n * D6, virtualQuoteReserves: 53_650_000_000n, realTokenReserves: 320_100_000n * D6,
      realQuoteReserves: 23_650_000_000n, tokenTotalSupply: 1_000_000_000n * D6, complete: false, creator: scenario.curve_creator,
    }), pools.PROGRAMS.pump);
    const curveTokens = await ata(SPL, mint, pdas.bondingCurve);
    await mintTo(SPL, mint, curveTokens, 527_000_000n * D6);
    await holders(SPL, mint, 6, [50_000_000], scenario.curve_creator);
    scenario.curve_mid_curve = pdas.bondingCurve;
  }
  const pumpSwap = async (name, { mint, index = 1, creator = null, address = null, tokens, lamports, virtualQuote = 0n, coinCreator, lp }) => {
    const baseVault = await vault(mint, tokens);
    const quoteVault = await vault(WSOL, lamports);
    const data = pools.pumpSwapPool({
      index, creator: creator ?? (await randomOwner()), baseMint: mint, quoteMint: WSOL, lpMint: lp,
      poolBaseTokenAccount: baseVault, poolQuoteTokenAccount: quoteVault, lpSupply: LP_ISSUED, coinCreator, virtualQuoteReserves: virtualQuote,
    });
    if (address) {
      setAccount(address, data, pools.PROGRAMS.pumpSwap);
      scenario[name] = address;
      return address;
    }
    return pool(name, pools.PROGRAMS.pumpSwap, data);
  };
  {
    const mint = await token("graduated", { age: 3 * 86400 });
    const pdas = pools.pumpPdas(mint);
    setAccount(pdas.bondingCurve, pools.pumpBondingCurve({
      virtualTokenReserves: 279_900_000n * D6, virtualQuoteReserves: 115_005_000_000n, realTokenReserves: 0n, realQuoteReserves: 0n,
      tokenTotalSupply: 1_000_000_000n * D6, complete: true, creator: scenario.curve_creator,
    }), pools.PROGRAMS.pump);
    // Fees taken since migration leave the virtual quote reserve at −0.5 SOL.
    await pumpSwap("graduated_pool", {
      mint, index: 0, creator: pdas.poolAuthority, address: pdas.canonicalPool, tokens: 206_900_000n * D6, lamports: 85n * SOL,
      virtualQuote: -500_000_000n, coinCreator: scenario.curve_creator, lp: await lpMint({}),
    });
  }
  const creatorWallet = await rig.wallet();
  scenario.pumpswap_creator = creatorWallet.address;
  for (const [name, tokens, sol, lp] of [
    ["pumpswap_thin", 1_000_000n, 5n, {}],
    ["pumpswap_creator_lp", 10_000_000n, 200n, { burned: 0n, associated: true, holder: creatorWallet }],
  ]) {
    const mint = await token(name);
    await pumpSwap(`${name}_pool`, { mint, tokens: tokens * D6, lamports: sol * SOL, coinCreator: creatorWallet.address, lp: await lpMint(lp) });
  }

  // --- LP split between burned, the creator, the mint authority and a
  // locker, in each family with an LP mint. The pool counts LP_ISSUED; half
  // of it was burned through the token program, which halves the LP mint's
  // supply but not the pool's count, against which the pool pays LP out:
  // the creator's 20% redeems 20%, not 40%. CPMM LP is locked by Raydium's
  // locking program (its CPMM authority); the others by a configured locker.
  const [raydiumLocker] = await getProgramDerivedAddress({ programAddress: "LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE", seeds: ["lock_cp_authority_seed"] });
  scenario.raydium_locker = raydiumLocker;
  scenario.test_locker = await randomOwner();
  const splitLp = async (creator, locker) => {
    const mint = await createMint({ decimals: 9 });
    const give = async (owner, amount) => mintTo(SPL, mint, await ata(SPL, mint, owner), amount);
    await give(creator ?? (await randomOwner()), LP_ISSUED / 5n);
    await give(payer.address, LP_ISSUED / 10n);
    await give(locker, LP_ISSUED / 5n);
    const burned = await tokenAccount(SPL, mint, payer.address);
    await mintTo(SPL, mint, burned, LP_ISSUED / 2n);
    await send([spl.getBurnInstruction({ account: burned, mint, authority: payer, amount: LP_ISSUED / 2n })]);
    return mint;
  };
  {
    const creator = await randomOwner();
    scenario.split_creator = creator;
    const cpmmMint = await token("cpmm_split", { keepAuthority: true });
    await cpmm("cpmm_split_pool", { mint0: cpmmMint, mint1: WSOL, decimals0: 6, decimals1: 9, amount0: 10_000_000n * D6, amount1: 1_000n * SOL, lp: await splitLp(creator, raydiumLocker), creator });
    const v4Mint = await token("v4_split", { keepAuthority: true });
    await ammV4("v4_split_pool", { coin: v4Mint, pc: WSOL, coinDecimals: 6, pcDecimals: 9, coinAmount: 10_000_000n * D6, pcAmount: 1_000n * SOL, lp: await splitLp(null, scenario.test_locker) });
    const swapMint = await token("pumpswap_split", { keepAuthority: true });
    await pumpSwap("pumpswap_split_pool", { mint: swapMint, tokens: 10_000_000n * D6, lamports: 1_000n * SOL, coinCreator: creator, lp: await splitLp(creator, scenario.test_locker) });
  }

  // A position NFT (supply 1) held by `owner` (someone else when null).
  const positionNft = async (owner) => {
    const nft = await createMint({ decimals: 0 });
    await mintTo(SPL, nft, await tokenAccount(SPL, nft, owner ?? (await randomOwner())), 1n);
    return nft;
  };

  // --- Concentrated liquidity against USDC: one position ±1.5% around the
  // price, so depth within 2% ends where the position does and the vaults
  // hold exactly what the position holds.
  const position = (L, tick, lower, upper) => {
    const sqrt = (t) => Math.pow(1.0001, t / 2);
    const [s, sl, su] = [sqrt(tick), sqrt(lower), sqrt(upper)];
    const x = BigInt(Math.floor(L * (1 / s - 1 / su)));
    const y = BigInt(Math.floor(L * (s - sl)));
    return { x, y, price: s * s, depth: (L * (su - sl)) / 1e6, tvl: (Number(y) + Number(x) * s * s) / 1e6 };
  };
  const clmmConfig = pools.clmmConfigPda ? pools.clmmConfigPda(0) : await randomOwner();
  setAccount(clmmConfig, pools.clmmConfig({ index: 0, tradeFeeRate: 2500, tickSpacing: 10, protocolFeeRate: 120000, fundFeeRate: 40000 }), pools.PROGRAMS.clmm);
  for (const [name, L] of [["clmm_healthy", 2e13], ["clmm_thin", 1e11]]) {
    const mint = await token(name);
    const [tick, lower, upper] = [-6930, -7080, -6780];
    const p = position(L, tick, lower, upper);
    const [v0, v1] = [await vault(mint, p.x), await vault(scenario.usdc, p.y)];
    const address = await pool(`${name}_pool`, pools.PROGRAMS.clmm, pools.clmmPool({
      ammConfig: clmmConfig, owner: payer.address, mint0: mint, mint1: scenario.usdc, vault0: v0, vault1: v1, decimals0: 6, decimals1: 6,
      tickSpacing: 10, liquidity: BigInt(L), sqrtPriceX64: pools.clmmSqrtPriceX64AtTick(tick), tickCurrent: tick,
    }));
    // The healthy pool's position is locked with Raydium's locking
    // program; the thin one's NFT is held by the pool's creator.
    const nft = await positionNft(name === "clmm_thin" ? payer.address : null);
    const positionAddress = pools.clmmPositionPda(nft);
    setAccount(positionAddress, pools.clmmPosition({ nftMint: nft, pool: address, tickLower: lower, tickUpper: upper, liquidity: BigInt(L) }), pools.PROGRAMS.clmm);
    if (name === "clmm_healthy") {
      setAccount(await randomOwner(), pools.clmmLock({ lockOwner: await randomOwner(), pool: address, position: positionAddress, nftAccount: await randomOwner(), lockNftMint: await randomOwner() }), pools.PROGRAMS.raydiumLock);
    }
    const start = Math.floor(lower / 600) * 600;
    setAccount(pools.clmmTickArrayPda(address, start), pools.clmmTickArray({
      pool: address, startTickIndex: start, tickSpacing: 10,
      ticks: [{ tick: lower, liquidityNet: BigInt(L), liquidityGross: BigInt(L) }, { tick: upper, liquidityNet: -BigInt(L), liquidityGross: BigInt(L) }],
    }), pools.PROGRAMS.clmm);
    expect[name] = { price: p.price, depth: p.depth, tvl: p.tvl };
    // The holder wallet keeps 1,000 of the healthy one (its holdings are priced).
    if (name === "clmm_healthy") await mintTo(SPL, mint, await tokenAccount(SPL, mint, rig.holder), 1_000n * D6);
  }
  for (const [name, L, dynamic] of [["whirl_healthy", 1e13, false], ["whirl_thin", 5e10, true]]) {
    const mint = await token(name, { keepAuthority: name === "whirl_thin" });
    const [tick, lower, upper] = [6928, 6768, 7088];
    const p = position(L, tick, lower, upper);
    const [vA, vB] = [await vault(mint, p.x), await vault(scenario.usdc, p.y)];
    const address = await pool(`${name}_pool`, pools.PROGRAMS.whirlpool, pools.whirlpool({
      config: await randomOwner(), tickSpacing: 8, feeRate: 3000, protocolFeeRate: 300, liquidity: BigInt(L),
      sqrtPrice: pools.clmmSqrtPriceX64AtTick(tick), tickCurrentIndex: tick, mintA: mint, vaultA: vA, mintB: scenario.usdc, vaultB: vB,
    }));
    const encode = dynamic ? pools.whirlpoolDynamicTickArray : pools.whirlpoolTickArray;
    for (const [start, ticks] of [[6336, [{ tick: lower, liquidityNet: BigInt(L), liquidityGross: BigInt(L) }]], [7040, [{ tick: upper, liquidityNet: -BigInt(L), liquidityGross: BigInt(L) }]]]) {
      setAccount(await pools.whirlpoolTickArrayPda(address, start), encode({ whirlpool: address, startTickIndex: start, tickSpacing: 8, ticks }), pools.PROGRAMS.whirlpool);
    }
    // The healthy pool's position is locked (Orca's LockConfig); the thin
    // one's NFT is held by the mint authority.
    const nft = await positionNft(name === "whirl_thin" ? payer.address : null);
    const positionAddress = await pools.whirlpoolPositionPda(nft);
    setAccount(positionAddress, pools.whirlpoolPosition({ whirlpool: address, positionMint: nft, liquidity: BigInt(L), tickLower: lower, tickUpper: upper }), pools.PROGRAMS.whirlpool);
    if (name === "whirl_healthy") {
      setAccount(await randomOwner(), pools.whirlpoolLockConfig({ position: positionAddress, positionOwner: await randomOwner(), whirlpool: address }), pools.PROGRAMS.whirlpool);
    }
    expect[name] = { price: p.price, depth: p.depth, tvl: p.tvl };
  }

  // --- Meteora DLMM: bin step 0.25%, token X in the ten bins above the
  // active one, USDC in the ten below, half of each in the active bin.
  for (const [name, unit] of [["dlmm_healthy", 1n], ["dlmm_thin", 1_000n]]) {
    const mint = await token(name);
    const active = -922;
    const bins = [];
    for (let id = active - 10; id <= active + 10; id++) {
      const x = id > active ? 100_000n * D6 : id === active ? 50_000n * D6 : 0n;
      const y = id < active ? 10_000n * D6 : id === active ? 5_000n * D6 : 0n;
      bins.push({ binId: id, amountX: x / unit, amountY: y / unit, liquiditySupply: 1n });
    }
    const totalX = bins.reduce((a, b) => a + b.amountX, 0n);
    const totalY = bins.reduce((a, b) => a + b.amountY, 0n);
    const [rX, rY] = [await vault(mint, totalX), await vault(scenario.usdc, totalY)];
    const address = await pool(`${name}_pool`, pools.PROGRAMS.dlmm, pools.dlmmPair({
      activeId: active, binStep: 25, baseFactor: 10000, baseFeePowerFactor: 0, variableFeeControl: 0,
      tokenXMint: mint, tokenYMint: scenario.usdc, reserveX: rX, reserveY: rY, oracle: await randomOwner(), creator: payer.address,
    }));
    // One position holds every bin: the healthy pair's locked until far
    // ahead, the thin pair's owned by its creator.
    setAccount(await randomOwner(), pools.dlmmPosition({
      lbPair: address, owner: name === "dlmm_thin" ? payer.address : await randomOwner(), shares: bins.map(() => 1n),
      lowerBinId: active - 10, upperBinId: active + 10, lockReleasePoint: name === "dlmm_healthy" ? 1n << 62n : 0n,
    }), pools.PROGRAMS.dlmm);
    const index = Math.floor((active - 10) / 70);
    setAccount(pools.dlmmBinArrayPda(address, index), pools.dlmmBinArray({ lbPair: address, index, bins }), pools.PROGRAMS.dlmm);
    expect[name] = { unit: Number(unit), active, totalX: Number(totalX), totalY: Number(totalY) };
  }
  return expect;
}

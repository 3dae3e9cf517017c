// pump.fun launches for the Solana fixture: real mints and token accounts
// (the SPL Token program in LiteSVM) holding what each wallet holds now,
// the bonding curve by pump.fun's own IDL, and the launch's history as a
// node answers getTransaction (jsonParsed) and getSignaturesForAddress:
// what no program here can run (pump.fun's create, buy and sell).
//
//   launch_bundle  the creator buys in its create transaction with a
//                  co-signer, pays for three more buys in the same slot,
//                  and sells 80% of its own within the hour;
//   launch_funded  the creator funds ten fresh wallets with SOL five slots
//                  before its create, and they buy 35% in the first three slots;
//   launch_clean   strangers buy a little in the next slot; nobody is funded;
//                  the curve is 88% sold, so its liquidity is only `caution`.
import { getAddressEncoder } from "@solana/kit";
import * as pools from "./solana_pools.mjs";

const D6 = 10n ** 6n;
const M = 1_000_000n * D6; // a million tokens
const SUPPLY = 1_000n * M;
const SYSTEM = "11111111111111111111111111111111";
const PUMP_FEE_RECIPIENT = "CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM";
// pump.fun's TradeEvent, as its program logs it (`Program data:`): the
// discriminator, then the fields every version begins with (mint, SOL,
// tokens, buy or sell, trader, time, the curve's reserves).
const TRADE_EVENT = Buffer.from([189, 219, 127, 211, 78, 230, 97, 238]);
const addressBytes = getAddressEncoder();
function tradeEvent(mint, sol, tokens, isBuy, user, time) {
  const numbers = Buffer.alloc(8 * 2);
  numbers.writeBigUInt64LE(sol, 0);
  numbers.writeBigUInt64LE(tokens, 8);
  const stamp = Buffer.alloc(8 + 8 * 4);
  stamp.writeBigInt64LE(BigInt(time), 0);
  return Buffer.concat([TRADE_EVENT, Buffer.from(addressBytes.encode(mint)), numbers, Buffer.from([isBuy ? 1 : 0]), Buffer.from(addressBytes.encode(user)), stamp]).toString("base64");
}

export async function buildLaunches(rig) {
  const { scenario, expect, createMint, ata, mintTo, renounce, randomOwner, setAccount, signatures, transactions, now, SPL } = rig;
  const OPEN = 20_000; // the launches' opening slot
  const time = (slot) => now - 7200 + Math.round((slot - OPEN) * 0.4);

  // Each canned transaction is listed under every address it names.
  const canned = (signature, tx, addresses) => {
    transactions[signature] = tx;
    for (const a of new Set(addresses)) {
      (signatures[a] ??= []).push({ signature, slot: tx.slot, blockTime: tx.blockTime, err: tx.meta.err, memo: null, confirmationStatus: "finalized" });
    }
  };

  const launch = async (name, { creator, sold, holdings, history }) => {
    const mint = await createMint({ decimals: 6 });
    const pdas = pools.pumpPdas(mint);
    // The curve after `sold` tokens: pump.fun's constant product from 30
    // virtual SOL and 1,073M virtual tokens; 206.9M kept for migration.
    const virtualToken = 1_073n * M - sold;
    const virtualSol = (30_000_000_000n * 1_073n * M) / virtualToken;
    setAccount(pdas.bondingCurve, pools.pumpBondingCurve({
      virtualTokenReserves: virtualToken, virtualQuoteReserves: virtualSol, realTokenReserves: 793_100_000n * D6 - sold,
      realQuoteReserves: virtualSol - 30_000_000_000n, tokenTotalSupply: SUPPLY, complete: false, creator,
    }), pools.PROGRAMS.pump);
    const accounts = { [pdas.bondingCurve]: await ata(SPL, mint, pdas.bondingCurve) };
    await mintTo(SPL, mint, accounts[pdas.bondingCurve], SUPPLY - sold);
    for (const [owner, amount] of holdings) {
      accounts[owner] = await ata(SPL, mint, owner);
      if (amount > 0n) await mintTo(SPL, mint, accounts[owner], amount);
    }
    await renounce(SPL, mint, 0 /* MintTokens */);
    signatures[mint] = [];
    scenario[name] = mint;
    scenario[`${name}_creator`] = creator;
    scenario[`${name}_curve`] = pdas.bondingCurve;

    // Balances as the history goes; each transaction's moves are [owner, change].
    const balance = {};
    const account = (owner) => accounts[owner] ?? `${owner.slice(0, 20)}TokenAccount`;
    let n = 0;
    for (const step of history(pdas.bondingCurve)) {
      const { slot, payer, signers = [payer], moves = [], sol = [], lamportsToCurve = 0n, create = false, failed = false } = step;
      const signature = `${name}${step.label ?? "Tx"}${String(n++).padStart(3, "0")}`.padEnd(88, "1");
      const keys = [];
      const index = (pubkey, signer = false) => {
        let i = keys.findIndex((k) => k.pubkey === pubkey);
        if (i < 0) {
          keys.push({ pubkey, signer, writable: true, source: "transaction" });
          i = keys.length - 1;
        }
        if (signer) keys[i].signer = true;
        return i;
      };
      for (const s of signers) index(s, true);
      const tokenBalance = (owner, amount) => ({
        accountIndex: index(account(owner)), mint, owner, programId: SPL,
        uiTokenAmount: { amount: amount.toString(), decimals: 6, uiAmount: Number(amount) / 1e6, uiAmountString: (Number(amount) / 1e6).toString() },
      });
      const pre = [], post = [];
      for (const [owner, change] of moves) {
        const before = balance[owner];
        if (before !== undefined) pre.push(tokenBalance(owner, before));
        // A failed transaction changes nothing.
        const after = (before ?? 0n) + (failed ? 0n : change);
        if (!failed) balance[owner] = after;
        post.push(tokenBalance(owner, after));
      }
      const transfer = (source, destination, lamports) => ({
        program: "system", programId: SYSTEM, stackHeight: 2,
        parsed: { type: "transfer", info: { source, destination, lamports: Number(lamports) } },
      });
      const top = sol.map(([to, lamports]) => ({ ...transfer(payer, to, lamports), stackHeight: null }));
      const pump = moves.length > 0 ? [{ programId: pools.PROGRAMS.pump, accounts: [mint, pdas.bondingCurve, account(pdas.bondingCurve), payer], data: "AJTQ2h9DXrBkwnW8", stackHeight: null }] : [];
      const token = (type, info) => ({ program: "spl-token", programId: SPL, stackHeight: 2, parsed: { type, info } });
      // pump.fun's create makes the mint and mints the supply to the curve before any buy.
      const made = create
        ? [token("initializeMint2", { mint, decimals: 6, mintAuthority: pdas.bondingCurve }), token("mintTo", { mint, account: account(pdas.bondingCurve), mintAuthority: pdas.bondingCurve, amount: SUPPLY.toString() })]
        : [];
      const paid = lamportsToCurve > 0n ? [transfer(payer, pdas.bondingCurve, lamportsToCurve), transfer(payer, PUMP_FEE_RECIPIENT, lamportsToCurve / 100n)] : [];
      const inner = made.length + paid.length > 0 && !failed ? [{ index: top.length, instructions: [...made, ...paid] }] : [];
      // Each wallet's balance change against the curve is a trade it made.
      const trades = moves
        .filter(([owner, change]) => owner !== pdas.bondingCurve && change !== 0n && moves.some(([o]) => o === pdas.bondingCurve))
        .map(([owner, change]) => `Program data: ${tradeEvent(mint, (change < 0n ? -change : change) / 10_000n, change < 0n ? -change : change, change > 0n, owner, time(slot))}`);
      const tx = {
        slot, blockTime: time(slot), version: 0,
        meta: {
          err: failed ? { InstructionError: [0, { Custom: 6002 }] } : null, status: failed ? { Err: { InstructionError: [0, { Custom: 6002 }] } } : { Ok: null },
          fee: 5000, computeUnitsConsumed: 60_000,
          preBalances: keys.map(() => 0), postBalances: keys.map(() => 0),
          preTokenBalances: pre, postTokenBalances: post, innerInstructions: inner, logMessages: failed ? [] : trades,
          loadedAddresses: { readonly: [], writable: [] }, rewards: [],
        },
        transaction: {
          signatures: [signature, ...signers.slice(1).map((_, i) => `${signature.slice(0, 80)}Co${i}`.padEnd(88, "1"))],
          message: { accountKeys: keys, instructions: [...top, ...pump], recentBlockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N", addressTableLookups: [] },
        },
      };
      if (moves.length > 0) {
        index(mint);
        index(pools.PROGRAMS.pump); // a program it runs is among its accounts
      }
      const named = keys.map((k) => k.pubkey);
      canned(signature, tx, named);
    }
    return mint;
  };
  const wallets = async (count) => Promise.all(Array.from({ length: count }, () => randomOwner()));
  const buy = (curve, slot, payer, buyer, amount) => ({ slot, payer, label: "Buy", moves: [[curve, -amount], [buyer, amount]], lamportsToCurve: amount / 10_000n });

  // --- Bundled in the create transaction and the same slot.
  {
    const [creator, friend] = [await randomOwner(), await randomOwner()];
    const alts = await wallets(3);
    const snipers = await wallets(2);
    const later = await wallets(5);
    scenario.launch_bundle_friend = friend;
    expect.launch_bundle = { alts, snipers };
    await launch("launch_bundle", {
      creator, sold: 400n * M,
      holdings: [[creator, 10n * M], [friend, 200n * M], ...alts.map((w) => [w, 40n * M]), ...snipers.map((w) => [w, 10n * M]), ...later.map((w) => [w, 10n * M])],
      history: (curve) => [
        { slot: OPEN, payer: creator, signers: [creator, friend], label: "Create", create: true,
          moves: [[curve, SUPPLY - 250n * M], [creator, 50n * M], [friend, 200n * M]], lamportsToCurve: 9_000_000_000n },
        ...alts.map((w) => buy(curve, OPEN, creator, w, 40n * M)),
        ...snipers.map((w) => buy(curve, OPEN + 1, w, w, 10n * M)),
        { slot: OPEN + 500, payer: creator, label: "Sell", moves: [[creator, -40n * M], [curve, 40n * M]] },
      ],
    });
  }
  // --- Fresh wallets funded by the creator, buying in the first three slots.
  {
    const creator = await randomOwner();
    const funded = await wallets(10);
    const snipers = await wallets(2);
    const later = await wallets(3);
    const late = later;
    expect.launch_funded = { funded, snipers };
    await launch("launch_funded", {
      creator, sold: 400n * M,
      holdings: [[creator, 0n], ...funded.map((w) => [w, 35n * M]), ...snipers.map((w) => [w, 10n * M]), ...later.map((w) => [w, 10n * M])],
      history: (curve) => [
        { slot: OPEN - 5, payer: creator, label: "Fund", sol: funded.map((w) => [w, 1_000_000_000n]) },
        { slot: OPEN, payer: creator, label: "Create", create: true, moves: [[curve, SUPPLY]] },
        ...funded.map((w, i) => buy(curve, OPEN + (i % 3), w, w, 35n * M)),
        ...snipers.map((w) => buy(curve, OPEN + 1, w, w, 10n * M)),
        // a bot's buy that failed (slippage) in the opening slot: no buy at all.
        { ...buy(curve, OPEN, late[0], late[0], 50n * M), failed: true },
      ],
    });
  }
  // --- Created five slots before the node's head (30,000): not final yet
  // for the market index, which waits `reorg_depth` slots.
  {
    const creator = await randomOwner();
    await launch("launch_fresh", {
      creator, sold: 0n, holdings: [[creator, 0n]],
      history: (curve) => [{ slot: 29_995, payer: creator, label: "Create", create: true, moves: [[curve, SUPPLY]] }],
    });
  }
  // --- A clean launch: strangers buy a little at the opening.
  {
    const creator = await randomOwner();
    const buyers = await wallets(4);
    const later = await wallets(20);
    const exchange = await randomOwner();
    expect.launch_clean = { buyers };
    await launch("launch_clean", {
      creator, sold: 700n * M,
      holdings: [[creator, 0n], ...buyers.map((w) => [w, 10n * M]), ...later.map((w) => [w, 33n * M])],
      history: (curve) => [
        { slot: OPEN - 10_000, payer: creator, label: "Deposit", sol: [[exchange, 2_000_000_000n]] },
        { slot: OPEN, payer: creator, label: "Create", create: true, moves: [[curve, SUPPLY]] },
        ...buyers.map((w) => buy(curve, OPEN + 1, w, w, 10n * M)),
      ],
    });
  }

}

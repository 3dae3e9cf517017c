// AMM history for the Solana market index, as a node answers
// getTransaction (jsonParsed) and getSignaturesForAddress: what no program
// here can run (PumpSwap's and Raydium's), each transaction written with
// the token balances its pools' accounts had before and after.
//   amm_graduated  a pump.fun curve graduates: its tokens and SOL open a
//                  PumpSwap pool (pump.fun's migrate runs PumpSwap);
//   amm_cpmm       a Raydium CPMM pool opened by its creator, six swaps
//                  (four buys, two sells), then the creator withdraws 95%.
import * as pools from "./solana_pools.mjs";

const WSOL = "So11111111111111111111111111111111111111112";
const SPL = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
// Raydium CPMM's authority: it owns every pool's token accounts.
const CPMM_AUTHORITY = "GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL";
const D6 = 10n ** 6n;
const SOL = 10n ** 9n;

export async function buildAmmMarket(rig) {
  const { scenario, createMint, randomOwner, signatures, transactions, now } = rig;
  let n = 0;
  // One transaction: `payer` signs; `balances` are [account, owner, mint, before|null, after].
  const canned = (name, slot, payer, programs, balances) => {
    const signature = `${name}Amm${String(n++).padStart(3, "0")}`.padEnd(88, "1");
    const keys = [{ pubkey: payer, signer: true, writable: true, source: "transaction" }];
    const index = (pubkey) => {
      let i = keys.findIndex((k) => k.pubkey === pubkey);
      if (i < 0) i = keys.push({ pubkey, signer: false, writable: true, source: "transaction" }) - 1;
      return i;
    };
    const entry = (account, owner, mint, amount) => {
      const decimals = mint === WSOL ? 9 : 6;
      return {
        accountIndex: index(account), mint, owner, programId: SPL,
        uiTokenAmount: { amount: amount.toString(), decimals, uiAmount: Number(amount) / 10 ** decimals, uiAmountString: (Number(amount) / 10 ** decimals).toString() },
      };
    };
    const pre = balances.filter(([, , , before]) => before !== null).map(([a, o, m, before]) => entry(a, o, m, before));
    const post = balances.map(([a, o, m, , after]) => entry(a, o, m, after));
    for (const p of programs) index(p);
    const tx = {
      slot, blockTime: now - (30_000 - slot), version: 0,
      meta: {
        err: null, status: { Ok: null }, fee: 5000, computeUnitsConsumed: 80_000,
        preBalances: keys.map(() => 0), postBalances: keys.map(() => 0),
        preTokenBalances: pre, postTokenBalances: post, innerInstructions: [], logMessages: [],
        loadedAddresses: { readonly: [], writable: [] }, rewards: [],
      },
      transaction: {
        signatures: [signature],
        message: {
          accountKeys: keys,
          // Each program's instruction names the accounts it moves (as an
          // AMM's swap, deposit or withdraw names the pool's vaults).
          instructions: programs.map((programId) => ({ programId, accounts: balances.map(([a]) => a), data: "3Bxs4h24hBtQy9rw", stackHeight: null })),
          recentBlockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N", addressTableLookups: [],
        },
      },
    };
    transactions[signature] = tx;
    for (const k of keys) (signatures[k.pubkey] ??= []).push({ signature, slot, blockTime: tx.blockTime, err: null, memo: null, confirmationStatus: "finalized" });
  };
  const account = (label) => `${label}TokenAccount`.padEnd(44, "1").slice(0, 44);

  // A graduation: the curve's tokens and SOL open a PumpSwap pool.
  const graduated = await createMint({ decimals: 6 });
  scenario.amm_graduated = graduated;
  const curve = await randomOwner();
  const pumpPool = await randomOwner();
  canned("graduate", 25_000, await randomOwner(), [pools.PROGRAMS.pump, pools.PROGRAMS.pumpSwap], [
    [account("gradCurve"), curve, graduated, 206_900_000n * D6, 0n],
    [account("gradPoolBase"), pumpPool, graduated, null, 206_900_000n * D6],
    [account("gradPoolQuote"), pumpPool, WSOL, null, 85n * SOL],
  ]);

  // A Raydium CPMM pool: opened, traded, then mostly withdrawn.
  const mint = await createMint({ decimals: 6 });
  scenario.amm_cpmm = mint;
  const creator = await randomOwner();
  const [base, quote] = [account("cpmmVaultBase"), account("cpmmVaultQuote")];
  scenario.amm_cpmm_pool = base;
  let reserve = [0n, 0n];
  const step = (name, slot, payer, own, tokens, sol) => {
    const after = [reserve[0] + tokens, reserve[1] + sol];
    canned(name, slot, payer, [pools.PROGRAMS.cpmm], [
      ...own,
      [base, CPMM_AUTHORITY, mint, reserve[0] === 0n ? null : reserve[0], after[0]],
      [quote, CPMM_AUTHORITY, WSOL, reserve[1] === 0n ? null : reserve[1], after[1]],
    ]);
    reserve = after;
  };
  step("cpmmOpen", 25_010, creator, [[account("cpmmCreator"), creator, mint, 600_000_000n * D6, 100_000_000n * D6]], 500_000_000n * D6, 50n * SOL);
  const trades = [[true, 10n], [true, 5n], [false, 4n], [true, 8n], [false, 2n], [true, 3n]];
  let slot = 25_020;
  for (const [buy, millions] of trades) {
    const trader = await randomOwner();
    const tokens = millions * 1_000_000n * D6;
    const sol = (tokens * reserve[1]) / reserve[0];
    step("cpmmSwap", slot, trader, [[account(`t${slot}`), trader, mint, buy ? null : tokens, buy ? tokens : 0n]], buy ? -tokens : tokens, buy ? sol : -sol);
    slot += 10;
  }
  step("cpmmPull", 25_100, creator, [], -(reserve[0] * 19n) / 20n, -(reserve[1] * 19n) / 20n);
}

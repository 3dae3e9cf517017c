// Tokens for the sell check on the token's side, each in a PumpSwap pool
// (its base account owned by the pool) with three funded holders, made by
// the real SPL Token and Token-2022 programs in LiteSVM, which the test
// node's simulateTransaction runs too (solana_simulator.mjs):
//   sell_plain            transfers pass: honeypot clear, no holder trapped;
//   sell_frozen_holders   the freeze authority froze the holders' accounts:
//                         holders trapped, the pool's own tokens move;
//   sell_default_frozen   Token-2022 accounts start frozen; only the pool's
//                         was thawed: a buyer's new account cannot receive
//                         any (cannot buy) and no holder can sell: honeypot;
//   sell_nontransferable  Token-2022 non-transferable: nothing moves, honeypot;
//   sell_fee_all          a 100% transfer fee: nothing arrives, honeypot;
//   sell_hook_pool        a transfer hook (hooks/refuse_into_pool.s) that
//                         refuses transfers into the account its config
//                         names, the pool's: a buyer cannot sell, honeypot;
//   sell_hook_allow       a transfer hook that lets all through: clear;
//   sell_hook_all         a transfer hook (hooks/refuse_all.s) that refuses
//                         every transfer: a buyer cannot get any, no holder
//                         can sell: honeypot, and nothing says the pool's
//                         own tokens move.
// Each hook's ExtraAccountMetaList names its config, a PDA of ["config",
// mint], so the check must resolve it to pass the transfer at all.
import * as spl from "@solana-program/token";
import * as t22 from "@solana-program/token-2022";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateKeyPairSigner, getAddressEncoder, getProgramDerivedAddress, some } from "@solana/kit";
import * as pools from "./solana_pools.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const enc = getAddressEncoder();
// Execute's discriminator: sha256("spl-transfer-hook-interface:execute")[..8].
const EXECUTE = Buffer.from([105, 37, 101, 197, 75, 251, 102, 26]);

// A hook program (assembled by `cargo xtask rig` into build/hooks), deployed.
async function deployHook(svm, programs, name) {
  const elf = fs.readFileSync(path.join(here, "build/hooks", `${name}.so`));
  const program = (await generateKeyPairSigner()).address;
  svm.addProgram(program, new Uint8Array(elf));
  programs[program] = elf.toString("base64");
  return program;
}

// The hook's ExtraAccountMetaList for `mint`: one PDA of the hook, seeds
// the literal "config" and account 1 (the mint), as
// spl-tlv-account-resolution packs them; and the config it names.
async function hookAccounts(setAccount, hook, mint, configData) {
  const seed = Buffer.alloc(32);
  Buffer.from([1, 6, ...Buffer.from("config"), 3, 1]).copy(seed);
  const entry = Buffer.concat([Buffer.from([1]), seed, Buffer.from([0, 0])]);
  const value = Buffer.concat([u32(1), entry]);
  const [list] = await getProgramDerivedAddress({ programAddress: hook, seeds: ["extra-account-metas", enc.encode(mint)] });
  setAccount(list, Buffer.concat([EXECUTE, u32(value.length), value]), hook);
  const [config] = await getProgramDerivedAddress({ programAddress: hook, seeds: ["config", enc.encode(mint)] });
  setAccount(config, configData, hook);
}
const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };

const D6 = 10n ** 6n;

export async function buildSells(rig) {
  const { changes, svm, programs, send, payer, scenario, createMint, tokenAccount, mintTo, randomOwner, setAccount, wallet, WSOL, SPL, T22 } = rig;
  const lib = (program) => (program === T22 ? t22 : spl);
  const freeze = (program, mint, account) => send([lib(program).getFreezeAccountInstruction({ account, mint, owner: payer })]);
  const thaw = (program, mint, account) => send([lib(program).getThawAccountInstruction({ account, mint, owner: payer })]);
  // A token account of `owner` holding `amount` (thawed to be minted to, and frozen again if `frozen`).
  const funded = async (program, mint, owner, amount, { startsFrozen = false, frozen = false } = {}) => {
    const account = await tokenAccount(program, mint, owner);
    if (startsFrozen) await thaw(program, mint, account);
    await mintTo(program, mint, account, amount);
    if (frozen) await freeze(program, mint, account);
    return account;
  };
  const sellToken = async (name, { program = SPL, extensions = [], freezeAuthority = null, startsFrozen = false, holdersFrozen = false, hook = null }) => {
    const hookProgram = hook && (await deployHook(svm, programs, hook));
    if (hook) extensions = [...extensions, t22.extension("TransferHook", { authority: payer.address, programId: hookProgram })];
    const mint = await createMint({ program, decimals: 6, freezeAuthority, extensions });
    const pool = await randomOwner();
    const base = await funded(program, mint, pool, 10_000_000n * D6, { startsFrozen });
    if (hook) await hookAccounts(setAccount, hookProgram, mint, Buffer.from(enc.encode(base)));
    const quote = await tokenAccount(SPL, WSOL, pool);
    await mintTo(SPL, WSOL, quote, 100n * 10n ** 9n);
    const lpMint = await createMint({ decimals: 9 });
    setAccount(pool, pools.pumpSwapPool({
      index: 1, creator: await randomOwner(), baseMint: mint, quoteMint: WSOL, lpMint, poolBaseTokenAccount: base,
      poolQuoteTokenAccount: quote, lpSupply: 0n, coinCreator: await randomOwner(), virtualQuoteReserves: 0n,
    }), pools.PROGRAMS.pumpSwap);
    const holders = [];
    for (const amount of [3_000_000n, 2_000_000n, 1_000_000n]) {
      const holder = await wallet();
      await funded(program, mint, holder.address, amount * D6, { startsFrozen, frozen: holdersFrozen });
      holders.push(holder.address);
    }
    scenario[name] = mint;
    scenario[`${name}_pool`] = pool;
    scenario[`${name}_quote`] = quote;
    return mint;
  };
  await sellToken("sell_plain", {});
  await sellToken("sell_frozen_holders", { freezeAuthority: payer.address, holdersFrozen: true });
  await sellToken("sell_default_frozen", {
    program: T22, freezeAuthority: payer.address, startsFrozen: true, holdersFrozen: true,
    extensions: [t22.extension("DefaultAccountState", { state: t22.AccountState.Frozen })],
  });
  await sellToken("sell_nontransferable", { program: T22, extensions: [t22.extension("NonTransferable", {})] });
  const all = { epoch: 0n, maximumFee: 2n ** 64n - 1n, transferFeeBasisPoints: 10_000 };
  await sellToken("sell_fee_all", {
    program: T22,
    extensions: [t22.extension("TransferFeeConfig", {
      transferFeeConfigAuthority: payer.address, withdrawWithheldAuthority: payer.address, withheldAmount: 0n, olderTransferFee: all, newerTransferFee: all,
    })],
  });
  await sellToken("sell_hook_pool", { program: T22, hook: "refuse_into_pool" });
  await sellToken("sell_hook_allow", { program: T22, hook: "allow" });
  await sellToken("sell_hook_all", { program: T22, hook: "refuse_all" });

  // Changes the test node applies on a trial's word (`changes` in the
  // fixture: accounts as they are after), each made by the real program
  // where one can make it, then undone here so the fixture starts before.
  const account = (a) => {
    const x = svm.getAccount(a);
    return { owner: x.programAddress, lamports: Number(x.lamports), executable: x.executable, data: Buffer.from(x.data).toString("base64") };
  };
  const restore = (a, x) => svm.setAccount({ ...x, address: a });
  // change_powers: a Token-2022 mint with a 1% fee; its mint and freeze
  // authorities are handed to a new wallet and the fee raised to 20%.
  const onePercent = { epoch: 0n, maximumFee: 2n ** 64n - 1n, transferFeeBasisPoints: 100 };
  const powers = await sellToken("change_powers", {
    program: T22, freezeAuthority: payer.address,
    extensions: [t22.extension("TransferFeeConfig", {
      transferFeeConfigAuthority: payer.address, withdrawWithheldAuthority: payer.address, withheldAmount: 0n, olderTransferFee: onePercent, newerTransferFee: onePercent,
    })],
  });
  const before = svm.getAccount(powers);
  const heir = await randomOwner();
  await send([
    t22.getSetTransferFeeInstruction({ mint: powers, transferFeeConfigAuthority: payer, transferFeeBasisPoints: 2_000, maximumFee: 2n ** 64n - 1n }),
    t22.getSetAuthorityInstruction({ owned: powers, owner: payer, authorityType: t22.AuthorityType.FreezeAccount, newAuthority: some(heir) }),
    t22.getSetAuthorityInstruction({ owned: powers, owner: payer, authorityType: t22.AuthorityType.MintTokens, newAuthority: some(heir) }),
  ]);
  changes.change_powers = { [powers]: account(powers) };
  restore(powers, before);
  scenario.change_powers_heir = heir;
  // change_pool: 95% of its pool's SOL taken out (the quote account as a
  // withdrawal leaves it: amount and lamports less).
  await sellToken("change_pool", {});
  const quote = scenario.change_pool_quote;
  const drained = account(quote);
  const data = Buffer.from(drained.data, "base64");
  const amount = data.readBigUInt64LE(64);
  const left = amount / 20n;
  data.writeBigUInt64LE(left, 64);
  changes.change_pool = { [quote]: { ...drained, lamports: drained.lamports - Number(amount - left), data: data.toString("base64") } };
}

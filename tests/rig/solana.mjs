// Builds the Solana test fixture: mints and token accounts created by the
// real SPL Token and Token-2022 programs running in LiteSVM, dumped as the
// raw account bytes a node returns (build/solana.json). Only what no program
// here can make is written by layout: the Metaplex metadata account, the
// pools of every family (by their SDKs: solana_markets.mjs), and the
// signature history.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LiteSVM, FailedTransactionMetadata } from "litesvm";
import {
  address, generateKeyPairSigner, createTransactionMessage, pipe, setTransactionMessageFeePayerSigner,
  appendTransactionMessageInstructions, signTransactionMessageWithSigners, lamports, none, some,
  getAddressEncoder, getProgramDerivedAddress,
} from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import * as spl from "@solana-program/token";
import * as t22 from "@solana-program/token-2022";
import { buildMarkets } from "./solana_markets.mjs";
import { buildLaunches } from "./solana_launches.mjs";
import { buildSells } from "./solana_sells.mjs";
import { buildAmmMarket } from "./solana_amm_market.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SPL = spl.TOKEN_PROGRAM_ADDRESS;
const T22 = t22.TOKEN_2022_PROGRAM_ADDRESS;
const METAPLEX = address("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s");
const WSOL = address("So11111111111111111111111111111111111111112");
const INCINERATOR = address("1nc1nerator11111111111111111111111111111111");
const enc = getAddressEncoder();

const svm = new LiteSVM();
const payer = await generateKeyPairSigner();
svm.airdrop(payer.address, lamports(100_000_000_000_000n));
const dumped = new Set();
const signatures = {};
// Canned getTransaction answers (jsonParsed), by signature: what no program
// here can run (pump.fun create and buy) written in the node's own shape.
const transactions = {};
let txCount = 0;

async function send(ixs) {
  const tx = await pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
    (m) => appendTransactionMessageInstructions(ixs, m),
    (m) => signTransactionMessageWithSigners(m),
  );
  const result = svm.sendTransaction(tx);
  if (result instanceof FailedTransactionMetadata) throw new Error(`transaction failed: ${result.err()}\n${result.meta().logs().join("\n")}`);
  svm.expireBlockhash();
  txCount++;
  return result;
}

async function createMint({ program = SPL, decimals, mintAuthority = payer.address, freezeAuthority = null, extensions = [], metadata = null }) {
  const mint = await generateKeyPairSigner();
  const fixed = extensions.filter((e) => e.__kind !== "TokenMetadata");
  const ixs = [
    getCreateAccountInstruction({ payer, newAccount: mint, lamports: lamports(50_000_000n), space: program === T22 ? t22.getMintSize(fixed) : 82, programAddress: program }),
  ];
  if (program === T22) ixs.push(...t22.getPreInitializeInstructionsForMintExtensions(mint.address, fixed));
  const init = { mint: mint.address, decimals, mintAuthority: payer.address, freezeAuthority: freezeAuthority ? some(freezeAuthority) : none() };
  ixs.push(program === T22 ? t22.getInitializeMintInstruction(init) : spl.getInitializeMintInstruction(init));
  if (metadata) ixs.push(...t22.getPostInitializeInstructionsForMintExtensions(mint.address, payer, [t22.extension("TokenMetadata", { ...metadata, mint: mint.address })]));
  await send(ixs);
  dumped.add(mint.address);
  signatures[mint.address] = [];
  return mint.address;
}

async function tokenAccount(program, mint, owner) {
  if (program === T22) {
    const [ata] = await t22.findAssociatedTokenPda({ owner, mint, tokenProgram: T22 });
    await send([t22.getCreateAssociatedTokenInstruction({ payer, ata, owner, mint, tokenProgram: T22 })]);
    dumped.add(ata);
    return ata;
  }
  const account = await generateKeyPairSigner();
  await send([
    getCreateAccountInstruction({ payer, newAccount: account, lamports: lamports(svm.minimumBalanceForRentExemption(165n)), space: 165, programAddress: SPL }),
    spl.getInitializeAccount3Instruction({ account: account.address, mint, owner }),
  ]);
  dumped.add(account.address);
  return account.address;
}

async function mintTo(program, mint, account, amount) {
  if (mint === WSOL) {
    // Wrapped SOL is lamports held by the token account, counted by SyncNative.
    await send([getTransferSolInstruction({ source: payer, destination: account, amount: lamports(amount) }), spl.getSyncNativeInstruction({ account })]);
    return;
  }
  const input = { mint, token: account, mintAuthority: payer, amount };
  await send([program === T22 ? t22.getMintToInstruction(input) : spl.getMintToInstruction(input)]);
}

async function renounce(program, mint, authorityType) {
  const input = { owned: mint, owner: payer, authorityType, newAuthority: none() };
  await send([program === T22 ? t22.getSetAuthorityInstruction(input) : spl.getSetAuthorityInstruction(input)]);
}

const randomOwner = async () => (await generateKeyPairSigner()).address;

// Holders: `shares` are amounts in whole tokens, one token account each.
async function holders(program, mint, decimals, shares, owner = null) {
  const list = [];
  for (const share of shares) {
    const who = owner ?? (await randomOwner());
    const account = await tokenAccount(program, mint, who);
    await mintTo(program, mint, account, BigInt(share) * 10n ** BigInt(decimals));
    list.push({ account, owner: who });
  }
  return list;
}

// The native mint, as the SPL Token program lays it out: copied from a mint it made.
const nativeTemplate = await createMint({ decimals: 9 });
const template = svm.getAccount(nativeTemplate);
svm.setAccount({ address: WSOL, data: template.data, executable: false, lamports: template.lamports, programAddress: SPL, space: BigInt(template.data.length) });
dumped.add(WSOL);

const scenario = { wsol: WSOL, incinerator: INCINERATOR };

// A USDC-like stablecoin: both authorities kept (allow-listed in tests), Metaplex metadata.
scenario.usdc = await createMint({ decimals: 6, freezeAuthority: payer.address });
await holders(SPL, scenario.usdc, 6, [5_000_000, 3_000_000, 2_000_000, 1_000_000, 1_000_000, 800_000, 700_000, 600_000, 500_000, 400_000, 300_000, 200_000]);

// Launchpad-style: authorities renounced, LP burned (pool below).
scenario.launch = await createMint({ decimals: 6 });
await holders(SPL, scenario.launch, 6, Array(20).fill(20_000_000));

// A wallet holding the launch token, with an unlimited delegation of it to another key.
const holderWallet = await generateKeyPairSigner();
svm.airdrop(holderWallet.address, lamports(10_000_000_000n));
dumped.add(holderWallet.address);
scenario.holder = holderWallet.address;
scenario.holder_spender = await randomOwner();
const holderLaunch = await tokenAccount(SPL, scenario.launch, holderWallet.address);
await mintTo(SPL, scenario.launch, holderLaunch, 5_000_000n * 10n ** 6n);
await send([spl.getApproveInstruction({ source: holderLaunch, delegate: scenario.holder_spender, owner: holderWallet, amount: 2n ** 64n - 1n })]);

// Token-2022 with permanent delegate, a 10% transfer fee and a transfer hook.
scenario.t22 = await createMint({
  program: T22,
  decimals: 6,
  extensions: [
    t22.extension("TransferFeeConfig", {
      transferFeeConfigAuthority: payer.address, withdrawWithheldAuthority: payer.address, withheldAmount: 0n,
      olderTransferFee: { epoch: 0n, maximumFee: 10n ** 15n, transferFeeBasisPoints: 1000 },
      newerTransferFee: { epoch: 0n, maximumFee: 10n ** 15n, transferFeeBasisPoints: 1000 },
    }),
    t22.extension("PermanentDelegate", { delegate: payer.address }),
    t22.extension("TransferHook", { authority: payer.address, programId: await randomOwner() }),
  ],
});
await holders(T22, scenario.t22, 6, Array(15).fill(1_000_000));
const holderT22 = await tokenAccount(T22, scenario.t22, holderWallet.address);
await mintTo(T22, scenario.t22, holderT22, 250_000n * 10n ** 6n);
await renounce(T22, scenario.t22, t22.AuthorityType.MintTokens);

// Mutable metadata (Token-2022 metadata extension with an update authority).
scenario.mutable = await createMint({
  program: T22,
  decimals: 9,
  extensions: [t22.extension("MetadataPointer", { authority: payer.address, metadataAddress: payer.address })],
  metadata: { updateAuthority: some(payer.address), name: "Mutable Meme", symbol: "MUT", uri: "https://example.invalid/mut.json", additionalMetadata: new Map() },
});
await holders(T22, scenario.mutable, 9, Array(12).fill(1_000));
await renounce(T22, scenario.mutable, t22.AuthorityType.MintTokens);

// One owner holds 80% through three token accounts.
scenario.whale = await createMint({ decimals: 6 });
scenario.whale_owner = await randomOwner();
await holders(SPL, scenario.whale, 6, [40_000_000, 25_000_000, 15_000_000], scenario.whale_owner);
await holders(SPL, scenario.whale, 6, Array(10).fill(2_000_000));

// Frozen by default.
scenario.frozen = await createMint({
  program: T22,
  decimals: 6,
  freezeAuthority: payer.address,
  extensions: [t22.extension("DefaultAccountState", { state: t22.AccountState.Frozen })],
});

// A wallet (a system account, not a mint).
scenario.wallet = payer.address;
dumped.add(payer.address);

// Metaplex metadata for the USDC-like mint (the program is not here: Borsh layout).
function borshString(text, padTo) {
  const bytes = Buffer.alloc(padTo);
  Buffer.from(text).copy(bytes);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(padTo);
  return Buffer.concat([len, bytes]);
}
const [metadataPda] = await getProgramDerivedAddress({ programAddress: METAPLEX, seeds: ["metadata", enc.encode(METAPLEX), enc.encode(scenario.usdc)] });
const metadata = Buffer.concat([
  Buffer.from([4]),
  Buffer.from(enc.encode(payer.address)),
  Buffer.from(enc.encode(scenario.usdc)),
  borshString("USD Coin", 32),
  borshString("USDC", 10),
  borshString("https://example.invalid/usdc.json", 200),
  Buffer.from([0, 0]), // seller fee
  Buffer.from([0]), // no creators
  Buffer.from([0]), // primary sale not happened
  Buffer.from([1]), // is_mutable
]);
svm.setAccount({ address: metadataPda, data: new Uint8Array(metadata), executable: false, lamports: lamports(5_000_000n), programAddress: METAPLEX, space: BigInt(metadata.length) });
dumped.add(metadataPda);
scenario.usdc_metadata = metadataPda;

// Pools of every family (their programs are not here: accounts by each
// family's SDK; vaults, LP mints and holders are real).
async function ata(program, mint, owner) {
  const lib = program === T22 ? t22 : spl;
  const [address] = await lib.findAssociatedTokenPda({ owner, mint, tokenProgram: program });
  await send([lib.getCreateAssociatedTokenInstruction({ payer, ata: address, owner, mint, tokenProgram: program })]);
  dumped.add(address);
  return address;
}
function setAccount(address, data, programAddress) {
  svm.setAccount({ address, data: new Uint8Array(data), executable: false, lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(data.length))), programAddress, space: BigInt(data.length) });
  dumped.add(address);
}
async function wallet() {
  const signer = await generateKeyPairSigner();
  svm.airdrop(signer.address, lamports(10_000_000_000n));
  dumped.add(signer.address);
  return signer;
}
const ages = {};
const renounceLater = [];
const expect = await buildMarkets({ svm, send, payer, scenario, createMint, tokenAccount, ata, mintTo, holders, renounce, randomOwner, setAccount, wallet, ages, renounceLater, holder: holderWallet.address, WSOL, SPL });
const now = 1_800_000_000;
await buildLaunches({ scenario, expect, createMint, ata, mintTo, renounce, randomOwner, setAccount, signatures, transactions, now, SPL });
const programs = {};
const changes = {};
await buildSells({ changes, svm, programs, send, payer, scenario, createMint, tokenAccount, mintTo, randomOwner, setAccount, wallet, WSOL, SPL, T22 });
await buildAmmMarket({ scenario, createMint, randomOwner, signatures, transactions, now });
// Authorities given up once the pools are funded.
for (const mint of [scenario.launch, scenario.whale, ...renounceLater]) await renounce(SPL, mint, spl.AuthorityType.MintTokens);

// Signature histories (newest first): the launch token is two hours old, the rest a month.
for (const [name, age] of [["usdc", 30 * 86400], ["launch", 2 * 3600], ["t22", 30 * 86400], ["mutable", 30 * 86400], ["whale", 30 * 86400], ["frozen", 30 * 86400], ...Object.entries(ages)]) {
  const mint = scenario[name];
  signatures[mint] = [
    { signature: `${name}RecentSignature1111111111111111111111111111111111111`, slot: 2000, blockTime: now - 60, err: null },
    { signature: `${name}CreationSignature111111111111111111111111111111111111`, slot: 1000, blockTime: now - age, err: null },
  ];
}

// The whale token is busy: 2,500 signatures, read in pages of 1,000.
signatures[scenario.whale] = Array.from({ length: 2500 }, (_, i) => ({
  signature: `whaleSignature${String(i).padStart(6, "0")}`,
  slot: 3500 - i,
  blockTime: now - 60 - i * 1000,
  err: null,
}));

// Newest slot first, as a node lists them; within a slot a node's order is
// not the block's (here: by signature, so a create is not always last).
for (const list of Object.values(signatures)) list.sort((a, b) => b.slot - a.slot || (a.signature < b.signature ? 1 : -1));

const accounts = {};
for (const a of dumped) {
  const account = svm.getAccount(a);
  if (!account.exists) continue;
  accounts[a] = {
    owner: account.programAddress,
    lamports: Number(account.lamports),
    executable: account.executable,
    data: Buffer.from(account.data).toString("base64"),
  };
}
const out = path.join(here, "build");
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "solana.json"), JSON.stringify({ slot: 30_000, now, scenario, expect, accounts, programs, changes, signatures, transactions }, null, 1));
console.log(`solana fixture: ${Object.keys(accounts).length} accounts from ${txCount} transactions`);

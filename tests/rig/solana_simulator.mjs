// simulateTransaction for the Solana test node: the fixture's accounts in
// LiteSVM, which runs the real SPL Token and Token-2022 programs; neither
// signatures nor the blockhash are checked, as with a node's
// `sigVerify: false, replaceRecentBlockhash: true`. One request a line on
// stdin ({"tx": base64, "addresses": [...]}), one answer a line on stdout,
// in the node's shape ({"err", "logs", "accounts", "unitsConsumed"}).
import fs from "node:fs";
import readline from "node:readline";
import { LiteSVM, FailedTransactionMetadata } from "litesvm";
import { address, getTransactionDecoder, lamports } from "@solana/kit";

const fixture = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false);
for (const [key, account] of Object.entries(fixture.accounts)) {
  if (account.executable) continue; // programs are LiteSVM's own
  const data = Buffer.from(account.data, "base64");
  svm.setAccount({
    address: address(key), data: new Uint8Array(data), executable: false,
    lamports: lamports(BigInt(account.lamports)), programAddress: address(account.owner), space: BigInt(data.length),
  });
}

// The fixture's own programs (the transfer hooks), as deployed there.
for (const [key, elf] of Object.entries(fixture.programs ?? {})) svm.addProgram(address(key), new Uint8Array(Buffer.from(elf, "base64")));

// The names a node gives the errors (the runtime's enums, in order).
const TRANSACTION_ERRORS = ["AccountInUse", "AccountLoadedTwice", "AccountNotFound", "ProgramAccountNotFound", "InsufficientFundsForFee", "InvalidAccountForFee", "AlreadyProcessed", "BlockhashNotFound", "CallChainTooDeep", "MissingSignatureForFee", "InvalidAccountIndex", "SignatureFailure", "InvalidProgramForExecution", "SanitizeFailure"];
const INSTRUCTION_ERRORS = ["GenericError", "InvalidArgument", "InvalidInstructionData", "InvalidAccountData", "AccountDataTooSmall", "InsufficientFunds", "IncorrectProgramId", "MissingRequiredSignature", "AccountAlreadyInitialized", "UninitializedAccount", "UnbalancedInstruction", "ModifiedProgramId", "ExternalAccountLamportSpend", "ExternalAccountDataModified", "ReadonlyLamportChange", "ReadonlyDataModified", "DuplicateAccountIndex", "ExecutableModified", "RentEpochModified", "NotEnoughAccountKeys", "AccountDataSizeChanged", "AccountNotExecutable", "AccountBorrowFailed", "AccountBorrowOutstanding", "DuplicateAccountOutOfSync", "InvalidError", "ExecutableDataModified", "ExecutableLamportChange", "ExecutableAccountNotRentExempt", "UnsupportedProgramId", "CallDepth", "MissingAccount", "ReentrancyNotAllowed", "MaxSeedLengthExceeded", "InvalidSeeds", "InvalidRealloc", "ComputationalBudgetExceeded", "PrivilegeEscalation", "ProgramEnvironmentSetupFailure", "ProgramFailedToComplete", "ProgramFailedToCompile", "Immutable", "IncorrectAuthority", "AccountNotRentExempt", "InvalidAccountOwner", "ArithmeticOverflow"];
function errorJson(err) {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`;
  if (err && typeof err.index === "number" && typeof err.err === "function") {
    const inner = err.err();
    const detail = typeof inner === "number" ? (INSTRUCTION_ERRORS[inner] ?? `InstructionError${inner}`)
      : typeof inner?.code === "number" ? { Custom: inner.code } : String(inner);
    return { InstructionError: [err.index, detail] };
  }
  return String(err);
}

const decodeTx = getTransactionDecoder();
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  let answer;
  try {
    const request = JSON.parse(line);
    const decoded = decodeTx.decode(new Uint8Array(Buffer.from(request.tx, "base64")));
    // Unsigned: the decoder reads empty signatures as none; the runtime wants bytes.
    const signatures = Object.fromEntries(Object.entries(decoded.signatures).map(([k, v]) => [k, v ?? new Uint8Array(64)]));
    const result = svm.simulateTransaction({ ...decoded, signatures });
    if (result instanceof FailedTransactionMetadata) {
      answer = { err: errorJson(result.err()), logs: result.meta().logs(), accounts: null, unitsConsumed: Number(result.meta().computeUnitsConsumed()) };
    } else {
      // The accounts after: those the transaction wrote, else as they were.
      const after = new Map(result.postAccounts().map((a) => [a.address, a]));
      const accounts = (request.addresses ?? []).map((key) => {
        const a = after.get(key) ?? svm.getAccount(address(key));
        if (!a || a.exists === false) return null;
        return { data: [Buffer.from(a.data).toString("base64"), "base64"], owner: a.programAddress, lamports: Number(a.lamports), executable: a.executable, rentEpoch: 0 };
      });
      answer = { err: null, logs: result.meta().logs(), accounts, unitsConsumed: Number(result.meta().computeUnitsConsumed()) };
    }
  } catch (e) {
    answer = { rpcError: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}

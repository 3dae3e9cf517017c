// Compiles the real tokens of a labelled set written by others, for
// `cargo xtask wild`: the Pied-Piper study's set (Backdoor_List.md labels
// real token addresses; contracts/realworld-contracts/<address>.sol holds
// each verified source). Each source is compiled with the compiler its
// pragma names (its lowest version: 0.4.x to 0.8.x; solcjs ships one
// compiler per npm version, installed on first use into solc/ beside the
// output), and its token contract (the last contract in the source
// whose code is not empty and that has transfer and balanceOf) is written
// to <out>/<address>.json with the labels, or the reason it could not be.
// Nothing is copied into the project: the sources are read from --data
// (a checkout, or the bare repository the search tool's fetch brings).
// With --injected, the study's injected set instead: each of
// contracts/manualcontract/<Label>/<n>.sol carries the one label of its
// folder, and is written as injected-<label>-<n>.json.
//
//   node wild_real.js --data DIR --out DIR [--only ADDRESS] [--injected]
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const args = process.argv.slice(2);
const arg = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const data = arg("--data");
const out = arg("--out");
const only = (arg("--only") || "").toLowerCase();
const injected = args.includes("--injected");
if (!data || !out) {
  console.error("usage: node wild_real.js --data DIR --out DIR [--only ADDRESS]");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// A file of the set: from a checkout, or from a bare repository's HEAD.
const bare = !fs.existsSync(path.join(data, "Backdoor_List.md"));
function read(file) {
  if (!bare) {
    const p = path.join(data, file);
    return fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined;
  }
  try {
    return execFileSync("git", ["--git-dir", data, "show", `HEAD:${file}`], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (e) {
    return undefined;
  }
}

// The study's categories, as this harness names them.
const LABELS = {
  generatetoken: "mint",
  destorytoken: "destroy",
  destroytoken: "destroy",
  freezeaccount: "freeze",
  disabletransfer: "disable",
  arbitrarytransfer: "arbitrary",
  arbitrarilytransfer: "arbitrary",
};
const list = read("Backdoor_List.md");
if (!list) {
  console.error(`${data}: no Backdoor_List.md (pass the Pied-Piper repository, checked out or bare)`);
  process.exit(2);
}
// Each entry: its id, its labels, and the file of its source.
const labelled = new Map();
if (injected) {
  const listing = bare
    ? execFileSync("git", ["--git-dir", data, "ls-tree", "-r", "--name-only", "HEAD", "contracts/manualcontract"], { encoding: "utf8" })
    : "";
  const files = bare
    ? listing.split("\n").filter(Boolean)
    : fs.readdirSync(path.join(data, "contracts/manualcontract")).flatMap((d) =>
        fs.readdirSync(path.join(data, "contracts/manualcontract", d)).map((f) => `contracts/manualcontract/${d}/${f}`));
  for (const file of files) {
    const m = /manualcontract\/([^/]+)\/(\d+)\.sol$/.exec(file);
    const label = m && LABELS[m[1].toLowerCase()];
    if (!label) continue;
    labelled.set(`injected-${label}-${m[2]}`, { labels: new Set([label]), file });
  }
} else {
  for (const line of list.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const label = LABELS[(cells[2] || "").toLowerCase()];
    const address = (cells[3] || "").toLowerCase();
    if (!label || !/^0x[0-9a-f]{40}$/.test(address)) continue;
    if (!labelled.has(address)) labelled.set(address, { labels: new Set(), file: `contracts/realworld-contracts/${address}.sol` });
    labelled.get(address).labels.add(label);
  }
}

// One solc per version, installed on first use.
const solcOf = require("./wild_solc.js")(path.join(out, "..", "solc"));

const minor = (v) => Number(v.split(".")[1]);
// The newest compiler of each minor version.
const LATEST = { 4: "0.4.26", 5: "0.5.17", 6: "0.6.12", 7: "0.7.6", 8: "0.8.30" };
const patch = (v) => Number(v.split(".")[2]);

// Standard JSON where the compiler takes it (0.4.11 on), else the legacy
// call; either way, { contractName: { abi, bytecode, deployed } } and errors.
function compile(version, file, source) {
  const solc = solcOf(version);
  const legacy = minor(version) === 4 && patch(version) < 11;
  if (legacy) {
    const result = solc.compile({ sources: { [file]: source } }, 1);
    const errors = (result.errors || []).filter((e) => !/Warning:/.test(e));
    const contracts = {};
    for (const [key, c] of Object.entries(result.contracts || {})) {
      contracts[key.split(":").pop()] = { abi: JSON.parse(c.interface), bytecode: c.bytecode, deployed: c.runtimeBytecode };
    }
    return { errors, contracts };
  }
  const input = {
    language: "Solidity",
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const standard = solc.compileStandardWrapper || solc.compile;
  const result = JSON.parse(standard(JSON.stringify(input)));
  const errors = (result.errors || []).filter((e) => e.severity === "error").map((e) => e.formattedMessage);
  const contracts = {};
  for (const [name, c] of Object.entries((result.contracts || {})[file] || {})) {
    contracts[name] = { abi: c.abi, bytecode: c.evm.bytecode.object, deployed: c.evm.deployedBytecode.object };
  }
  return { errors, contracts };
}

// The token: the last contract of the source with code, transfer and balanceOf.
function tokenOf(source, contracts) {
  const has = (abi, name) => abi.some((f) => f.type === "function" && f.name === name);
  const at = (name) => {
    const m = new RegExp(`\\bcontract\\s+${name}\\b`).exec(source);
    return m ? m.index : -1;
  };
  return Object.entries(contracts)
    .filter(([, c]) => c.bytecode && c.bytecode.length > 2 && has(c.abi, "transfer") && has(c.abi, "balanceOf"))
    .sort((a, b) => at(a[0]) - at(b[0]))
    .pop();
}

let written = 0;
let failed = 0;
for (const [address, { labels, file: where }] of [...labelled].sort()) {
  if (only && address !== only) continue;
  const record = { address, labels: [...labels].sort() };
  const file = `${address}.sol`;
  const source = read(where);
  // Flattened sources can hold several pragmas: the highest version wins.
  const versions = [...((source || "").matchAll(/pragma\s+solidity\s*([^;]*);/g))]
    .map((p) => /(\d+)\.(\d+)(?:\.(\d+))?/.exec(p[1]))
    .filter(Boolean)
    .map((v) => `${v[1]}.${v[2]}.${v[3] || 0}`)
    .sort((a, b) => minor(a) - minor(b) || patch(a) - patch(b));
  const version = versions.length ? [null, versions[versions.length - 1]] : null;
  if (!source) {
    record.error = `no source at ${where}`;
  } else if (!version) {
    record.error = "no compiler version in its pragma";
  } else {
    // The pragma's own version first; sources verified later often need a
    // newer compiler of the same minor (`emit` is 0.4.21's), so the newest
    // of that minor next.
    // And code written for the next minor under an older pragma (0.5's
    // `calldata` under ^0.4) gets that minor's newest.
    const next = LATEST[minor(version[1]) + 1];
    const candidates = [...new Set([version[1], LATEST[minor(version[1])], next].filter(Boolean))];
    for (const compiler of candidates) {
      try {
        const { errors, contracts } = compile(compiler, file, source);
        const token = tokenOf(source, contracts);
        if (token) {
          Object.assign(record, { compiler, contract: token[0], abi: token[1].abi, bytecode: "0x" + token[1].bytecode });
          delete record.error;
          break;
        }
        // The pragma's own compiler's words, where the later ones fail too.
        // (a compiler that failed to run says less than one that answered).
        if (!record.error || record.error.startsWith("solc ")) record.error = errors.length
          ? `does not compile (solc ${compiler}): ${errors[0].split("\n")[0]}`
          : `no token contract in the source (${Object.keys(contracts).join(", ") || "none"})`;
      } catch (e) {
        record.error ||= `solc ${compiler} failed: ${String(e.message || e).split("\n")[0]}`;
      }
    }
  }
  if (record.error) failed++;
  else written++;
  fs.writeFileSync(path.join(out, `${address}.json`), JSON.stringify(record));
}
console.log(`wild: ${written} tokens compiled, ${failed} not, of ${labelled.size} labelled, in ${out}`);

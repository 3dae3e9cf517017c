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
// With --crp FILE, the CRPWarner study's ground truth instead (--data is
// that repository): dataset/groundtruth/groundTruth.xlsx labels addresses
// Mint / Leak / Limit (0/1), dataset/groundtruth/sol/<address>.sol holds
// each source; only the addresses FILE lists are read (the development
// half: the rest of that set is held out, and nothing else of it is opened);
// a flattened source whose last contract (the one at the address) is no
// token is written as not a token.
//
//   node wild_real.js --data DIR --out DIR [--only ADDRESS] [--injected | --crp FILE]
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
const crp = arg("--crp");
if (!data || !out) {
  console.error("usage: node wild_real.js --data DIR --out DIR [--only ADDRESS]");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

// A file of the set: from a checkout, or from a bare repository's HEAD.
const bare = !fs.existsSync(path.join(data, crp ? "dataset" : "Backdoor_List.md"));
function read(file, binary = false) {
  if (!bare) {
    const p = path.join(data, file);
    return fs.existsSync(p) ? fs.readFileSync(p, binary ? null : "utf8") : undefined;
  }
  try {
    return execFileSync("git", ["--git-dir", data, "show", `HEAD:${file}`], {
      encoding: binary ? "buffer" : "utf8",
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
// Each entry: its id, its labels, and the file of its source.
async function labelledSet() {
  const labelled = new Map();
  if (crp) return crpSet(labelled);
  const list = read("Backdoor_List.md");
  if (!list) {
    console.error(`${data}: no Backdoor_List.md (pass the Pied-Piper repository, checked out or bare)`);
    process.exit(2);
  }
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
  return labelled;
}

// The CRPWarner ground truth's rows for the addresses of the --crp file:
// a label for each 1 in its Mint, Leak and Limit columns.
async function crpSet(labelled) {
  const wanted = new Set(
    fs.readFileSync(crp, "utf8").split("\n").map((l) => l.trim().toLowerCase()).filter((l) => /^0x[0-9a-f]{40}$/.test(l)),
  );
  const sheet = read("dataset/groundtruth/groundTruth.xlsx", true);
  if (!sheet) {
    console.error(`${data}: no dataset/groundtruth/groundTruth.xlsx (pass the CRPWarner repository, checked out or bare)`);
    process.exit(2);
  }
  const readSheet = require("read-excel-file/node");
  const [{ data: rows }] = await (readSheet.default || readSheet)(sheet);
  const [header, ...entries] = rows;
  const column = (name) => header.findIndex((h) => String(h).toLowerCase() === name);
  const labels = ["mint", "leak", "limit"].map((l) => [l, column(l)]);
  for (const row of entries) {
    const address = String(row[column("address")] || "").trim();
    if (!wanted.has(address.toLowerCase())) continue;
    const set = new Set(labels.filter(([, i]) => Number(row[i]) === 1).map(([l]) => l));
    labelled.set(address.toLowerCase(), { labels: set, file: `dataset/groundtruth/sol/${address}.sol` });
  }
  for (const address of wanted) {
    if (!labelled.has(address)) console.error(`wild: ${address} is not in the ground truth`);
  }
  return labelled;
}

// One solc per version, installed on first use.
const solcOf = require("./wild_solc.js")(path.join(out, "..", "solc"));

const minor = (v) => Number(v.split(".")[1]);
// The newest compiler of each minor version.
const LATEST = { 4: "0.4.26", 5: "0.5.17", 6: "0.6.12", 7: "0.7.6", 8: "0.8.30" };
const patch = (v) => Number(v.split(".")[2]);

// Standard JSON where the compiler takes it (0.4.11 on), else the legacy
// call; either way, { contractName: { abi, bytecode, deployed } } and errors.
// A source of several files pasted one after another (each with its
// imports) is given to the compiler as those files (`pasted`).
function compile(version, file, source) {
  const solc = solcOf(version);
  // Some of npm's solc packages ship another compiler than their version.
  const shipped = solc.version().split("+")[0];
  if (shipped !== version) throw new Error(`npm's solc@${version} is ${shipped}`);
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
  const files = pasted(file, source);
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(files).map(([name, content]) => [name, { content }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        "*": { "*": ["abi", "evm.bytecode.object", "evm.bytecode.linkReferences", "evm.deployedBytecode.object"] },
      },
    },
  };
  const standard = solc.compileStandardWrapper || solc.compile;
  // Every import is answered from the pasted files, by the file's name.
  const resolve = (wanted) => {
    const name = path.basename(wanted);
    return name in files ? { contents: files[name] } : { error: `${wanted} is not in the source` };
  };
  const result = JSON.parse(
    solc.compileStandardWrapper ? standard(JSON.stringify(input), resolve) : solc.compile(JSON.stringify(input), { import: resolve }),
  );
  const errors = (result.errors || []).filter((e) => e.severity === "error").map((e) => e.formattedMessage);
  const contracts = {};
  for (const unit of Object.values(result.contracts || {})) {
    for (const [name, c] of Object.entries(unit)) {
      contracts[name] = {
        abi: c.abi,
        bytecode: c.evm.bytecode.object,
        deployed: c.evm.deployedBytecode.object,
        links: c.evm.bytecode.linkReferences || {},
      };
    }
  }
  // The libraries a contract links, deployed before it: each one's code
  // and the byte offsets of its address in the contract's code.
  for (const c of Object.values(contracts)) {
    c.libraries = Object.values(c.links).flatMap((libs) =>
      Object.entries(libs).map(([lib, at]) => ({
        name: lib,
        bytecode: "0x" + ((contracts[lib] || {}).bytecode || ""),
        offsets: at.map((r) => r.start),
      })),
    );
  }
  return { errors, contracts };
}

// The files of a source that pastes several, each with its imports: cut at
// each `pragma solidity` and named after the first contract, interface or
// library it defines (`import "../utils/Context.sol"` finds `Context.sol`);
// a file pasted twice counts once. A source without imports is one file.
function pasted(file, source) {
  if (!/^\s*import\s/m.test(source)) return { [file]: source };
  const starts = [...source.matchAll(/^\s*pragma\s+solidity/gm)].map((m) => m.index);
  const files = {};
  starts.forEach((start, i) => {
    const text = source.slice(i === 0 ? 0 : start, starts[i + 1] ?? source.length);
    const named = /^\s*(?:abstract\s+)?(?:contract|interface|library)\s+(\w+)/m.exec(text);
    const name = named ? `${named[1]}.sol` : `part${i}.sol`;
    if (!(name in files)) files[name] = text;
  });
  return files;
}

// The token: the last contract of the source with code, transfer and balanceOf.
const has = (abi, name) => abi.some((f) => f.type === "function" && f.name === name);
const isToken = (c) => has(c.abi, "transfer") && has(c.abi, "balanceOf");
function inOrder(source, contracts) {
  const at = (name) => {
    const m = new RegExp(`\\bcontract\\s+${name}\\b`).exec(source);
    return m ? m.index : -1;
  };
  return Object.entries(contracts)
    .filter(([, c]) => c.bytecode && c.bytecode.length > 2)
    .sort((a, b) => at(a[0]) - at(b[0]));
}
function tokenOf(source, contracts) {
  return inOrder(source, contracts).filter(([, c]) => isToken(c)).pop();
}

// With --crp, the contract a label is about: a flattened source (one file,
// no imports) ends with the contract deployed at its address, as verified
// sources are written; where that one is no token (a MasterChef that
// deploys its reward token, a controller), the label is not about a token.
function notAToken(source, contracts) {
  if (!crp || /^\s*import\s/m.test(source)) return null;
  const last = inOrder(source, contracts).pop();
  return last && !isToken(last[1]) ? last[0] : null;
}

labelledSet().then((labelled) => {
  // A flattened source: the first SPDX line kept (each pasted file brought
// its own); with `relax`, a pinned pragma (`0.8.7`) read as
// `^0.8.7`, for a newer compiler of its minor version.
function normalised(source, relax) {
  let seen = false;
  const once = source.replace(/^.*SPDX-License-Identifier.*$/gm, (line) => (seen ? "" : ((seen = true), line)));
  return relax ? once.replace(/pragma\s+solidity\s*=?\s*(\d+\.\d+\.\d+)\s*;/g, "pragma solidity ^$1;") : once;
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
          const { errors, contracts } = compile(compiler, file, normalised(source, compiler !== version[1]));
          const token = tokenOf(source, contracts);
          const deployed = token && notAToken(source, contracts);
          if (deployed) {
            record.error = `the contract at the address is ${deployed}, not a token (the source also holds ${token[0]})`;
            break;
          }
          if (token) {
            const { abi, bytecode, libraries } = token[1];
            Object.assign(record, { compiler, contract: token[0], abi, bytecode: "0x" + bytecode, libraries: libraries || [] });
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
});

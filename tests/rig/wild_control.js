// Compiles the legitimate control set for `cargo xtask wild --control`:
// widely used tokens, each from its own public repository at a pinned
// commit (tests/wild/control.json says which, with the band expected of
// each and why, written before any run). Sources are read from the git
// mirrors the search tool's fetch brings (--mirrors DIR holds
// <owner>+<name>/repo, bare), never copied into the project; imports are
// resolved inside the token's repository, or through the entry's
// remappings into another mirrored repository at its own pinned commit.
// Each token is compiled with the compiler its entry names (installed on
// first use under solc/ beside the output) and written to
// <out>/<name>.json with its entry, or the reason it could not be.
//
//   node wild_control.js --manifest FILE --mirrors DIR --out DIR [--only NAME]
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const args = process.argv.slice(2);
const arg = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const manifest = arg("--manifest");
const mirrors = arg("--mirrors");
const out = arg("--out");
const only = arg("--only");
if (!manifest || !mirrors || !out) {
  console.error("usage: node wild_control.js --manifest FILE --mirrors DIR --out DIR [--only NAME]");
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const entries = JSON.parse(fs.readFileSync(manifest, "utf8")).tokens;

// `file` of `repo` ("owner/name") at `commit`, from its bare mirror.
function read(repo, commit, file) {
  const dir = path.join(mirrors, repo.replace("/", "+"), "repo");
  return execFileSync("git", ["--git-dir", dir, "show", `${commit}:${file}`], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

// One solc per version, installed on first use.
const solcOf = require("./wild_solc.js")(path.join(out, "..", "solc"));

// A source key is "<owner>/<name>/<path>": its repository is the first two
// segments, read at the commit the entry pins for it.
function resolver(entry) {
  const commits = { [entry.repo]: entry.commit, ...(entry.dependencies || {}) };
  return (key) => {
    const parts = key.split("/");
    const repo = `${parts[0]}/${parts[1]}`;
    const commit = commits[repo];
    if (!commit) return { error: `${key}: no pinned commit for ${repo}` };
    try {
      return { contents: read(repo, commit, parts.slice(2).join("/")) };
    } catch (e) {
      return { error: `${key}: not in ${repo}@${commit.slice(0, 10)}` };
    }
  };
}

function compile(entry) {
  const solc = solcOf(entry.compiler);
  const key = `${entry.repo}/${entry.source}`;
  const resolve = resolver(entry);
  const first = resolve(key);
  if (first.error) throw new Error(first.error);
  const input = {
    language: "Solidity",
    sources: { [key]: { content: first.contents } },
    settings: {
      optimizer: { enabled: true, runs: entry.runs || 200 },
      remappings: Object.entries(entry.remappings || {}).map(([from, to]) => `${from}=${to}`),
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  if (entry.evmVersion) input.settings.evmVersion = entry.evmVersion;
  const callback = (p) => resolve(p);
  const text = JSON.stringify(input);
  const raw = solc.compileStandardWrapper
    ? solc.compileStandardWrapper(text, callback)
    : solc.compile(text, { import: callback });
  const result = JSON.parse(raw);
  const errors = (result.errors || []).filter((e) => e.severity === "error").map((e) => e.formattedMessage || e.message);
  if (errors.length) throw new Error(`does not compile: ${errors[0].split("\n").slice(0, 2).join(" ")}`);
  const contracts = {};
  for (const file of Object.values(result.contracts || {})) Object.assign(contracts, file);
  const wanted = (name) => {
    const c = contracts[name];
    if (!c || !c.evm.bytecode.object) throw new Error(`no contract ${name} with code in the output`);
    return { abi: c.abi, bytecode: "0x" + c.evm.bytecode.object, deployed: "0x" + c.evm.deployedBytecode.object };
  };
  const built = { token: wanted(entry.contract) };
  // Contracts deployed beside it (an implementation behind its proxy).
  for (const name of entry.also || []) built[name] = wanted(name);
  return built;
}

let written = 0;
let failed = 0;
for (const entry of entries) {
  if (only && entry.name !== only) continue;
  const record = { ...entry };
  try {
    record.built = compile(entry);
    written++;
  } catch (e) {
    record.error = String(e.message || e).split("\n")[0];
    failed++;
  }
  fs.writeFileSync(path.join(out, `${entry.name}.json`), JSON.stringify(record));
}
console.log(`control: ${written} tokens compiled, ${failed} not, of ${entries.length}, in ${out}`);

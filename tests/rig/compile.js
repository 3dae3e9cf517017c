// Compiles the rig's Solidity sources with solcjs into build/<Contract>.json
// ({abi, bytecode, deployedBytecode}), with Aerodrome's pool and factory, and copies the Uniswap V2, V3 and V4,
// PancakeSwap V3 and WETH9 artifacts beside them. Run by `cargo xtask test` (and `cargo xtask rig`).
const fs = require("fs");
const path = require("path");
const solc = require("solc");

const here = __dirname;
const out = path.join(here, "build");
fs.mkdirSync(out, { recursive: true });

const sources = {};
for (const file of fs.readdirSync(path.join(here, "contracts"))) {
  if (file.endsWith(".sol")) {
    sources[file] = { content: fs.readFileSync(path.join(here, "contracts", file), "utf8") };
  }
}
// The server's injected contracts (simulators, pool lens): their committed runtime code must be what this compiles to.
for (const dir of [
  ["analysis", "src", "simulation", "simulator"],
  ["chains", "src", "evm", "pools", "lens"],
  ["chains", "src", "evm", "multicall"],
]) {
  const from = path.join(here, "..", "..", "crates", ...dir);
  for (const file of fs.readdirSync(from)) {
    if (file.endsWith(".sol")) {
      sources[file] = { content: fs.readFileSync(path.join(from, file), "utf8") };
    }
  }
}
// Aerodrome's pool and factory (the Solidly family), from a published
// source package, and its router; their imports (OpenZeppelin 5, the package's own files)
// are read from node_modules. Only these three contracts are written out.
const AERODROME = "sphere-mezo-solidity-files/domains/aerodrome/contracts/";
const aerodrome = {
  [`${AERODROME}Pool.sol`]: "AerodromePool",
  [`${AERODROME}factories/PoolFactory.sol`]: "AerodromePoolFactory",
  [`${AERODROME}Router.sol`]: "AerodromeRouter",
};
for (const unit of Object.keys(aerodrome)) {
  sources[unit] = { content: fs.readFileSync(require.resolve(unit), "utf8") };
}
function findImports(unit) {
  try {
    return { contents: fs.readFileSync(require.resolve(unit), "utf8") };
  } catch (e) {
    return { error: `not found: ${unit}` };
  }
}
const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors || []).filter((e) => e.severity === "error");
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
let count = 0;
for (const [file, contracts] of Object.entries(output.contracts)) {
  const imported = !(file in sources) || file in aerodrome;
  for (const [contract, c] of Object.entries(contracts)) {
    const name = imported ? aerodrome[file] : contract;
    if (imported && (name === undefined || !file.endsWith(`${contract}.sol`))) continue;
    fs.writeFileSync(
      path.join(out, `${name}.json`),
      JSON.stringify({ abi: c.abi, bytecode: "0x" + c.evm.bytecode.object, deployedBytecode: "0x" + c.evm.deployedBytecode.object }),
    );
    count++;
  }
}
// Tokens written as they are found in the wild (contracts/wild): one file per
// token, pasted libraries and all, each compiled on its own with the solc its
// pragma names (0.4.8, whose throw is an invalid jump; 0.5.16 and 0.7.6
// optimised, 0.6.12 unoptimised, as real deployments vary; 0.8 for the rest). Only the
// contract named as its file is written out. solcjs 0.4.8 predates standard
// JSON: it takes sources and an optimise flag, and answers per contract.
const compilers = {
  4: { solc: require("solc-0.4"), legacy: true, optimizer: { enabled: false, runs: 200 } },
  5: { solc: require("solc-0.5"), evmVersion: "istanbul", optimizer: { enabled: true, runs: 200 } },
  6: { solc: require("solc-0.6"), evmVersion: "istanbul", optimizer: { enabled: false, runs: 200 } },
  7: { solc: require("solc-0.7"), evmVersion: "istanbul", optimizer: { enabled: true, runs: 200 } },
  8: { solc, evmVersion: "paris", optimizer: { enabled: true, runs: 200 } },
};
// The legacy compiler's answer in the standard one's shape.
function compileLegacy(compiler, file, name, content) {
  const out = compiler.solc.compile({ sources: { [file]: content } }, compiler.optimizer.enabled ? 1 : 0);
  const errors = (out.errors || [])
    .filter((e) => !/Warning:/.test(e))
    .map((e) => ({ severity: "error", formattedMessage: e }));
  const c = (out.contracts || {})[`${file}:${name}`] || (out.contracts || {})[name];
  const contracts = c
    ? { [file]: { [name]: { abi: JSON.parse(c.interface), evm: { bytecode: { object: c.bytecode }, deployedBytecode: { object: c.runtimeBytecode } } } } }
    : {};
  return { errors, contracts };
}
const wild = path.join(here, "contracts", "wild");
for (const file of fs.existsSync(wild) ? fs.readdirSync(wild).sort() : []) {
  if (!file.endsWith(".sol")) continue;
  const content = fs.readFileSync(path.join(wild, file), "utf8");
  const minor = Number((/pragma solidity[^;]*?0\.(\d+)/.exec(content) || [])[1]);
  const compiler = compilers[minor];
  if (!compiler) {
    console.error(`${file}: no compiler for its pragma`);
    process.exit(1);
  }
  const name = file.slice(0, -4);
  if (Object.values(output.contracts).some((contracts) => name in contracts)) {
    console.error(`${file}: a contract named ${name} is already compiled from contracts/; rename one`);
    process.exit(1);
  }
  const unit = {
    language: "Solidity",
    sources: { [file]: { content } },
    settings: {
      optimizer: compiler.optimizer,
      evmVersion: compiler.evmVersion,
      outputSelection: { [file]: { [name]: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const result = compiler.legacy
    ? compileLegacy(compiler, file, name, content)
    : JSON.parse(compiler.solc.compile(JSON.stringify(unit)));
  const failed = (result.errors || []).filter((e) => e.severity === "error");
  const c = ((result.contracts || {})[file] || {})[name];
  if (failed.length || !c) {
    for (const e of failed) console.error(e.formattedMessage);
    console.error(`${file}: no contract ${name} (solc ${compiler.solc.version()})`);
    process.exit(1);
  }
  fs.writeFileSync(
    path.join(out, `${name}.json`),
    JSON.stringify({ abi: c.abi, bytecode: "0x" + c.evm.bytecode.object, deployedBytecode: "0x" + c.evm.deployedBytecode.object }),
  );
  count++;
}
const artifacts = [
  ["@uniswap/v2-core/build/UniswapV2Factory.json", "UniswapV2Factory"],
  ["@uniswap/v2-core/build/UniswapV2Pair.json", "UniswapV2Pair"],
  ["@uniswap/v2-periphery/build/WETH9.json", "WETH9"],
  ["@uniswap/v2-periphery/build/UniswapV2Router02.json", "UniswapV2Router02"],
  ["@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json", "UniswapV3Factory"],
  ["@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json", "NonfungiblePositionManager"],
  ["@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json", "SwapRouter"],
  ["@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json", "PancakeV3Factory"],
  ["@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json", "PancakeV3Pool"],
  ["@uniswap/v4-core/out/PoolManager.sol/PoolManager.json", "PoolManager"],
  ["@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json", "PoolModifyLiquidityTest"],
  ["@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json", "PoolSwapTest"],
];
for (const [from, name] of artifacts) {
  const a = JSON.parse(fs.readFileSync(require.resolve(from), "utf8"));
  // Hardhat and Truffle artifacts keep the code as a string; Foundry's (v4) as {object}.
  const code = a.bytecode || a.evm.bytecode.object;
  const bytecode = typeof code === "string" ? code : code.object;
  fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify({ abi: a.abi, bytecode: bytecode.startsWith("0x") ? bytecode : "0x" + bytecode }));
  count++;
}
console.log(`rig: ${count} artifacts in ${out} (solc ${solc.version()})`);

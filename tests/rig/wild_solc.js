// One solcjs per compiler version for the wild harnesses (wild_real.js,
// wild_control.js): solcjs ships one compiler per npm version, installed on
// first use under `dir` (beside their output) and loaded once.
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

// A loader of the compilers kept under `dir`.
module.exports = function compilers(dir) {
  const loaded = new Map();
  return function solcOf(version) {
    if (!loaded.has(version)) {
      const prefix = path.join(dir, version);
      const module = path.join(prefix, "node_modules", "solc");
      if (!fs.existsSync(module)) {
        fs.mkdirSync(prefix, { recursive: true });
        execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent", "--prefix", prefix, `solc@${version}`], {
          stdio: ["ignore", "ignore", "inherit"],
        });
      }
      loaded.set(version, require(module));
    }
    return loaded.get(version);
  };
};

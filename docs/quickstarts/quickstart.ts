// riskintel from TypeScript: types generated from the served document
// (openapi-typescript) and openapi-fetch, compiled with `tsc --strict`.
//
//   npx openapi-typescript http://127.0.0.1:8080/openapi.json --output riskintel.d.ts
//   RISKINTEL_URL=http://127.0.0.1:8080 RISKINTEL_KEY=ri_live_... node quickstart.js eth 0x...
import createClient from "openapi-fetch";
import type { components, paths } from "./riskintel.js";

type Chain = components["schemas"]["ChainId"];

const [chain, token] = process.argv.slice(2) as [Chain, string];
const client = createClient<paths>({
  baseUrl: process.env.RISKINTEL_URL,
  headers: { "x-api-key": process.env.RISKINTEL_KEY ?? "" },
});

const health = await client.GET("/v1/health");
if (!health.data) throw new Error(`health: ${health.response.status}`);
console.log(`service ${health.data.status} (version ${health.data.version})`);

const { data, error } = await client.GET("/v1/token/{chain}/{address}/analyze", {
  params: { path: { chain, address: token } },
});
if (!data) throw new Error(`analysis: ${error?.error.code} ${error?.error.message}`);
console.log(`${data.meta.symbol}: ${data.label} (${data.score.toFixed(0)}/100)`);
for (const signal of data.signals) {
  console.log(`  ${signal.severity} ${signal.id}: ${signal.detail}`);
}

// Every operation of riskintel through a client a partner generates from the
// published document with default options (openapi-typescript types,
// openapi-fetch calls), errors and the badge included. `tsc --noEmit` checks
// it against the types; run, it checks what the server answers.
//
//   node build/smoke.js BASE_URL API_KEY EVM_TOKEN SOL_MINT SOL_WALLET NOT_A_TOKEN

import createClient from "openapi-fetch";
import type { components, paths } from "./riskintel.js";

type ApiError = components["schemas"]["ApiError"];

const [baseUrl, apiKey, evmToken, solMint, solWallet, notAToken] = process.argv.slice(2);
if (!notAToken) {
  throw new Error("usage: smoke.js BASE_URL API_KEY EVM_TOKEN SOL_MINT SOL_WALLET NOT_A_TOKEN");
}

const client = createClient<paths>({ baseUrl, headers: { "x-api-key": apiKey } });
const called = new Set<string>();

/** A success's body, or a failure naming the operation. */
function expectOk<T>(operation: string, answer: { data?: T; error?: unknown; response: Response }): T {
  called.add(operation);
  if (answer.data === undefined || !answer.response.ok) {
    throw new Error(`${operation}: HTTP ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/** An error's envelope with `status`, or a failure naming the operation. */
function expectError(
  operation: string,
  status: number,
  answer: { error?: ApiError; response: Response },
): ApiError {
  called.add(operation);
  const error = answer.error;
  if (answer.response.status !== status || error === undefined || !error.error.code || !error.error.docs_url) {
    throw new Error(`${operation}: expected ${status}, got ${answer.response.status} ${JSON.stringify(error)}`);
  }
  return error;
}

const health = expectOk("health_get", await client.GET("/v1/health"));
if (typeof health.version !== "string") throw new Error("health without a version");

const billing = expectOk("billing_status_get", await client.GET("/v1/billing/status"));
if (billing.requests_used < 0) throw new Error("negative usage");

// A key with only a name: every other field is optional in the types.
const created = expectOk(
  "api_key_create",
  await client.POST("/v1/developer/api-keys", { body: { name: `ts-smoke-${Date.now()}` } }),
);
const keyId = created.api_key.id;
const listed = expectOk(
  "api_key_list",
  await client.GET("/v1/developer/api-keys", { params: { query: { limit: 100 } } }),
);
if (!listed.items.some((k) => k.id === keyId)) throw new Error("the new key is not listed");
expectOk("api_key_get", await client.GET("/v1/developer/api-keys/{keyId}", { params: { path: { keyId } } }));
const rotated = expectOk(
  "api_key_rotate",
  await client.POST("/v1/developer/api-keys/{keyId}/rotate", { params: { path: { keyId } } }),
);
if (!rotated.key.startsWith("ri_live_")) throw new Error("rotation gave no key");
expectError(
  "api_key_create",
  409,
  await client.POST("/v1/developer/api-keys", { body: { name: created.api_key.name } }),
);
const deleted = await client.DELETE("/v1/developer/api-keys/{keyId}", { params: { path: { keyId } } });
called.add("api_key_delete");
if (deleted.response.status !== 204) throw new Error(`api_key_delete: HTTP ${deleted.response.status}`);
expectError("api_key_get", 404, await client.GET("/v1/developer/api-keys/{keyId}", { params: { path: { keyId } } }));

const path = { chain: "eth" as const, address: evmToken };
const analysis = expectOk(
  "token_analyze",
  await client.GET("/v1/token/{chain}/{address}/analyze", { params: { path } }),
);
if (analysis.score < 0 || analysis.score > 100) throw new Error(`score ${analysis.score}`);
const byQuery = expectOk(
  "token_analyze_query",
  await client.GET("/v1/token/analyze", { params: { query: { chain: "sol", address: solMint } } }),
);
if (byQuery.chain !== "sol") throw new Error(`chain ${byQuery.chain}`);
expectOk("token_meta_get", await client.GET("/v1/token/{chain}/{address}/meta", { params: { path } }));
const explained = expectOk(
  "token_explanation_get",
  await client.GET("/v1/token/{chain}/{address}/explanation", { params: { path } }),
);
if (typeof explained.summary !== "string") throw new Error("no summary");
const badge = expectOk(
  "token_badge_get",
  await client.GET("/v1/token/{chain}/{address}/badge", { params: { path }, parseAs: "text" }),
);
if (!badge.includes("<svg")) throw new Error(`badge: ${badge.slice(0, 40)}`);
const batch = expectOk(
  "token_batch_analyze",
  await client.POST("/v1/tokens/analyze", {
    body: { items: [{ chain: "eth", address: evmToken }, { chain: "sol", address: solMint }, { chain: "eth", address: notAToken }] },
  }),
);
if (batch.results.length !== 3 || batch.results[0].analysis?.score === undefined || batch.results[2].error?.code !== "NOT_FOUND") {
  throw new Error(`batch: ${JSON.stringify(batch).slice(0, 200)}`);
}
expectOk("token_sentiment_get", await client.GET("/v1/token/{chain}/{address}/sentiment", { params: { path } }));
expectOk(
  "wallet_analyze",
  await client.GET("/v1/wallet/{chain}/{address}/analyze", { params: { path: { chain: "sol", address: solWallet } } }),
);
expectOk("market_overview_get", await client.GET("/v1/market/overview", { params: { query: { chain: "eth" } } }));
expectOk("market_top_tokens_list", await client.GET("/v1/market/top-tokens", { params: { query: { limit: 5 } } }));
expectOk("feed_risk_alerts_list", await client.GET("/v1/feed/risk-alerts", { params: { query: { chain: "eth" } } }));

// Errors parse as the envelope; the badge's error is a badge.
const missing = expectError(
  "token_analyze",
  404,
  await client.GET("/v1/token/{chain}/{address}/analyze", { params: { path: { chain: "eth", address: notAToken } } }),
);
if (missing.error.code !== "NOT_FOUND") throw new Error(`code ${missing.error.code}`);
const wrongForm = await client.GET("/v1/token/{chain}/{address}/badge", {
  params: { path: { chain: "eth", address: solMint } },
  parseAs: "text",
});
called.add("token_badge_get");
if (wrongForm.response.status !== 422 || !String(wrongForm.error).includes("<svg")) {
  throw new Error(`badge error: ${wrongForm.response.status}`);
}

console.log(`typescript client: ${called.size} operations answered as their types say`);

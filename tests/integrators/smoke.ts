// Every operation of riskintel through a client a partner generates from the
// published document with default options (openapi-typescript types,
// openapi-fetch calls), errors and the badge included. `tsc --noEmit` checks
// it against the types; run, it checks what the server answers.
//
//   node build/smoke.js BASE_URL API_KEY EVM_TOKEN SOL_MINT SOL_WALLET NOT_A_TOKEN [RISKY_TOKEN]

import { createHmac, timingSafeEqual } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import createClient from "openapi-fetch";
import type { components, paths } from "./riskintel.js";

type ApiError = components["schemas"]["ApiError"];

const [baseUrl, apiKey, evmToken, solMint, solWallet, notAToken, riskyToken] = process.argv.slice(2);
if (!notAToken) {
  throw new Error("usage: smoke.js BASE_URL API_KEY EVM_TOKEN SOL_MINT SOL_WALLET NOT_A_TOKEN");
}

const client = createClient<paths>({ baseUrl, headers: { "x-api-key": apiKey } });
const called = new Set<string>();

// With RISKINTEL_EXAMPLES_OUT set (`cargo xtask openapi examples`), the
// first successful request and answer of each operation are written there:
// the document's examples.
const examples: Record<string, { request?: unknown; response: unknown }> = {};
let lastRequest: unknown = undefined;
client.use({
  async onRequest({ request }) {
    const text = await request.clone().text();
    lastRequest = text ? JSON.parse(text) : undefined;
    return request;
  },
});

/** A success's body, or a failure naming the operation. */
function expectOk<T>(operation: string, answer: { data?: T; error?: unknown; response: Response }): T {
  called.add(operation);
  if (answer.data === undefined || !answer.response.ok) {
    throw new Error(`${operation}: HTTP ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  if (!(operation in examples)) {
    examples[operation] = lastRequest === undefined ? { response: answer.data } : { request: lastRequest, response: answer.data };
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

// A token with findings first: its analysis is the document's example.
if (riskyToken) {
  const risky = { params: { path: { chain: "eth" as const, address: riskyToken } } };
  const found = expectOk("token_analyze", await client.GET("/v1/token/{chain}/{address}/analyze", risky));
  if (found.signals.length === 0) throw new Error(`no findings on ${riskyToken}`);
  expectOk("token_explanation_get", await client.GET("/v1/token/{chain}/{address}/explanation", risky));
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
// Before signing: a read-only call simulated, a plain message scanned.
const balanceOf = `0x70a08231${"0".repeat(24)}${notAToken.slice(2)}`;
const simulated = expectOk(
  "tx_simulate",
  await client.POST("/v1/tx/simulate", { body: { chain: "eth", from: notAToken, to: evmToken, data: balanceOf } }),
);
if (simulated.status !== "success" || simulated.asset_changes.length !== 0) throw new Error(`simulated: ${JSON.stringify(simulated)}`);
const scanned = expectOk(
  "signature_scan",
  await client.POST("/v1/signature/scan", { body: { chain: "eth", signer: notAToken, message: "Sign in to example.org" } }),
);
if (scanned.kind !== "personal_message" || scanned.verdict !== "benign") throw new Error(`scanned: ${JSON.stringify(scanned)}`);
// Address screening: one address with its facts, a batch with a bad item.
const screened = expectOk(
  "address_screen",
  await client.GET("/v1/address/{chain}/{address}/screen", { params: { path: { chain: "eth", address: notAToken } } }),
);
if (screened.sanctioned || !screened.facts) throw new Error(`screened: ${JSON.stringify(screened)}`);
const screenedBatch = expectOk(
  "address_batch_screen",
  await client.POST("/v1/addresses/screen", {
    body: { items: [{ chain: "eth", address: notAToken }, { chain: "sol", address: solWallet }, { chain: "eth", address: "0x1234" }] },
  }),
);
if (screenedBatch.results.map((r) => r.status).join() !== "200,200,422" || screenedBatch.results[2].error?.code !== "VALIDATION_ERROR") {
  throw new Error(`screened batch: ${JSON.stringify(screenedBatch).slice(0, 200)}`);
}
expectOk("market_overview_get", await client.GET("/v1/market/overview", { params: { query: { chain: "eth" } } }));
expectOk("market_top_tokens_list", await client.GET("/v1/market/top-tokens", { params: { query: { limit: 5 } } }));
expectOk("feed_risk_alerts_list", await client.GET("/v1/feed/risk-alerts", { params: { query: { chain: "eth" } } }));

// Disputes: a report of the analysed mint (the Python script reports the
// EVM token), refused twice over, listed and followed.
if (analysis.override !== null && analysis.override !== undefined) throw new Error("an override nobody set");
const mintPath = { chain: "sol" as const, address: solMint };
const reported = expectOk(
  "report_create",
  await client.POST("/v1/token/{chain}/{address}/reports", {
    params: { path: mintPath },
    body: { kind: "false_negative", reason: "<b>typescript</b> smoke", contact: "ts@example.org" },
  }),
);
if (!reported.id.startsWith("rep_") || reported.status !== "open" || reported.reason !== "<b>typescript</b> smoke") {
  throw new Error(`report: ${JSON.stringify(reported)}`);
}
expectError(
  "report_create",
  409,
  await client.POST("/v1/token/{chain}/{address}/reports", { params: { path: mintPath }, body: { kind: "other", reason: "again" } }),
);
expectError(
  "report_create",
  422,
  await client.POST("/v1/token/{chain}/{address}/reports", { params: { path: mintPath }, body: { kind: "other", reason: "" } }),
);
const reports = expectOk("report_list", await client.GET("/v1/reports", { params: { query: { status: "open", limit: 10 } } }));
if (!reports.items.some((r) => r.id === reported.id)) throw new Error("the report is not listed");
const followed = expectOk(
  "report_get",
  await client.GET("/v1/reports/{reportId}", { params: { path: { reportId: reported.id } } }),
);
if (followed.status !== "open" || followed.answer !== null) throw new Error(`followed: ${JSON.stringify(followed)}`);

// Webhooks: a receiver here, a test event signed and verified with the
// recipe of docs/webhooks.md (kept identical to it).
function verify(secret: string, header: string, body: Buffer, toleranceSeconds = 300): boolean {
  const fields = header.split(",").map((part) => [part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)]);
  const timestamp = fields.find(([key]) => key === "t")?.[1];
  if (!timestamp || !/^[0-9]+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) {
    return false;
  }
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  return fields.some(([key, value]) => {
    const given = Buffer.from(value, "hex");
    return key === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const deliveries: { signature: string; eventId: string; body: Buffer }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    deliveries.push({
      signature: String(request.headers["riskintel-signature"]),
      eventId: String(request.headers["riskintel-event-id"]),
      body: Buffer.concat(chunks),
    });
    response.statusCode = 204;
    response.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

async function waitFor(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const subscribed = expectOk(
  "webhook_create",
  await client.POST("/v1/webhooks", { body: { url: hookUrl, kinds: ["honeypot_detected"] } }),
);
const webhookId = subscribed.webhook.id;
const hooks = expectOk("webhook_list", await client.GET("/v1/webhooks"));
if (!hooks.items.some((w) => w.id === webhookId)) throw new Error("the webhook is not listed");
const hookPath = { params: { path: { webhookId } } };
expectOk("webhook_get", await client.GET("/v1/webhooks/{webhookId}", hookPath));
const ping = expectOk("webhook_test_send", await client.POST("/v1/webhooks/{webhookId}/test", hookPath));
await waitFor("the test event", () => deliveries.length > 0);
const [delivery] = deliveries;
if (!verify(subscribed.secret, delivery.signature, delivery.body)) throw new Error(`signature ${delivery.signature}`);
if (verify(subscribed.secret, delivery.signature, Buffer.concat([delivery.body, Buffer.from(" ")]))) {
  throw new Error("a changed body verified");
}
const event: components["schemas"]["WebhookEvent"] = JSON.parse(delivery.body.toString("utf8"));
if (event.id !== ping.event_id || event.id !== delivery.eventId || event.type !== "ping" || event.data !== null) {
  throw new Error(`event ${delivery.body.toString("utf8")}`);
}
await waitFor("the delivery logged", async () => {
  const log = expectOk("webhook_delivery_list", await client.GET("/v1/webhooks/{webhookId}/deliveries", hookPath));
  return log.items.some((d) => d.event_id === ping.event_id && d.state === "delivered");
});
// Sent again on request: the same event, signed anew.
const again = expectOk(
  "webhook_redeliver",
  await client.POST("/v1/webhooks/{webhookId}/deliveries/{eventId}/redeliver", {
    params: { path: { webhookId, eventId: ping.event_id } },
  }),
);
if (again.event_id !== ping.event_id || again.state !== "pending") throw new Error(`redeliver: ${JSON.stringify(again)}`);
await waitFor("the redelivery", () => deliveries.length > 1);
if (deliveries[1].eventId !== ping.event_id || !verify(subscribed.secret, deliveries[1].signature, deliveries[1].body)) {
  throw new Error(`redelivered: ${deliveries[1].eventId} ${deliveries[1].signature}`);
}
// Nothing failed, so nothing is recovered.
const recovered = expectOk(
  "webhook_recover",
  await client.POST("/v1/webhooks/{webhookId}/recover", {
    ...hookPath,
    body: { since: new Date(Date.now() - 3_600_000).toISOString() },
  }),
);
if (recovered.queued !== 0) throw new Error(`recover: ${JSON.stringify(recovered)}`);
const rotatedHook = expectOk("webhook_secret_rotate", await client.POST("/v1/webhooks/{webhookId}/rotate-secret", hookPath));
if (rotatedHook.secret === subscribed.secret) throw new Error("the secret did not change");
expectOk("webhook_enable", await client.POST("/v1/webhooks/{webhookId}/enable", hookPath));
const changedHook = expectOk(
  "webhook_update",
  await client.PATCH("/v1/webhooks/{webhookId}", { ...hookPath, body: { min_severity: "high" } }),
);
if (changedHook.min_severity !== "high" || changedHook.url !== hookUrl) throw new Error(`update: ${JSON.stringify(changedHook)}`);
const unsubscribed = await client.DELETE("/v1/webhooks/{webhookId}", hookPath);
called.add("webhook_delete");
if (unsubscribed.response.status !== 204) throw new Error(`webhook_delete: HTTP ${unsubscribed.response.status}`);
expectError("webhook_get", 404, await client.GET("/v1/webhooks/{webhookId}", hookPath));
expectError("webhook_create", 422, await client.POST("/v1/webhooks", { body: { url: "not a url" } }));
receiver.close();

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

const examplesOut = process.env.RISKINTEL_EXAMPLES_OUT;
if (examplesOut) {
  // Where the rig ran becomes the document's server; secrets are masked.
  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
  const text = JSON.stringify(sorted, null, 2)
    .replaceAll(baseUrl, "http://127.0.0.1:8080")
    .replaceAll(hookUrl, "https://hooks.example.com/riskintel")
    .replace(/(ri_live_[a-z0-9]+\.)([A-Za-z0-9_-]+)/g, (_, id: string, secret: string) => id + "0".repeat(secret.length))
    .replace(/(whsec_)([A-Za-z0-9_-]+)/g, (_, prefix: string, secret: string) => prefix + "0".repeat(secret.length));
  writeFileSync(examplesOut, `${text}\n`);
}

console.log(`typescript client: ${called.size} operations answered as their types say`);

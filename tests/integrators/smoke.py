"""Every operation of riskintel through the Python client a partner generates
from the published document (openapi-python-client, with python-client.yaml),
errors and the badge included: each answer must parse as its model.

    python smoke.py CLIENT_DIR BASE_URL API_KEY EVM_TOKEN SOL_MINT SOL_WALLET NOT_A_TOKEN
"""

import datetime
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

client_dir, base_url, api_key, evm_token, sol_mint, sol_wallet, not_a_token = sys.argv[1:8]
sys.path.insert(0, client_dir)

from riskintel_client import AuthenticatedClient  # noqa: E402
from riskintel_client.api.api_keys import (  # noqa: E402
    api_key_create,
    api_key_delete,
    api_key_get,
    api_key_list,
    api_key_rotate,
)
from riskintel_client.api.billing import billing_status_get  # noqa: E402
from riskintel_client.api.feed import feed_risk_alerts_list  # noqa: E402
from riskintel_client.api.health import health_get  # noqa: E402
from riskintel_client.api.market import market_overview_get, market_top_tokens_list  # noqa: E402
from riskintel_client.api.reports import report_create, report_get, report_list  # noqa: E402
from riskintel_client.api.tokens import (  # noqa: E402
    token_analyze,
    token_analyze_query,
    token_badge_get,
    token_batch_analyze,
    token_explanation_get,
    token_meta_get,
    token_sentiment_get,
)
from riskintel_client.api.presign import signature_scan, tx_simulate  # noqa: E402
from riskintel_client.api.screening import address_batch_screen, address_screen  # noqa: E402
from riskintel_client.api.wallets import wallet_analyze  # noqa: E402
from riskintel_client.api.webhooks import (  # noqa: E402
    webhook_create,
    webhook_delete,
    webhook_delivery_list,
    webhook_enable,
    webhook_get,
    webhook_list,
    webhook_recover,
    webhook_redeliver,
    webhook_secret_rotate,
    webhook_test_send,
    webhook_update,
)
from riskintel_client import models  # noqa: E402

client = AuthenticatedClient(base_url=base_url, token=api_key, prefix="", auth_header_name="x-api-key")
called = set()


def ok(operation, answer, model):
    """A success parsed as `model`."""
    called.add(operation)
    if answer.status_code // 100 != 2 or not isinstance(answer.parsed, model):
        raise SystemExit(f"{operation}: HTTP {answer.status_code}, parsed {type(answer.parsed).__name__}: {answer.content[:200]!r}")
    return answer.parsed


def failed(operation, answer, status):
    """An error with `status`, parsed as the envelope."""
    called.add(operation)
    parsed = answer.parsed
    if answer.status_code != status or not isinstance(parsed, models.ApiError) or not parsed.error.docs_url:
        raise SystemExit(f"{operation}: expected {status}, got {answer.status_code}: {answer.content[:200]!r}")
    return parsed


ok("health_get", health_get.sync_detailed(client=client), models.Health)
ok("billing_status_get", billing_status_get.sync_detailed(client=client), models.BillingStatus)

name = f"py-smoke-{time.time_ns()}"
created = ok(
    "api_key_create",
    api_key_create.sync_detailed(client=client, body=models.ApiKeyCreate(name=name)),
    models.ApiKeySecret,
)
key_id = created.api_key.id
listed = ok("api_key_list", api_key_list.sync_detailed(client=client, limit=100), models.ApiKeyResultsPage)
assert any(k.id == key_id for k in listed.items), "the new key is not listed"
ok("api_key_get", api_key_get.sync_detailed(key_id, client=client), models.ApiKey)
rotated = ok("api_key_rotate", api_key_rotate.sync_detailed(key_id, client=client), models.ApiKeySecret)
assert rotated.key.startswith("ri_live_")
failed("api_key_create", api_key_create.sync_detailed(client=client, body=models.ApiKeyCreate(name=name)), 409)
deleted = api_key_delete.sync_detailed(key_id, client=client)
called.add("api_key_delete")
assert deleted.status_code == 204, deleted.status_code
failed("api_key_get", api_key_get.sync_detailed(key_id, client=client), 404)

eth = models.ChainId.ETH
sol = models.ChainId.SOL
analysis = ok("token_analyze", token_analyze.sync_detailed(eth, evm_token, client=client), models.TokenAnalysis)
assert 0 <= analysis.score <= 100, analysis.score
by_query = ok(
    "token_analyze_query",
    token_analyze_query.sync_detailed(client=client, chain=sol, address=sol_mint),
    models.TokenAnalysis,
)
assert by_query.chain == "sol", by_query.chain
ok("token_meta_get", token_meta_get.sync_detailed(eth, evm_token, client=client), models.TokenMetaReport)
ok(
    "token_explanation_get",
    token_explanation_get.sync_detailed(eth, evm_token, client=client),
    models.TokenExplanation,
)
badge = ok("token_badge_get", token_badge_get.sync_detailed(eth, evm_token, client=client), str)
assert "<svg" in badge, badge[:80]
batch = ok(
    "token_batch_analyze",
    token_batch_analyze.sync_detailed(
        client=client,
        body=models.BatchAnalysisRequest(
            items=[
                models.BatchItem(chain="eth", address=evm_token),
                models.BatchItem(chain="sol", address=sol_mint),
                models.BatchItem(chain="eth", address=not_a_token),
            ]
        ),
    ),
    models.BatchAnalysis,
)
assert [entry.status for entry in batch.results] == [200, 200, 404], batch.results
assert isinstance(batch.results[0].analysis, models.TokenAnalysis)
assert str(batch.results[2].error.code) == "NOT_FOUND"
ok("token_sentiment_get", token_sentiment_get.sync_detailed(eth, evm_token, client=client), models.TokenSentiment)
ok("wallet_analyze", wallet_analyze.sync_detailed(sol, sol_wallet, client=client), models.WalletAnalysis)
# Before signing: a read-only call simulated, a plain message scanned.
simulated = ok(
    "tx_simulate",
    tx_simulate.sync_detailed(
        client=client,
        body=models.TxSimulationRequest(
            chain="eth", from_=not_a_token, to=evm_token, data="0x70a08231" + "0" * 24 + not_a_token[2:]
        ),
    ),
    models.TxSimulation,
)
assert simulated.status == models.SimulationStatus.SUCCESS and simulated.asset_changes == [], simulated
scanned = ok(
    "signature_scan",
    signature_scan.sync_detailed(
        client=client, body=models.SignatureScanRequest(chain="eth", signer=not_a_token, message="Sign in to example.org")
    ),
    models.SignatureScan,
)
assert scanned.kind == models.SignatureKind.PERSONAL_MESSAGE and scanned.verdict == models.PresignVerdict.BENIGN, scanned
# Address screening: one address with its facts, a batch with a bad item.
screened = ok("address_screen", address_screen.sync_detailed(chain=eth, address=not_a_token, client=client), models.AddressScreen)
assert screened.sanctioned is False and screened.facts is not None, screened
screened_batch = ok(
    "address_batch_screen",
    address_batch_screen.sync_detailed(
        client=client,
        body=models.AddressScreenBatchRequest(
            items=[
                models.AddressPath(chain="eth", address=not_a_token),
                models.AddressPath(chain="sol", address=sol_wallet),
                models.AddressPath(chain="eth", address="0x1234"),
            ]
        ),
    ),
    models.AddressScreenBatch,
)
assert [entry.status for entry in screened_batch.results] == [200, 200, 422], screened_batch.results
assert str(screened_batch.results[2].error.code) == "VALIDATION_ERROR"
ok("market_overview_get", market_overview_get.sync_detailed(client=client, chain=eth), models.MarketOverview)
ok(
    "market_top_tokens_list",
    market_top_tokens_list.sync_detailed(client=client, limit=5),
    models.TopTokenResultsPage,
)
ok(
    "feed_risk_alerts_list",
    feed_risk_alerts_list.sync_detailed(client=client, chain=eth),
    models.AlertResultsPage,
)

# Disputes: a report of the analysed token, refused twice over, listed and followed.
assert analysis.override is None, analysis.override
reported = ok(
    "report_create",
    report_create.sync_detailed(
        eth,
        evm_token,
        client=client,
        body=models.ReportCreate(kind=models.ReportKind.FALSE_POSITIVE, reason="<b>python</b> smoke"),
    ),
    models.Report,
)
assert reported.id.startswith("rep_") and reported.status == models.ReportStatus.OPEN, reported
assert reported.reason == "<b>python</b> smoke" and reported.label == analysis.label, reported
failed(
    "report_create",
    report_create.sync_detailed(
        eth, evm_token, client=client, body=models.ReportCreate(kind=models.ReportKind.OTHER, reason="again")
    ),
    409,
)
failed(
    "report_create",
    report_create.sync_detailed(
        eth, not_a_token, client=client, body=models.ReportCreate(kind=models.ReportKind.OTHER, reason="no verdict")
    ),
    404,
)
reports = ok(
    "report_list",
    report_list.sync_detailed(client=client, status=models.ReportStatus.OPEN, limit=10),
    models.ReportResultsPage,
)
assert any(r.id == reported.id for r in reports.items), reports.items
followed = ok("report_get", report_get.sync_detailed(reported.id, client=client), models.Report)
assert followed.status == models.ReportStatus.OPEN and followed.answer is None, followed
failed("report_get", report_get.sync_detailed("rep_zzzzzzzzzzzz", client=client), 404)



# Webhooks: a receiver here, a test event signed and verified with the
# recipe of docs/webhooks.md (kept identical to it).
def verify(secret: str, header: str, body: bytes, tolerance: int = 300) -> bool:
    """Whether `header` (Riskintel-Signature) signs the raw `body` with `secret`, recently."""
    fields = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamp = next((value for key, value in fields if key == "t"), None)
    if timestamp is None or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, value) for key, value in fields if key == "v1")


deliveries = []


class Hook(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        deliveries.append((self.headers["Riskintel-Signature"], self.headers["Riskintel-Event-Id"], body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


receiver = HTTPServer(("127.0.0.1", 0), Hook)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
hook_url = f"http://127.0.0.1:{receiver.server_port}/hook"


def wait_for(what, check):
    deadline = time.time() + 10
    while not check():
        if time.time() > deadline:
            raise SystemExit(f"{what}: not seen within 10 s")
        time.sleep(0.05)


subscribed = ok(
    "webhook_create",
    webhook_create.sync_detailed(
        client=client, body=models.WebhookCreate(url=hook_url, kinds=[models.AlertKind.HONEYPOT_DETECTED])
    ),
    models.WebhookSecret,
)
webhook_id = subscribed.webhook.id
listed = ok("webhook_list", webhook_list.sync_detailed(client=client), models.WebhookResultsPage)
assert any(w.id == webhook_id for w in listed.items), "the webhook is not listed"
ok("webhook_get", webhook_get.sync_detailed(webhook_id, client=client), models.Webhook)
ping = ok("webhook_test_send", webhook_test_send.sync_detailed(webhook_id, client=client), models.WebhookTestEvent)
wait_for("the test event", lambda: deliveries)
signature, event_id, body = deliveries[0]
assert verify(subscribed.secret, signature, body), signature
assert not verify(subscribed.secret, signature, body + b" "), "a changed body verified"
assert not verify("whsec_" + "0" * 64, signature, body), "another secret verified"
event = models.WebhookEvent.from_dict(json.loads(body))
assert event.id == ping.event_id == event_id and event.type_ == models.WebhookEventType.PING, event


def delivered():
    log = ok("webhook_delivery_list", webhook_delivery_list.sync_detailed(webhook_id, client=client), models.WebhookDeliveryResultsPage)
    return any(d.event_id == ping.event_id and d.state == models.DeliveryState.DELIVERED for d in log.items)


wait_for("the delivery logged", delivered)
# Sent again on request: the same event, signed anew.
again = ok(
    "webhook_redeliver",
    webhook_redeliver.sync_detailed(webhook_id=webhook_id, event_id=ping.event_id, client=client),
    models.WebhookDelivery,
)
assert again.event_id == ping.event_id and again.state == models.DeliveryState.PENDING, again
wait_for("the redelivery", lambda: len(deliveries) > 1)
signature, event_id, body = deliveries[1]
assert event_id == ping.event_id and verify(subscribed.secret, signature, body), signature
# Nothing failed, so nothing is recovered.
recovered = ok(
    "webhook_recover",
    webhook_recover.sync_detailed(
        webhook_id,
        client=client,
        body=models.WebhookRecover(since=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)),
    ),
    models.WebhookRecovery,
)
assert recovered.queued == 0, recovered
rotated = ok("webhook_secret_rotate", webhook_secret_rotate.sync_detailed(webhook_id, client=client), models.WebhookSecret)
assert rotated.secret != subscribed.secret and rotated.secret.startswith("whsec_")
ok("webhook_enable", webhook_enable.sync_detailed(webhook_id, client=client), models.Webhook)
changed = ok(
    "webhook_update",
    webhook_update.sync_detailed(webhook_id, client=client, body=models.WebhookUpdate(min_severity=models.Severity.HIGH)),
    models.Webhook,
)
assert changed.min_severity == models.Severity.HIGH and changed.url == hook_url, changed
gone = webhook_delete.sync_detailed(webhook_id, client=client)
called.add("webhook_delete")
assert gone.status_code == 204, gone.status_code
failed("webhook_get", webhook_get.sync_detailed(webhook_id, client=client), 404)
failed("webhook_create", webhook_create.sync_detailed(client=client, body=models.WebhookCreate(url="not a url")), 422)
receiver.shutdown()

# Errors parse as the envelope; the badge's error is a badge.
missing = failed("token_analyze", token_analyze.sync_detailed(eth, not_a_token, client=client), 404)
assert str(missing.error.code) == "NOT_FOUND", missing.error.code
wrong_form = token_badge_get.sync_detailed(eth, sol_mint, client=client)
assert wrong_form.status_code == 422 and "<svg" in str(wrong_form.parsed), wrong_form.status_code

print(f"python client: {len(called)} operations answered as their models say")

"""riskintel from Python: the client generated from the served document.

    openapi-python-client generate --url http://127.0.0.1:8080/openapi.json
    pip install ./risk-intelligence-service-api-client
    RISKINTEL_URL=http://127.0.0.1:8080 RISKINTEL_KEY=ri_live_... python quickstart.py eth 0x...
"""

import os
import sys

from riskintel_client import AuthenticatedClient
from riskintel_client.api.health import health_get
from riskintel_client.api.tokens import token_analyze
from riskintel_client.models import ChainId

chain, token = sys.argv[1], sys.argv[2]
client = AuthenticatedClient(
    base_url=os.environ["RISKINTEL_URL"],
    token=os.environ["RISKINTEL_KEY"],
    auth_header_name="x-api-key",
    prefix="",
)

health = health_get.sync(client=client)
print(f"service {health.status} (version {health.version})")

analysis = token_analyze.sync(ChainId(chain), token, client=client)
print(f"{analysis.meta.symbol}: {analysis.label} ({analysis.score:.0f}/100)")
for signal in analysis.signals:
    print(f"  {signal.severity} {signal.id}: {signal.detail}")

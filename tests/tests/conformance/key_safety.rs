//! A key cannot lock its account out of managing keys through the API: it
//! cannot revoke itself, and the account's last `keys:write` key cannot be
//! revoked, not even by two keys revoking each other at the same moment.
//! Rotating oneself stays allowed; the CLI remains the way round.

use anyhow::{ensure, Context as _};
use futures::TryStreamExt as _;
use riskintel_client::types::{self, ErrorCode};
use riskintel_tests::{arg, err, ok, Backend, TestServer};

fn key_id(key: &str) -> anyhow::Result<String> {
    Ok(key
        .strip_prefix("ri_live_")
        .and_then(|k| k.split_once('.'))
        .context("key shape")?
        .0
        .to_string())
}

async fn writer(client: &riskintel_client::Client, name: &str) -> anyhow::Result<String> {
    let scopes = ["keys:write", "billing:read"]
        .iter()
        .map(|s| s.parse().expect("a client scope"))
        .collect();
    Ok(ok(client
        .api_key_create(&types::ApiKeyCreate {
            name: arg(name),
            scopes: Some(scopes),
            expires_at: None,
        })
        .await)?
    .into_inner()
    .key)
}

/// The account's active keys with `keys:write`, as the owner sees them.
async fn writers(client: &riskintel_client::Client) -> anyhow::Result<usize> {
    let keys: Vec<types::ApiKey> = client.api_key_list_stream(None).try_collect().await?;
    Ok(keys
        .iter()
        .filter(|k| k.scopes.iter().any(|s| s.to_string() == "keys:write"))
        .count())
}

/// A 409 `CONFLICT` answer's message.
fn conflict(
    result: Result<riskintel_client::ResponseValue<()>, riskintel_client::Error<types::ApiError>>,
) -> anyhow::Result<String> {
    Ok(err(result, 409, ErrorCode::Conflict, true)?
        .into_inner()
        .error
        .message)
}

conformance!(keys_cannot_lock_their_account_out);
pub async fn keys_cannot_lock_their_account_out(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let owner_key = server.owner_key();
    let owner = server.client(&owner_key);
    let owner_id = key_id(&owner_key)?;

    // A key cannot revoke itself, and says how to: another key or the CLI.
    let refused = conflict(owner.api_key_delete(&arg(&owner_id)).await)?;
    ensure!(
        refused.contains("itself") && refused.contains("riskintel keys revoke"),
        "{refused}"
    );
    ok(owner.billing_status_get().await)?;
    // Rotating oneself stays allowed.
    let rotated = ok(owner.api_key_rotate(&arg(&owner_id)).await)?.into_inner();
    let owner = server.client(&rotated.key);

    // Another writer may revoke the owner's key, and is then the last one.
    let second = writer(&owner, "second").await?;
    let second_client = server.client(&second);
    ok(second_client.api_key_delete(&arg(&owner_id)).await)?;
    ensure!(writers(&second_client).await? == 1);
    let refused = conflict(second_client.api_key_delete(&arg(key_id(&second)?)).await)?;
    ensure!(refused.contains("itself"), "{refused}");

    // Two writers revoking each other at once: one goes, one stays.
    let mut current = second;
    for round in 0..5 {
        let creator = server.client(&current);
        let (a, b) = (
            writer(&creator, &format!("a-{round}")).await?,
            writer(&creator, &format!("b-{round}")).await?,
        );
        let (a_client, b_client) = (server.client(&a), server.client(&b));
        // Leave only a and b with keys:write.
        ok(a_client.api_key_delete(&arg(key_id(&current)?)).await)?;
        let (a_id, b_id) = (key_id(&a)?, key_id(&b)?);
        let (a_arg, b_arg) = (arg(&a_id), arg(&b_id));
        let (by_a, by_b) = tokio::join!(
            a_client.api_key_delete(&b_arg),
            b_client.api_key_delete(&a_arg)
        );
        let statuses = [&by_a, &by_b].map(|r| match r {
            Ok(answer) => answer.status().as_u16(),
            Err(e) => e.status().map_or(0, |s| s.as_u16()),
        });
        // One goes through; the other was refused (409) or, its own key
        // revoked first, is no longer a key (401).
        ensure!(
            statuses.iter().filter(|s| **s == 204).count() == 1
                && statuses.iter().all(|s| [204, 401, 409].contains(s)),
            "round {round}: {statuses:?}"
        );
        current = if statuses[0] == 204 { a } else { b };
        ensure!(
            writers(&server.client(&current)).await? == 1,
            "round {round}"
        );
    }
    server.stop().await
}

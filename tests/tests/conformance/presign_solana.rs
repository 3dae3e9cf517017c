//! Before signing on Solana: transactions a wallet is asked to sign,
//! simulated by the test node (LiteSVM running the real SPL Token and
//! Token-2022 programs), through the generated client.

use anyhow::{ensure, Context as _};
use riskintel_client::types::{
    self, AccountKind, ApprovalKind, AssetKind, AuthorityKind, Direction, PresignVerdict, RiskKind,
    SimulationStatus,
};
use riskintel_server::chains::solana::simulate::{base64, Instruction, Meta};
use riskintel_server::chains::solana::{self as sol, Pubkey};
use riskintel_tests::{ok, Backend};

use super::solana::counted_sol_server;

fn token_ix(program: &str, accounts: Vec<Meta>, data: Vec<u8>) -> Instruction {
    Instruction {
        program: sol::key(program),
        accounts,
        data,
    }
}

fn writable(key: Pubkey) -> Meta {
    Meta {
        key,
        signer: false,
        writable: true,
    }
}

fn signing(key: Pubkey) -> Meta {
    Meta {
        key,
        signer: true,
        writable: false,
    }
}

conformance!(solana_transactions_are_simulated_before_signing);
pub async fn solana_transactions_are_simulated_before_signing(
    backend: Backend,
) -> anyhow::Result<()> {
    let (fixture, proxy, server) = counted_sol_server(backend).await?;
    let client = server.client(&server.owner_key());
    let holder = sol::key(&fixture.named("holder"));
    let account_of = |mint: &str, owned: bool| -> anyhow::Result<Pubkey> {
        let mint_key = sol::key(&fixture.named(mint));
        let found = fixture
            .token_accounts_of(&fixture.named(mint))
            .into_iter()
            .find(|(_, data)| (data[32..64] == holder[..]) == owned && data[..32] == mint_key[..]);
        Ok(sol::key(&found.context("a token account")?.0))
    };
    let simulate_by = |signer: Pubkey, instructions: Vec<Instruction>| {
        let (client, proxy) = (&client, &proxy);
        let request = types::TxSimulationRequest {
            chain: "sol".into(),
            transaction: Some(base64(signer, &instructions)),
            signer: Some(sol::encode(&signer)),
            from: None,
            to: None,
            value: None,
            data: None,
            gas: None,
            block: None,
            calls: None,
        };
        async move {
            proxy.reset();
            let answer = ok(client.tx_simulate(&request).await)?.into_inner();
            anyhow::Ok((answer, proxy.round_trips()))
        }
    };
    let simulate = |instructions: Vec<Instruction>| simulate_by(holder, instructions);
    let (launch, launch_mint) = (
        account_of("launch", true)?,
        sol::key(&fixture.named("launch")),
    );

    // A token transfer: the tokens out, to the other account's owner.
    let to = account_of("launch", false)?;
    let mut data = vec![12];
    data.extend(1_000_000u64.to_le_bytes());
    data.push(6);
    let transfer = token_ix(
        sol::TOKEN_PROGRAM,
        vec![
            writable(launch),
            Meta::readonly(launch_mint),
            writable(to),
            signing(holder),
        ],
        data,
    );
    let (sent, round_trips) = simulate(vec![transfer]).await?;
    ensure!(
        sent.status == SimulationStatus::Success && round_trips <= 2,
        "{round_trips} round trips: {sent:?}"
    );
    let out = sent
        .asset_changes
        .iter()
        .find(|c| c.asset == AssetKind::Spl)
        .context("the tokens out")?;
    ensure!(
        out.direction == Direction::Out
            && out.amount_raw == "1000000"
            && out.amount == Some(1.0)
            && out.fee_raw.is_none(),
        "{out:?}"
    );
    ensure!(sent
        .contracts_called
        .iter()
        .any(|c| c.name.as_deref() == Some("SPL Token")));
    ensure!(sent.verdict == PresignVerdict::Benign, "{sent:?}");

    // SetAuthority of the signer's token account to another key.
    let thief = sol::key(&fixture.named("wallet"));
    let mut data = vec![6, 2, 1];
    data.extend(thief);
    let (handed, _) = simulate(vec![token_ix(
        sol::TOKEN_PROGRAM,
        vec![writable(launch), signing(holder)],
        data,
    )])
    .await?;
    ensure!(
        handed.verdict == PresignVerdict::Malicious
            && handed
                .authority_changes
                .first()
                .is_some_and(|c| c.kind == AuthorityKind::AccountOwner
                    && c.new_authority.as_deref() == Some(&*sol::encode(&thief))),
        "{handed:?}"
    );

    // An Approve delegate, unlimited, to a wallet's key.
    let mut data = vec![4];
    data.extend(u64::MAX.to_le_bytes());
    let (approved, _) = simulate(vec![token_ix(
        sol::TOKEN_PROGRAM,
        vec![writable(launch), Meta::readonly(thief), signing(holder)],
        data,
    )])
    .await?;
    let grant = approved.approvals.first().context("the delegate")?;
    ensure!(
        grant.kind == ApprovalKind::Delegate
            && grant.unlimited
            && grant.spender_kind == AccountKind::Eoa
            && grant.token == sol::encode(&launch_mint),
        "{grant:?}"
    );
    ensure!(
        approved.verdict == PresignVerdict::Malicious
            && approved.risks[0].kind == RiskKind::GrantToEoa,
        "{approved:?}"
    );

    // A Token-2022 mint with a transfer fee: the fee shown.
    let fee_mint = fixture.named("change_powers");
    let pool = sol::key(&fixture.named("change_powers_pool"));
    let accounts: Vec<(Pubkey, Pubkey)> = (fixture.token_accounts_of(&fee_mint).into_iter())
        .map(|(key, data)| (sol::key(&key), data[32..64].try_into().expect("32 bytes")))
        .filter(|(_, owner)| *owner != pool)
        .collect();
    let [(source, sender), (destination, _), ..] = accounts[..] else {
        anyhow::bail!("two holders of the fee mint")
    };
    let decimals = mint_decimals(&proxy.url, &fee_mint).await?;
    let mut data = vec![12];
    data.extend(1_000_000_000u64.to_le_bytes());
    data.push(decimals);
    let (fee_mint, fee_mint_text) = (sol::key(&fee_mint), fee_mint);
    let (taxed, _) = simulate_by(
        sender,
        vec![token_ix(
            sol::TOKEN_2022_PROGRAM,
            vec![
                writable(source),
                Meta::readonly(fee_mint),
                writable(destination),
                signing(sender),
            ],
            data,
        )],
    )
    .await?;
    let out = taxed
        .asset_changes
        .iter()
        .find(|c| c.token.as_deref() == Some(&*fee_mint_text))
        .with_context(|| format!("the fee token out: {taxed:?}"))?;
    ensure!(
        out.amount_raw == "1000000000"
            && out.fee_raw.as_deref().is_some_and(|f| f != "0")
            && out.fee_share.is_some_and(|s| s > 0.0 && s < 1.0),
        "{out:?}"
    );

    // A transfer of more than it holds: reverted, nothing moves.
    let mut data = vec![12];
    data.extend(u64::MAX.to_le_bytes());
    data.push(6);
    let (failed, _) = simulate(vec![token_ix(
        sol::TOKEN_PROGRAM,
        vec![
            writable(launch),
            Meta::readonly(launch_mint),
            writable(to),
            signing(holder),
        ],
        data,
    )])
    .await?;
    ensure!(
        failed.status == SimulationStatus::Reverted
            && failed.failed_call == Some(0)
            && failed.asset_changes.is_empty()
            && failed.verdict == PresignVerdict::Warning,
        "{failed:?}"
    );
    server.stop().await
}

/// A mint's decimals, as the node serves its account.
async fn mint_decimals(url: &str, mint: &str) -> anyhow::Result<u8> {
    use ::base64::Engine as _;
    let answer: serde_json::Value = reqwest::Client::new()
        .post(url)
        .json(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "getAccountInfo", "params": [mint, {"encoding": "base64"}]}))
        .send()
        .await?
        .json()
        .await?;
    let data = answer["result"]["value"]["data"][0]
        .as_str()
        .context("the mint's data")?;
    let bytes = ::base64::engine::general_purpose::STANDARD.decode(data)?;
    bytes.get(44).copied().context("a mint's decimals")
}

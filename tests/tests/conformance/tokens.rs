//! Token intelligence on the anvil rig, through the generated client.

use std::collections::BTreeSet;

use anyhow::{ensure, Context as _};
use chrono::Duration;
use riskintel_api::Plan;
use riskintel_client::types::{self, ErrorCode, RiskLabel};
use riskintel_server::chains::Chain;
use riskintel_server::config::Config;
use riskintel_tests::rig::{self, RigChain};
use riskintel_tests::{arg, badge, check_request_id, err, header, ok, Backend, TestServer};

fn signal_ids(analysis: &types::TokenAnalysis) -> BTreeSet<String> {
    analysis.signals.iter().map(|s| s.id.to_string()).collect()
}

fn signal<'a>(analysis: &'a types::TokenAnalysis, id: &str) -> anyhow::Result<&'a types::Signal> {
    analysis
        .signals
        .iter()
        .find(|s| s.id.to_string() == id)
        .with_context(|| format!("signal {id} missing: {:?}", signal_ids(analysis)))
}

struct Expect {
    token: &'static str,
    labels: &'static [RiskLabel],
    present: &'static [&'static str],
    absent: &'static [&'static str],
}

const EXPECTATIONS: &[Expect] = &[
    Expect {
        token: "plain",
        labels: &[RiskLabel::Safe],
        present: &[],
        absent: &[
            "mint_capability",
            "owner_not_renounced",
            "low_liquidity",
            "lp_unlocked",
            "whale_concentration",
            "new_token",
        ],
    },
    Expect {
        token: "mintable",
        // Policy: an owner who can mint at will puts a token in risky at least.
        labels: &[RiskLabel::Risky, RiskLabel::Critical],
        present: &[
            "mint_capability",
            "owner_not_renounced",
            "lp_unlocked",
            "owner_holds_lp",
        ],
        absent: &[
            "blacklist_capability",
            "pause_capability",
            "upgradeable_proxy",
            "low_liquidity",
        ],
    },
    Expect {
        token: "blacklist",
        labels: &[RiskLabel::Caution, RiskLabel::Risky],
        present: &["blacklist_capability", "owner_not_renounced"],
        absent: &["mint_capability", "pause_capability", "lp_unlocked"],
    },
    Expect {
        token: "pausable",
        labels: &[RiskLabel::Caution],
        present: &["pause_capability", "owner_not_renounced"],
        absent: &["mint_capability", "blacklist_capability"],
    },
    Expect {
        token: "renounced",
        labels: &[RiskLabel::Safe],
        present: &[],
        absent: &["owner_not_renounced", "mint_capability"],
    },
    Expect {
        token: "proxy",
        // Policy: an EOA that can replace the code puts a token in risky at least.
        labels: &[RiskLabel::Risky, RiskLabel::Critical],
        present: &["upgradeable_proxy", "proxy_admin_is_eoa"],
        absent: &["mint_capability", "low_liquidity"],
    },
    Expect {
        token: "creatorlp",
        labels: &[RiskLabel::Caution, RiskLabel::Risky],
        present: &["creator_holds_lp", "lp_unlocked"],
        absent: &["owner_holds_lp", "owner_not_renounced", "mint_capability"],
    },
    Expect {
        token: "whale",
        labels: &[RiskLabel::Critical],
        present: &["whale_concentration", "single_holder_dominance"],
        absent: &["low_liquidity", "mint_capability"],
    },
    Expect {
        token: "thin",
        // Policy: under $5,000 in all pools puts a token in risky at least.
        labels: &[RiskLabel::Risky],
        present: &["low_liquidity"],
        absent: &["no_liquidity", "whale_concentration", "lp_unlocked"],
    },
    Expect {
        token: "fresh",
        labels: &[RiskLabel::Caution],
        present: &["new_token"],
        absent: &["low_liquidity", "whale_concentration"],
    },
    Expect {
        token: "bytes32",
        labels: &[RiskLabel::Critical],
        present: &["no_liquidity", "single_holder_dominance"],
        absent: &["low_liquidity"],
    },
];

conformance!(token_labels_signals_and_evidence_on_the_rig);
pub async fn token_labels_signals_and_evidence_on_the_rig(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    for expect in EXPECTATIONS {
        let analysis = ok(client
            .token_analyze(arg("eth"), &arg(&rig.a.token(expect.token)), None)
            .await)?
        .into_inner();
        let ids = signal_ids(&analysis);
        ensure!(
            expect.labels.contains(&analysis.label),
            "{}: label {:?} (score {}), signals {ids:?}",
            expect.token,
            analysis.label,
            analysis.score
        );
        for id in expect.present {
            ensure!(
                ids.contains(*id),
                "{}: {id} missing from {ids:?}",
                expect.token
            );
        }
        for id in expect.absent {
            ensure!(
                !ids.contains(*id),
                "{}: {id} should be absent: {ids:?}",
                expect.token
            );
        }
        // Every signal has its evidence and every check a status.
        for s in &analysis.signals {
            ensure!(
                !s.title.is_empty() && !s.detail.is_empty() && !s.evidence.rpc.is_empty(),
                "{}: {s:?}",
                expect.token
            );
            ensure!(s.evidence.block == analysis.as_of_block, "evidence block");
            ensure!((0.0..=1.0).contains(&s.weight));
        }
        let check_ids: BTreeSet<_> = analysis
            .coverage
            .checks
            .iter()
            .map(|c| c.id.to_string())
            .collect();
        ensure!(
            ids.is_subset(&check_ids),
            "every signal is a detected check"
        );
        ensure!(analysis.chain == "eth" && analysis.address == rig.a.token(expect.token));
        ensure!(!analysis.stale);
    }

    // Exact numbers the rig created.
    let plain = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(
        plain.score == 0.0 && plain.coverage.ratio == 1.0,
        "plain: {} / {}",
        plain.score,
        plain.coverage.ratio
    );
    let meta = &plain.meta;
    ensure!(meta.name == "Plain Token" && meta.symbol == "PLAIN" && meta.decimals == Some(18));
    ensure!(meta.total_supply.as_deref() == Some("1000000000000000000000000"));
    ensure!(
        meta.liquidity_usd == Some(60_000.0),
        "liquidity {:?}",
        meta.liquidity_usd
    );
    ensure!(
        (meta.price_usd.unwrap() - 0.075).abs() < 1e-12,
        "price {:?}",
        meta.price_usd
    );
    ensure!((meta.market_cap_usd.unwrap() - 75_000.0).abs() < 1e-6);
    ensure!(meta.owner.is_none() && !meta.is_proxy && meta.first_seen_block.is_some());
    ensure!(
        meta.creator.as_deref() == Some(rig.a.deployer.to_checksum(None).as_str()),
        "the first mint went to the deployer: {:?}",
        meta.creator
    );
    let creator_lp = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("creatorlp")), None)
        .await)?
    .into_inner();
    let held = signal(&creator_lp, "creator_holds_lp")?;
    ensure!(
        held.evidence.raw["creator"] == rig.a.deployer.to_checksum(None)
            && held.evidence.raw["lp_creator_share"].as_f64().unwrap() > 0.99
    );
    ensure!(meta.pools.len() == 1);
    let pool = &meta.pools[0];
    ensure!(pool.address == rig.a.pairs["plain"].to_checksum(None) && pool.quote_symbol == "WETH");
    let close = |a: f64, b: f64| (a - b).abs() <= b.abs() * 1e-9;
    ensure!(
        close(pool.reserve_token, 400_000.0) && close(pool.reserve_quote, 10.0),
        "{pool:?}"
    );
    ensure!(
        pool.lp_burned_share == Some(1.0),
        "all LP tokens were sent to 0x…dEaD (and the minimum to 0x0)"
    );

    let thin = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("thin")), None)
        .await)?
    .into_inner();
    let low = signal(&thin, "low_liquidity")?;
    ensure!(
        low.severity == types::Severity::High && low.evidence.raw["liquidity_usd"] == 3000.0,
        "{low:?}"
    );
    ensure!(low.detail.contains("$3000.00"), "{}", low.detail);

    let whale = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("whale")), None)
        .await)?
    .into_inner();
    let dominance = signal(&whale, "single_holder_dominance")?;
    ensure!(dominance.evidence.raw["holder"] == rig.a.whale_wallet.to_checksum(None));
    let share = dominance.evidence.raw["share"].as_f64().context("share")?;
    ensure!(
        (share - 0.8).abs() < 1e-9 && dominance.severity == types::Severity::Critical,
        "{share}"
    );

    let mintable = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("mintable")), None)
        .await)?
    .into_inner();
    let mint = signal(&mintable, "mint_capability")?;
    ensure!(
        mint.evidence.raw["functions"][0] == "mint(address,uint256)"
            && mint.severity == types::Severity::High
    );
    let owner = rig.a.deployer.to_checksum(None);
    ensure!(mintable.meta.owner.as_deref() == Some(owner.as_str()));
    ensure!(
        signal(&mintable, "owner_holds_lp")?.evidence.raw["lp_owner_share"]
            .as_f64()
            .unwrap()
            > 0.99
    );

    let proxy = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("proxy")), None)
        .await)?
    .into_inner();
    ensure!(proxy.meta.is_proxy && proxy.meta.symbol == "PRX");
    ensure!(
        signal(&proxy, "proxy_admin_is_eoa")?.evidence.raw["admin"]
            == rig.a.proxy_admin.to_checksum(None)
    );

    let renounced = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("renounced")), None)
        .await)?
    .into_inner();
    ensure!(renounced.meta.owner.as_deref() == Some("0x0000000000000000000000000000000000000000"));

    let fresh = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("fresh")), None)
        .await)?
    .into_inner();
    ensure!(signal(&fresh, "new_token")?.severity == types::Severity::High);

    let old_style = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("bytes32")), None)
        .await)?
    .into_inner();
    ensure!(old_style.meta.name == "Old Style" && old_style.meta.symbol == "OLD");
    ensure!(
        old_style.coverage.ratio < 1.0,
        "no pool: liquidity checks are unknown, not clear"
    );
    let unknown: Vec<_> = old_style
        .coverage
        .checks
        .iter()
        .filter(|c| c.status == types::CheckStatus::Unknown)
        .collect();
    ensure!(unknown
        .iter()
        .all(|c| c.reason.as_deref().is_some_and(|r| !r.is_empty())));
    server.stop().await
}

conformance!(token_chains_are_independent);
pub async fn token_chains_are_independent(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    ensure!(
        rig.a.tokens["plain"] != rig.b.tokens["plain"],
        "the rig deploys different addresses per chain"
    );
    let before_b = server.upstream_requests(Chain::Bsc);
    let on_a = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(
        server.upstream_requests(Chain::Bsc) == before_b,
        "analysing on eth never calls the bsc node"
    );
    let before_a = server.upstream_requests(Chain::Eth);
    let on_b = ok(client
        .token_analyze(arg("bsc"), &arg(&rig.b.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(
        server.upstream_requests(Chain::Eth) == before_a,
        "analysing on bsc never calls the eth node"
    );
    ensure!(on_b.chain == "bsc" && on_b.address == rig.b.token("plain"));
    ensure!(on_b.meta.pools[0].address == rig.b.pairs["plain"].to_checksum(None));
    ensure!(on_a.label == on_b.label && on_a.meta.liquidity_usd == on_b.meta.liquidity_usd);
    ensure!(
        on_a.as_of_block != on_b.as_of_block,
        "each chain has its own height"
    );
    let whale_b = ok(client
        .token_analyze(arg("bsc"), &arg(&rig.b.token("whale")), None)
        .await)?
    .into_inner();
    ensure!(whale_b.label == RiskLabel::Critical);
    server.stop().await
}

conformance!(token_both_forms_share_one_cache_entry);
pub async fn token_both_forms_share_one_cache_entry(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let address = rig.a.token("blacklist");
    let path_form = ok(client.token_analyze(arg("eth"), &arg(&address), None).await)?.into_inner();
    let requests = server.upstream_requests(Chain::Eth);
    server.clock.advance(Duration::seconds(30));
    // The lower-case address names the same token and the same entry.
    let query_form = ok(client
        .token_analyze_query(&arg(&address.to_ascii_lowercase()), arg("eth"), None)
        .await)?
    .into_inner();
    ensure!(
        serde_json::to_value(&path_form)? == serde_json::to_value(&query_form)?,
        "both forms return identical results"
    );
    let meta = ok(client
        .token_meta_get(arg("eth"), &arg(&address), None)
        .await)?
    .into_inner();
    ensure!(
        meta.cached_at == path_form.cached_at
            && meta.symbol == "BLOCK"
            && meta.liquidity_usd == Some(60_000.0)
    );
    ok(client
        .token_explanation_get(arg("eth"), &arg(&address), None)
        .await)?;
    ensure!(
        badge(client.token_badge_get(arg("eth"), &arg(&address)).await)
            .await?
            .0
            == 200
    );
    ensure!(
        server.upstream_requests(Chain::Eth) == requests,
        "served from the one cache entry"
    );
    // Past the TTL, a new analysis is made.
    server.clock.advance(Duration::seconds(300));
    let later = ok(client
        .token_analyze_query(&arg(&address), arg("eth"), None)
        .await)?
    .into_inner();
    ensure!(
        later.cached_at > path_form.cached_at && server.upstream_requests(Chain::Eth) > requests
    );
    server.stop().await
}

conformance!(token_bad_inputs_get_clear_errors);
pub async fn token_bad_inputs_get_clear_errors(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let eoa = rig.a.eoa.to_checksum(None);
    let not_found = err(
        client.token_analyze(arg("eth"), &arg(&eoa), None).await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ensure!(
        not_found.error.message.contains("not a token")
            || not_found.error.message.contains("no contract"),
        "{}",
        not_found.error.message
    );
    let contract = err(
        client
            .token_analyze(arg("eth"), &arg(&rig.a.token("notoken")), None)
            .await,
        404,
        ErrorCode::NotFound,
        true,
    )?;
    ensure!(
        contract.error.message.contains("not an ERC-20"),
        "{}",
        contract.error.message
    );
    // Flip the case of one letter: a broken checksum, refused even while
    // the token's analysis is in memory (the cached path finds it by the
    // address as written, and must not skip the checksum's verdict).
    let plain = rig.a.token("plain");
    let analysed = ok(client.token_analyze(arg("eth"), &arg(&plain), None).await)?.into_inner();
    // Spelled in one case, the address needs no checksum: the same analysis.
    let hex = plain.strip_prefix("0x").context("0x")?;
    for spelling in [
        format!("0x{}", hex.to_ascii_lowercase()),
        format!("0x{}", hex.to_ascii_uppercase()),
    ] {
        let same = ok(client
            .token_analyze(arg("eth"), &arg(&spelling), None)
            .await)?;
        ensure!(
            same.address == plain && same.cached_at == analysed.cached_at,
            "{spelling} was answered for {}",
            same.address
        );
    }
    let i = plain
        .char_indices()
        .skip(2)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .context("a letter")?
        .0;
    let mut broken: Vec<char> = plain.chars().collect();
    broken[i] = if broken[i].is_ascii_uppercase() {
        broken[i].to_ascii_lowercase()
    } else {
        broken[i].to_ascii_uppercase()
    };
    let broken: String = broken.into_iter().collect();
    let checksum = err(
        client.token_analyze(arg("eth"), &arg(&broken), None).await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    ensure!(
        checksum.error.message.contains("EIP-55"),
        "{}",
        checksum.error.message
    );
    let key = server.owner_key();
    let short = server
        .raw_err(
            &key,
            "/v1/token/eth/0x1234/analyze",
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(
        short.error.message.starts_with("address:"),
        "{}",
        short.error.message
    );
    let chain = server
        .raw_err(
            &key,
            &format!("/v1/token/doge/{plain}/analyze"),
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    ensure!(
        chain.error.message.starts_with("chain:"),
        "{}",
        chain.error.message
    );
    server
        .raw_err(
            &key,
            &format!("/v1/token/analyze?chain=doge&address={plain}"),
            None,
            422,
            ErrorCode::ValidationError,
        )
        .await?;
    err(
        client.token_meta_get(arg("arb"), &arg(&plain), None).await,
        422,
        ErrorCode::ValidationError,
        true,
    )?;
    // The query form without its parameters, and a chain id as the path: raw HTTP.
    let http = reqwest::Client::new();
    for (url, status) in [
        (
            format!("{}/v1/token/analyze?chain=eth", server.base_url),
            400,
        ),
        (format!("{}/v1/token/analyze", server.base_url), 400),
        (format!("{}/v1/token/eth", server.base_url), 404),
    ] {
        let response = http
            .get(&url)
            .header("x-api-key", server.owner_key())
            .send()
            .await?;
        ensure!(response.status() == status, "{url}: {}", response.status());
        check_request_id(response.headers())?;
        let body: types::ApiError = response.json().await?;
        ensure!(!body.error.message.is_empty());
    }
    server.stop().await
}

conformance!(token_fresh_needs_premium_and_bypasses_the_cache);
pub async fn token_fresh_needs_premium_and_bypasses_the_cache(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let address = rig.a.token("pausable");
    let free = server.account("free", Plan::Free).await?;
    let free_client = server.client(&free.key.key);
    err(
        free_client
            .token_analyze(arg("eth"), &arg(&address), Some(true))
            .await,
        403,
        ErrorCode::PremiumRequired,
        true,
    )?;
    let cached = ok(free_client
        .token_analyze(arg("eth"), &arg(&address), None)
        .await)?
    .into_inner();
    let owner = server.client(&server.owner_key());
    server.clock.advance(Duration::seconds(10));
    let same = ok(owner.token_analyze(arg("eth"), &arg(&address), None).await)?.into_inner();
    ensure!(
        same.cached_at == cached.cached_at,
        "within the TTL the cache answers"
    );
    let fresh = ok(owner
        .token_analyze(arg("eth"), &arg(&address), Some(true))
        .await)?
    .into_inner();
    ensure!(
        fresh.cached_at > cached.cached_at,
        "fresh=true analyses again"
    );
    server.stop().await
}

conformance!(token_concurrent_requests_share_one_analysis);
pub async fn token_concurrent_requests_share_one_analysis(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let address = rig.a.token("proxy");
    let single = TestServer::start_on_rig(backend).await?;
    ok(single
        .client(&single.owner_key())
        .token_analyze(arg("eth"), &arg(&address), None)
        .await)?;
    let one = single.upstream_requests(Chain::Eth);
    single.stop().await?;

    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    let token = arg(&address);
    let answers =
        futures::future::join_all((0..40).map(|_| client.token_analyze(arg("eth"), &token, None)))
            .await;
    let mut cached_at = BTreeSet::new();
    for answer in answers {
        cached_at.insert(ok(answer)?.into_inner().cached_at);
    }
    ensure!(cached_at.len() == 1, "every request got the one analysis");
    let many = server.upstream_requests(Chain::Eth);
    ensure!(
        many == one,
        "40 concurrent requests made {many} upstream requests; one request makes {one}"
    );
    server.stop().await
}

async fn server_for(backend: Backend, chain: &RigChain, url: &str) -> anyhow::Result<TestServer> {
    let mut served = chain.clone();
    served.url = url.to_string();
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &served)]),
        ..Config::default()
    };
    config.analysis.rpc_timeout_ms = 2_000;
    config.analysis.rpc_retries = 1;
    config.analysis.rpc_backoff_ms = 50;
    TestServer::start_with(backend, config).await
}

/// A node that answers every request with HTTP 200 and a body that is not JSON.
async fn garbage_node() -> anyhow::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 65_536];
                let _ = socket.read(&mut buffer).await;
                let body = "<html>gateway says hello</html>";
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
            });
        }
    });
    Ok(url)
}

conformance!(token_upstream_failures_are_classified);
pub async fn token_upstream_failures_are_classified(backend: Backend) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    // Refused: nothing listens on that port.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        format!("http://{}", listener.local_addr()?)
    };
    let server = server_for(backend, &rig.a, &closed).await?;
    let client = server.client(&server.owner_key());
    let down = err(
        client
            .token_analyze(arg("eth"), &arg(&rig.a.token("plain")), None)
            .await,
        503,
        ErrorCode::UpstreamUnavailable,
        true,
    )?;
    ensure!(header(down.headers(), "retry-after")?.parse::<u64>()? >= 1);
    // The badge's error is a grey badge with the error's status.
    let (status, _, svg) = badge(
        client
            .token_badge_get(arg("eth"), &arg(&rig.a.token("plain")))
            .await,
    )
    .await?;
    ensure!(
        status == 503 && svg.contains(">unavailable<") && svg.contains("#9e9e9e"),
        "{svg}"
    );
    server.stop().await?;

    let garbage = garbage_node().await?;
    let server = server_for(backend, &rig.a, &garbage).await?;
    let client = server.client(&server.owner_key());
    let bad = err(
        client
            .token_analyze(arg("eth"), &arg(&rig.a.token("plain")), None)
            .await,
        502,
        ErrorCode::UpstreamError,
        true,
    )?;
    ensure!(
        bad.error.message.contains("not JSON"),
        "{}",
        bad.error.message
    );
    // Failed analyses are not billed.
    let status = ok(client.billing_status_get().await)?;
    ensure!(
        status.requests_used == 1,
        "only this billing request counts: {}",
        status.requests_used
    );
    server.stop().await
}

conformance!(token_cached_result_is_served_stale_when_the_node_stops);
pub async fn token_cached_result_is_served_stale_when_the_node_stops(
    backend: Backend,
) -> anyhow::Result<()> {
    // Its own node: this test stops it.
    let (mut anvil, chain) = rig::own_scenario(31339).await?;
    let server = server_for(backend, &chain, &anvil.url).await?;
    let client = server.client(&server.owner_key());
    let first = ok(client
        .token_analyze(arg("eth"), &arg(&chain.token("plain")), None)
        .await)?
    .into_inner();
    anvil.stop();
    server.clock.advance(Duration::seconds(301));
    let stale = ok(client
        .token_analyze(arg("eth"), &arg(&chain.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(stale.stale && stale.cached_at == first.cached_at && stale.score == first.score);
    let explanation = ok(client
        .token_explanation_get(arg("eth"), &arg(&chain.token("plain")), None)
        .await)?
    .into_inner();
    ensure!(explanation.stale && explanation.summary.contains("earlier analysis"));
    let uncached = err(
        client
            .token_analyze(arg("eth"), &arg(&chain.token("mintable")), None)
            .await,
        503,
        ErrorCode::UpstreamUnavailable,
        true,
    )?;
    ensure!(header(uncached.headers(), "retry-after").is_ok());
    server.stop().await
}

conformance!(token_explanation_and_badge);
pub async fn token_explanation_and_badge(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let explanation = ok(client
        .token_explanation_get(arg("eth"), &arg(&rig.a.token("mintable")), None)
        .await)?
    .into_inner();
    ensure!(
        explanation.summary.starts_with("MINT on eth scores"),
        "{}",
        explanation.summary
    );
    ensure!(
        explanation.summary.contains("supply can be minted"),
        "{}",
        explanation.summary
    );
    ensure!(explanation
        .signals
        .iter()
        .any(|s| s.id.to_string() == "mint_capability"
            && s.meaning.contains("New tokens can be created")));
    ensure!(explanation
        .signals
        .iter()
        .all(|s| !s.numbers.is_empty() && !s.meaning.is_empty()));
    ensure!(explanation.not_checked.is_empty());
    let no_pool = ok(client
        .token_explanation_get(arg("eth"), &arg(&rig.a.token("bytes32")), None)
        .await)?
    .into_inner();
    ensure!(no_pool
        .not_checked
        .iter()
        .any(|c| c.id.to_string() == "low_liquidity" && !c.reason.is_empty()));
    ensure!(
        no_pool.summary.contains("could not be made"),
        "{}",
        no_pool.summary
    );

    for (token, label, colour) in [
        ("plain", "safe", "#2e7d32"),
        ("whale", "critical", "#b71c1c"),
        ("pausable", "caution", "#b26a00"),
    ] {
        let (status, headers, svg) = badge(
            client
                .token_badge_get(arg("eth"), &arg(&rig.a.token(token)))
                .await,
        )
        .await?;
        ensure!(status == 200 && header(&headers, "cache-control")? == "private, max-age=300");
        let document = roxmltree::Document::parse(&svg)
            .with_context(|| format!("badge is not well-formed XML: {svg}"))?;
        let root = document.root_element();
        ensure!(root.tag_name().name() == "svg" && root.attribute("role") == Some("img"));
        let title = root
            .children()
            .find(|n| n.has_tag_name("title"))
            .context("<title>")?
            .text()
            .unwrap_or_default();
        ensure!(
            title.contains(label) && title.contains(&rig.a.token(token)),
            "{title}"
        );
        ensure!(svg.contains(colour), "{token}: colour {colour}");
        ensure!(svg.contains(&format!(">{label} ")), "{token}: label text");
    }
    server.stop().await
}

conformance!(token_allowlist_and_lockers_come_from_the_configuration);
pub async fn token_allowlist_and_lockers_come_from_the_configuration(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = rig::shared()?;
    let mut config = Config {
        chains: rig::chains_config(&[("eth", &rig.a)]),
        ..Config::default()
    };
    // Treat the deployer, who holds the mintable token's LP tokens, as a locker.
    config.chains.get_mut("eth").context("eth")?.lp_lockers =
        vec![rig.a.deployer.to_checksum(None)];
    config.allowlist = vec![riskintel_server::config::AllowlistEntry {
        chain: "eth".into(),
        address: rig.a.token("mintable"),
        issuer: "Rig Bank".into(),
        reason: "a regulated test issuer".into(),
    }];
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());
    let mintable = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("mintable")), None)
        .await)?
    .into_inner();
    let mint = signal(&mintable, "mint_capability")?;
    ensure!(
        mint.severity == types::Severity::Info && mint.weight == 0.0,
        "{mint:?}"
    );
    ensure!(
        mint.detail.contains("Rig Bank") && mint.detail.contains("a regulated test issuer"),
        "{}",
        mint.detail
    );
    let ids = signal_ids(&mintable);
    ensure!(
        !ids.contains("lp_unlocked"),
        "LP held by a configured locker counts as locked: {ids:?}"
    );
    let pool = &mintable.meta.pools[0];
    ensure!(
        pool.lp_locked_share.context("locked share")? > 0.99
            && pool.lp_burned_share.context("burned")? < 0.01,
        "{pool:?}"
    );
    // Other tokens are unaffected by the entry.
    let blacklist = ok(client
        .token_analyze(arg("eth"), &arg(&rig.a.token("blacklist")), None)
        .await)?
    .into_inner();
    ensure!(signal(&blacklist, "blacklist_capability")?.severity == types::Severity::High);
    server.stop().await
}

conformance!(token_analyses_are_deterministic);
/// On an unchanged chain, analysing a token again (`fresh=true`, so the
/// chain is read again and the holder index resumes from what it stored)
/// gives the same score, label, signals and coverage, for every rig token.
pub async fn token_analyses_are_deterministic(backend: Backend) -> anyhow::Result<()> {
    let server = TestServer::start_on_rig(backend).await?;
    let rig = rig::shared()?;
    let client = server.client(&server.owner_key());
    let mut compared = 0;
    for name in rig.a.tokens.keys() {
        let address = rig.a.token(name);
        let first = client.token_analyze(arg("eth"), &arg(&address), None).await;
        let again = client
            .token_analyze(arg("eth"), &arg(&address), Some(true))
            .await;
        match (first, again) {
            (Ok(first), Ok(again)) => {
                let (first, again) = (first.into_inner(), again.into_inner());
                ensure!(
                    first.as_of_block == again.as_of_block,
                    "{name}: the chain moved under the test"
                );
                ensure!(
                    first.score == again.score && first.label == again.label,
                    "{name}: {} {:?} then {} {:?}",
                    first.score,
                    first.label,
                    again.score,
                    again.label
                );
                ensure!(
                    serde_json::to_value(&first.coverage)?
                        == serde_json::to_value(&again.coverage)?,
                    "{name}: coverage changed: {:?} then {:?}",
                    first.coverage,
                    again.coverage
                );
                ensure!(
                    serde_json::to_value(&first.signals)? == serde_json::to_value(&again.signals)?,
                    "{name}: signals changed"
                );
                compared += 1;
            }
            (Err(first), Err(again)) => ensure!(
                first.status() == again.status(),
                "{name}: {first} then {again}"
            ),
            (first, again) => anyhow::bail!(
                "{name}: {:?} then {:?}",
                first.map(|_| "ok"),
                again.map(|_| "ok")
            ),
        }
    }
    ensure!(compared >= 10, "only {compared} tokens compared");
    server.stop().await
}

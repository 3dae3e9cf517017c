//! Address screening through the generated client: the OFAC SDN list in
//! its published forms (XML from a local HTTP server on a schedule, the CSV
//! with its comments file by hand) and an operator's list, matched in any
//! case, versions applied (a delisting shows; a cut or emptied list keeps
//! the previous one), stale lists said so, batches of 1,000 with per-item
//! errors, and bad inputs refused in the envelope.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{ensure, Context as _};
use riskintel_client::types;
use riskintel_server::screening::ScreeningSource;
use riskintel_tests::rig::random_address;
use riskintel_tests::{arg, metric, ok, within, Backend, TestServer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A local HTTP server answering every request with what it holds now.
struct ListServer {
    body: Arc<Mutex<(u16, String)>>,
    url: String,
}

impl ListServer {
    async fn start() -> anyhow::Result<ListServer> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/SDN.XML", listener.local_addr()?);
        let body = Arc::new(Mutex::new((200, String::new())));
        let held = body.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let held = held.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let (status, text) = held.lock().expect("list lock").clone();
                    let answer = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: text/xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
                        text.len()
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                });
            }
        });
        Ok(ListServer { body, url })
    }

    fn serve(&self, status: u16, text: String) {
        *self.body.lock().expect("list lock") = (status, text);
    }
}

/// An SDN entry: uid, name, and its (currency code, address) ids.
type Entry<'a> = (u32, &'a str, Vec<(&'a str, String)>);

/// The legacy SDN XML as the Treasury publishes it (its 2024 namespace).
fn sdn_xml(published: &str, entries: &[Entry]) -> String {
    let mut xml = format!(
        "<?xml version=\"1.0\" standalone=\"yes\"?>\n<sdnList xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns=\"https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML\">\n  \
         <publshInformation>\n    <Publish_Date>{published}</Publish_Date>\n    <Record_Count>{}</Record_Count>\n  </publshInformation>\n",
        entries.len()
    );
    for (uid, name, ids) in entries {
        xml.push_str(&format!(
            "  <sdnEntry>\n    <uid>{uid}</uid>\n    <lastName>{name}</lastName>\n    <sdnType>Entity</sdnType>\n    \
             <programList>\n      <program>CYBER2</program>\n    </programList>\n    <idList>\n"
        ));
        for (n, (code, address)) in ids.iter().enumerate() {
            xml.push_str(&format!(
                "      <id>\n        <uid>{}</uid>\n        <idType>Digital Currency Address - {code}</idType>\n        \
                 <idNumber>{address}</idNumber>\n      </id>\n",
                uid * 10 + n as u32
            ));
        }
        xml.push_str("    </idList>\n  </sdnEntry>\n");
    }
    xml.push_str("</sdnList>\n");
    xml
}

async fn screen(
    client: &riskintel_client::Client,
    chain: &str,
    address: &str,
) -> anyhow::Result<types::AddressScreen> {
    Ok(ok(client.address_screen(arg(chain), &arg(address)).await)?.into_inner())
}

pub async fn sanctions_lists_are_refreshed_from_their_source(
    backend: Backend,
) -> anyhow::Result<()> {
    let list = ListServer::start().await?;
    let mixer = random_address().to_checksum(None);
    let mixer_usdt = random_address().to_checksum(None);
    let delisted = random_address().to_checksum(None);
    let added = random_address().to_checksum(None);
    let trx = "TXdVp3zfGANw7S4ms4kJZ5hxQ3LxmKgVJe".to_string();
    let xbt = "bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6".to_string();
    let first = vec![
        (
            30001,
            "EXAMPLE MIXER",
            vec![("ETH", mixer.clone()), ("USDT", mixer_usdt.clone())],
        ),
        (
            30002,
            "EXAMPLE BROKER",
            vec![("XBT", xbt.clone()), ("USDT", trx.clone())],
        ),
        (30003, "EXAMPLE DELISTED", vec![("ETH", delisted.clone())]),
    ];
    list.serve(200, sdn_xml("11/20/2026", &first));

    let mut config = riskintel_server::config::Config {
        chains: Default::default(),
        ..Default::default()
    };
    config.screening.sources = vec![ScreeningSource {
        list: "ofac_sdn".into(),
        location: list.url.clone(),
        format: None,
        comments: None,
    }];
    config.screening.refresh_seconds = 1;
    config.screening.sync_ms = 50;
    let server = TestServer::start_with(backend, config).await?;
    let client = server.client(&server.owner_key());

    // Loaded on schedule; matched whatever the case, on every EVM chain.
    within(Duration::from_secs(20), "the first version", || async {
        Ok(screen(&client, "eth", &mixer.to_ascii_lowercase())
            .await?
            .sanctioned)
    })
    .await?;
    let found = screen(
        &client,
        "bsc",
        &mixer.to_ascii_uppercase().replacen("0X", "0x", 1),
    )
    .await?;
    ensure!(
        found.sanctioned && found.risk == types::ScreenRisk::Severe,
        "{found:?}"
    );
    ensure!(
        found.address == mixer,
        "written checksummed: {}",
        found.address
    );
    let m = &found.matches[0];
    ensure!(
        (
            m.list.as_str(),
            m.entry_id.as_str(),
            m.name.as_str(),
            m.listed_for.as_str(),
            m.applies
        ) == ("ofac_sdn", "30001", "EXAMPLE MIXER", "ETH", true),
        "{m:?}"
    );
    ensure!(
        found.lists.len() == 1 && found.lists[0].entries == 5,
        "{:?}",
        found.lists
    );
    ensure!(
        found.lists[0].version.starts_with("11/20/2026"),
        "{:?}",
        found.lists
    );
    ensure!(!found.stale, "fresh list said stale");
    // The same entry's second address (USDT on Ethereum).
    let usdt = screen(&client, "eth", &mixer_usdt).await?;
    ensure!(
        usdt.sanctioned && usdt.matches[0].entry_id == "30001",
        "{usdt:?}"
    );
    // An address no list names.
    let clean = screen(&client, "eth", &random_address().to_checksum(None)).await?;
    ensure!(!clean.sanctioned && clean.matches.is_empty(), "{clean:?}");
    ensure!(screen(&client, "eth", &delisted).await?.sanctioned);

    // A later version: one entry delisted, one added; an alert tells how many.
    let second = vec![
        first[0].clone(),
        first[1].clone(),
        (30004, "EXAMPLE ADDED", vec![("ETH", added.clone())]),
    ];
    list.serve(200, sdn_xml("11/27/2026", &second));
    within(Duration::from_secs(20), "the delisting", || async {
        Ok(!screen(&client, "eth", &delisted).await?.sanctioned)
    })
    .await?;
    ensure!(screen(&client, "eth", &added).await?.sanctioned);
    let alerts = ok(client
        .feed_risk_alerts_list(
            None,
            Some(types::AlertKind::SanctionsListUpdated),
            None,
            None,
            None,
            None,
        )
        .await)?
    .into_inner();
    let eth = alerts
        .items
        .iter()
        .find(|a| a.chain == "eth")
        .context("no sanctions_list_updated alert on eth")?;
    ensure!(
        eth.address == "ofac_sdn" && eth.detail.contains("1 added, 1 removed"),
        "{eth:?}"
    );

    // A copy cut short, then an empty one: both refused, the list kept.
    let full = sdn_xml("12/04/2026", &second);
    list.serve(200, full[..full.len() / 2].to_string());
    let refused = |outcome: &'static str| {
        let server = &server;
        async move {
            let text = server.metrics().await?;
            Ok::<_, anyhow::Error>(
                metric(
                    &text,
                    "riskintel_screening_refreshes_total",
                    &[("outcome", outcome)],
                )
                .unwrap_or(0.0),
            )
        }
    };
    let failed_before = refused("failed").await?;
    within(Duration::from_secs(20), "a failed refresh", || async {
        Ok(refused("failed").await? > failed_before)
    })
    .await?;
    ensure!(
        screen(&client, "eth", &added).await?.sanctioned,
        "cut list replaced the full one"
    );
    list.serve(200, sdn_xml("12/05/2026", &[]));
    let refused_before = refused("refused").await?;
    within(Duration::from_secs(20), "an empty list refused", || async {
        Ok(refused("refused").await? > refused_before)
    })
    .await?;
    let kept = screen(&client, "eth", &added).await?;
    ensure!(
        kept.sanctioned && kept.lists[0].version.starts_with("11/27/2026"),
        "{kept:?}"
    );
    ensure!(server
        .log_text()
        .contains("the previous one stays in force"));

    // The source down for two days past its interval: stale, still screened.
    list.serve(500, String::new());
    server.clock.advance(chrono::Duration::days(2));
    within(Duration::from_secs(20), "a stale list", || async {
        let s = screen(&client, "eth", &added).await?;
        Ok(s.stale && s.lists[0].stale && s.sanctioned)
    })
    .await?;
    Ok(())
}
conformance!(sanctions_lists_are_refreshed_from_their_source);

/// The SDN CSV as published: no header, `-0-` for null, remarks in the last
/// column cut at 1,000 characters with the rest in the comments file.
fn sdn_csv(cut: &str, rest: &str) -> (String, String) {
    let filler = "x".repeat(40);
    let sdn = format!(
        "30101,\"EXAMPLE EXCHANGE\",-0- ,\"CYBER2\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,\"Website example.test; {filler}; Digital Currency Address - ETH {cut}\"\r\n\
         30102,\"EXAMPLE PERSON\",\"individual\",\"CYBER2\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n\u{1a}\r\n"
    );
    let comments = format!("30101,\"{rest}; alt. Digital Currency Address - XBT 1BoatSLRHtKNngkdXEeobR76b53LETtpyT.\"\r\n");
    (sdn, comments)
}

pub async fn sanctions_lists_load_by_hand_and_screen_in_batches(
    backend: Backend,
) -> anyhow::Result<()> {
    let server = TestServer::start(backend).await?;
    let key = server.owner_key();
    let client = server.client(&key);
    let dir = std::env::temp_dir().join(format!("riskintel-screening-{}", random_address()));
    std::fs::create_dir_all(&dir)?;
    let write = |name: &str, text: &str| -> anyhow::Result<String> {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        Ok(path.to_string_lossy().into_owned())
    };

    // Nothing loaded: screened against no list, nothing found.
    let nobody = random_address().to_checksum(None);
    let empty = screen(&client, "eth", &nobody).await?;
    ensure!(empty.lists.is_empty() && !empty.sanctioned, "{empty:?}");
    ensure!(empty.risk == types::ScreenRisk::None, "{empty:?}");

    // The CSV, whose address was cut at the remarks' limit and continues in
    // the comments file.
    let exchange = random_address().to_checksum(None);
    let (head, tail) = exchange.split_at(20);
    let (sdn, comments) = sdn_csv(head, tail);
    let (sdn, comments) = (
        write("sdn.csv", &sdn)?,
        write("sdn_comments.csv", &comments)?,
    );
    server
        .operator(&["screening", "load", &sdn, "--comments", &comments])
        .await?;
    // Running servers swap it in on their schedule.
    within(Duration::from_secs(20), "the CSV's list", || async {
        Ok(screen(&client, "eth", &exchange).await?.sanctioned)
    })
    .await?;
    let found = screen(&client, "eth", &exchange.to_ascii_lowercase()).await?;
    ensure!(found.matches[0].entry_id == "30101", "{found:?}");
    ensure!(found.matches[0].name == "EXAMPLE EXCHANGE", "{found:?}");

    // An operator's list: one address for bsc only, one for any chain.
    let bsc_only = random_address().to_checksum(None);
    let anywhere = random_address().to_checksum(None);
    let ours = write(
        "ours.csv",
        &format!(
            "address,chain,list,entry_id,reason\n{bsc_only},bsc,internal,I-1,phishing kit\n{anywhere},any,internal,I-2,drained users\n"
        ),
    )?;
    server.operator(&["screening", "load", &ours]).await?;
    within(Duration::from_secs(20), "the operator's list", || async {
        Ok(screen(&client, "eth", &anywhere).await?.sanctioned)
    })
    .await?;
    let elsewhere = screen(&client, "eth", &bsc_only).await?;
    ensure!(
        !elsewhere.sanctioned
            && elsewhere.matches.len() == 1
            && !elsewhere.matches[0].applies
            && elsewhere.matches[0].listed_for == "bsc",
        "an entry for bsc is reported, not applied, on eth: {elsewhere:?}"
    );
    ensure!(screen(&client, "bsc", &bsc_only).await?.sanctioned);
    ensure!(elsewhere.lists.len() == 2, "{:?}", elsewhere.lists);

    // An empty version of it is refused unless forced.
    let emptied = write("empty.csv", "address,chain,list,entry_id,reason\n")?;
    let refused = server
        .operator(&["screening", "load", &emptied, "--list", "internal"])
        .await;
    ensure!(
        refused
            .as_ref()
            .is_err_and(|e| format!("{e:#}").contains("force")),
        "{refused:?}"
    );
    ensure!(screen(&client, "bsc", &bsc_only).await?.sanctioned);

    // A batch of 1,000: mixed chains, some malformed; each answered in order.
    let mut items: Vec<types::AddressPath> = (0..990)
        .map(|_| types::AddressPath {
            chain: "eth".into(),
            address: random_address().to_checksum(None),
        })
        .collect();
    let bad = [
        ("eth", "0x1234"),
        ("eth", "0x8589427373d6D84E98730D7795D8f6f8731FDA16"), // wrong checksum
        ("btc", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"),
        ("sol", "0OIl"),
        ("bsc", "not an address"),
    ];
    for (n, (chain, address)) in bad.iter().enumerate() {
        items.insert(
            n * 100 + 7,
            types::AddressPath {
                chain: chain.to_string(),
                address: address.to_string(),
            },
        );
    }
    items.insert(
        500,
        types::AddressPath {
            chain: "eth".into(),
            address: exchange.to_ascii_lowercase(),
        },
    );
    items.insert(
        600,
        types::AddressPath {
            chain: "sol".into(),
            address: "So11111111111111111111111111111111111111112".into(),
        },
    );
    items.insert(
        700,
        types::AddressPath {
            chain: "bsc".into(),
            address: bsc_only.clone(),
        },
    );
    while items.len() < 1_000 {
        items.push(types::AddressPath {
            chain: "base".into(),
            address: random_address().to_checksum(None),
        });
    }
    let request = types::AddressScreenBatchRequest {
        items: items.clone(),
    };
    let answer = ok(client.address_batch_screen(&request).await)?.into_inner();
    ensure!(answer.results.len() == 1_000, "{}", answer.results.len());
    ensure!(
        (answer.screened, answer.failed, answer.sanctioned) == (995, 5, 2),
        "{} screened, {} failed, {} sanctioned",
        answer.screened,
        answer.failed,
        answer.sanctioned
    );
    for (asked, got) in items.iter().zip(&answer.results) {
        ensure!(
            asked.address == got.address && asked.chain == got.chain,
            "out of order"
        );
        match &got.screen {
            Some(s) => ensure!(got.status == 200 && s.facts.is_none(), "{got:?}"),
            None => {
                let error = got.error.as_ref().context("neither screen nor error")?;
                ensure!(got.status == 422, "{got:?}");
                ensure!(error.code == types::ErrorCode::ValidationError, "{got:?}");
            }
        }
    }
    ensure!(answer.results[500]
        .screen
        .as_ref()
        .is_some_and(|s| s.sanctioned));
    ensure!(answer.results[700]
        .screen
        .as_ref()
        .is_some_and(|s| s.sanctioned));
    // One past the limit is refused whole, in the envelope.
    let mut over = items.clone();
    over.push(items[0].clone());
    let refused = client
        .address_batch_screen(&types::AddressScreenBatchRequest { items: over })
        .await;
    riskintel_tests::err(refused, 422, types::ErrorCode::ValidationError, true)?;

    // Bad single inputs: the envelope, never 5xx.
    for (path, code) in [
        (
            "/v1/address/eth/0x1234/screen",
            types::ErrorCode::ValidationError,
        ),
        (
            "/v1/address/eth/0x8589427373d6D84E98730D7795D8f6f8731FDA16/screen",
            types::ErrorCode::ValidationError,
        ),
        (
            "/v1/address/sol/0x8589427373d6d84e98730d7795d8f6f8731fda16/screen",
            types::ErrorCode::ValidationError,
        ),
        (
            "/v1/address/btc/1BoatSLRHtKNngkdXEeobR76b53LETtpyT/screen",
            types::ErrorCode::ValidationError,
        ),
    ] {
        server.raw_err(&key, path, None, 422, code).await?;
    }
    // A chain this server does not read: screened from the lists, kind unknown.
    let unread = screen(&client, "bsc", &bsc_only).await?;
    ensure!(
        unread
            .facts
            .as_ref()
            .is_some_and(|f| f.kind == types::AddressKind::Unknown),
        "{unread:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
conformance!(sanctions_lists_load_by_hand_and_screen_in_batches);

/// The service's own record on the rig's corpus: the creator of three
/// honeypots is `high`, a plain token's creator has nothing against it;
/// wallet analysis and transaction simulation screen their counterparties.
pub async fn the_record_flags_serial_deployers_and_counterparties_are_screened(
    backend: Backend,
) -> anyhow::Result<()> {
    let rig = riskintel_tests::rig::shared()?;
    let server = TestServer::start_on_rig(backend).await?;
    let client = server.client(&server.owner_key());
    for name in ["serial1", "serial2", "serial3", "usdplain"] {
        ok(client
            .token_analyze(arg("eth"), &arg(rig.a.token(name)), None)
            .await)?;
    }
    let serial = rig.a.creators["serial1"].to_checksum(None);
    within(
        Duration::from_secs(20),
        "the serial deployer flagged",
        || async {
            let s = screen(&client, "eth", &serial).await?;
            Ok(s.risk == types::ScreenRisk::High
                && s.flags.iter().any(|f| {
                    f.kind == types::AddressFlagKind::CriticalTokenDeployer
                        && f.evidence.len() == 3
                        && f.seen_at.is_some()
                }))
        },
    )
    .await?;
    let s = screen(&client, "eth", &serial).await?;
    ensure!(
        !s.sanctioned && s.flags[0].risk == types::ScreenRisk::High,
        "{s:?}"
    );
    // Not on another chain: the record is per chain.
    ensure!(screen(&client, "bsc", &serial).await?.flags.is_empty());
    let plain = screen(
        &client,
        "eth",
        &rig.a.creators["usdplain"].to_checksum(None),
    )
    .await?;
    ensure!(
        plain.risk == types::ScreenRisk::None && plain.flags.is_empty(),
        "a plain deployer: {plain:?}"
    );
    let facts = plain.facts.context("facts")?;
    ensure!(
        facts.kind == types::AddressKind::Eoa && facts.tx_count.is_some_and(|n| n > 0),
        "{facts:?}"
    );
    let router = screen(&client, "eth", &rig.a.router.to_checksum(None)).await?;
    ensure!(router
        .facts
        .is_some_and(|f| f.kind == types::AddressKind::Contract));
    let fresh = screen(&client, "eth", &random_address().to_checksum(None)).await?;
    ensure!(
        fresh.risk == types::ScreenRisk::Low
            && fresh
                .flags
                .iter()
                .any(|f| f.kind == types::AddressFlagKind::NewAddress),
        "{fresh:?}"
    );

    // An operator's list names a wallet and an EOA that receives value.
    let wallet = rig.a.whale_wallet.to_checksum(None);
    let receiver = random_address();
    let dir = std::env::temp_dir().join(format!("riskintel-record-{}", random_address()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("ours.csv");
    std::fs::write(
        &path,
        format!(
            "address,chain,list,entry_id,reason\n{wallet},eth,internal,W-1,stolen funds\n{},any,internal,W-2,scam payouts\n",
            receiver.to_checksum(None)
        ),
    )?;
    server
        .operator(&["screening", "load", &path.to_string_lossy()])
        .await?;
    let _ = std::fs::remove_dir_all(&dir);
    within(Duration::from_secs(20), "the operator's list", || async {
        Ok(screen(&client, "eth", &wallet).await?.sanctioned)
    })
    .await?;
    let analysed = ok(client.wallet_analyze(arg("eth"), &arg(&wallet)).await)?.into_inner();
    ensure!(
        analysed
            .screened
            .iter()
            .any(|p| p.role == types::PartyRole::Wallet
                && p.sanctioned
                && p.findings.iter().any(|f| f.contains("W-1"))),
        "{:?}",
        analysed.screened
    );
    let sender = random_address();
    let url = rig.a.url.clone();
    tokio::task::spawn_blocking(move || {
        riskintel_tests::rig::Node::new(&url).call(
            "anvil_setBalance",
            serde_json::json!([sender, format!("{:#x}", riskintel_tests::rig::e18(10))]),
        )
    })
    .await??;
    let sending = super::presign::call(
        sender,
        receiver,
        Vec::new(),
        Some(riskintel_tests::rig::e18(1)),
    );
    let simulated = ok(client.tx_simulate(&sending).await)?.into_inner();
    ensure!(
        simulated.verdict == types::PresignVerdict::Malicious
            && simulated
                .risks
                .iter()
                .any(|r| r.kind == types::RiskKind::SanctionedCounterparty),
        "{:?}",
        simulated.risks
    );
    Ok(())
}
conformance!(the_record_flags_serial_deployers_and_counterparties_are_screened);

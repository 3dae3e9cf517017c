//! The Risk Intelligence Service: HTTP server, domain logic and storage.

pub mod accounts;
pub mod billing;
pub mod chains;
pub mod cli;
pub mod clock;
pub mod config;
pub mod feed;
pub mod http;
pub mod keys;
pub mod logging;
pub mod market;
pub mod metering;
pub mod scoring;
pub mod sentiment;
pub mod simulation;
pub mod store;
pub mod tokens;
pub mod wallets;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use dropshot::{ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder};
use riskintel_api::risk_intel_api_mod;

use crate::accounts::NewAccount;
use crate::clock::Clock;
use crate::config::Config;
use crate::http::{RiskIntelImpl, ServerContext};
use crate::store::Store;

/// How to run a server.
pub struct ServerOptions {
    /// Configuration.
    pub config: Config,
    /// Time source (tests inject a manual clock).
    pub clock: Arc<dyn Clock>,
    /// Logger.
    pub log: slog::Logger,
    /// Whether to create the owner account on an empty database.
    pub bootstrap: bool,
}

/// A running server.
pub struct RunningServer {
    server: HttpServer<ServerContext>,
    pruner: tokio::task::JoinHandle<()>,
    indexer: Option<tokio::task::JoinHandle<()>>,
    stop_indexer: tokio::sync::watch::Sender<bool>,
    /// The address it listens on.
    pub local_addr: SocketAddr,
    /// The owner account created on this start, if the database was empty.
    pub bootstrapped: Option<NewAccount>,
    /// Its store.
    pub store: Arc<dyn Store>,
    /// Its analysis engine (upstream request counts, for tests and benchmarks).
    pub analyzer: Arc<tokens::Analyzer>,
}

impl RunningServer {
    /// Stop accepting requests, finish those in flight, and close the store.
    pub async fn close(self) -> anyhow::Result<()> {
        self.pruner.abort();
        // Let the market index finish the poll under way, so what it read is
        // stored with the alerts it means.
        let _ = self.stop_indexer.send(true);
        if let Some(indexer) = self.indexer {
            let abort = indexer.abort_handle();
            if tokio::time::timeout(Duration::from_secs(30), indexer)
                .await
                .is_err()
            {
                abort.abort();
            }
        }
        let result = self
            .server
            .close()
            .await
            .map_err(|e| anyhow::anyhow!("closing server: {e}"));
        self.store.close().await;
        result
    }

    /// Wait until the server stops on its own (it does not, short of an error).
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        (&mut self.server).await.map_err(|e| anyhow::anyhow!(e))
    }
}

/// Open the store, migrate it, bootstrap the owner if asked, and start serving.
pub async fn start(options: ServerOptions) -> anyhow::Result<RunningServer> {
    let ServerOptions {
        config,
        clock,
        log,
        bootstrap,
    } = options;
    let bind_address: SocketAddr = config
        .listen
        .parse()
        .with_context(|| format!("listen address {:?} is not IP:PORT", config.listen))?;
    let store = store::open(&config.database_url)
        .await
        .with_context(|| format!("opening database {}", redact_url(&config.database_url)))?;
    let bootstrapped = if bootstrap {
        accounts::bootstrap_owner(&store, &clock).await?
    } else {
        None
    };

    let a = &config.analysis;
    let rpc = chains::rpc::RpcSettings {
        timeout: Duration::from_millis(a.rpc_timeout_ms),
        retries: a.rpc_retries,
        backoff: Duration::from_millis(a.rpc_backoff_ms),
        concurrency: a.rpc_concurrency as usize,
    };
    let chains = Arc::new(chains::registry::Chains::from_config(
        &config.chains,
        &rpc,
        config.market.rpc_concurrency,
    )?);
    let analyzer = Arc::new(tokens::Analyzer::new(
        &config,
        chains,
        store.clone(),
        clock.clone(),
    )?);
    let context = ServerContext::new(
        store.clone(),
        clock.clone(),
        config.auth.failed_auth_per_minute,
        analyzer.clone(),
    );
    let meter = context.meter.clone();
    let api = risk_intel_api_mod::api_description::<RiskIntelImpl>()
        .map_err(|e| anyhow::anyhow!("building the API description: {e}"))?;
    let dropshot_config = ConfigDropshot {
        bind_address,
        default_request_body_max_bytes: config.request_body_max_bytes,
        default_handler_task_mode: HandlerTaskMode::Detached,
        ..Default::default()
    };
    let server = ServerBuilder::new(api, context, log.new(slog::o!("component" => "http")))
        .config(dropshot_config)
        .start()
        .map_err(|e| anyhow::anyhow!("starting the HTTP server on {bind_address}: {e}"))?;
    let local_addr = server.local_addr();
    riskintel_api::error::set_docs_base_url(&if config.docs_base_url.is_empty() {
        let host = if local_addr.ip().is_unspecified() {
            SocketAddr::new([127, 0, 0, 1].into(), local_addr.port())
        } else {
            local_addr
        };
        format!("http://{host}/docs/errors")
    } else {
        config.docs_base_url.clone()
    });

    let (stop_indexer, stop) = tokio::sync::watch::channel(false);
    let indexer = if config.market.enabled {
        let indexer = Arc::new(market::indexer::Indexer::new(
            &config.market,
            analyzer.clone(),
            store.clone(),
            clock.clone(),
        ));
        Some(tokio::spawn(
            indexer.run(log.new(slog::o!("component" => "market-index")), stop),
        ))
    } else {
        None
    };
    let prune_log = log.new(slog::o!("component" => "metering"));
    let pruner = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            if let Err(error) = meter.prune().await {
                slog::warn!(prune_log, "pruning rate windows failed"; "error" => %error);
            }
        }
    });
    slog::info!(log, "listening"; "address" => %local_addr, "database" => store.backend());
    Ok(RunningServer {
        server,
        pruner,
        indexer,
        stop_indexer,
        local_addr,
        bootstrapped,
        store,
        analyzer,
    })
}

/// A database URL without its password, for messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{}:***{}", &url[..scheme_end + 3], user, &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

//! The Risk Intelligence Service: HTTP server, domain logic and storage.

pub mod accounts;
pub mod billing;
pub mod cli;
pub mod config;
pub mod connections;
pub mod disputes;
pub mod feed;
pub mod http;
pub mod keys;
pub mod leases;
pub mod logging;
pub mod market;
pub mod metering;
mod redact;
pub mod screening;
pub mod sentiment;
pub mod tasks;
pub mod telemetry;
pub mod webhooks;

pub use redact::redact_url;

// The floors below, under the names the server's modules use.
pub use riskintel_analysis::{scoring, simulation, tokens, wallets};
pub use riskintel_chains as chains;
pub use riskintel_store as store;
pub use riskintel_store::clock;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use dropshot::{ConfigDropshot, HandlerTaskMode, HttpServer, ServerBuilder};
use riskintel_api::risk_intel_api_mod;

use crate::accounts::NewAccount;
use crate::config::Config;
use crate::http::{RiskIntelImpl, ServerContext};
use riskintel_store::clock::Clock;
use riskintel_store::Store;

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
    /// The metrics listener, unless `metrics_listen` is empty.
    metrics: Option<HttpServer<()>>,
    /// The open connections, cut when a shutdown runs out of time.
    gate: Arc<connections::Gate>,
    shutdown_timeout: Duration,
    /// The background loops: market index, key sync, rate sync, usage
    /// flush, webhook worker, pruning.
    tasks: tasks::Tasks,
    meter: metering::Meter,
    key_uses: Arc<keys::KeyUses>,
    leases: leases::Leases,
    /// The address it listens on.
    pub local_addr: SocketAddr,
    /// The metrics listener's address, unless `metrics_listen` is empty.
    pub metrics_addr: Option<SocketAddr>,
    /// The owner account created on this start, if the database was empty.
    pub bootstrapped: Option<NewAccount>,
    /// Its store.
    pub store: Arc<dyn Store>,
    /// Its analysis engine (upstream request counts, for tests and benchmarks).
    pub analyzer: Arc<tokens::Analyzer>,
}

impl RunningServer {
    /// Stop accepting requests, finish those in flight, and close the store.
    pub async fn close(mut self) -> anyhow::Result<()> {
        // Key sync ends; the market index finishes the poll under way, so
        // what it read is stored with the alerts it means.
        self.tasks.stop(tasks::Stage::BeforeRequests).await;
        // Stop accepting; idle connections close at once, requests under
        // way are answered (a head or body still arriving within its own
        // limit); what is left when the time is up is cut.
        let result = match tokio::time::timeout(self.shutdown_timeout, self.server.close()).await {
            Ok(closed) => closed.map_err(|e| anyhow::anyhow!("closing server: {e}")),
            Err(_) => {
                self.gate.cut();
                self.gate.drained(Duration::from_millis(100)).await;
                Ok(())
            }
        };
        if let Some(metrics) = self.metrics {
            let _ = metrics.close().await;
        }
        // Requests in flight are answered: their usage is written before the
        // database closes, then the last counts of this minute are published
        // for the instances that go on (or a restart).
        self.tasks.stop(tasks::Stage::AfterRequests).await;
        // The index has stopped: its chains are another instance's at once.
        self.leases.release().await;
        let flushed = self.meter.flush_usage(&self.key_uses).await;
        let _ = self.meter.sync_windows().await;
        let result = result.and(flushed.map_err(|e| anyhow::anyhow!("writing monthly usage: {e}")));
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
    // The recorder first: the floors below record through the facade.
    telemetry::handle();
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
    let timeouts = store::Timeouts {
        acquire: Duration::from_millis(config.database_acquire_timeout_ms.max(1)),
        query: Duration::from_millis(config.database_query_timeout_ms.max(1)),
    };
    // Metrics first: a taken metrics port fails the start before any work.
    let metrics = telemetry::endpoint::serve(
        &config.metrics_listen,
        &log.new(slog::o!("component" => "metrics")),
    )?;
    let metrics_addr = metrics.as_ref().map(|m| m.local_addr());
    let store = store::open_with(&config.database_url, timeouts)
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
        &log.new(slog::o!("component" => "upstream")),
    )?);
    let analyzer = Arc::new(tokens::Analyzer::new(
        &config.analysis,
        &config.allowlist,
        chains,
        store.clone(),
        clock.clone(),
    )?);
    // The jobs one instance is enough for: each chain's market index and
    // the pruning, elected among the instances sharing PostgreSQL.
    let instance = leases::instance_name(&config.instance);
    let leased = lease_names(&config, &analyzer);
    let leases = if store.backend() == "postgres" {
        leases::Leases::shared(
            &instance,
            store.clone(),
            clock.clone(),
            Duration::from_millis(config.market.lease_ms.max(30)),
            leased,
        )
    } else {
        leases::Leases::solo(&instance, leased)
    };
    if let Err(e) = leases.renew().await {
        slog::warn!(log, "taking the leases failed; retried every third of a lease"; "error" => %e);
    }
    // The sanctions lists stored, in memory before the first request.
    let screening = Arc::new(riskintel_analysis::screening::Screening::new(
        analyzer.clone(),
        store.clone(),
        clock.clone(),
        config.screening.refreshed(),
    ));
    match screening.reload().await {
        Ok(loaded) => telemetry::screening_entries(loaded.addresses),
        Err(e) => {
            slog::warn!(log, "reading the sanctions lists failed; retried on the screening schedule"; "error" => %e)
        }
    }
    let mut context = ServerContext::new(
        store.clone(),
        clock.clone(),
        &config.auth,
        analyzer.clone(),
        wallets::Wallets::new(
            analyzer.clone(),
            store.clone(),
            clock.clone(),
            &config.analysis,
            screening.clone(),
        ),
        request_deadline(&config),
        &config.webhooks,
        leases.clone(),
        screening.clone(),
    )?;
    context.market.set_indexing(config.market.enabled);
    let meter = context.meter.clone();
    let context_wake = context.webhooks.wake();
    let context_sealer = context.webhooks.sealer();
    // Secrets stored before the sealing key was set are sealed now.
    match context.webhooks.seal_stored().await {
        Ok(0) => {}
        Ok(count) => {
            slog::info!(log, "sealed stored webhook signing secrets"; "subscriptions" => count)
        }
        Err(e) => {
            slog::warn!(log, "sealing stored webhook signing secrets failed; they stay readable as they are"; "error" => %e)
        }
    }
    // The other instances' counts of this minute before the first request
    // (a restarted instance included): a limit never restarts with the server.
    if let Err(e) = meter.sync_windows().await {
        slog::warn!(log, "reading the shared rate-window counts failed; this instance counts alone until it works"; "error" => %e);
    }
    let key_uses = context.keys.uses().clone();
    let mut tasks = tasks::Tasks::new(log.new(slog::o!("component" => "tasks")));
    tasks.spawn(
        "key_sync",
        tasks::Stage::BeforeRequests,
        tasks::Ending::Aborted,
        |_stop| {
            keys::sync(
                store.clone(),
                context.keys.cache().clone(),
                Duration::from_millis(config.auth.key_sync_ms.max(10)),
                log.new(slog::o!("component" => "keys")),
            )
        },
    );
    // The operator's overrides as every view shows them, before the first
    // request, then kept current (and ended on time) once a second.
    let disputes = Arc::new(disputes::sync::DisputeSync::new(
        store.clone(),
        clock.clone(),
        analyzer.overrides().clone(),
    ));
    if let Err(e) = disputes.round().await {
        slog::warn!(log, "reading the label overrides failed; retried every second"; "error" => %e);
    }
    tasks.every(
        "dispute_sync",
        tasks::Stage::BeforeRequests,
        disputes::sync::EVERY,
        "reading the label overrides failed; the last ones read stay shown",
        move || {
            let disputes = disputes.clone();
            async move { disputes.round().await }
        },
    );
    // Sanctions lists: the sources refreshed by the maintenance lease's
    // holder, the stored versions and the service's record read by every
    // instance; the drainer pattern looked for less often.
    let refresher = Arc::new(screening::Refresher::new(
        &config.screening,
        store.clone(),
        clock.clone(),
        screening.clone(),
        log.new(slog::o!("component" => "screening")),
    ));
    let every = Duration::from_millis(config.screening.sync_ms.max(10));
    tasks.every(
        "screening_sources",
        tasks::Stage::BeforeRequests,
        every,
        "reading the stored sanctions lists' versions failed; no source is read until it works",
        {
            let (refresher, leases) = (refresher.clone(), leases.clone());
            move || {
                let (refresher, leases) = (refresher.clone(), leases.clone());
                async move {
                    if !leases.holds(leases::MAINTENANCE) {
                        return Ok(());
                    }
                    refresher.refresh_due().await
                }
            }
        },
    );
    tasks.every(
        "screening",
        tasks::Stage::BeforeRequests,
        every,
        "reading the sanctions lists or the service's record failed; what is in memory stays in force",
        {
            let (refresher, screening, store) =
                (refresher.clone(), screening.clone(), store.clone());
            move || {
                let (refresher, screening, store) =
                    (refresher.clone(), screening.clone(), store.clone());
                async move {
                    let lists = refresher.reload().await;
                    let record = screening.intel().catch_up(&*store).await;
                    lists.and(record)
                }
            }
        },
    );
    tasks.every(
        "screening_drainers",
        tasks::Stage::BeforeRequests,
        Duration::from_secs(config.screening.drainers_seconds.max(1)),
        "looking for the drainer pattern failed",
        {
            let (screening, store, clock) = (screening.clone(), store.clone(), clock.clone());
            move || {
                let (screening, store, clock) = (screening.clone(), store.clone(), clock.clone());
                async move {
                    screening
                        .intel()
                        .refresh_drainers(&*store, clock.now())
                        .await
                }
            }
        },
    );
    let api = risk_intel_api_mod::api_description::<RiskIntelImpl>()
        .map_err(|e| anyhow::anyhow!("building the API description: {e}"))?;
    let dropshot_config = ConfigDropshot {
        bind_address,
        default_request_body_max_bytes: config.request_body_max_bytes,
        default_handler_task_mode: HandlerTaskMode::Detached,
        ..Default::default()
    };
    let gate = connections::Gate::new(
        &config.connections,
        request_deadline(&config),
        log.new(slog::o!("component" => "connections")),
    );
    let server = ServerBuilder::new(api, context, log.new(slog::o!("component" => "http")))
        .config(dropshot_config)
        .connections(gate.dropshot())
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

    if config.market.enabled {
        let indexer = Arc::new(
            market::indexer::Indexer::new(
                &config.market,
                analyzer.clone(),
                store.clone(),
                clock.clone(),
            )
            .with_alert_signal(context_wake.clone())
            .with_leases(leases.clone()),
        );
        let log = log.new(slog::o!("component" => "market-index"));
        tasks.spawn(
            "market_index",
            tasks::Stage::BeforeRequests,
            tasks::Ending::Signalled(Duration::from_secs(30)),
            |stop| indexer.run(log, stop),
        );
    }
    // The metrics' samples drained on a schedule, scraped or not, so memory
    // stays flat however many requests are answered.
    tasks.every(
        "metrics_upkeep",
        tasks::Stage::AfterRequests,
        telemetry::UPKEEP_EVERY,
        "draining the metrics failed",
        || async {
            telemetry::scheduled_upkeep();
            Ok::<(), std::convert::Infallible>(())
        },
    );
    // Metering's database work, each on its own interval; stopped after
    // the last request (a run under way finishes first).
    let m = &config.metering;
    tasks.every(
        "rate_sync",
        tasks::Stage::AfterRequests,
        Duration::from_millis(m.rate_sync_ms.max(10)),
        "sharing rate-window counts failed; this instance counts alone until it works",
        {
            let meter = meter.clone();
            move || {
                let meter = meter.clone();
                async move { meter.sync_windows().await }
            }
        },
    );
    tasks.every(
        "usage_flush",
        tasks::Stage::AfterRequests,
        Duration::from_millis(m.usage_flush_ms.max(10)),
        "writing monthly usage failed; the counts are kept and written when it works",
        {
            let meter = meter.clone();
            let key_uses = key_uses.clone();
            move || {
                let (meter, key_uses) = (meter.clone(), key_uses.clone());
                async move { meter.flush_usage(&key_uses).await }
            }
        },
    );
    // Webhook deliveries, every `poll_ms` and at once when this instance
    // records an alert or a test event; an attempt under way is finished
    // (and recorded) before the store closes.
    if config.webhooks.enabled {
        let deliverer = webhooks::deliver::Deliverer::new(
            store.clone(),
            clock.clone(),
            &config.webhooks,
            context_sealer,
            log.new(slog::o!("component" => "webhooks")),
        )
        .with_leases(leases.clone());
        let every = Duration::from_millis(config.webhooks.poll_ms.max(10));
        let wake = context_wake.clone();
        tasks.spawn(
            "webhook_worker",
            tasks::Stage::AfterRequests,
            tasks::Ending::Signalled(Duration::from_secs(3_600)),
            |stop| deliverer.run(every, wake, stop),
        );
    }
    // The leases renewed (or taken) every third of one; stopped with the
    // writers, after the index, and given up when the server closes.
    if let Some(every) = leases.renew_every() {
        tasks.every(
            "leases",
            tasks::Stage::AfterRequests,
            every,
            "renewing the leases failed; this instance leads nothing until it works",
            {
                let leases = leases.clone();
                move || {
                    let leases = leases.clone();
                    async move { leases.renew().await }
                }
            },
        );
    }
    tasks.every(
        "pruning",
        tasks::Stage::AfterRequests,
        Duration::from_secs(60),
        "pruning rate windows failed",
        {
            let (meter, leases) = (meter.clone(), leases.clone());
            move || {
                let (meter, leases) = (meter.clone(), leases.clone());
                async move {
                    if !leases.holds(leases::MAINTENANCE) {
                        return Ok(());
                    }
                    meter.prune().await.map(|_| ())
                }
            }
        },
    );
    slog::info!(log, "listening"; "address" => %local_addr, "database" => store.backend(),
        "max_connections" => gate.max_connections,
        "metrics" => metrics_addr.map(|a| format!("http://{a}/metrics")),
        "background_tasks" => tasks.names().join(","));
    Ok(RunningServer {
        server,
        metrics,
        gate,
        shutdown_timeout: Duration::from_millis(config.connections.shutdown_timeout_ms.max(1)),
        tasks,
        meter,
        key_uses,
        leases,
        local_addr,
        metrics_addr,
        bootstrapped,
        store,
        analyzer,
    })
}

/// The leases this instance asks for: the market index of every chain it
/// serves (when the index runs), and the maintenance jobs'.
fn lease_names(config: &Config, analyzer: &tokens::Analyzer) -> Vec<String> {
    let chains = analyzer.chains();
    let indexed = (chains.evm_chains().map(|(chain, _)| chain))
        .chain(chains.solana().ok().map(|_| riskintel_chains::Chain::Sol))
        .filter(|_| config.market.enabled)
        .map(leases::market);
    indexed
        .chain(std::iter::once(leases::MAINTENANCE.to_string()))
        .collect()
}

/// The longest a metered request may take: its analysis deadline or one
/// connection wait and statement, whichever is longer, plus a second.
fn request_deadline(config: &Config) -> Duration {
    let database = config.database_acquire_timeout_ms + config.database_query_timeout_ms;
    Duration::from_millis(config.analysis.deadline_ms.max(database) + 1_000)
}

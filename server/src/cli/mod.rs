//! The `riskintel` command line: serving, accounts and keys (this
//! module), reports and overrides ([`disputes`]), sanctions lists
//! ([`screening`]).

mod disputes;
mod screening;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context as _};
use clap::{Args, Parser, Subcommand};
use riskintel_api::Scope;
use serde_json::json;

use crate::accounts::{self, parse_plan};
use crate::config::Config;
use crate::keys::Keys;
use crate::logging::{self, LogSink};
use riskintel_store::clock::{Clock, SystemClock};
use riskintel_store::{self as store, Store};

/// Risk Intelligence Service: token risk scores over a JSON HTTP API.
#[derive(Debug, Parser)]
#[command(name = "riskintel", version, about)]
pub struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Args)]
struct GlobalArgs {
    /// TOML configuration file; every key can also be set as RISKINTEL_<KEY>.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Database URL (sqlite://FILE or postgres://…); overrides the configuration.
    #[arg(long, global = true, value_name = "URL")]
    database_url: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server. On an empty database, creates an owner account on
    /// Pro+ and prints its key once.
    Serve {
        /// Address to listen on (IP:PORT); overrides the configuration.
        #[arg(long, value_name = "ADDR")]
        listen: Option<String>,
        /// Do not create the owner account on an empty database.
        #[arg(long)]
        no_bootstrap: bool,
    },
    /// Apply pending database migrations and exit.
    Migrate,
    /// Manage accounts.
    #[command(subcommand)]
    Accounts(AccountsCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Users' reports of verdicts: list them, answer them.
    #[command(subcommand)]
    Reports(disputes::ReportsCommand),
    /// The operator's overrides of tokens' labels.
    #[command(subcommand)]
    Overrides(disputes::OverridesCommand),
    /// Sanctions lists: load one by hand, list those stored.
    #[command(subcommand)]
    Screening(screening::ScreeningCommand),
    /// Print the OpenAPI document.
    Openapi,
}

#[derive(Debug, Subcommand)]
enum AccountsCommand {
    /// Create an account and its first key (every scope); prints the key once.
    Create {
        /// Account name.
        #[arg(long)]
        name: String,
        /// Plan: free, pro or pro_plus.
        #[arg(long, default_value = "free")]
        plan: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Change an account's plan.
    SetPlan {
        /// Account id (acct_…).
        #[arg(long)]
        account: String,
        /// Plan: free, pro or pro_plus.
        #[arg(long)]
        plan: String,
    },
    /// List accounts.
    List {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Create a key for an account; prints it once.
    Create {
        /// Account id (acct_…).
        #[arg(long)]
        account: String,
        /// Key name, unique among the account's keys.
        #[arg(long)]
        name: String,
        /// A scope to grant (repeatable); default: every read scope.
        #[arg(long = "scope", value_name = "SCOPE")]
        scopes: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List an account's active keys (never their secrets).
    List {
        /// Account id (acct_…).
        #[arg(long)]
        account: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a key at once.
    Revoke {
        /// Key id (the <id> of ri_live_<id>.<secret>).
        #[arg(long)]
        key_id: String,
    },
}

/// Run the command line with the process's arguments and environment.
pub async fn main() -> anyhow::Result<()> {
    execute(Cli::parse(), std::env::vars(), Arc::new(SystemClock)).await
}

/// Run one command line, as `riskintel ARGS…` would with the environment
/// `env`, timed by `clock` (the tests' operator uses it).
pub async fn run(
    args: impl IntoIterator<Item = String>,
    env: impl IntoIterator<Item = (String, String)>,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<()> {
    execute(Cli::try_parse_from(args)?, env, clock).await
}

async fn execute(
    cli: Cli,
    env: impl IntoIterator<Item = (String, String)>,
    clock: Arc<dyn Clock>,
) -> anyhow::Result<()> {
    let mut config = Config::load(cli.global.config.as_deref(), env)?;
    if let Some(url) = cli.global.database_url {
        config.database_url = url;
    }
    match cli.command {
        Command::Serve {
            listen,
            no_bootstrap,
        } => {
            if let Some(listen) = listen {
                config.listen = listen;
            }
            serve(config, clock, !no_bootstrap).await
        }
        Command::Openapi => {
            print!("{}", riskintel_api::openapi_document());
            Ok(())
        }
        Command::Migrate => {
            let store = open(&config).await?;
            store.close().await;
            println!(
                "database {} is up to date",
                crate::redact_url(&config.database_url)
            );
            Ok(())
        }
        Command::Accounts(command) => {
            let store = open(&config).await?;
            let result = accounts_command(&store, &clock, command).await;
            store.close().await;
            result
        }
        Command::Keys(command) => {
            let store = open(&config).await?;
            let result = keys_command(&store, &clock, command).await;
            store.close().await;
            result
        }
        Command::Reports(command) => {
            let store = open(&config).await?;
            let result = disputes::reports_command(&store, &clock, command).await;
            store.close().await;
            result
        }
        Command::Overrides(command) => {
            let store = open(&config).await?;
            let result = disputes::overrides_command(&store, &clock, command).await;
            store.close().await;
            result
        }
        Command::Screening(command) => {
            let store = open(&config).await?;
            let result = screening::screening_command(&store, &clock, command).await;
            store.close().await;
            result
        }
    }
}

async fn open(config: &Config) -> anyhow::Result<Arc<dyn Store>> {
    store::open(&config.database_url).await.with_context(|| {
        format!(
            "opening database {}",
            crate::redact_url(&config.database_url)
        )
    })
}

async fn serve(config: Config, clock: Arc<dyn Clock>, bootstrap: bool) -> anyhow::Result<()> {
    let log = logging::logger_with(&config.log_level, config.log_format, LogSink::Stderr);
    let mut server = crate::start(crate::ServerOptions {
        config,
        clock,
        log: log.clone(),
        bootstrap,
    })
    .await?;
    if let Some(owner) = &server.bootstrapped {
        println!(
            "Created the owner account {} on the pro_plus plan.\n\
             Its API key, shown only this once:\n\n    {}\n",
            owner.account.id, owner.key.key
        );
    }
    if let Some(metrics) = server.metrics_addr {
        println!("riskintel metrics on http://{metrics}/metrics");
    }
    println!("riskintel listening on http://{}", server.local_addr);
    tokio::select! {
        result = server.wait() => result?,
        () = shutdown_signal() => {
            slog::info!(log, "shutting down");
        }
    }
    server.close().await
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate()).expect("installing a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn plan_arg(text: &str) -> anyhow::Result<riskintel_api::Plan> {
    parse_plan(text).with_context(|| format!("unknown plan {text:?}: use free, pro or pro_plus"))
}

async fn accounts_command(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    command: AccountsCommand,
) -> anyhow::Result<()> {
    match command {
        AccountsCommand::Create { name, plan, json } => {
            let plan = plan_arg(&plan)?;
            let created = accounts::create_account(store, clock, &name, plan).await?;
            if json {
                println!(
                    "{}",
                    json!({
                        "account_id": created.account.id,
                        "name": created.account.name,
                        "plan": plan,
                        "key_id": created.key.record.id,
                        "key": created.key.key,
                    })
                );
            } else {
                println!("account: {}", created.account.id);
                println!("plan:    {}", riskintel_api::WireName::wire_name(plan));
                println!("key id:  {}", created.key.record.id);
                println!("key:     {}   (shown only this once)", created.key.key);
            }
        }
        AccountsCommand::SetPlan { account, plan } => {
            let plan = plan_arg(&plan)?;
            if !store.account_set_plan(&account, plan).await? {
                bail!("no account {account:?}");
            }
            println!(
                "account {account} is now on {}",
                riskintel_api::WireName::wire_name(plan)
            );
        }
        AccountsCommand::List { json } => {
            let accounts = store.account_list().await?;
            if json {
                let rows: Vec<_> = accounts
                    .iter()
                    .map(|a| json!({"account_id": a.id, "name": a.name, "plan": a.plan, "created_at": a.created_at}))
                    .collect();
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for a in accounts {
                    println!(
                        "{}  {:<8}  {}  {}",
                        a.id,
                        riskintel_api::WireName::wire_name(a.plan),
                        a.created_at,
                        a.name
                    );
                }
            }
        }
    }
    Ok(())
}

async fn keys_command(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    command: KeysCommand,
) -> anyhow::Result<()> {
    let keys = Keys::new(store.clone(), clock.clone());
    match command {
        KeysCommand::Create {
            account,
            name,
            scopes,
            json,
        } => {
            let Some(account) = store.account_get(&account).await? else {
                bail!("no account {account:?}");
            };
            let scopes = if scopes.is_empty() {
                None
            } else {
                let parsed = scopes
                    .iter()
                    .map(|s| Scope::parse(s).with_context(|| format!("unknown scope {s:?}")))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                Some(parsed)
            };
            let issued = keys.create(&account, &name, scopes, None, None).await?;
            if json {
                println!(
                    "{}",
                    json!({"key_id": issued.record.id, "key": issued.key, "scopes": issued.record.scopes})
                );
            } else {
                println!("key id: {}", issued.record.id);
                println!("key:    {}   (shown only this once)", issued.key);
            }
        }
        KeysCommand::List { account, json } => {
            let records = keys.list(&account, None, usize::MAX >> 1).await?;
            if json {
                let rows: Vec<_> = records
                    .iter()
                    .map(|k| json!({"key_id": k.id, "name": k.name, "scopes": k.scopes, "created_at": k.created_at}))
                    .collect();
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for k in records {
                    let scopes: Vec<_> = k.scopes.iter().map(|s| s.as_str()).collect();
                    println!(
                        "{}  {}  {}  {}",
                        k.id,
                        k.created_at,
                        k.name,
                        scopes.join(",")
                    );
                }
            }
        }
        KeysCommand::Revoke { key_id } => {
            let Some(found) = store.key_get(&key_id).await? else {
                bail!("no key {key_id:?}");
            };
            keys.revoke(&found.account.id, &key_id).await?;
            println!("key {key_id} revoked");
        }
    }
    Ok(())
}

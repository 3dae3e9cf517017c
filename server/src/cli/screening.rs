//! `riskintel screening …`: sanctions lists loaded by hand, and the lists
//! stored.

use std::sync::Arc;

use clap::Subcommand;
use riskintel_analysis::screening::load::{Format, Loaded};
use serde_json::json;

use crate::screening::{load_read, Read};
use riskintel_store::clock::Clock;
use riskintel_store::Store;

#[derive(Debug, Subcommand)]
pub(super) enum ScreeningCommand {
    /// Load a sanctions list from a file (or a URL) now. Running servers
    /// swap it in within `[screening] sync_ms`.
    Load {
        /// The file: the OFAC SDN XML or CSV, or an operator's CSV
        /// (`address,chain,list,entry_id,reason`).
        file: String,
        /// The list's name; default `ofac_sdn` for the SDN, the one list an
        /// operator's CSV holds.
        #[arg(long)]
        list: Option<String>,
        /// sdn_xml, sdn_csv or operator_csv; default: told from the file.
        #[arg(long)]
        format: Option<String>,
        /// For the SDN CSV: its comments file (sdn_comments.csv).
        #[arg(long)]
        comments: Option<String>,
        /// Load it even when it lists no address, or under half of those stored.
        #[arg(long)]
        force: bool,
    },
    /// The lists stored, with their versions.
    Lists {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub(super) async fn screening_command(
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    command: ScreeningCommand,
) -> anyhow::Result<()> {
    match command {
        ScreeningCommand::Load {
            file,
            list,
            format,
            comments,
            force,
        } => {
            let format = match format.as_deref() {
                None => None,
                Some(f) => Some(serde_json::from_value::<Format>(json!(f)).map_err(|_| {
                    anyhow::anyhow!("--format {f:?}: use sdn_xml, sdn_csv or operator_csv")
                })?),
            };
            let read = Read {
                location: &file,
                format,
                comments: comments.as_deref(),
                list: list.as_deref(),
            };
            let (list, loaded) = load_read(&**store, &**clock, read, force).await?;
            match loaded {
                Loaded::Replaced {
                    version,
                    entries,
                    added,
                    removed,
                } => println!(
                    "loaded {list} version {version}: {entries} addresses ({added} added, {removed} removed)"
                ),
                Loaded::Unchanged { version } => {
                    println!("{list} version {version} is already loaded")
                }
            }
            Ok(())
        }
        ScreeningCommand::Lists { json } => {
            let lists = store.screening_lists().await?;
            if json {
                let rows: Vec<_> = (lists.iter())
                    .map(|l| {
                        json!({"name": l.name, "source": l.source, "version": l.version,
                            "entries": l.entries, "loaded_at": l.loaded_at, "checked_at": l.checked_at})
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for l in lists {
                    println!(
                        "{}\t{}\t{} addresses\tloaded {}\tread {}\t{}",
                        l.name, l.version, l.entries, l.loaded_at, l.checked_at, l.source
                    );
                }
            }
            Ok(())
        }
    }
}

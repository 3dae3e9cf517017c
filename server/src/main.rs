//! `riskintel`: the service's command line (`riskintel --help`).

#[tokio::main]
async fn main() {
    if let Err(error) = riskintel_server::cli::main().await {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

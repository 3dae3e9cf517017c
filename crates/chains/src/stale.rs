//! Connections a node closed under us. A pooled keep-alive connection the
//! node has already closed fails the next request written to it (a broken
//! pipe, a reset, or hyper's "connection closed before message completed")
//! before the node has answered anything: the request is sent again at
//! once on a new connection, a few times, and none of it counts against
//! the node's circuit. Every request the service sends upstream is a read,
//! so sending one twice is harmless.

use std::io::ErrorKind;

/// Requests sent again at once after a stale connection, at most.
pub const STALE_RETRIES: u32 = 2;

/// Whether `e` is a connection the node closed, not the node failing.
pub fn is_stale(e: &reqwest::Error) -> bool {
    if e.is_timeout() || e.is_connect() {
        return false;
    }
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted
            ) {
                return true;
            }
        }
        if cause
            .to_string()
            .contains("connection closed before message completed")
        {
            return true;
        }
        source = cause.source();
    }
    false
}

/// An error with its causes, outermost first ("error sending request:
/// connection closed before message completed"), so an operator sees why.
pub fn causes(e: &dyn std::error::Error) -> String {
    let mut words = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let cause_words = cause.to_string();
        if !words.contains(&cause_words) {
            words = format!("{words}: {cause_words}");
        }
        source = cause.source();
    }
    words
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use crate::circuit::Circuit;
    use crate::rpc::{Batch, RpcClient, RpcSettings};
    use crate::Chain;

    /// A node that reads each connection's first request and, on the first
    /// connection only, closes it without a word; later ones get an answer.
    async fn node_that_drops_its_first_connection() -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let mut first = true;
            loop {
                let (mut socket, _) = listener.accept().await.unwrap();
                let drop_it = std::mem::take(&mut first);
                tokio::spawn(async move {
                    let mut buffer = vec![0u8; 16 * 1024];
                    let mut read = 0;
                    // Up to the end of the JSON body.
                    while !buffer[..read].ends_with(b"]") {
                        match socket.read(&mut buffer[read..]).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => read += n,
                        }
                    }
                    if drop_it {
                        return;
                    }
                    let body = r#"[{"jsonrpc":"2.0","id":1,"result":"0x1"}]"#;
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                });
            }
        });
        url
    }

    #[tokio::test]
    async fn a_connection_closed_before_the_answer_is_sent_again_not_counted_as_a_failure() {
        let url = node_that_drops_its_first_connection().await;
        let log = slog::Logger::root(slog::Discard, slog::o!());
        let settings = RpcSettings {
            timeout: Duration::from_secs(5),
            retries: 0,
            backoff: Duration::from_millis(10),
            concurrency: 1,
        };
        let circuit = Circuit::new(Chain::Eth, &url, log);
        let client = RpcClient::new(reqwest::Client::new(), &url, settings, Arc::clone(&circuit));
        let mut batch = Batch::new();
        let slot = batch.call::<String>("eth_chainId", serde_json::json!([]));
        let mut answers = client
            .send(batch)
            .await
            .expect("answered on a new connection");
        assert_eq!(answers.take(slot).unwrap(), "0x1");
        assert!(!circuit.is_down());
    }
}

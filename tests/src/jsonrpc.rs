//! A minimal JSON-RPC-over-HTTP server on 127.0.0.1 for test nodes: each
//! request (single or batch) is answered item by item by a handler.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What a handler returns for one call: its `result`, or an `error` object.
pub type Answer = Result<Value, Value>;

/// A handler of one call: (method, params) → answer.
pub type Handler =
    Arc<dyn Fn(String, Value) -> Pin<Box<dyn Future<Output = Answer> + Send>> + Send + Sync>;

/// The body of the next HTTP request on `socket` (bytes past it are kept in
/// `buffer` for the next); None when the connection closed.
pub async fn read_request(
    socket: &mut tokio::net::TcpStream,
    buffer: &mut Vec<u8>,
) -> Option<Vec<u8>> {
    let header_end = loop {
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 65_536];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..header_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buffer.len() < header_end + length {
        let mut chunk = [0u8; 65_536];
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let body = buffer[header_end..header_end + length].to_vec();
    buffer.drain(..header_end + length);
    Some(body)
}

/// Serve JSON-RPC with `handler`; the URL.
pub async fn serve(handler: Handler) -> anyhow::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let handler = handler.clone();
            tokio::spawn(async move {
                let mut buffer = Vec::new();
                while let Some(body) = read_request(&mut socket, &mut buffer).await {
                    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
                        return;
                    };
                    let items = request
                        .as_array()
                        .cloned()
                        .unwrap_or_else(|| vec![request.clone()]);
                    let mut answers = Vec::new();
                    for item in items {
                        let method = item["method"].as_str().unwrap_or_default().to_string();
                        let answer = match handler(method, item["params"].clone()).await {
                            Ok(result) => {
                                json!({"jsonrpc": "2.0", "id": item["id"], "result": result})
                            }
                            Err(error) => {
                                json!({"jsonrpc": "2.0", "id": item["id"], "error": error})
                            }
                        };
                        answers.push(answer);
                    }
                    let reply = if request.is_array() {
                        Value::Array(answers)
                    } else {
                        answers.remove(0)
                    }
                    .to_string();
                    let head = format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n", reply.len());
                    if socket.write_all(head.as_bytes()).await.is_err()
                        || socket.write_all(reply.as_bytes()).await.is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    Ok(url)
}

//! A loopback TCP proxy that can play a database (or any service) that has
//! stopped — connections cut and refused — or that hangs — connections
//! accepted and bytes swallowed, nothing answered — and recover.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// Relay both ways.
    Up = 0,
    /// Cut every connection and close new ones at once (a stopped server).
    Stopped = 1,
    /// Keep connections open but forward nothing (a hung server or network).
    Hung = 2,
}

/// A running proxy; it stops when dropped.
pub struct TcpProxy {
    /// Its address.
    pub addr: SocketAddr,
    mode: Arc<AtomicU8>,
    changed: watch::Sender<u8>,
    task: tokio::task::JoinHandle<()>,
}

impl TcpProxy {
    /// Relay connections to `target`.
    pub async fn start(target: SocketAddr) -> anyhow::Result<TcpProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let mode = Arc::new(AtomicU8::new(Mode::Up as u8));
        let (changed, watcher) = watch::channel(Mode::Up as u8);
        let task = tokio::spawn({
            let mode = mode.clone();
            async move {
                while let Ok((client, _)) = listener.accept().await {
                    let mode = mode.load(Ordering::SeqCst);
                    if mode == Mode::Stopped as u8 {
                        drop(client);
                        continue;
                    }
                    tokio::spawn(connection(client, target, watcher.clone()));
                }
            }
        });
        Ok(TcpProxy {
            addr,
            mode,
            changed,
            task,
        })
    }

    /// Change what the proxy does. Leaving `Stopped` or `Hung` cuts the
    /// connections opened meanwhile, as a restarted server would.
    pub fn set(&self, mode: Mode) {
        self.mode.store(mode as u8, Ordering::SeqCst);
        let _ = self.changed.send(mode as u8);
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn connection(mut client: TcpStream, target: SocketAddr, mut mode: watch::Receiver<u8>) {
    let started_in = *mode.borrow_and_update();
    if started_in == Mode::Hung as u8 {
        // Accepted, never answered; cut when the mode changes.
        let _ = mode.changed().await;
        return;
    }
    let Ok(mut server) = TcpStream::connect(target).await else {
        return;
    };
    let (mut client_in, mut client_out) = client.split();
    let (mut server_in, mut server_out) = server.split();
    let mut up = [0u8; 8192];
    let mut down = [0u8; 8192];
    let mut hung = false;
    loop {
        tokio::select! {
            read = client_in.read(&mut up) => match read {
                Ok(n) if n > 0 && *mode.borrow() == Mode::Up as u8 => {
                    if server_out.write_all(&up[..n]).await.is_err() { return; }
                }
                Ok(n) if n > 0 => {} // hung: swallowed
                _ => return,
            },
            read = server_in.read(&mut down) => match read {
                Ok(n) if n > 0 && *mode.borrow() == Mode::Up as u8 => {
                    if client_out.write_all(&down[..n]).await.is_err() { return; }
                }
                Ok(n) if n > 0 => {}
                _ => return,
            },
            changed = mode.changed() => {
                let now = *mode.borrow_and_update();
                // Stopped cuts at once; a hang keeps the connection, swallowing
                // bytes, and it is cut when the hang ends (its stream is broken).
                if changed.is_err() || now == Mode::Stopped as u8 || (now == Mode::Up as u8 && hung) {
                    return;
                }
                hung |= now == Mode::Hung as u8;
            }
        }
    }
}

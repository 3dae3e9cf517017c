//! A loopback TCP proxy that can play a database (or any service) that has
//! stopped — connections cut and refused — or that hangs — connections
//! accepted and bytes swallowed, nothing answered — and recover.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Relay both ways.
    Up,
    /// Cut every connection and close new ones at once (a stopped server).
    Stopped,
    /// Keep connections open but forward nothing (a hung server or network).
    Hung,
}

/// A running proxy; it stops when dropped.
pub struct TcpProxy {
    /// Its address.
    pub addr: SocketAddr,
    mode: watch::Sender<Mode>,
    task: tokio::task::JoinHandle<()>,
}

impl TcpProxy {
    /// Relay connections to `target`.
    pub async fn start(target: SocketAddr) -> anyhow::Result<TcpProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (mode, watcher) = watch::channel(Mode::Up);
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if *watcher.borrow() == Mode::Stopped {
                    drop(client);
                    continue;
                }
                tokio::spawn(connection(client, target, watcher.clone()));
            }
        });
        Ok(TcpProxy { addr, mode, task })
    }

    /// Change what the proxy does. Leaving `Stopped` or `Hung` cuts the
    /// connections opened meanwhile, as a restarted server would.
    pub fn set(&self, mode: Mode) {
        self.mode.send_replace(mode);
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn connection(mut client: TcpStream, target: SocketAddr, mut mode: watch::Receiver<Mode>) {
    if *mode.borrow_and_update() == Mode::Hung {
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
                Ok(n) if n > 0 && *mode.borrow() == Mode::Up => {
                    if server_out.write_all(&up[..n]).await.is_err() { return; }
                }
                Ok(n) if n > 0 => {} // hung: swallowed
                _ => return,
            },
            read = server_in.read(&mut down) => match read {
                Ok(n) if n > 0 && *mode.borrow() == Mode::Up => {
                    if client_out.write_all(&down[..n]).await.is_err() { return; }
                }
                Ok(n) if n > 0 => {}
                _ => return,
            },
            changed = mode.changed() => {
                let now = *mode.borrow_and_update();
                // Stopped cuts at once; a hang keeps the connection, swallowing
                // bytes, and it is cut when the hang ends (its stream is broken).
                if changed.is_err() || now == Mode::Stopped || (now == Mode::Up && hung) {
                    return;
                }
                hung |= now == Mode::Hung;
            }
        }
    }
}

//! TCP for DXP: the listener (SO_REUSEADDR, so that a restarted Tiao can
//! bind its port again at once; one task per connection, a bounded number
//! at a time) and the outgoing connection (retried for a while, so that
//! two programs started together find each other).

use super::cli::Config;
use super::connection::{Shared, serve};
use super::message::Message;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream, lookup_host};
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Pending connections the kernel keeps for us.
const BACKLOG: u32 = 16;
/// How long a refused (busy) connection is read before it is closed.
const BUSY_DRAIN: Duration = Duration::from_secs(1);
/// How long a new connection waits for a slot before it is refused as busy.
const SLOT_WAIT: Duration = Duration::from_secs(1);
/// Pause between connection attempts.
const RETRY: Duration = Duration::from_millis(200);

async fn resolve(address: &str) -> Result<Vec<SocketAddr>, String> {
    let addrs: Vec<SocketAddr> = lookup_host(address)
        .await
        .map_err(|e| format!("bad address {address:?}: {e}"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!("address {address:?} resolves to nothing"));
    }
    Ok(addrs)
}

/// A listening socket with SO_REUSEADDR.
fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

fn prepare(stream: &TcpStream) {
    // DXP messages are small and each one waits for an answer: no Nagle delay.
    if let Err(e) = stream.set_nodelay(true) {
        log::warn!("dxp: cannot set TCP_NODELAY: {e}");
    }
}

/// Listen and serve connections: one for an initiator or with `--once`,
/// else until the process is stopped.
pub async fn listen(address: &str, shared: Arc<Shared>) -> Result<(), String> {
    let mut last_error = String::new();
    let mut listener = None;
    for addr in resolve(address).await? {
        match bind(addr) {
            Ok(l) => {
                listener = Some(l);
                break;
            }
            Err(e) => last_error = format!("cannot listen on {addr}: {e}"),
        }
    }
    let listener = listener.ok_or(last_error)?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    // Scripts (and the tests) read the port from here when they asked for port 0.
    super::stdout_line(&format!("listening on {local}"));
    let once = shared.config.once || shared.config.is_initiator();
    let slots = Arc::new(Semaphore::new(shared.config.max_connections));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of descriptors and the like: wait a little, keep serving.
                log::warn!("dxp: accept failed: {e}");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        prepare(&stream);
        // The connection waits a moment for a slot: a peer that closed its
        // last connection just before making this one frees its slot as
        // soon as its task reads the close, which may come right after.
        let task_slots = slots.clone();
        let task_shared = shared.clone();
        let task = tokio::spawn(async move {
            let Ok(Ok(slot)) = tokio::time::timeout(SLOT_WAIT, task_slots.acquire_owned()).await
            else {
                refuse_busy(stream, peer).await;
                return Ok(());
            };
            let (r, w) = stream.into_split();
            serve(r, w, peer.to_string(), task_shared, Some(slot)).await
        });
        if once {
            let ended = task
                .await
                .map_err(|e| format!("the connection task failed: {e}"))?;
            return outcome(ended);
        }
    }
}

/// Tell a connection beyond `--max-connections` that Tiao is busy, and close it.
async fn refuse_busy(mut stream: TcpStream, peer: SocketAddr) {
    log::warn!("dxp: all connection slots are taken; refusing {peer}");
    let busy = Message::Chat("Tiao is busy with other matches; try again later".into());
    let mut bytes = busy.encode().into_bytes();
    bytes.push(0);
    let _ = stream.write_all(&bytes).await;
    let _ = stream.shutdown().await;
    // Read what the peer sent meanwhile, so that closing does not reset
    // the connection before the chat is read.
    let mut sink = [0u8; 4096];
    let until = Instant::now() + BUSY_DRAIN;
    while let Ok(Ok(n)) = tokio::time::timeout_at(until, stream.read(&mut sink)).await {
        if n == 0 {
            break;
        }
    }
}

/// Connect (retrying until `--timeout` passes) and serve the connection.
pub async fn connect(address: &str, shared: Arc<Shared>) -> Result<(), String> {
    let give_up = Instant::now() + shared.config.timeout;
    let stream = loop {
        let mut last_error = String::new();
        let mut connected = None;
        for addr in resolve(address).await? {
            match TcpStream::connect(addr).await {
                Ok(s) => {
                    connected = Some(s);
                    break;
                }
                Err(e) => last_error = format!("cannot connect to {addr}: {e}"),
            }
        }
        match connected {
            Some(s) => break s,
            None if Instant::now() >= give_up => return Err(last_error),
            None => tokio::time::sleep(RETRY).await,
        }
    };
    prepare(&stream);
    let peer = stream
        .peer_addr()
        .map_or_else(|_| address.to_string(), |a| a.to_string());
    let (r, w) = stream.into_split();
    outcome(serve(r, w, peer, shared, None).await)
}

fn outcome(ended: Result<(), String>) -> Result<(), String> {
    ended.map_err(|e| format!("the match ended early: {e}"))
}

/// Run with a configuration: the runtime, then listen or connect.
pub fn run(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the network runtime: {e}"))?;
    let pdn = super::record::PdnFile::new(&config.pdn);
    let endpoint = config.endpoint.clone();
    let shared = Arc::new(Shared { config, pdn });
    runtime.block_on(async move {
        match endpoint {
            super::cli::Endpoint::Listen(a) => listen(&a, shared).await,
            super::cli::Endpoint::Connect(a) => connect(&a, shared).await,
        }
    })
}

//! Connections: accepted up to a cap, each served by hyper's HTTP/1 with a deadline for a
//! request's headers, which also closes a connection kept idle between requests. Without
//! them, clients that open connections and send nothing (or a byte now and then) hold a file
//! descriptor each until the server has none left and normal requests time out.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How many connections the server keeps, and for how long one may wait for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once; the next waits (in the system's queue of the listening
    /// socket) until one closes.
    pub most: usize,
    /// A connection that has not sent a whole request's headers this long after opening, or
    /// after its last answer, is closed.
    pub idle: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            // A class of 30 with a few connections each, well below the usual limit of
            // 1024 open files.
            most: 512,
            idle: Duration::from_secs(10),
        }
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown`, then stops accepting, lets
/// the connections finish the requests under way and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.most.max(1)));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle);
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot,
            () = &mut shutdown => break,
        };
        // The semaphore is never closed.
        let Ok(slot) = slot else { break };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    wait_after(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let connection =
            builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection's errors (a client gone, a header deadline) end that connection
            // only.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// After a failed accept: at once for an error of that one connection (reset before it was
/// accepted), else (out of files, out of memory) a moment, so the loop does not spin.
async fn wait_after(e: &io::Error) {
    if !matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

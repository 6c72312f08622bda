//! Connections: accepted up to a cap, each served by hyper's HTTP/1 with a deadline for a
//! request's headers, which also closes a connection kept idle between requests, and the
//! same deadline for taking the answer: a write that makes no progress for that long (the
//! client reads nothing, and the system's buffers are full) fails, and the connection is
//! closed. Without them, clients that open connections and send nothing (or a byte now and
//! then), or ask for answers and never read them, hold a file descriptor and a task each
//! until the server has none left and normal requests time out.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Sleep;

/// How many connections the server keeps, and for how long one may wait for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once; the next waits (in the system's queue of the listening
    /// socket) until one closes.
    pub most: usize,
    /// A connection that has not sent a whole request's headers this long after opening, or
    /// after its last answer, is closed; so is one that takes none of its answer for this
    /// long (a slow reader that takes some bytes within each such time gets it all).
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
        let stream = Answering {
            stream,
            pending: Vec::new(),
            deadline: limits.idle,
            stalled: None,
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

/// A connection's stream that gives hyper's own refusals of requests it cannot read (400: not
/// HTTP; 414: a request line too long; 431: headers too many or too long), which no route
/// sees, the `{"error": "..."}` body every other refusal has. Hyper writes them without a
/// body or a type (every answer of the routes has a type), then closes the connection.
/// Its writes have a deadline: one that makes no progress for [`ConnectionLimits::idle`]
/// fails with `TimedOut`, and hyper closes the connection.
struct Answering {
    stream: TcpStream,
    /// An answer rewritten, still to be written.
    pending: Vec<u8>,
    /// How long a write may make no progress.
    deadline: Duration,
    /// Since when the write under way has made no progress: running while it waits.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Answering {
    /// `poll`, a write, flush or shutdown of the stream, within the deadline: its progress
    /// stops the clock; while it waits the clock runs, and past the deadline it fails.
    fn within_deadline<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let deadline = self.deadline;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(deadline)));
        if stalled.as_mut().poll(cx).is_ready() {
            self.stalled = None;
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the client took none of its answer for {} s",
                    deadline.as_secs_f64()
                ),
            )));
        }
        Poll::Pending
    }

    /// Writes some of `buf` to the stream, within the deadline.
    fn write_some(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.within_deadline(cx, poll)
    }

    /// Writes what is pending; ready once all is written.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let written = self.write_some(cx, &pending);
            self.pending = pending;
            let n = ready!(written)?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Answering {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Answering {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(answer) = with_error_body(buf) {
            // Taken whole: written from `pending` now and on the next flush.
            this.pending = answer;
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        this.write_some(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.within_deadline(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        let poll = Pin::new(&mut this.stream).poll_shutdown(cx);
        this.within_deadline(cx, poll)
    }
}

/// Hyper's own refusal in `written` (an answer of status 400, 414 or 431 with no type and an
/// empty body), with the `{"error": "..."}` body in its place; `None` for any other bytes.
fn with_error_body(written: &[u8]) -> Option<Vec<u8>> {
    let end = written.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&written[..end]).ok()?;
    if written.len() != end + 4 {
        return None;
    }
    let mut lines = head.split("\r\n");
    let status = lines.next()?;
    let message = match status.strip_prefix("HTTP/1.1 ")?.get(..3)? {
        "400" => "request: not a request this server reads (an HTTP/1.1 GET)",
        "414" => "path: longer than this server reads (a path of at most 256 bytes and a query of at most 1024)",
        "431" => "headers: more or longer than this server reads",
        _ => return None,
    };
    let mut fields = Vec::new();
    for line in lines {
        let name = line.split(':').next()?.trim().to_ascii_lowercase();
        match name.as_str() {
            "content-type" => return None,
            "content-length" if line.split(':').nth(1)?.trim() != "0" => return None,
            "content-length" | "connection" => {}
            _ => fields.push(line),
        }
    }
    let body = serde_json::json!({ "error": message }).to_string();
    let mut answer = format!(
        "{status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for field in fields {
        answer.push_str(field);
        answer.push_str("\r\n");
    }
    answer.push_str("\r\n");
    answer.push_str(&body);
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hyper_s_own_refusals_get_a_body() {
        let date = "date: Wed, 25 Nov 2026 19:40:00 GMT";
        for (code, reason) in [
            ("400", "Bad Request"),
            ("414", "URI Too Long"),
            ("431", "Request Header Fields Too Large"),
        ] {
            let written =
                format!("HTTP/1.1 {code} {reason}\r\ncontent-length: 0\r\n{date}\r\n\r\n");
            let answer = String::from_utf8(with_error_body(written.as_bytes()).unwrap()).unwrap();
            let (head, body) = answer.split_once("\r\n\r\n").unwrap();
            assert!(
                head.starts_with(&format!("HTTP/1.1 {code} {reason}\r\n")),
                "{head}"
            );
            assert!(
                head.contains("\r\ncontent-type: application/json\r\n"),
                "{head}"
            );
            assert!(
                head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())),
                "{head}"
            );
            assert!(head.contains(date), "{head}");
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(json["error"].is_string(), "{body}");
        }
        // The routes' answers, and anything that is not a whole empty refusal, pass as they are.
        for written in [
            "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nmore",
            "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n",
            "{\"error\":\"x\"}",
        ] {
            assert_eq!(with_error_body(written.as_bytes()), None, "{written}");
        }
    }
}

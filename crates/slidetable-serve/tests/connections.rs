//! A client that asks for answers and never reads them: once the system's buffers are full the
//! server's write makes no progress, and after the idle deadline the connection is closed, so
//! it holds neither a connection's place nor a task for good.

use std::time::Duration;

use crate::common::table_file;
use slidetable::core::Board;
use slidetable_serve::{Config, ConnectionLimits, Server};
use std::io::{Read, Write};

use tokio::net::TcpSocket;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_its_answers_is_closed_after_the_deadline() {
    let server = Server::bind(&Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        tables: vec![table_file(Board::EIGHT)],
        preload: Vec::new(),
        preload_told: std::sync::Arc::new(slidetable::defaults::Quiet),
        searches: Default::default(),
        // One connection at a time: while the reader that never reads holds it, nobody else
        // is answered.
        connections: ConnectionLimits {
            most: 1,
            idle: Duration::from_secs(1),
        },
    })
    .await
    .unwrap();
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));

    // 1,000 requests for the page's script (26 kB each, 26 MB in all) sent at once, on a
    // socket with a small receive buffer, and nothing read.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let silent = socket.connect(addr).await.unwrap().into_std().unwrap();
    silent.set_nonblocking(false).unwrap();
    let (taken, answer) = tokio::task::spawn_blocking(move || {
        let mut silent = silent;
        silent
            .set_write_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let requests = "GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n".repeat(1000);
        silent
            .write_all(requests.as_bytes())
            .expect("the requests were not taken in 30 s");

        // A normal request waits for the only place: answered once the silent one is
        // closed.
        let mut normal = std::net::TcpStream::connect(addr).unwrap();
        normal
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        normal
            .write_all(b"GET /api/boards HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = Vec::new();
        normal
            .read_to_end(&mut answer)
            .expect("no answer in 60 s: the client that never reads still holds its connection");

        // The silent connection was closed by the server: what the system held of its
        // answers, then the end (or a reset: its unread requests were dropped).
        silent
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut buf = vec![0u8; 1 << 16];
        let mut taken = 0usize;
        loop {
            match silent.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => taken += n,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
                Err(e) => panic!("the silent connection is still open ({taken} bytes read): {e}"),
            }
        }
        (taken, String::from_utf8_lossy(&answer).into_owned())
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(
        taken < 1000 * 26_000,
        "every answer was written ({taken} bytes): the test never stalled the server"
    );

    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver). Opens
//! a link with a puzzle, reads the distance and the heuristics, clicks tiles and presses an
//! arrow key and sees the distance change as the table says, presses solve and reaches the
//! goal, and saves a screenshot.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`apt-get install chromium chromium-driver`).
//! With `SLIDETABLE_BROWSER_TEST=required` (set by `.ci/run`) a missing browser fails the test;
//! without it the test prints a note and passes. `SLIDETABLE_SCREENSHOT=PATH` saves the
//! screenshot there too (docs/serve.png is made so).

mod common;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{serve_boards, table_dir, table_file};
use fantoccini::{Client, ClientBuilder, Locator};
use slidetable_core::{Board, Layout, Move};
use slidetable_query::{MappedTable, Table};
use slidetable_search::HeuristicKind;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver, stopped when the test ends however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> (Driver, String) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let start = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, format!("http://{addr}"))
}

async fn browser(webdriver: &str, profile: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1100,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(webdriver)
        .await
        .expect("a Chromium session")
}

async fn text(client: &Client, testid: &str) -> String {
    client
        .find(Locator::Css(&format!("[data-testid=\"{testid}\"]")))
        .await
        .unwrap_or_else(|e| panic!("[data-testid={testid}]: {e}"))
        .text()
        .await
        .unwrap()
}

/// Waits (up to `limit`) until the element's text is `want`.
async fn wait_for(client: &Client, testid: &str, want: &str, limit: Duration) {
    let start = Instant::now();
    loop {
        let got = match client
            .find(Locator::Css(&format!("[data-testid=\"{testid}\"]")))
            .await
        {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if got == want {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "{testid} reads '{got}', not '{want}', after {limit:?}; status: '{}'",
            text(client, "status").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The tiles as the page shows them, in reading order (0 the gap).
async fn shown_layout(client: &Client, board: Board) -> Layout {
    let cells = client
        .find_all(Locator::Css("[data-testid=\"board\"] button"))
        .await
        .unwrap();
    let mut tiles = Vec::new();
    for cell in cells {
        let t = cell.text().await.unwrap();
        tiles.push(if t.is_empty() { 0 } else { t.parse().unwrap() });
    }
    Layout::new(board, &tiles).unwrap()
}

/// The tile the gap swaps with when it moves `m`.
fn tile_for(layout: &Layout, m: Move) -> u8 {
    let moved = layout.moved(m).expect("a legal move");
    moved.tile(layout.blank())
}

/// Checks the distance, the verdict and every heuristic the page shows for `layout`.
async fn expect_numbers(
    client: &Client,
    table: &MappedTable,
    layout: &Layout,
    before: Option<u32>,
) {
    let distance = table.distance(layout).unwrap().unwrap();
    wait_for(
        client,
        "distance",
        &distance.to_string(),
        Duration::from_secs(10),
    )
    .await;
    if let Some(before) = before {
        let verdict = if distance < before {
            "closer"
        } else {
            "farther"
        };
        assert_eq!(text(client, "verdict").await, verdict, "{layout}");
    }
    let goal = layout.board().standard_goal();
    for kind in HeuristicKind::ALL {
        assert_eq!(
            text(client, &format!("h-{}", kind.name())).await,
            kind.build(&goal).estimate(layout).to_string(),
            "{kind} at {layout}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_a_puzzle_and_solve_it_in_chromium() {
    let required = std::env::var_os("SLIDETABLE_BROWSER_TEST").is_some_and(|v| v == "required");
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        assert!(
            !required,
            "SLIDETABLE_BROWSER_TEST=required but {CHROMIUM} or {CHROMEDRIVER} is missing \
             (apt-get install chromium chromium-driver)"
        );
        eprintln!(
            "note: browser test skipped: {CHROMIUM} or {CHROMEDRIVER} is missing \
             (apt-get install chromium chromium-driver; CI requires it)"
        );
        return;
    }
    let serving = serve_boards().await;
    let url = &serving.url;
    let (_driver, webdriver) = start_driver();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&webdriver, profile.path()).await;

    let board = Board::EIGHT;
    let table = Table::open(table_file(board)).unwrap();
    let mut layout = slidetable_core::parse_layout(board, b"2 3 4 1 5 0 7 6 8").unwrap();
    client
        .goto(&format!("{url}?board=3x3&puzzle=2,3,4,1,5,0,7,6,8"))
        .await
        .unwrap();
    expect_numbers(&client, &table, &layout, None).await;
    assert_eq!(text(&client, "distance").await, "19");
    assert_eq!(shown_layout(&client, board).await, layout);

    // Click tiles: towards the goal, back (away from it), towards it again, checking the
    // numbers each time.
    let first = table.path(&layout).unwrap().unwrap()[0];
    let mut moves = vec![first, first.opposite(), first];
    for &m in &moves {
        let before = table.distance(&layout).unwrap();
        let tile = tile_for(&layout, m);
        client
            .find(Locator::Css(&format!("[data-testid=\"tile-{tile}\"]")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        layout = layout.moved(m).unwrap();
        expect_numbers(&client, &table, &layout, before).await;
        assert_eq!(shown_layout(&client, board).await, layout);
    }
    // An arrow key slides the tile beside the gap in the arrow's direction: the gap moves
    // the other way (ArrowUp: the tile below moves up, the gap down).
    let (key, m) = [
        ("\u{E013}", Move::Down),
        ("\u{E015}", Move::Up),
        ("\u{E012}", Move::Right),
        ("\u{E014}", Move::Left),
    ]
    .into_iter()
    .find(|&(_, m)| layout.moved(m).is_some())
    .unwrap();
    let before = table.distance(&layout).unwrap();
    client
        .find(Locator::Css("[data-testid=\"board\"]"))
        .await
        .unwrap()
        .send_keys(key)
        .await
        .unwrap();
    layout = layout.moved(m).unwrap();
    moves.push(m);
    expect_numbers(&client, &table, &layout, before).await;
    assert_eq!(text(&client, "moves").await, moves.len().to_string());

    // The address bar holds the position: a link to hand out.
    let here = client.current_url().await.unwrap();
    let mut commas = String::new();
    layout.write_tokens(&mut commas, ",").unwrap();
    assert_eq!(
        here.query(),
        Some(format!("board=3x3&puzzle={commas}").as_str())
    );

    // A hint lights the tile of the stored first move.
    client
        .find(Locator::Css("[data-testid=\"hint\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let hinted = tile_for(&layout, table.path(&layout).unwrap().unwrap()[0]);
    let class = client
        .find(Locator::Css(&format!("[data-testid=\"tile-{hinted}\"]")))
        .await
        .unwrap()
        .attr("class")
        .await
        .unwrap();
    assert_eq!(class.as_deref(), Some("hint"));

    // Solve: the page plays an optimal path to the goal.
    let left = table.distance(&layout).unwrap().unwrap();
    client
        .find(Locator::Css("[data-testid=\"solve\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // Halfway, the picture for the README: the board, the numbers, the chart so far.
    wait_for(
        &client,
        "distance",
        &(left / 2).to_string(),
        Duration::from_secs(60),
    )
    .await;
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(table_dir().join("serve.png"), &png).unwrap();
    if let Some(path) = std::env::var_os("SLIDETABLE_SCREENSHOT") {
        std::fs::write(path, &png).unwrap();
    }
    wait_for(&client, "distance", "0", Duration::from_secs(60)).await;
    assert_eq!(shown_layout(&client, board).await, board.standard_goal());
    assert_eq!(
        text(&client, "moves").await,
        (moves.len() as u32 + left).to_string()
    );
    wait_for(&client, "solve", "solve", Duration::from_secs(5)).await;

    // "new puzzle" draws one exactly the chosen number of moves from the goal.
    let depth = client
        .find(Locator::Css("[data-testid=\"depth\"]"))
        .await
        .unwrap();
    depth.clear().await.unwrap();
    depth.send_keys("7").await.unwrap();
    client
        .find(Locator::Css("[data-testid=\"new-puzzle\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&client, "distance", "7", Duration::from_secs(10)).await;
    let drawn = shown_layout(&client, board).await;
    assert_eq!(table.distance(&drawn).unwrap(), Some(7), "{drawn}");
    assert_eq!(text(&client, "moves").await, "0");

    client.close().await.unwrap();
    serving.stop().await;
}

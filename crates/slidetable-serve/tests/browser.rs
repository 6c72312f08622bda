//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver). Opens
//! a link with a puzzle, reads the distance and the heuristics, clicks tiles and presses an
//! arrow key and sees the distance change as the table says, presses solve and reaches the
//! goal, and saves a screenshot.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`apt-get install chromium chromium-driver`).
//! With `SLIDETABLE_BROWSER_TEST=required` (set by `.ci/run`) a missing browser fails the test;
//! without it the test prints a note and passes. `SLIDETABLE_SCREENSHOT=PATH` saves the
//! screenshot there too (docs/serve.png is made so).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    pattern_file, serve_boards, serve_tables, table_dir, table_file, two_bit_file, Serving, BOARDS,
};
use fantoccini::{Client, ClientBuilder, Locator};
use slidetable::core::{Board, Layout, Move};
use slidetable::query::SplitMix64;
use slidetable::query::{MappedTable, Table};
use slidetable::search::{solve, solve_with_patterns, Heuristic, HeuristicKind, Limits, Method};

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

/// The tiles as the page shows them, in reading order (0 the gap), read in one script so
/// that a re-render between reads cannot mix two boards.
async fn shown_layout(client: &Client, board: Board) -> Layout {
    let texts = client
        .execute(
            "return [...document.querySelectorAll('[data-testid=board] button')]\
             .map((b) => b.textContent);",
            vec![],
        )
        .await
        .unwrap();
    let tiles: Vec<u8> = texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap_or(0))
        .collect();
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

/// The page's visible text, walked in the browser: every element with text of its own (and
/// every text field), with its colour, its effective background (the backgrounds under it
/// composited over the white canvas), its font size in screen pixels (an SVG label scaled by
/// its drawing) and whether WCAG counts it as large. A disabled control is left out (WCAG
/// exempts inactive components); so is anything not rendered or clipped to a pixel.
const VISIBLE_TEXT: &str = r##"
const rgba = (c) => {
  const m = c.match(/rgba?\(([^)]*)\)/);
  if (!m) return [0, 0, 0, 0];
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (top, under) => {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
};
const background = (el) => {
  const layers = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    layers.push(rgba(getComputedStyle(e).backgroundColor));
  }
  return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
};
const texts = [];
for (const el of document.querySelectorAll("body *")) {
  if (["SCRIPT", "STYLE", "OPTION", "TITLE"].includes(el.tagName)) continue;
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
  const field = el.matches("select, input:not([type=range])");
  if (!own && !field) continue;
  if (el.closest(":disabled")) continue;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  if (style.visibility !== "visible" || box.width <= 1 || box.height <= 1) continue;
  const svg = el instanceof SVGElement;
  const scale = svg && el.getScreenCTM() ? el.getScreenCTM().a : 1;
  const size = parseFloat(style.fontSize) * scale;
  const bold = Number(style.fontWeight) >= 700;
  texts.push({
    el, size, large: size >= 24 || (bold && size >= 18.66),
    color: rgba(svg ? style.fill : style.color), background: background(el),
    name: `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.className && typeof el.className === "string" ? "." + el.className : ""} '${(el.textContent || el.value || "").trim().slice(0, 24)}'`,
  });
}
"##;

/// Every visible text's contrast ratio below WCAG AA (4.5:1, large text 3:1), as
/// "element: ratio < needed", with the number of texts checked last.
async fn contrast_failures(client: &Client) -> (Vec<String>, usize) {
    let script = format!(
        "{VISIBLE_TEXT}
const luminance = (c) => {{
  const [r, g, b] = c.slice(0, 3).map((v) => {{
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  }});
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}};
const failures = [];
for (const t of texts) {{
  const fg = luminance(over(t.color, t.background));
  const bg = luminance(t.background);
  const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  const needed = t.large ? 3 : 4.5;
  if (ratio < needed) failures.push(`${{t.name}}: ${{ratio.toFixed(2)}} < ${{needed}}`);
}}
return [failures, texts.length];"
    );
    let got = client.execute(&script, vec![]).await.unwrap();
    let failures = got[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    (failures, got[1].as_u64().unwrap() as usize)
}

/// Checks WCAG AA contrast over the whole page as shown now.
async fn expect_contrast(client: &Client, when: &str) {
    let (failures, checked) = contrast_failures(client).await;
    assert!(checked >= 20, "{when}: only {checked} texts seen");
    assert!(
        failures.is_empty(),
        "{when}: contrast below WCAG AA:\n{}",
        failures.join("\n")
    );
}

/// An element's text as the DOM holds it (also for one hidden from sight, such as the
/// live region).
async fn content(client: &Client, testid: &str) -> String {
    client
        .execute(
            &format!("return document.querySelector('[data-testid={testid}]').textContent;"),
            vec![],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

/// Runs `script` in the page and returns what it returns.
async fn eval(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Whether the browser is here; without it the test passes with a note unless CI requires
/// it.
fn have_browser() -> bool {
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
        return false;
    }
    true
}

async fn click(client: &Client, testid: &str) {
    client
        .find(Locator::Css(&format!("[data-testid=\"{testid}\"]")))
        .await
        .unwrap_or_else(|e| panic!("[data-testid={testid}]: {e}"))
        .click()
        .await
        .unwrap();
}

/// Saves a screenshot for the README: under the test's table directory, and in
/// `$SLIDETABLE_SCREENSHOTS/NAME` when that names a directory (docs/ is made so).
async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(table_dir().join(name), &png).unwrap();
    if let Some(dir) = std::env::var_os("SLIDETABLE_SCREENSHOTS") {
        std::fs::write(Path::new(&dir).join(name), &png).unwrap();
    }
}

/// A browser on a server of every board's table (`None`, the test skipped, without a
/// browser): what the page tests start from, kept alive together.
struct BoardsPage {
    serving: Serving,
    client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

async fn boards_page() -> Option<BoardsPage> {
    if !have_browser() {
        return None;
    }
    let serving = serve_boards().await;
    let (driver, webdriver) = start_driver();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&webdriver, profile.path()).await;
    Some(BoardsPage {
        serving,
        client,
        _driver: driver,
        _profile: profile,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_a_puzzle_and_solve_it_in_chromium() {
    let Some(BoardsPage {
        serving,
        client,
        _driver,
        _profile,
    }) = boards_page().await
    else {
        return;
    };
    let url = &serving.url;

    let board = Board::EIGHT;
    let table = Table::open(table_file(board)).unwrap();
    let mut layout = slidetable::core::parse_layout(board, b"2 3 4 1 5 0 7 6 8").unwrap();
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

    // Screen readers hear the new distance: a polite live region, replaced after every move
    // (the status line is cleared on a move; this is not).
    let live = client
        .find(Locator::Css("[data-testid=\"spoken\"]"))
        .await
        .unwrap();
    assert_eq!(
        live.attr("aria-live").await.unwrap().as_deref(),
        Some("polite")
    );
    let now = table.distance(&layout).unwrap().unwrap();
    let verdict = text(&client, "verdict").await;
    assert_eq!(
        content(&client, "spoken").await,
        format!(
            "after {} moves: {now} moves to the goal, {verdict}",
            moves.len()
        )
    );
    // A tile that cannot slide: nothing moves, and the status line and the live region
    // say why.
    let (row, col) = (layout.blank() / 3, layout.blank() % 3);
    let far = (0..9)
        .find(|&c: &usize| (c / 3).abs_diff(row) + (c % 3).abs_diff(col) > 1)
        .unwrap();
    let stuck = layout.tile(far);
    click(&client, &format!("tile-{stuck}")).await;
    let why = format!("tile {stuck} cannot slide: only a tile next to the gap moves");
    wait_for(&client, "status", &why, Duration::from_secs(5)).await;
    assert_eq!(content(&client, "spoken").await, why);
    let shown_class = client
        .find(Locator::Css("[data-testid=\"status\"]"))
        .await
        .unwrap()
        .attr("class")
        .await
        .unwrap();
    assert_eq!(shown_class.as_deref(), Some("status error"));
    assert_eq!(shown_layout(&client, board).await, layout);
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

    // WCAG AA contrast for every visible text, the hinted tile and the goal's small board
    // among them; the check itself fails on the colours it replaced.
    expect_contrast(&client, "3x3 with a hint").await;
    eval(
        &client,
        "const p = document.createElement('p'); p.id = 'old-hint'; p.textContent = '7'; \
         p.style.cssText = 'color:#fff;background:#e0a100'; document.body.appendChild(p); \
         const q = document.createElement('p'); q.id = 'old-goal'; q.textContent = '8'; \
         q.style.cssText = 'color:#fff;background:#7d97b3;font-size:12px'; \
         document.body.appendChild(q);",
    )
    .await;
    let (failures, _) = contrast_failures(&client).await;
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(
        failures[0].starts_with("p#old-hint '7': 2."),
        "{failures:?}"
    );
    assert!(
        failures[1].starts_with("p#old-goal '8': 3."),
        "{failures:?}"
    );
    eval(
        &client,
        "document.getElementById('old-hint').remove(); document.getElementById('old-goal').remove();",
    )
    .await;

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

/// The second round: the 15-puzzle (distance, hint, step, undo/redo/reset, solve), the
/// lesson on search effort (every number as the search crate counts it), a new puzzle drawn
/// at a depth from a 2-bit table (as on 12 cells) whose seed draws it again, and the phone
/// layout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fifteen_puzzle_the_effort_lesson_and_the_controls_in_chromium() {
    if !have_browser() {
        return;
    }
    let mut tables: Vec<_> = BOARDS
        .iter()
        .filter(|&&b| b != "3x3")
        .map(|b| table_file(b.parse().unwrap()))
        .collect();
    tables.push(two_bit_file());
    tables.push(pattern_file());
    let serving = serve_tables(tables).await;
    let url = &serving.url;
    let (_driver, webdriver) = start_driver();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&webdriver, profile.path()).await;
    client.set_window_size(1100, 1500).await.unwrap();

    // The README's 15-puzzle (28 moves), from a link.
    let board = Board::FIFTEEN;
    let goal = board.standard_goal();
    let start =
        slidetable::core::parse_layout(board, b"5 1 4 6 10 3 2 8 14 11 13 12 9 0 7 15").unwrap();
    let fifteen = slidetable::Fifteen::open(pattern_file()).unwrap();
    let databases = fifteen.solver(&goal).unwrap();
    let path_of = |l: &Layout| {
        databases
            .solve(l, Move::ALL, &Limits::default())
            .unwrap()
            .path
    };
    let path = path_of(&start);
    let d = path.len() as u32;
    assert_eq!(d, 28);
    let mut commas = String::new();
    start.write_tokens(&mut commas, ",").unwrap();
    client
        .goto(&format!("{url}?board=4x4&puzzle={commas}"))
        .await
        .unwrap();
    wait_for(&client, "distance", &d.to_string(), Duration::from_secs(30)).await;
    assert_eq!(text(&client, "readout").await, d.to_string());
    // No stale message about opening the databases once the answer is here.
    let said = text(&client, "status").await;
    assert!(!said.contains("opening"), "{said}");
    // A search waiting at the gate says how many are ahead of it: first come, first served,
    // so later arrivals never raise the count, and the board's long work comes first.
    let queue = eval(
        &client,
        "const q = {}; const at = (running, waiting, work) => waitingFor({ \
           boards: [{ board: '4x4', work }], \
           searches: { running, waiting, most_running: 2 } }, q); \
         return [at(2, 5, null), at(2, 7, null), at(2, 3, null), at(1, 0, null), \
           at(2, 3, { task: 'reading distances', done: 1, total: 4 }), \
           waitingFor({ boards: [], searches: { running: 2, waiting: 3, most_running: 2 } }, null)];",
    )
    .await;
    assert_eq!(
        queue,
        serde_json::json!([
            "waiting for a free search slot: 4 ahead (2 searching)",
            "waiting for a free search slot: 4 ahead (2 searching)",
            "waiting for a free search slot: 2 ahead (2 searching)",
            null,
            "reading distances: 25% (once per server)",
            null
        ])
    );
    // Long work says what is left once its rate is measured: a quarter of it a second here.
    let estimates = eval(
        &client,
        "const w = (done) => ({ boards: [{ board: '4x4', work: { task: 'reading every distance',            done, total: 100 } }], searches: { running: 0, waiting: 0, most_running: 2 } });          return [waitingFor(w(10), null, 1000), waitingFor(w(35), null, 2000),            waitingFor(w(60), null, 3000)];",
    )
    .await;
    assert_eq!(
        estimates,
        serde_json::json!([
            "reading every distance: 10% (once per server)",
            "reading every distance: 35%, about 3 s left (once per server)",
            "reading every distance: 60%, about 2 s left (once per server)"
        ])
    );
    assert_eq!(shown_layout(&client, board).await, start);
    assert_eq!(
        text(&client, "h-pdb").await,
        databases.estimate(&start).to_string()
    );
    for kind in HeuristicKind::ALL {
        assert_eq!(
            text(&client, &format!("h-{}", kind.name())).await,
            kind.build(&goal).estimate(&start).to_string()
        );
    }
    // The picker follows the address; the goal is drawn beside the puzzle.
    let picked = client
        .find(Locator::Css("[data-testid=\"board-size\"]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(picked.as_deref(), Some("4x4"));
    let goal_cells = client
        .find_all(Locator::Css("[data-testid=\"goal-board\"] span"))
        .await
        .unwrap();
    assert_eq!(goal_cells.len(), 16);
    assert_eq!(goal_cells[0].text().await.unwrap(), "1");
    assert_eq!(goal_cells[15].text().await.unwrap(), "");

    // Hint: the tile of the first optimal move.
    click(&client, "hint").await;
    let hinted = tile_for(&start, path[0]);
    let class = client
        .find(Locator::Css(&format!("[data-testid=\"tile-{hinted}\"]")))
        .await
        .unwrap()
        .attr("class")
        .await
        .unwrap();
    assert_eq!(class.as_deref(), Some("hint"));

    // Step forward twice along the optimal path, back once, undo, redo, reset.
    click(&client, "step-next").await;
    wait_for(
        &client,
        "distance",
        &(d - 1).to_string(),
        Duration::from_secs(30),
    )
    .await;
    click(&client, "step-next").await;
    wait_for(
        &client,
        "distance",
        &(d - 2).to_string(),
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(text(&client, "moves").await, "2");
    assert_eq!(
        shown_layout(&client, board).await,
        start.after(&path[..2]).unwrap()
    );
    click(&client, "step-prev").await;
    wait_for(&client, "moves", "1", Duration::from_secs(5)).await;
    assert_eq!(text(&client, "distance").await, (d - 1).to_string());
    click(&client, "undo").await;
    wait_for(&client, "moves", "0", Duration::from_secs(5)).await;
    assert_eq!(text(&client, "distance").await, d.to_string());
    assert_eq!(shown_layout(&client, board).await, start);
    click(&client, "redo").await;
    wait_for(&client, "moves", "1", Duration::from_secs(5)).await;
    click(&client, "redo").await;
    wait_for(&client, "moves", "2", Duration::from_secs(5)).await;
    assert_eq!(text(&client, "distance").await, (d - 2).to_string());
    click(&client, "reset").await;
    wait_for(&client, "moves", "0", Duration::from_secs(5)).await;
    assert_eq!(shown_layout(&client, board).await, start);

    // The lesson on search effort, on the puzzle shown: every run as the search crate
    // counts it (what `search --json --stats` prints; the command line's own test compares
    // the two).
    click(&client, "effort-run").await;
    let rows = {
        let start_wait = Instant::now();
        loop {
            let rows = client
                .find_all(Locator::Css("[data-testid=\"effort\"] tbody tr"))
                .await
                .unwrap();
            if rows.len() == 10 {
                break rows;
            }
            assert!(
                start_wait.elapsed() < Duration::from_secs(120),
                "effort table: {} rows; {}",
                rows.len(),
                text(&client, "effort-status").await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let limits = Limits {
        max_expanded: Some(slidetable_serve::SearchLimits::default().effort_expanded),
        ..Limits::default()
    };
    let mut i = 0;
    for method in [
        Method::Bfs,
        Method::Dijkstra,
        Method::Astar,
        Method::Idastar,
    ] {
        let mut expected: Vec<(String, _)> = if method.uses_heuristic() {
            [
                HeuristicKind::Misplaced,
                HeuristicKind::Manhattan,
                HeuristicKind::LinearConflict,
            ]
            .into_iter()
            .map(|k| {
                (
                    k.name().to_string(),
                    solve(method, k, &start, &goal, &limits),
                )
            })
            .collect()
        } else {
            // Blind: the same caps, no heuristic.
            vec![(
                "none".to_string(),
                solve(method, HeuristicKind::Manhattan, &start, &goal, &limits),
            )]
        };
        if method.uses_heuristic() {
            expected.push((
                "pdb".to_string(),
                solve_with_patterns(method, &databases, &start, &limits),
            ));
        }
        for (heuristic, outcome) in expected {
            let row = &rows[i];
            i += 1;
            assert_eq!(
                row.attr("data-method").await.unwrap().as_deref(),
                Some(method.name())
            );
            assert_eq!(
                row.attr("data-heuristic").await.unwrap(),
                Some(heuristic.clone())
            );
            let cell = row
                .find(Locator::Css("[data-col=\"expanded\"]"))
                .await
                .unwrap();
            let shown = cell.attr("data-value").await.unwrap().unwrap();
            let column = |name: &'static str| async move {
                row.find(Locator::Css(&format!("[data-col=\"{name}\"]")))
                    .await
                    .unwrap()
                    .attr("data-value")
                    .await
                    .unwrap()
            };
            let memory = column("memory").await;
            let iterations = column("iterations").await;
            let length = row
                .find(Locator::Css("[data-col=\"length\"]"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            match outcome {
                // The server's run stopped at its time cap (a loaded machine) where this
                // one, uncapped in time, finished.
                Ok(_) if length.starts_with("stopped") => {}
                Ok(s) => {
                    assert_eq!(shown, s.stats.expanded.to_string(), "{method} {heuristic}");
                    assert_eq!(
                        memory,
                        Some(s.stats.peak_open.to_string()),
                        "{method} {heuristic}"
                    );
                    assert_eq!(
                        iterations,
                        s.stats.iterations.map(|n| n.to_string()),
                        "{method} {heuristic}"
                    );
                    assert_eq!(length, d.to_string(), "{method} {heuristic}");
                }
                // Stopped at a cap (the server's time cap, on a loaded machine, too).
                Err(_) => assert!(
                    length.starts_with("stopped"),
                    "{method} {heuristic}: {length}"
                ),
            }
        }
    }
    client
        .execute(
            "document.querySelector('[data-testid=effort]').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    screenshot(&client, "effort.png").await;
    // The bars on a linear scale: each as long as its count, the longest the full room.
    let bars = || async {
        eval(
            &client,
            "return [document.querySelector('[data-testid=effort-chart]').dataset.scale, \
             [...document.querySelectorAll('[data-testid=effort-chart] rect')]\
             .map((r) => [Number(r.dataset.expanded), Number(r.getAttribute('width'))])];",
        )
        .await
    };
    assert_eq!(bars().await[0], "log");
    click(&client, "effort-scale").await;
    let linear = bars().await;
    assert_eq!(linear[0], "linear");
    assert_eq!(text(&client, "effort-scale").await, "linear scale");
    let pairs: Vec<(f64, f64)> = linear[1]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
        .collect();
    assert_eq!(pairs.len(), 10);
    let most = pairs.iter().map(|p| p.0).fold(10.0, f64::max);
    for (expanded, width) in &pairs {
        assert!(
            (width - 320.0 * expanded / most).abs() < 0.1,
            "{expanded} states: bar {width} of 320"
        );
    }
    click(&client, "effort-scale").await;
    assert_eq!(bars().await[0], "log");
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .unwrap();

    // Solve: the page plays the optimal path to the goal, slowly enough to be seen halfway
    // (a move every 400 ms, several looks of the test each).
    client
        .execute(
            "const s = document.getElementById('speed'); s.value = '400';",
            vec![],
        )
        .await
        .unwrap();
    click(&client, "solve").await;
    wait_for(
        &client,
        "distance",
        &(d / 2).to_string(),
        Duration::from_secs(60),
    )
    .await;
    // Halfway: stop (the status clears), the picture for the README, then on to the goal.
    click(&client, "solve").await;
    wait_for(&client, "status", "", Duration::from_secs(5)).await;
    wait_for(&client, "solve", "solve", Duration::from_secs(5)).await;
    // A move played just before the stop may still be waiting for its answer.
    let halfway: u32 = loop {
        if let Ok(n) = text(&client, "distance").await.parse() {
            break n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(
        shown_layout(&client, board).await,
        start.after(&path[..(d - halfway) as usize]).unwrap()
    );
    client.set_window_size(1100, 900).await.unwrap();
    screenshot(&client, "fifteen.png").await;
    // On to the goal, fast.
    client
        .execute(
            "const s = document.getElementById('speed'); s.value = s.min;",
            vec![],
        )
        .await
        .unwrap();
    click(&client, "solve").await;
    wait_for(&client, "distance", "0", Duration::from_secs(60)).await;
    assert_eq!(shown_layout(&client, board).await, goal);
    wait_for(&client, "solve", "solve", Duration::from_secs(5)).await;
    // A new puzzle at a depth from a 2-bit table (distances read once, as on 12 cells), and
    // its seed draws it again (`random --seed` draws with the same call).
    client.goto(&format!("{url}?board=3x3")).await.unwrap();
    let eight = Table::open(table_file(Board::EIGHT)).unwrap();
    let section = eight.goal(&Board::EIGHT.standard_goal()).unwrap();
    wait_for(&client, "distance", "12", Duration::from_secs(60)).await;
    let seed: u64 = text(&client, "seed").await.parse().unwrap();
    let (expected, _) = section
        .layer(12..=12)
        .unwrap()
        .sample(&mut SplitMix64::new(seed))
        .unwrap();
    assert_eq!(shown_layout(&client, Board::EIGHT).await, expected);
    assert!(
        text(&client, "status")
            .await
            .ends_with(&format!("random --board 3x3 --depth 12 --seed {seed}")),
        "{}",
        text(&client, "status").await
    );
    // The depth clamps to the board's farthest state.
    let depth = client
        .find(Locator::Css("[data-testid=\"depth\"]"))
        .await
        .unwrap();
    depth.clear().await.unwrap();
    depth.send_keys("99").await.unwrap();
    click(&client, "new-puzzle").await;
    wait_for(&client, "distance", "31", Duration::from_secs(30)).await;
    assert_eq!(depth.prop("value").await.unwrap().as_deref(), Some("31"));

    // On a phone (390 px wide) the exact distance stays in view while playing.
    client.set_window_size(390, 844).await.unwrap();
    client
        .goto(&format!("{url}?board=4x4&puzzle={commas}"))
        .await
        .unwrap();
    wait_for(&client, "readout", &d.to_string(), Duration::from_secs(30)).await;
    click(&client, &format!("tile-{}", tile_for(&start, path[0]))).await;
    wait_for(
        &client,
        "readout",
        &(d - 1).to_string(),
        Duration::from_secs(30),
    )
    .await;
    let in_view = client
        .execute(
            "const r = document.querySelector('[data-testid=readout]').getBoundingClientRect(); \
             return r.bottom <= window.innerHeight && r.right <= window.innerWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(in_view, serde_json::Value::Bool(true));
    expect_contrast(&client, "4x4 on a phone").await;
    // The goal field shows the whole goal (16 tiles: 37 characters).
    let fits = eval(
        &client,
        "const g = document.querySelector('[data-testid=goal]'); \
         return g.scrollWidth <= g.clientWidth;",
    )
    .await;
    assert_eq!(fits, serde_json::Value::Bool(true));
    // The farthest state is not left as a dash on a board answered by search.
    assert!(text(&client, "farthest")
        .await
        .starts_with("not known here"));
    // With the effort table filled: no sideways scroll (the table scrolls in its own box),
    // and every control at least 44 px tall.
    client
        .goto(&format!("{url}?board=3x3&puzzle=2,3,4,1,5,0,7,6,8"))
        .await
        .unwrap();
    wait_for(&client, "readout", "19", Duration::from_secs(30)).await;
    click(&client, "effort-run").await;
    let start_wait = Instant::now();
    while client
        .find_all(Locator::Css("[data-testid=\"effort\"] tbody tr"))
        .await
        .unwrap()
        .len()
        != 8
    {
        // Two blind runs, then A* and IDA* with three heuristics each (no databases on 3x3).
        assert!(start_wait.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let sideways = eval(
        &client,
        "return [document.documentElement.scrollWidth, window.innerWidth];",
    )
    .await;
    assert!(
        sideways[0].as_u64() <= sideways[1].as_u64(),
        "the page scrolls sideways at 390 px: {sideways}"
    );
    let small = eval(
        &client,
        "return [...document.querySelectorAll('button, select, input')]\
         .filter((e) => e.getBoundingClientRect().width > 1)\
         .filter((e) => e.getBoundingClientRect().height < 44)\
         .map((e) => `${e.dataset.testid || e.id}: ${e.getBoundingClientRect().height}`);",
    )
    .await;
    assert_eq!(small, serde_json::json!([]), "touch targets under 44 px");
    expect_contrast(&client, "3x3 on a phone with the effort table").await;

    // Presentation mode on a projector (1920×1080): no text under 24 px, the board as tall
    // as the screen.
    client.set_window_size(1920, 1080).await.unwrap();
    click(&client, "present").await;
    let sizes = eval(
        &client,
        &format!(
            "{VISIBLE_TEXT} return [texts.filter((t) => t.size < 24)\
             .map((t) => `${{t.name}}: ${{t.size.toFixed(1)}} px`), \
             parseFloat(getComputedStyle(document.body).fontSize)];"
        ),
    )
    .await;
    assert_eq!(sizes[0], serde_json::json!([]), "text under 24 px");
    assert!(sizes[1].as_f64().unwrap() >= 24.0, "{sizes}");
    let fill = eval(
        &client,
        "const b = document.querySelector('[data-testid=board]').getBoundingClientRect(); \
         return [b.height, window.innerHeight, b.right, window.innerWidth];",
    )
    .await;
    let (height, screen) = (fill[0].as_f64().unwrap(), fill[1].as_f64().unwrap());
    assert!(
        height >= 0.85 * screen && height <= screen,
        "board {height} px tall on a {screen} px screen"
    );
    assert!(fill[2].as_f64() <= fill[3].as_f64(), "{fill}");
    // The distance stays in view below the board.
    let readout = eval(
        &client,
        "const r = document.querySelector('[data-testid=readout]').getBoundingClientRect(); \
         return r.bottom <= window.innerHeight;",
    )
    .await;
    assert_eq!(readout, serde_json::Value::Bool(true));
    expect_contrast(&client, "presentation mode").await;
    screenshot(&client, "present.png").await;

    client.close().await.unwrap();
    serving.stop().await;
}

/// The goal's tiles as the page draws them beside the puzzle (0 the gap).
async fn shown_goal(client: &Client) -> Vec<u8> {
    let texts = eval(
        client,
        "return [...document.querySelectorAll('[data-testid=goal-board] span')]\
         .map((s) => s.textContent);",
    )
    .await;
    texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().parse().unwrap_or(0))
        .collect()
}

/// A puzzle and a goal are read as the server reads them, in every spelling the command line
/// takes: a link `?puzzle=23415x768` (the page split it on commas and spaces only and drew a
/// one-cell board of `NaN`) and a goal typed `123405678` (drawn as one cell holding
/// 123405678 while the answers were for the right goal).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_and_a_goal_in_one_string_are_read_as_the_server_reads_them_in_chromium() {
    let Some(BoardsPage {
        serving,
        client,
        _driver,
        _profile,
    }) = boards_page().await
    else {
        return;
    };
    let url = &serving.url;
    let board = Board::EIGHT;
    let table = Table::open(table_file(board)).unwrap();
    let puzzle = slidetable::core::parse_layout(board, b"2 3 4 1 5 0 7 6 8").unwrap();

    client
        .goto(&format!("{url}?board=3x3&puzzle=23415x768&goal=123456780"))
        .await
        .unwrap();
    wait_for(&client, "distance", "19", Duration::from_secs(20)).await;
    assert_eq!(shown_layout(&client, board).await, puzzle);
    assert_eq!(shown_goal(&client).await, [1, 2, 3, 4, 5, 6, 7, 8, 0]);

    // A goal typed as one string: drawn tile by tile, and the distance is for it.
    let goal = slidetable::core::parse_layout(board, b"1 2 3 4 0 5 6 7 8").unwrap();
    let field = client
        .find(Locator::Css("[data-testid=\"goal\"]"))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys("123405678").await.unwrap();
    click(&client, "set-goal").await;
    let distance = table
        .goal(&goal)
        .unwrap()
        .distance(&puzzle)
        .unwrap()
        .unwrap();
    wait_for(
        &client,
        "distance",
        &distance.to_string(),
        Duration::from_secs(20),
    )
    .await;
    assert_eq!(shown_goal(&client).await, goal.tiles());
    assert_eq!(shown_layout(&client, board).await, puzzle);
    let address = eval(&client, "return location.search;").await;
    assert_eq!(
        address.as_str(),
        Some("?board=3x3&puzzle=2,3,4,1,5,0,7,6,8&goal=1,2,3,4,0,5,6,7,8")
    );

    // A link whose puzzle the server refuses says why, and the page still plays.
    client
        .goto(&format!("{url}?board=3x3&puzzle=2345"))
        .await
        .unwrap();
    let start = Instant::now();
    loop {
        let said = text(&client, "status").await;
        if said.contains("expected 9 tiles, found 4") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "status reads '{said}'"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    client.close().await.unwrap();
    serving.stop().await;
}

//! `man`: the manual pages, generated from the definitions clap parses with.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::resolved::Man;
use crate::streams;

pub(crate) fn run(man: Man) -> Result<ExitCode> {
    let Man { command, main_page } = man;
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let page = with_sections(&String::from_utf8_lossy(&page), main_page);
    let mut out = streams::stdout();
    out.write_all(page.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// EXIT STATUS in place of the exit codes clap renders as EXTRA (from `--help`'s last line);
/// on the main page also ENVIRONMENT, FILES and EXAMPLES; all before VERSION, as man-pages(7)
/// orders them.
fn with_sections(page: &str, main_page: bool) -> String {
    let mut page = page.to_string();
    if let Some(start) = page.find(".SH EXTRA\n") {
        let end = page[start + 1..]
            .find("\n.SH ")
            .map_or(page.len(), |i| start + 1 + i + 1);
        page.replace_range(start..end, "");
    }
    let mut sections = EXIT_STATUS.to_string();
    if main_page {
        sections += ENVIRONMENT;
        sections += FILES;
        sections += EXAMPLES;
    }
    match page.find(".SH VERSION\n") {
        Some(at) => page.insert_str(at, &sections),
        None => page.push_str(&sections),
    }
    page
}

const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success.
.TP
\fB1\fR
Failure: an unreadable file, a bad or corrupt table, a search stopped at its limit.
.TP
\fB2\fR
Bad arguments.
.TP
\fB3\fR
\fBjudge --check\fR: a Presentation Error (every case right but for whitespace, in a format
compared byte for byte). A Wrong Answer or an Output Limit Exceeded there exits 1.
.TP
\fB65\fR
A bad line in the input (a puzzle or a judge's input); every earlier answer is written first.
.TP
\fB130\fR
A 24-puzzle search (\fB\-\-board 5x5\fR) stopped by Ctrl-C; it says the bound it proved.
A closed standard output (\fBslidetable path big.txt | head\fR) ends quietly with 0.
"#;

const ENVIRONMENT: &str = r#".SH ENVIRONMENT
.TP
\fBSLIDETABLE_TABLE\fR
The default 3x3 table, used when no \fB\-\-table\fR is given.
.TP
\fBXDG_CACHE_HOME\fR
The cache directory, where the default tables live (an absolute path; else \fI~/.cache\fR).
.TP
\fBHOME\fR
Where \fI~/.cache\fR is, when \fBXDG_CACHE_HOME\fR is not set.
"#;

const FILES: &str = r#".SH FILES
.TP
\fI$XDG_CACHE_HOME/slidetable/RxC.slt\fR, else \fI~/.cache/slidetable/RxC.slt\fR
The default table of each board (\fI3x3.slt\fR, \fI3x4.slt\fR, ...): generated on first use
by every command that reads a table, replaced only by \fBslidetable generate\fR (written to a
temporary file, then renamed). \fBjudge leetcode773\fR uses \fI2x3.slt\fR there.
"#;

const EXAMPLES: &str = r#".SH EXAMPLES
.TP
\fBslidetable path puzzles.txt\fR
An optimal move string for each puzzle line of \fIpuzzles.txt\fR.
.TP
\fBecho "2 3 4 1 5 x 7 6 8" | slidetable distance\fR
The fewest moves to the goal: 19.
.TP
\fBslidetable generate \-\-board 3x4 \-o 3x4.slt\fR
The table of the 12\-cell board (about 60 MB).
.TP
\fBslidetable random \-\-depth 20 \-\-count 10 \-\-distinct \-\-show\fR
A question sheet of ten different puzzles 20 moves from the goal.
.TP
\fBslidetable heuristic \-\-heuristic manhattan,linear\-conflict\fR
Two heuristics measured against every state's true distance.
.TP
\fBslidetable judge poj1077 < input.txt\fR
What an accepted solution to POJ 1077 prints.
"#;

//! What the CLI test binaries share: a sandboxed `slidetable` command and a finished run.

#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A scratch directory of this test binary's own (`name`) under Cargo's directory for
/// integration tests (`target/tmp`), one per build profile, reused from run to run so no run
/// leaves a temporary directory behind.
pub(crate) fn scratch_dir(name: &str) -> PathBuf {
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("slidetable-{name}-{profile}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary with no default table: no `$SLIDETABLE_TABLE`, and a cache and home inside `dir`.
pub(crate) fn sandboxed(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("slidetable").unwrap();
    cmd.env_remove("SLIDETABLE_TABLE")
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .current_dir(dir);
    cmd
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a finished command did. Never a panic, on either stream.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn of(cmd: &mut Command) -> Run {
        let out = cmd.output().unwrap();
        let run = Run {
            code: out.status.code(),
            stdout: text(&out.stdout),
            stderr: text(&out.stderr),
        };
        assert!(
            !run.stderr.contains("panicked") && !run.stdout.contains("panicked"),
            "{run:#?}"
        );
        run
    }

    /// Exit 0.
    pub(crate) fn success(self) -> Run {
        assert_eq!(self.code, Some(0), "{self:#?}");
        self
    }

    /// Exit 0 and nothing on stderr.
    pub(crate) fn ok(self) -> Run {
        assert_eq!(self.code, Some(0), "{self:#?}");
        assert_eq!(self.stderr, "", "{self:#?}");
        self
    }

    pub(crate) fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

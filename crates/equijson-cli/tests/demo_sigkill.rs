//! `equijson demo` killed with SIGKILL (no handler can run) leaves no server, no directory and no password file: the cluster's watchdog process cleans up. Against real PostgreSQL.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The cluster directories of process `pid` and the processes naming them.
fn leftovers(pid: u32) -> (Vec<PathBuf>, String) {
    let prefix = format!("equijson-pg-{pid}-");
    let mut dirs = Vec::new();
    for base in [PathBuf::from("/tmp"), std::env::temp_dir()] {
        if let Ok(entries) = std::fs::read_dir(&base) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) && !dirs.contains(&e.path())
                {
                    dirs.push(e.path());
                }
            }
        }
    }
    let procs = Command::new("pgrep")
        .args(["-af", &prefix])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    (dirs, procs)
}

/// Whether any cluster directory of `pid` holds `name` (e.g. `pwfile`, `data/postmaster.pid`).
fn has(pid: u32, name: &str) -> bool {
    leftovers(pid).0.iter().any(|d| d.join(name).exists())
}

/// When to kill the demo.
#[derive(Debug, Clone, Copy)]
enum Moment {
    /// While `initdb` runs: its password file exists.
    DuringInitdb,
    /// The server runs (its pid file exists), before the demo printed anything about it.
    ServerStarting,
    /// After the demo printed the server line.
    AfterStart,
    /// During the scans.
    DuringScans,
    /// A fixed delay after the start.
    After(u64),
}

#[test]
fn sigkill_at_any_moment_of_the_demo_leaves_no_server_and_no_files() {
    for moment in [
        Moment::DuringInitdb,
        Moment::ServerStarting,
        Moment::AfterStart,
        Moment::DuringScans,
        Moment::After(0),
        Moment::After(30),
        Moment::After(700),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
            .arg("demo")
            .env_remove("DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let pid = child.id();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let wait_line = |prefix: &str| loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(l) if l.starts_with(prefix) => break true,
                Ok(_) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(_) => break false,
            }
        };
        let reached = match moment {
            Moment::DuringInitdb | Moment::ServerStarting => {
                let file = if matches!(moment, Moment::DuringInitdb) {
                    "pwfile"
                } else {
                    "data/postmaster.pid"
                };
                loop {
                    if has(pid, file) {
                        break true;
                    }
                    if Instant::now() > deadline {
                        break false;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            Moment::AfterStart => wait_line("server:"),
            Moment::DuringScans => wait_line("### 3."),
            Moment::After(ms) => {
                std::thread::sleep(Duration::from_millis(ms));
                true
            }
        };
        let _ = child.kill();
        let status = child.wait().expect("wait");
        assert!(reached, "{moment:?}: the demo never got there ({status})");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9),
            "{moment:?}: killed, not finished"
        );
        // Within a few seconds: no server of that directory, no directory.
        let until = Instant::now() + Duration::from_secs(15);
        let mut left = leftovers(pid);
        while !(left.0.is_empty() && left.1.trim().is_empty()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(100));
            left = leftovers(pid);
        }
        assert!(
            left.0.is_empty() && left.1.trim().is_empty(),
            "SIGKILL {moment:?} left {:?} and processes {}",
            left.0,
            left.1
        );
    }
}

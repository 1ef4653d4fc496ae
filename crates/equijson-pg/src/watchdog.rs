//! A watchdog process per ephemeral cluster: when the tool dies without tearing the cluster down (SIGKILL, a crash, the OOM killer), it stops the server and removes the directory.
//!
//! The watchdog is a small `/bin/sh` script in its own process group (a Ctrl-C at the
//! terminal does not reach it), reading a pipe from the tool. The tool tells it which
//! child (`initdb`, `pg_ctl`) is running and, after its own teardown, `done`. The pipe's
//! end of file without `done` means that the tool is gone, whatever killed it: the kernel
//! closes a dead process's descriptors. The watchdog then sends SIGTERM to the running
//! child, SIGQUIT (immediate shutdown) to the postmaster named in `postmaster.pid` when
//! that process runs from this data directory, waits for them to go (at most about ten
//! seconds) and removes the directory, password file included. No `unsafe`, no libc:
//! only the pipe's end of file.

use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;

/// The script; `$1` is the cluster's root directory, `$2` its data directory (passed as
/// arguments, never interpolated into the script).
const SCRIPT: &str = r#"root=$1; data=$2; child=
while IFS= read -r line; do
  case $line in
    "child "*) child=${line#child } ;;
    nochild) child= ;;
    done) exit 0 ;;
  esac
done
n=0
while [ "$n" -lt 50 ]; do
  busy=
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null; busy=1
  fi
  pid=
  [ -r "$data/postmaster.pid" ] && read -r pid < "$data/postmaster.pid"
  case $pid in *[!0-9]*) pid= ;; esac
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null \
     && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$data"; then
    kill -QUIT "$pid" 2>/dev/null; busy=1
  fi
  [ -z "$busy" ] && break
  sleep 0.2; n=$((n + 1))
done
rm -rf -- "$root"
"#;

/// The tool's end of a cluster's watchdog.
#[derive(Debug)]
pub(crate) struct Watchdog {
    pipe: Mutex<Option<ChildStdin>>,
    child: Mutex<Option<Child>>,
}

impl Watchdog {
    /// Starts the watchdog of the cluster in `root` (data directory `data`).
    pub(crate) fn spawn(root: &Path, data: &Path) -> std::io::Result<Self> {
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg("equijson-pg-watchdog")
            .arg(root)
            .arg(data)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .env("LC_ALL", "C")
            .process_group(0)
            .spawn()?;
        let pipe = child.stdin.take();
        Ok(Self {
            pipe: Mutex::new(pipe),
            child: Mutex::new(Some(child)),
        })
    }

    fn say(&self, line: &str) {
        let mut pipe = self
            .pipe
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(p) = pipe.as_mut() {
            let _ = p.write_all(line.as_bytes()).and_then(|()| p.flush());
        }
    }

    /// Names the child process now running for the cluster (`initdb`, `pg_ctl`).
    pub(crate) fn child_started(&self, pid: u32) {
        self.say(&format!("child {pid}\n"));
    }

    /// That child has been waited for.
    pub(crate) fn child_done(&self) {
        self.say("nochild\n");
    }

    /// The tool tore the cluster down itself: the watchdog exits without acting.
    pub(crate) fn dismiss(&self) {
        self.say("done\n");
        self.pipe
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(mut c) = self
            .child
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            let _ = c.wait();
        }
    }
}

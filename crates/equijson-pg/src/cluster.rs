//! Ephemeral PostgreSQL clusters: `initdb` into a temporary directory, a private socket, torn down on drop.

use std::fmt::Write as _;
use std::fs;
use std::io::Read as _;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::watchdog::Watchdog;

/// Name of the database superuser the ephemeral cluster is initialized with.
pub const SUPERUSER: &str = "equijson";

/// The environment variable naming the OS user to run the cluster as when running as root.
pub const USER_ENV: &str = "EQUIJSON_PG_USER";

/// The environment variable naming the directory of `initdb`, `pg_ctl` and `postgres` to
/// use instead of searching `PATH` and `pg_config --bindir` (e.g. another major version's
/// binaries, as `scripts/pg-versions.sh` prints them). Empty counts as unset.
pub const BINDIR_ENV: &str = "EQUIJSON_PG_BINDIR";

/// Why an ephemeral cluster could not be started.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// `initdb`, `pg_ctl` or `postgres` was not found.
    #[error(
        "PostgreSQL server binaries not found: no `initdb` on PATH or in `pg_config --bindir` \
         (install PostgreSQL, e.g. `apt-get install postgresql`, or run `bash scripts/setup.sh`; \
         or name their directory with {BINDIR_ENV})"
    )]
    NotFound,
    /// [`BINDIR_ENV`] (or the directory given to [`EphemeralCluster::start_in`]) does not
    /// hold `initdb`, `pg_ctl` and `postgres`.
    #[error(
        "PostgreSQL server binaries not found in {}: it needs initdb, pg_ctl and postgres \
         (set by {BINDIR_ENV} or given explicitly)",
        .0.display()
    )]
    BadBindir(PathBuf),
    /// Running as root and no unprivileged OS user could be found or created.
    #[error("running as root and no unprivileged user to run PostgreSQL as: {0}")]
    NoUser(String),
    /// A file-system operation on the temporary directory failed.
    #[error("ephemeral cluster: {what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A PostgreSQL tool failed; its output (and the server log, if any) is included.
    #[error("ephemeral cluster: `{tool}` failed ({status}):\n{output}")]
    Tool {
        /// The tool that failed (`initdb`, `pg_ctl start`, ...).
        tool: String,
        /// Its exit status.
        status: String,
        /// Its stdout, stderr and the tail of the server log.
        output: String,
    },
}

/// The OS account the server processes run as.
#[derive(Debug, Clone)]
struct RunAs {
    name: String,
    uid: u32,
    gid: u32,
}

/// What the signal handler and `Drop` need to stop a cluster and remove its files.
#[derive(Debug, Clone)]
struct Teardown {
    id: u64,
    pg_ctl: PathBuf,
    root: PathBuf,
    data: PathBuf,
    run_as: Option<RunAs>,
    /// Dismissed once the cluster is gone, so that it has exited before the tool does
    /// (also on a signal teardown: a watchdog left to notice the closed pipe by itself
    /// outlived the tool for a moment, and its command line names the cluster's directory).
    watchdog: Arc<Watchdog>,
}

impl Teardown {
    fn run(&self) {
        let mut cmd = Command::new(&self.pg_ctl);
        cmd.args(["stop", "-m", "fast", "-w", "-t", "30", "-D"])
            .arg(&self.data);
        if self.data.join("postmaster.pid").exists() {
            let _ = run_quiet(&mut cmd, self.run_as.as_ref());
        }
        let _ = fs::remove_dir_all(&self.root);
        self.watchdog.dismiss();
    }
}

static LIVE: Mutex<Vec<Teardown>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();
static TERMINATING: AtomicBool = AtomicBool::new(false);
/// Held by the signal handler while it tears clusters down.
static TEARING_DOWN: Mutex<()> = Mutex::new(());

/// Whether a Ctrl-C / SIGTERM teardown is under way: the process is about to exit with
/// status 130, and errors from the server going away are its consequence. Threads that
/// meet such an error should call [`wait_for_signal_exit`] instead of reporting it.
#[must_use]
pub fn terminating() -> bool {
    TERMINATING.load(Ordering::SeqCst)
}

/// When [`terminating`], blocks until the signal handler ends the process (exit 130), so
/// that a server error caused by the teardown is not reported as the outcome; otherwise
/// returns at once.
pub fn wait_for_signal_exit() {
    if terminating() {
        let _guard = TEARING_DOWN.lock();
        loop {
            std::thread::park();
        }
    }
}

/// Cluster starts and drops under way. The signal handler waits for them before it tears
/// down: a start runs `initdb` and `pg_ctl start` as child processes (removing the directory
/// under a running `initdb`, or before `postmaster.pid` exists, left files or a server
/// behind), and a drop stops the server itself (exiting in the middle of that did too).
static BUSY: Mutex<usize> = Mutex::new(0);
static BUSY_DONE: Condvar = Condvar::new();

fn busy_lock() -> MutexGuard<'static, usize> {
    BUSY.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One start or drop under way (see [`BUSY`]).
struct Busy;

impl Busy {
    /// Counts a start or drop in; `None` once a signal teardown has begun (the handler
    /// then owns every registered cluster).
    fn enter() -> Option<Self> {
        let mut n = busy_lock();
        // Read under the lock the handler sets it under: either it waits for us, or we see it.
        if TERMINATING.load(Ordering::SeqCst) {
            return None;
        }
        *n += 1;
        Some(Self)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut n = busy_lock();
        *n = n.saturating_sub(1);
        BUSY_DONE.notify_all();
    }
}

/// Blocks until the signal handler ends the process (called once [`terminating`]).
fn park_until_exit() -> ! {
    let _guard = TEARING_DOWN.lock();
    loop {
        std::thread::park();
    }
}

/// Installs (once per process) a Ctrl-C / SIGTERM / SIGHUP handler that stops every live
/// ephemeral cluster, removes its files and exits with status 130. If the program already
/// installed its own handler with the `ctrlc` crate, that one is kept and this does nothing.
fn install_signal_handler() {
    HANDLER.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let guard = TEARING_DOWN.lock();
            {
                let mut n = busy_lock();
                TERMINATING.store(true, Ordering::SeqCst);
                // Let a start finish (initdb and pg_ctl start are bounded) and a drop end,
                // so that what they create is registered, or what they remove is gone.
                while *n > 0 {
                    n = BUSY_DONE
                        .wait(n)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            }
            teardown_all();
            drop(guard);
            std::process::exit(130);
        });
    });
}

/// Stops every ephemeral cluster this process started and that is still running, and
/// removes its files. Call it from your own signal handler if you installed one before
/// starting a cluster.
pub fn teardown_all() {
    let live: Vec<Teardown> = match LIVE.lock() {
        Ok(mut v) => std::mem::take(&mut *v),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    for t in &live {
        t.run();
    }
}

fn register(t: Teardown) {
    match LIVE.lock() {
        Ok(mut v) => v.push(t),
        Err(poisoned) => poisoned.into_inner().push(t),
    }
}

fn unregister(id: u64) -> bool {
    let mut guard = match LIVE.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    let before = guard.len();
    guard.retain(|t| t.id != id);
    guard.len() != before
}

/// A private PostgreSQL cluster in a temporary directory, started with `initdb` and
/// `pg_ctl`, listening on a private unix socket and on `127.0.0.1` at a free port.
/// Dropping it stops the server and deletes every file; so does Ctrl-C or SIGTERM (a
/// handler is installed by [`EphemeralCluster::start`]).
///
/// Authentication: `trust` on the unix socket (whose directory only the cluster's owner
/// can enter), `scram-sha-256` with a random password over TCP ([`Self::tcp_config`]).
///
/// ```no_run
/// let cluster = equijson_pg::cluster::EphemeralCluster::start()?;
/// let mut client = cluster.config().connect(postgres::NoTls)?;
/// let one: i32 = client.query_one("SELECT 1", &[])?.get(0);
/// assert_eq!(one, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EphemeralCluster {
    teardown: Teardown,
    /// Stops the server and removes the files if this process dies without doing it.
    watchdog: Arc<Watchdog>,
    bindir: PathBuf,
    socket_dir: PathBuf,
    port: u16,
    password: String,
    version: String,
    stopped: bool,
}

impl std::fmt::Debug for EphemeralCluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EphemeralCluster")
            .field("root", &self.teardown.root)
            .field("port", &self.port)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl EphemeralCluster {
    /// Initializes and starts a new cluster (about one to three seconds).
    ///
    /// Takes the server binaries from the directory named by `EQUIJSON_PG_BINDIR`
    /// ([`BINDIR_ENV`]) when it is set, else finds them on `PATH`, in `pg_config --bindir`
    /// or in the newest `/usr/lib/postgresql/*/bin`. When the process runs as root (which
    /// `initdb` refuses), the server runs as the OS user named by `EQUIJSON_PG_USER`, else
    /// `postgres`, else a system user `equijson-pg` created with `useradd`, else `nobody`;
    /// that user must be able to read and execute the binaries, their `lib` and `share`
    /// directories, and every directory above them.
    ///
    /// # Errors
    /// [`ClusterError`] when the binaries are missing ([`ClusterError::BadBindir`] when
    /// `EQUIJSON_PG_BINDIR` names a directory without them), no unprivileged user is
    /// available, or `initdb` / `pg_ctl start` fail (with their output and the server log).
    pub fn start() -> Result<Self, ClusterError> {
        match std::env::var_os(BINDIR_ENV).filter(|d| !d.is_empty()) {
            Some(dir) => Self::start_in(Path::new(&dir)),
            None => Self::start_with(&server_bindir()?),
        }
    }

    /// Like [`Self::start`], with the server binaries taken from `bindir` (no search, and
    /// `EQUIJSON_PG_BINDIR` is not read).
    ///
    /// # Errors
    /// [`ClusterError::BadBindir`] when `bindir` lacks `initdb`, `pg_ctl` or `postgres`;
    /// otherwise as [`Self::start`].
    pub fn start_in(bindir: &Path) -> Result<Self, ClusterError> {
        if !has_server_binaries(bindir) {
            return Err(ClusterError::BadBindir(bindir.to_path_buf()));
        }
        Self::start_with(&fs::canonicalize(bindir).unwrap_or_else(|_| bindir.to_path_buf()))
    }

    fn start_with(bindir: &Path) -> Result<Self, ClusterError> {
        install_signal_handler();
        let Some(busy) = Busy::enter() else {
            park_until_exit()
        };
        let run_as = if is_root() { Some(find_user()?) } else { None };
        let base = if run_as.is_some() {
            PathBuf::from("/tmp")
        } else {
            std::env::temp_dir()
        };
        let id = unique_id();
        let root = base.join(format!("equijson-pg-{}-{id:x}", std::process::id()));
        let data = root.join("data");
        let socket_dir = root.join("socket");
        let pg_ctl = bindir.join("pg_ctl");
        // Before anything is created: whatever kills this process from here on (SIGKILL
        // included), the watchdog removes what was made.
        let watchdog = Arc::new(
            Watchdog::spawn(&root, &data).map_err(|e| io_err("starting", "/bin/sh".into(), e))?,
        );
        let teardown = Teardown {
            id,
            pg_ctl: pg_ctl.clone(),
            root: root.clone(),
            data: data.clone(),
            run_as: run_as.clone(),
            watchdog: Arc::clone(&watchdog),
        };
        let mut cluster = EphemeralCluster {
            teardown,
            watchdog,
            bindir: bindir.to_path_buf(),
            socket_dir: socket_dir.clone(),
            port: 0,
            password: random_password(),
            version: String::new(),
            stopped: false,
        };
        register(cluster.teardown.clone());
        let started = cluster.init_and_start(run_as.as_ref());
        if started.is_err() {
            // Removed while still counted busy, so a signal handler waiting for this start
            // finds nothing half made.
            if unregister(cluster.teardown.id) {
                cluster.teardown.run();
            }
        }
        drop(busy);
        started.map(|()| cluster)
    }

    /// `initdb`, then `pg_ctl start` on a free port (retried when the port was taken).
    fn init_and_start(&mut self, run_as: Option<&RunAs>) -> Result<(), ClusterError> {
        let cluster = self;
        let bindir = cluster.bindir.clone();
        let root = cluster.teardown.root.clone();
        let data = cluster.teardown.data.clone();
        let socket_dir = cluster.socket_dir.clone();
        let pg_ctl = cluster.teardown.pg_ctl.clone();
        cluster.create_dirs()?;
        let pwfile = root.join("pwfile");
        write_owned(&pwfile, cluster.password.as_bytes(), run_as)?;

        let mut initdb = Command::new(bindir.join("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                SUPERUSER,
                "-E",
                "UTF8",
                "--locale=C",
                "--auth-local=trust",
            ])
            .args(["--auth-host=scram-sha-256", "--no-sync"])
            .arg(format!("--pwfile={}", pwfile.display()));
        let out = run_watched(&mut initdb, run_as, Some(&cluster.watchdog))
            .map_err(|e| io_err("running", bindir.join("initdb"), e))?;
        let _ = fs::remove_file(&pwfile);
        if !out.status.success() {
            return Err(tool_error("initdb", &out, None));
        }

        let log = root.join("server.log");
        let mut last_err = None;
        for _attempt in 0..5 {
            let port = free_port()
                .map_err(|e| io_err("finding a free port on", PathBuf::from("127.0.0.1"), e))?;
            let opts = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
                 -c synchronous_commit=off -c full_page_writes=off -c max_connections=40",
                socket_dir.display()
            );
            let mut start = Command::new(&pg_ctl);
            start
                .arg("start")
                .arg("-w")
                .args(["-t", "60", "-D"])
                .arg(&data)
                .arg("-l")
                .arg(&log)
                .arg("-o")
                .arg(opts);
            let out = run_watched(&mut start, run_as, Some(&cluster.watchdog))
                .map_err(|e| io_err("running", pg_ctl.clone(), e))?;
            if out.status.success() {
                cluster.port = port;
                last_err = None;
                break;
            }
            last_err = Some(tool_error("pg_ctl start", &out, Some(&log)));
        }
        if let Some(e) = last_err {
            return Err(e);
        }
        cluster.version = server_version_line(&bindir);
        Ok(())
    }

    fn create_dirs(&self) -> Result<(), ClusterError> {
        let root = &self.teardown.root;
        fs::create_dir_all(root).map_err(|e| io_err("creating", root.clone(), e))?;
        fs::set_permissions(root, fs::Permissions::from_mode(0o700))
            .map_err(|e| io_err("chmod", root.clone(), e))?;
        fs::create_dir(&self.socket_dir)
            .map_err(|e| io_err("creating", self.socket_dir.clone(), e))?;
        fs::set_permissions(&self.socket_dir, fs::Permissions::from_mode(0o700))
            .map_err(|e| io_err("chmod", self.socket_dir.clone(), e))?;
        if let Some(u) = &self.teardown.run_as {
            for p in [root, &self.socket_dir] {
                std::os::unix::fs::chown(p, Some(u.uid), Some(u.gid))
                    .map_err(|e| io_err("chown", p.clone(), e))?;
            }
        }
        Ok(())
    }

    /// Connection settings for the unix socket as the superuser, database `postgres`.
    #[must_use]
    pub fn config(&self) -> postgres::Config {
        let mut c = postgres::Config::new();
        c.host_path(&self.socket_dir)
            .port(self.port)
            .user(SUPERUSER)
            .dbname("postgres");
        c.application_name("equijson");
        c
    }

    /// Connection settings over TCP (`127.0.0.1`), with the cluster's random password.
    #[must_use]
    pub fn tcp_config(&self) -> postgres::Config {
        let mut c = postgres::Config::new();
        c.host("127.0.0.1")
            .port(self.port)
            .user(SUPERUSER)
            .dbname("postgres")
            .password(self.password.as_str());
        c.application_name("equijson");
        c
    }

    /// A libpq-style connection string for the unix socket (no password needed), usable as
    /// `DATABASE_URL` or `--database-url` by other processes of the same OS user (or root).
    #[must_use]
    pub fn connection_string(&self) -> String {
        format!(
            "host={} port={} user={SUPERUSER} dbname=postgres",
            self.socket_dir.display(),
            self.port
        )
    }

    /// The TCP port the server listens on (also the unix socket's suffix).
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The private directory holding the unix socket.
    #[must_use]
    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    /// The cluster's data directory.
    #[must_use]
    pub fn data_dir(&self) -> &Path {
        &self.teardown.data
    }

    /// The directory the server binaries were taken from.
    #[must_use]
    pub fn bindir(&self) -> &Path {
        &self.bindir
    }

    /// The password of the superuser for TCP connections.
    #[must_use]
    pub fn password(&self) -> &str {
        &self.password
    }

    /// `postgres --version` of the binaries used, e.g. `postgres (PostgreSQL) 15.18`.
    #[must_use]
    pub fn version(&self) -> &str {
        &self.version
    }

    /// A one-line description: binaries, version, socket and port (no password).
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "ephemeral cluster: {} from {}, socket {} port {}",
            self.version,
            self.bindir.display(),
            self.socket_dir.display(),
            self.port
        )
    }

    /// Stops the server immediately (`pg_ctl stop -m immediate`), as a crash or an
    /// operator would; files stay until drop. Used to test how clients handle a server
    /// that goes away.
    ///
    /// # Errors
    /// When `pg_ctl stop` fails.
    pub fn kill(&mut self) -> Result<(), ClusterError> {
        self.stop_with("immediate")
    }

    /// Stops the server (`pg_ctl stop -m fast`); files stay until drop.
    ///
    /// # Errors
    /// When `pg_ctl stop` fails.
    pub fn stop(&mut self) -> Result<(), ClusterError> {
        self.stop_with("fast")
    }

    fn stop_with(&mut self, mode: &str) -> Result<(), ClusterError> {
        if self.stopped {
            return Ok(());
        }
        let mut cmd = Command::new(&self.teardown.pg_ctl);
        cmd.args(["stop", "-w", "-t", "30", "-m", mode, "-D"])
            .arg(&self.teardown.data);
        let out = run_quiet(&mut cmd, self.teardown.run_as.as_ref())
            .map_err(|e| io_err("running", self.teardown.pg_ctl.clone(), e))?;
        if !out.status.success() {
            return Err(tool_error("pg_ctl stop", &out, None));
        }
        self.stopped = true;
        Ok(())
    }
}

impl Drop for EphemeralCluster {
    fn drop(&mut self) {
        // A signal teardown under way owns every registered cluster: let it finish and exit.
        let Some(busy) = Busy::enter() else {
            park_until_exit()
        };
        // The signal handler may have taken it already; then it is gone.
        if unregister(self.teardown.id) {
            self.teardown.run();
        }
        drop(busy);
        wait_for_signal_exit();
    }
}

fn io_err(what: &'static str, path: PathBuf, source: std::io::Error) -> ClusterError {
    ClusterError::Io { what, path, source }
}

fn tool_error(tool: &str, out: &Output, log: Option<&Path>) -> ClusterError {
    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stderr));
    if let Some(text) = log.and_then(|l| fs::read_to_string(l).ok()) {
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        output.push_str("server log (tail):\n");
        for line in tail.into_iter().rev() {
            output.push_str(line);
            output.push('\n');
        }
    }
    ClusterError::Tool {
        tool: tool.to_owned(),
        status: out.status.to_string(),
        output,
    }
}

fn run_quiet(cmd: &mut Command, run_as: Option<&RunAs>) -> std::io::Result<Output> {
    run_watched(cmd, run_as, None)
}

/// Runs `cmd` to its end, its output captured; `watchdog` is told its pid meanwhile.
fn run_watched(
    cmd: &mut Command,
    run_as: Option<&RunAs>,
    watchdog: Option<&Watchdog>,
) -> std::io::Result<Output> {
    cmd.stdin(Stdio::null())
        .env("LC_ALL", "C")
        .env_remove("PGDATA")
        .env_remove("PGPORT")
        .env_remove("PGHOST");
    if let Some(u) = run_as {
        // std drops supplementary groups (setgroups(0)) when root sets a uid.
        cmd.uid(u.uid)
            .gid(u.gid)
            .env("USER", &u.name)
            .env("HOME", "/tmp")
            .current_dir("/tmp");
    }
    let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    if let Some(w) = watchdog {
        w.child_started(child.id());
    }
    let out = child.wait_with_output();
    if let Some(w) = watchdog {
        w.child_done();
    }
    out
}

fn write_owned(path: &Path, bytes: &[u8], run_as: Option<&RunAs>) -> Result<(), ClusterError> {
    fs::write(path, bytes).map_err(|e| io_err("writing", path.to_owned(), e))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o600))
        .map_err(|e| io_err("chmod", path.to_owned(), e))?;
    if let Some(u) = run_as {
        std::os::unix::fs::chown(path, Some(u.uid), Some(u.gid))
            .map_err(|e| io_err("chown", path.to_owned(), e))?;
    }
    Ok(())
}

/// The directory [`EphemeralCluster::start`] takes the server binaries from, without
/// starting anything: the one named by [`BINDIR_ENV`] when it is set, else the first found on
/// `PATH`, in `pg_config --bindir` or in the newest `/usr/lib/postgresql/*/bin`. Tests use it
/// to tell a machine without PostgreSQL (skip) from a broken installation (fail).
///
/// # Errors
/// [`ClusterError::NotFound`] when no directory holds `initdb`, `pg_ctl` and `postgres`;
/// [`ClusterError::BadBindir`] when [`BINDIR_ENV`] names a directory without them.
pub fn server_bindir() -> Result<PathBuf, ClusterError> {
    match std::env::var_os(BINDIR_ENV).filter(|d| !d.is_empty()) {
        Some(dir) if has_server_binaries(Path::new(&dir)) => Ok(PathBuf::from(dir)),
        Some(dir) => Err(ClusterError::BadBindir(PathBuf::from(dir))),
        None => find_bindir().ok_or(ClusterError::NotFound),
    }
}

/// The directory holding `initdb`, `pg_ctl` and `postgres`: from `PATH`, else `pg_config --bindir`.
fn find_bindir() -> Option<PathBuf> {
    let has_all = has_server_binaries;
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if has_all(&dir) {
                return Some(
                    fs::canonicalize(dir.join("initdb"))
                        .ok()
                        .and_then(|p| p.parent().map(Path::to_path_buf))
                        .unwrap_or(dir),
                );
            }
        }
    }
    let out = Command::new("pg_config")
        .arg("--bindir")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if has_all(&dir) {
        return Some(dir);
    }
    // Debian installs server binaries per major version.
    let mut versions: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .collect();
    versions.sort();
    versions.into_iter().rev().find(|d| has_all(d))
}

/// Whether `dir` holds `initdb`, `pg_ctl` and `postgres`.
fn has_server_binaries(dir: &Path) -> bool {
    ["initdb", "pg_ctl", "postgres"]
        .iter()
        .all(|t| dir.join(t).is_file())
}

fn server_version_line(bindir: &Path) -> String {
    Command::new(bindir.join("postgres"))
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "postgres (version unknown)".to_owned())
}

fn is_root() -> bool {
    // Without libc: the effective uid is in /proc/self/status ("Uid: real effective ...").
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

fn lookup_user(name: &str) -> Option<RunAs> {
    let out = Command::new("getent")
        .args(["passwd", name])
        .output()
        .ok()?;
    let line = String::from_utf8_lossy(&out.stdout);
    let mut fields = line.trim().split(':');
    let user = fields.next()?;
    let _pw = fields.next()?;
    let uid = fields.next()?.parse().ok()?;
    let gid = fields.next()?.parse().ok()?;
    (user == name && uid != 0).then(|| RunAs {
        name: name.to_owned(),
        uid,
        gid,
    })
}

fn find_user() -> Result<RunAs, ClusterError> {
    if let Ok(name) = std::env::var(USER_ENV) {
        return lookup_user(&name).ok_or_else(|| {
            ClusterError::NoUser(format!("{USER_ENV}={name} is not an unprivileged user"))
        });
    }
    if let Some(u) = lookup_user("postgres").or_else(|| lookup_user("equijson-pg")) {
        return Ok(u);
    }
    let _ = Command::new("useradd")
        .args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "equijson-pg",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    lookup_user("equijson-pg")
        .or_else(|| lookup_user("nobody"))
        .ok_or_else(|| {
            ClusterError::NoUser(
                "no `postgres` user, `useradd equijson-pg` failed and no `nobody`".to_owned(),
            )
        })
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn unique_id() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut state =
        nanos ^ (u64::from(std::process::id()) << 32) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    equijson_check::generate::splitmix64(&mut state)
}

fn random_password() -> String {
    let mut bytes = [0u8; 18];
    let ok = fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !ok {
        let mut state = unique_id();
        for b in &mut bytes {
            *b = equijson_check::generate::splitmix64(&mut state) as u8;
        }
    }
    let mut hex = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

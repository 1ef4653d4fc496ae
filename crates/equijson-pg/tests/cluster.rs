//! The ephemeral cluster against the real PostgreSQL binaries: start, connect, tear down.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::path::PathBuf;

use equijson_pg::cluster::{BINDIR_ENV, ClusterError, EphemeralCluster};
use equijson_pg::connect::{PgError, SqlState, Target, connect};

#[test]
fn starts_connects_and_is_removed_on_drop() {
    if !pg_or_skip::server_or_skip("starts_connects_and_is_removed_on_drop") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    assert!(
        cluster.version().contains("PostgreSQL"),
        "{}",
        cluster.version()
    );
    let mut client = cluster
        .config()
        .connect(postgres::NoTls)
        .expect("connect over socket");
    let v: String = client
        .query_one("SHOW server_version", &[])
        .expect("query")
        .get(0);
    // The server that answers is the binaries' version (`postgres (PostgreSQL) 13.23` and
    // `13.23`, or `15.18 (Debian 15.18-0+deb12u1)`), from EQUIJSON_PG_BINDIR when set.
    let number = cluster
        .version()
        .split("(PostgreSQL) ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("version number");
    assert!(v.starts_with(number), "{v} is not {}", cluster.version());
    if let Some(dir) = std::env::var_os(BINDIR_ENV).filter(|d| !d.is_empty()) {
        assert_eq!(
            cluster.bindir(),
            std::fs::canonicalize(&dir).expect("EQUIJSON_PG_BINDIR")
        );
    }
    let ro: String = client
        .query_one("SHOW server_encoding", &[])
        .expect("query")
        .get(0);
    assert_eq!(ro, "UTF8");
    // TCP with the password works; a wrong password is an Auth error that never shows it.
    let mut tcp = cluster.tcp_config();
    connect(&tcp).expect("tcp with password");
    // A database that does not exist: the server answers, and its SQLSTATE is kept.
    let mut nodb = tcp.clone();
    nodb.dbname("no_such_database");
    match connect(&nodb) {
        Err(e @ PgError::Unreachable { .. }) => {
            assert_eq!(e.sqlstate(), Some(&SqlState::INVALID_CATALOG_NAME), "{e}");
            assert!(e.to_string().ends_with("(SQLSTATE 3D000)"), "{e}");
        }
        Err(other) => panic!("expected Unreachable error, got {other:?}"),
        Ok(_) => panic!("a missing database accepted"),
    }
    tcp.password("not-the-password-xyzzy");
    match connect(&tcp) {
        Err(e) => {
            assert!(
                matches!(&e, PgError::Auth { message, .. } if !message.contains("xyzzy")),
                "expected Auth error without the password, got {e:?}"
            );
            assert_eq!(e.sqlstate(), Some(&SqlState::INVALID_PASSWORD), "{e}");
            assert!(e.to_string().ends_with("(SQLSTATE 28P01)"), "{e}");
            assert!(!e.to_string().contains("xyzzy"), "{e}");
        }
        Ok(_) => panic!("wrong password accepted"),
    }
    let root: PathBuf = cluster.data_dir().parent().expect("root").to_path_buf();
    assert!(root.exists());
    drop(client);
    drop(cluster);
    assert!(!root.exists(), "{} should be removed", root.display());
}

#[test]
fn explicit_bindir_is_used_or_refused() {
    // A directory without `postgres`: refused before anything is created, naming it.
    let dir = std::env::temp_dir().join(format!("equijson-bindir-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    for tool in ["initdb", "pg_ctl"] {
        std::fs::write(dir.join(tool), "#!/bin/sh\nexit 1\n").expect("write");
    }
    let refused = EphemeralCluster::start_in(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    match refused {
        Err(e @ ClusterError::BadBindir(_)) => {
            let text = e.to_string();
            assert!(text.contains(&dir.display().to_string()), "{text}");
            assert!(text.contains(BINDIR_ENV), "{text}");
        }
        other => panic!("expected BadBindir, got {other:?}"),
    }
    // The directory the default search found, given explicitly: the same server.
    if !pg_or_skip::server_or_skip("explicit_bindir_is_used_or_refused") {
        return;
    }
    let found = EphemeralCluster::start().expect("start cluster");
    let explicit = EphemeralCluster::start_in(found.bindir()).expect("start in bindir");
    assert_eq!(explicit.bindir(), found.bindir());
    assert_eq!(explicit.version(), found.version());
    let mut client = explicit.config().connect(postgres::NoTls).expect("connect");
    let one: i32 = client.query_one("SELECT 1", &[]).expect("query").get(0);
    assert_eq!(one, 1);
}

#[test]
fn unreachable_server_is_a_clear_error_without_password() {
    let t = Target::from_url("postgresql://alice:s3cr3t-pw@127.0.0.1:1/db?connect_timeout=2")
        .expect("parse");
    let Err(err) = t.connect() else {
        panic!("nothing listens on port 1")
    };
    let text = err.to_string();
    assert!(matches!(err, PgError::Unreachable { .. }), "{text}");
    assert!(!text.contains("s3cr3t-pw"), "{text}");
    assert!(text.contains("127.0.0.1:1/db"), "{text}");
    assert!(!format!("{t:?}").contains("s3cr3t-pw"));
}

#[test]
fn bad_url_does_not_echo_password() {
    let err =
        Target::from_url("postgresql://bob:hunter2-pw@host:notaport/db").expect_err("bad port");
    assert!(!err.to_string().contains("hunter2-pw"), "{err}");
}

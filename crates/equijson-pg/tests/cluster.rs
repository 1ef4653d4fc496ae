//! The ephemeral cluster against the real PostgreSQL binaries: start, connect, tear down.

use std::path::PathBuf;

use equijson_pg::cluster::EphemeralCluster;
use equijson_pg::connect::{PgError, Target, connect};

#[test]
fn starts_connects_and_is_removed_on_drop() {
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
    assert!(!v.is_empty());
    let ro: String = client
        .query_one("SHOW server_encoding", &[])
        .expect("query")
        .get(0);
    assert_eq!(ro, "UTF8");
    // TCP with the password works; a wrong password is an Auth error that never shows it.
    let mut tcp = cluster.tcp_config();
    connect(&tcp).expect("tcp with password");
    tcp.password("not-the-password-xyzzy");
    match connect(&tcp) {
        Err(PgError::Auth { message, .. }) => assert!(!message.contains("xyzzy"), "{message}"),
        Err(other) => panic!("expected Auth error, got {other:?}"),
        Ok(_) => panic!("wrong password accepted"),
    }
    let root: PathBuf = cluster.data_dir().parent().expect("root").to_path_buf();
    assert!(root.exists());
    drop(client);
    drop(cluster);
    assert!(!root.exists(), "{} should be removed", root.display());
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

//! TLS against a real server: an ephemeral cluster with `ssl = on` and a certificate from a
//! test CA; every `sslmode`, name and chain checks, and a scan over `verify-full`.

#[path = "shared/pg_or_skip.rs"]
mod pg_or_skip;

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use equijson_pg::cluster::{EphemeralCluster, SUPERUSER};
use equijson_pg::connect::{ConnectConfig, PgError, Target, connect, tls_summary};
use equijson_pg::scan::ScanOptions;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};

struct Pki {
    dir: tempdir::Dir,
    ca: PathBuf,
    other_ca: PathBuf,
}

mod tempdir {
    //! A directory removed on drop.
    pub(crate) struct Dir(pub(crate) std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn ca(name: &str) -> (CertificateParams, KeyPair, String) {
    let key = KeyPair::generate().expect("CA key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).expect("self-signed CA");
    (params, key, cert.pem())
}

/// A CA, a server certificate for `localhost` only (no IP address), and an unrelated CA;
/// the server's files go into the cluster's data directory, owned by the server's user.
fn make_pki(cluster: &EphemeralCluster) -> Pki {
    let dir = std::env::temp_dir().join(format!("equijson-tls-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("pki dir");
    let (ca_params, ca_key, ca_pem) = ca("equijson test CA");
    let (_, _, other_pem) = ca("some other CA");
    let server_key = KeyPair::generate().expect("server key");
    let mut params = CertificateParams::new(vec!["localhost".to_owned()]).expect("params");
    params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    let issuer = Issuer::new(ca_params, ca_key);
    let server = params.signed_by(&server_key, &issuer).expect("sign");
    let ca = dir.join("ca.pem");
    let other_ca = dir.join("other-ca.pem");
    std::fs::write(&ca, ca_pem).expect("write ca");
    std::fs::write(&other_ca, other_pem).expect("write other ca");

    let data = cluster.data_dir();
    let owner = std::fs::metadata(data).expect("data dir");
    for (name, text) in [
        ("server.crt", server.pem()),
        ("server.key", server_key.serialize_pem()),
    ] {
        let p = data.join(name);
        std::fs::write(&p, text).expect("write server file");
        std::os::unix::fs::chown(&p, Some(owner.uid()), Some(owner.gid())).expect("chown");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    Pki {
        dir: tempdir::Dir(dir),
        ca,
        other_ca,
    }
}

fn set_ssl(cluster: &EphemeralCluster, on: bool) {
    let mut admin = connect(cluster.config()).expect("socket");
    // One statement per call: ALTER SYSTEM refuses to run in a (implicit) transaction.
    admin
        .batch_execute(if on {
            "ALTER SYSTEM SET ssl = on"
        } else {
            "ALTER SYSTEM SET ssl = off"
        })
        .expect("set ssl");
    admin
        .batch_execute("SELECT pg_reload_conf()")
        .expect("reload");
    // The reload is asynchronous: wait until a new session sees it.
    let started = Instant::now();
    loop {
        let mut c = connect(cluster.config()).expect("socket");
        let v: String = c.query_one("SHOW ssl", &[]).expect("show").get(0);
        if v == if on { "on" } else { "off" } {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "ssl not reloaded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn url(cluster: &EphemeralCluster, host: &str, params: &str) -> String {
    format!(
        "postgresql://{SUPERUSER}:{}@{host}:{}/postgres?connect_timeout=10{params}",
        cluster.password(),
        cluster.port()
    )
}

fn connected(cluster: &EphemeralCluster, host: &str, params: &str) -> Result<String, PgError> {
    let config: ConnectConfig = url(cluster, host, params).parse()?;
    let mut client = connect(&config)?;
    Ok(tls_summary(&mut client))
}

fn path(p: &Path) -> String {
    p.display().to_string().replace('/', "%2F")
}

#[test]
fn every_sslmode_against_a_tls_server() {
    if !pg_or_skip::server_or_skip("every_sslmode_against_a_tls_server") {
        return;
    }
    let cluster = EphemeralCluster::start().expect("start cluster");
    let pki = make_pki(&cluster);
    set_ssl(&cluster, true);
    let ca = format!("&sslrootcert={}", path(&pki.ca));
    let other = format!("&sslrootcert={}", path(&pki.other_ca));

    // Encrypted, the certificate checked, name included.
    let s = connected(&cluster, "localhost", &format!("&sslmode=verify-full{ca}"))
        .expect("verify-full with the right CA and name");
    assert!(s.starts_with("TLSv1."), "{s}");
    // The certificate names localhost, not 127.0.0.1: verify-full refuses, verify-ca accepts.
    let e = connected(&cluster, "127.0.0.1", &format!("&sslmode=verify-full{ca}"))
        .expect_err("wrong name");
    let text = e.to_string();
    assert!(matches!(e, PgError::Unreachable { .. }), "{text}");
    assert!(text.contains("not valid for name \"127.0.0.1\""), "{text}");
    assert!(!text.contains(cluster.password()), "{text}");
    let s = connected(&cluster, "127.0.0.1", &format!("&sslmode=verify-ca{ca}"))
        .expect("verify-ca ignores the name");
    assert!(s.starts_with("TLSv1."), "{s}");
    // A chain from another CA is refused by both verify modes, and by require with a root.
    for mode in ["verify-full", "verify-ca", "require"] {
        let e = connected(&cluster, "localhost", &format!("&sslmode={mode}{other}"))
            .expect_err("unknown issuer");
        let text = e.to_string();
        assert!(
            text.contains("invalid peer certificate: UnknownIssuer"),
            "{mode}: {text}"
        );
        assert!(!text.contains(cluster.password()), "{text}");
    }
    // libpq's require and prefer: encrypted, certificate not authenticated.
    for mode in ["require", "prefer", "allow"] {
        let s = connected(&cluster, "127.0.0.1", &format!("&sslmode={mode}")).expect(mode);
        assert!(s.starts_with("TLSv1."), "{mode}: {s}");
    }
    // The default is prefer.
    let s = connected(&cluster, "127.0.0.1", "").expect("default");
    assert!(s.starts_with("TLSv1."), "{s}");
    assert_eq!(
        connected(&cluster, "127.0.0.1", "&sslmode=disable").expect("disable"),
        "no TLS"
    );
    // A root file that does not exist is named.
    let e = connected(
        &cluster,
        "localhost",
        "&sslmode=verify-full&sslrootcert=%2Fnonexistent%2Fca.pem",
    )
    .expect_err("missing root file");
    assert!(matches!(e, PgError::Tls(_)), "{e}");
    assert!(e.to_string().contains("/nonexistent/ca.pem"), "{e}");
    // A Unix-domain socket never uses TLS, whatever sslmode says (as libpq).
    let socket = format!(
        "host={} port={} user={SUPERUSER} dbname=postgres sslmode=require",
        cluster.socket_dir().display(),
        cluster.port()
    );
    let t = Target::from_url(&socket).expect("socket url");
    let mut c = t.connect().expect("socket with require");
    assert_eq!(tls_summary(&mut c), "no TLS");

    // A scan through verify-full, via the library with a parsed URL.
    let mut admin = connect(cluster.config()).expect("socket");
    admin
        .batch_execute(
            "CREATE TABLE docs (id int PRIMARY KEY, doc jsonb); \
             INSERT INTO docs SELECT i, jsonb_build_object('n', i, 's', 'x' || i) FROM generate_series(1, 50) i;",
        )
        .expect("table");
    let config: ConnectConfig = url(&cluster, "localhost", &format!("&sslmode=verify-full{ca}"))
        .parse()
        .expect("url");
    let opts = ScanOptions {
        table: "docs".into(),
        column: "doc".into(),
        key: Some("id".into()),
        ..Default::default()
    };
    let report =
        equijson_pg::scan::<serde_json::Value>(&config, &opts, &[]).expect("scan over TLS");
    assert!(
        report.complete && report.rows_read == 50,
        "{}",
        report.render()
    );

    // A server without TLS: require fails clearly, prefer falls back to plaintext.
    set_ssl(&cluster, false);
    let e = connected(&cluster, "127.0.0.1", "&sslmode=require").expect_err("no TLS offered");
    assert!(e.to_string().contains("server does not support TLS"), "{e}");
    assert_eq!(
        connected(&cluster, "127.0.0.1", "&sslmode=prefer").expect("prefer"),
        "no TLS"
    );
    drop(pki.dir);
}

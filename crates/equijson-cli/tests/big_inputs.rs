//! Inputs past the old size limits; `#[ignore]`d (gigabytes of disk and memory), run by
//! `just big-inputs`.
#![allow(clippy::unwrap_used, clippy::print_stderr, reason = "test code")]

use std::io::{BufWriter, Read, Write};
use std::process::{Command, Stdio};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("equijson-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
#[ignore = "creates a 5 GB sparse file; run with `just big-inputs`"]
fn oversized_file_is_refused_from_its_size_before_reading() {
    let path = temp("sparse.json");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(5_000_000_000).unwrap();
    let t = std::time::Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .arg("canon")
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    eprintln!("{err}");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("5000000000 bytes is more than the 4294967295-byte limit"),
        "{err}"
    );
    assert!(err.contains("so it was not read"), "{err}");
    // Refused from the size: no 5 GB read.
    assert!(t.elapsed().as_secs() < 5, "took {:?}", t.elapsed());
    std::fs::remove_file(&path).ok();
}

#[test]
#[ignore = "writes a 1.1 GB file and needs about 7 GB of memory; run with `just big-inputs`"]
fn output_past_4_gib_is_written_whole() {
    // `[1e20,1e20,...]`: 5 bytes per element in, 22 out (`100000000000000000000,`).
    let count: u64 = 220_000_000;
    let path = temp("exp.json");
    {
        let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(&path).unwrap());
        w.write_all(b"[").unwrap();
        let chunk = "1e20,".repeat(1 << 16);
        let mut left = count - 1;
        while left > 0 {
            let n = left.min(1 << 16);
            w.write_all(&chunk.as_bytes()[..(n as usize) * 5]).unwrap();
            left -= n;
        }
        w.write_all(b"1e20]").unwrap();
    }
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 1_100_000_000, "{size}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_equijson"))
        .arg("canon")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut total: u64 = 0;
    let mut head = Vec::new();
    let mut last = 0u8;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        if head.len() < 64 {
            head.extend_from_slice(&buf[..n.min(64)]);
        }
        total += n as u64;
        last = buf[n - 1];
    }
    let o = child.wait_with_output().unwrap();
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0));
    let want = 2 + count * 21 + (count - 1);
    assert!(want > 4 << 30);
    assert_eq!(total, want);
    assert!(head.starts_with(b"[100000000000000000000,100000000000000000000,"));
    assert_eq!(last, b']');
    std::fs::remove_file(&path).ok();
}

//! Every finding of a scan with its row key, as it is found: JSON Lines files and callbacks.
//!
//! A scan's report keeps [`crate::live::EXAMPLES_PER_CLASS`] examples per class; a
//! [`FindingsSink`] in [`crate::scan::ScanOptions::findings`] receives every finding of
//! every row instead, one at a time, so memory does not grow with the number of findings.

use std::fmt;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::live::{LiveClass, LiveFinding};

/// One finding of one row: a line of `pg scan --findings FILE`, serialized with exactly
/// these names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowFinding {
    /// The row key (`--key`'s value as text), else `row N` (the row's number in the scan).
    pub key: String,
    /// The class (see [`LiveFinding::class`]; serialized by its name, e.g. `value-split`).
    pub class: LiveClass,
    /// JSON pointer of the first difference (`""`: the whole value).
    pub pointer: String,
    /// What differs (values redacted unless the scan shows them: `--show-values`).
    pub description: String,
    /// Whether the DTO (or `--accept`) accepts it (`declared` in files of earlier
    /// versions, read as this).
    #[serde(alias = "declared")]
    pub accepted: bool,
}

enum Target {
    Lines(BufWriter<Box<dyn Write + Send>>),
    Call(Box<dyn FnMut(&RowFinding) + Send>),
}

struct Inner {
    target: Target,
    written: u64,
    error: Option<FindingsError>,
}

/// Why a [`FindingsSink`] could not be created or written.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FindingsError {
    /// The findings file cannot be created.
    #[error("cannot create the findings file {}: {source}", path.display())]
    Create {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// A write (or the final flush) failed; nothing more was written after it.
    #[error("writing the findings file after {written} findings: {source}")]
    Write {
        /// Findings written before the failure.
        written: u64,
        /// Why.
        source: Arc<std::io::Error>,
    },
    /// A thread panicked while holding the writer.
    #[error("the findings writer was poisoned by a panic")]
    Poisoned,
}

/// Where a scan sends every finding. Clones share one writer: the jobs of
/// [`crate::scan::scan_parallel`] (`--jobs`) write through it one row at a time, so a
/// row's lines stay together; rows of different jobs interleave.
#[derive(Clone)]
pub struct FindingsSink(Arc<Mutex<Inner>>);

impl fmt::Debug for FindingsSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let written = self.0.lock().map_or(0, |i| i.written);
        f.debug_struct("FindingsSink")
            .field("written", &written)
            .finish_non_exhaustive()
    }
}

impl FindingsSink {
    fn with(target: Target) -> Self {
        Self(Arc::new(Mutex::new(Inner {
            target,
            written: 0,
            error: None,
        })))
    }

    /// Writes every finding as one JSON line ([`RowFinding`]) to `out` (buffered; call
    /// [`FindingsSink::finish`] after the scan).
    #[must_use]
    pub fn json_lines(out: impl Write + Send + 'static) -> Self {
        Self::with(Target::Lines(BufWriter::new(Box::new(out))))
    }

    /// [`FindingsSink::json_lines`] into a new file at `path` (an existing one is truncated).
    ///
    /// # Errors
    /// [`FindingsError::Create`]: the file cannot be created; the message names it.
    pub fn create(path: &Path) -> Result<Self, FindingsError> {
        std::fs::File::create(path)
            .map(Self::json_lines)
            .map_err(|e| FindingsError::Create {
                path: path.to_owned(),
                source: Arc::new(e),
            })
    }

    /// Calls `f` with every finding and its row key (from the scan's recording thread,
    /// in row order within a job).
    #[must_use]
    pub fn callback(f: impl FnMut(&RowFinding) + Send + 'static) -> Self {
        Self::with(Target::Call(Box::new(f)))
    }

    /// Sends one row's findings. After a write error nothing more is written, and
    /// [`FindingsSink::finish`] reports it.
    pub(crate) fn row(&self, key: &str, findings: &[LiveFinding]) {
        let Ok(mut inner) = self.0.lock() else {
            return;
        };
        if inner.error.is_some() {
            return;
        }
        let inner = &mut *inner;
        for f in findings {
            let line = RowFinding {
                key: key.to_owned(),
                class: f.class,
                pointer: f.pointer.clone(),
                description: f.description.clone(),
                accepted: f.accepted,
            };
            match &mut inner.target {
                Target::Lines(w) => {
                    let written = serde_json::to_writer(&mut *w, &line)
                        .map_err(std::io::Error::from)
                        .and_then(|()| w.write_all(b"\n"));
                    if let Err(e) = written {
                        inner.error = Some(FindingsError::Write {
                            written: inner.written,
                            source: Arc::new(e),
                        });
                        return;
                    }
                }
                Target::Call(call) => call(&line),
            }
            inner.written += 1;
        }
    }

    /// Flushes what is buffered; the number of findings sent.
    ///
    /// # Errors
    /// [`FindingsError`]: a write (or the flush) failed, after how many findings.
    pub fn finish(&self) -> Result<u64, FindingsError> {
        let mut inner = self.0.lock().map_err(|_| FindingsError::Poisoned)?;
        if let Some(e) = &inner.error {
            return Err(e.clone());
        }
        let written = inner.written;
        if let Target::Lines(w) = &mut inner.target {
            w.flush().map_err(|e| FindingsError::Write {
                written,
                source: Arc::new(e),
            })?;
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::{FindingsError, FindingsSink};
    use crate::live::{LiveClass, LiveFinding};
    use std::io::{self, Write};

    /// A writer that accepts `left` bytes, then fails.
    struct Full {
        left: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.left == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn finding() -> LiveFinding {
        LiveFinding {
            class: LiveClass::ModelText,
            accepted: false,
            pointer: "/a".into(),
            description: "d".repeat(100),
        }
    }

    #[test]
    fn a_file_that_cannot_be_created_is_named() {
        let path = std::path::Path::new("/nonexistent-equijson-dir/f.jsonl");
        let e = FindingsSink::create(path).expect_err("no such directory");
        assert!(
            matches!(&e, FindingsError::Create { path: p, source } if p == path && source.kind() == io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot create the findings file /nonexistent-equijson-dir/f.jsonl: "),
            "{e}"
        );
    }

    #[test]
    fn a_failed_write_is_reported_with_the_count_and_stops_the_writes() {
        // The buffer (8 KiB) fills after some rows: the failure comes from a flush inside
        // a write, or from the last flush; either way after a known count.
        let sink = FindingsSink::json_lines(Full { left: 300 });
        for i in 0..200 {
            sink.row(&format!("row {i}"), &[finding()]);
        }
        let e = sink.finish().expect_err("the disk is full");
        let FindingsError::Write { written, source } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(source.kind(), io::ErrorKind::StorageFull);
        assert!(*written < 200, "{e}");
        assert_eq!(
            e.to_string(),
            format!("writing the findings file after {written} findings: disk full")
        );
        // The same error again: nothing more was written.
        assert_eq!(sink.finish().expect_err("still").to_string(), e.to_string());
    }
}

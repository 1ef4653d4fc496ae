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

use crate::live::LiveFinding;

/// One finding of one row: a line of `pg scan --findings FILE`, serialized with exactly
/// these names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowFinding {
    /// The row key (`--key`'s value as text), else `row N` (the row's number in the scan).
    pub key: String,
    /// The class (see [`LiveFinding::class`]).
    pub class: String,
    /// JSON pointer of the first difference (`""`: the whole value).
    pub pointer: String,
    /// What differs (values redacted unless the scan shows them: `--show-values`).
    pub description: String,
    /// Whether the DTO (or `--accept`) declares it.
    pub declared: bool,
}

enum Target {
    Lines(BufWriter<Box<dyn Write + Send>>),
    Call(Box<dyn FnMut(&RowFinding) + Send>),
}

struct Inner {
    target: Target,
    written: u64,
    error: Option<String>,
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
    /// The file cannot be created; the message names it.
    pub fn create(path: &Path) -> Result<Self, String> {
        std::fs::File::create(path)
            .map(Self::json_lines)
            .map_err(|e| format!("cannot create the findings file {}: {e}", path.display()))
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
                class: f.class.clone(),
                pointer: f.pointer.clone(),
                description: f.description.clone(),
                declared: f.declared,
            };
            match &mut inner.target {
                Target::Lines(w) => {
                    let written = serde_json::to_writer(&mut *w, &line)
                        .map_err(|e| e.to_string())
                        .and_then(|()| w.write_all(b"\n").map_err(|e| e.to_string()));
                    if let Err(e) = written {
                        inner.error = Some(format!(
                            "writing the findings file after {} findings: {e}",
                            inner.written
                        ));
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
    /// A write (or the flush) failed: what and after how many findings.
    pub fn finish(&self) -> Result<u64, String> {
        let mut inner = self
            .0
            .lock()
            .map_err(|_| "the findings writer was poisoned by a panic".to_owned())?;
        if let Some(e) = &inner.error {
            return Err(e.clone());
        }
        let written = inner.written;
        if let Target::Lines(w) = &mut inner.target {
            w.flush()
                .map_err(|e| format!("writing the findings file after {written} findings: {e}"))?;
        }
        Ok(written)
    }
}

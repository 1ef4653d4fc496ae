//! Reading input documents: files or standard input (`-`).

use std::io::Read;
use std::path::{Path, PathBuf};

/// Where a document comes from.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` means standard input.
    pub(crate) fn from_arg(arg: &Path) -> Self {
        if arg.as_os_str() == "-" {
            Self::Stdin
        } else {
            Self::File(arg.to_path_buf())
        }
    }

    /// The name used in messages: the path as given, or `<stdin>`.
    pub(crate) fn name(&self) -> String {
        match self {
            Self::Stdin => "<stdin>".to_owned(),
            Self::File(p) => p.display().to_string(),
        }
    }

    /// Reads the whole document.
    pub(crate) fn read(&self) -> Result<Vec<u8>, ReadError> {
        match self {
            Self::Stdin => {
                let mut buf = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut buf)
                    .map_err(|source| ReadError {
                        name: self.name(),
                        source,
                    })?;
                Ok(buf)
            }
            Self::File(p) => std::fs::read(p).map_err(|source| ReadError {
                name: self.name(),
                source,
            }),
        }
    }
}

/// A document could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{name}: error: cannot read: {source}")]
pub(crate) struct ReadError {
    name: String,
    source: std::io::Error,
}

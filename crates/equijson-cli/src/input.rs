//! Reading input documents: files or standard input (`-`), size checked before reading.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::exit::Status;

/// The largest document the core accepts: its byte offsets are 32-bit.
pub(crate) const MAX_DOCUMENT: u64 = u32::MAX as u64;

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
        let mut buf = Vec::new();
        self.read_into(&mut buf)?;
        Ok(buf)
    }

    /// Reads the whole document into `buf` (cleared first, its allocation reused).
    ///
    /// A file larger than [`MAX_DOCUMENT`] is refused from its size, before anything is
    /// read or allocated; standard input is refused as soon as more than that arrives.
    /// A regular file is read into a buffer of exactly its size, so nothing is copied
    /// by growing the buffer.
    pub(crate) fn read_into(&self, buf: &mut Vec<u8>) -> Result<(), ReadError> {
        buf.clear();
        let io = |source| ReadError::Io {
            name: self.name(),
            source,
        };
        let reader: Box<dyn Read> = match self {
            Self::Stdin => Box::new(std::io::stdin().lock()),
            Self::File(p) => {
                let file = std::fs::File::open(p).map_err(io)?;
                let size = file.metadata().map_err(io)?.len();
                if size > MAX_DOCUMENT {
                    return Err(ReadError::TooLarge {
                        name: self.name(),
                        size: Some(size),
                    });
                }
                // One more byte than the size, so that the end is seen without growing.
                buf.reserve_exact((size as usize).saturating_add(1));
                Box::new(file)
            }
        };
        let read = reader.take(MAX_DOCUMENT + 1).read_to_end(buf).map_err(io)?;
        if read as u64 > MAX_DOCUMENT {
            buf.clear();
            buf.shrink_to_fit();
            return Err(ReadError::TooLarge {
                name: self.name(),
                size: None,
            });
        }
        Ok(())
    }
}

/// A document could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The operating system refused.
    #[error("{name}: error: cannot read: {source}")]
    Io {
        name: String,
        source: std::io::Error,
    },
    /// Larger than one document may be.
    #[error(
        "{name}: error: input too large: {} is more than the {MAX_DOCUMENT}-byte limit of one JSON document (byte offsets are 32-bit){}; for JSON Lines, use --lines",
        size.map_or_else(|| "standard input".to_owned(), |s| format!("{s} bytes")),
        if size.is_some() { ", so it was not read" } else { "" }
    )]
    TooLarge { name: String, size: Option<u64> },
}

impl ReadError {
    /// Exit status: an oversized document is invalid input (1), like the core's
    /// `InputTooLarge`; failing to read is an environment error (2).
    pub(crate) fn status(&self) -> Status {
        match self {
            Self::Io { .. } => Status::Environment,
            Self::TooLarge { .. } => Status::Invalid,
        }
    }
}

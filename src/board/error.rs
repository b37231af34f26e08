//! Map errors: every one names the file, the line and, where there is one, the hex.

use std::fmt;
use std::path::PathBuf;

/// Something wrong in a map file, located for the designer who has to fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct MapError {
    pub file: PathBuf,
    pub line: usize,
    pub hex: Option<String>,
    pub message: String,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: the file as a whole (it could not be read), so no line to name.
        match self.line {
            0 => write!(f, "{}: ", self.file.display())?,
            line => write!(f, "{}:{line}: ", self.file.display())?,
        }
        if let Some(hex) = &self.hex {
            write!(f, "hex {hex}: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl MapError {
    /// A map file that cannot be read at all.
    pub fn unreadable(path: &std::path::Path, error: std::io::Error) -> Self {
        // (bytes that are not UTF-8 are at a line: `FILE:LINE: why`)
        if let Some(bad) = crate::board::NotUtf8::of(&error) {
            return MapError {
                file: path.to_path_buf(),
                line: bad.line,
                hex: None,
                message: bad.why(),
            };
        }
        MapError {
            file: path.to_path_buf(),
            line: 0,
            hex: None,
            message: format!("cannot read map file: {error}"),
        }
    }
}

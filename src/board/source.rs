//! A text file kept with its path so that every error can name the file and the line.

use std::path::{Path, PathBuf};

/// The text of a file a designer wrote, and where it came from.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub path: PathBuf,
    pub text: String,
}

impl SourceText {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        SourceText {
            path: path.into(),
            text: text.into(),
        }
    }

    /// Reads a file; the error names the file.
    pub fn read(path: &Path) -> Result<Self, std::io::Error> {
        let text = std::fs::read_to_string(path)?;
        Ok(SourceText::new(path, text))
    }

    /// 1-based line number of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
}

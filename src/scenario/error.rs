//! Scenario errors, each naming the file and line.

use std::path::PathBuf;

use crate::board::MapError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("{file}{at}: {message}", file = .file.display(), at = line_suffix(*.line))]
    Spec {
        file: PathBuf,
        line: usize,
        message: String,
    },
    #[error(transparent)]
    Map(#[from] MapError),
    /// The scenario file could not be read: `kind` tells a missing file
    /// (`std::io::ErrorKind::NotFound`) from one the process may not read, without parsing
    /// the message.
    #[error("{file}: cannot read scenario file: {message}", file = .file.display())]
    Unreadable {
        file: PathBuf,
        kind: std::io::ErrorKind,
        message: String,
    },
}

impl ScenarioError {
    pub fn spec(file: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Self {
        ScenarioError::Spec {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

/// `:LINE`, or nothing for line 0 (the file as a whole, e.g. one that cannot be read).
fn line_suffix(line: usize) -> String {
    match line {
        0 => String::new(),
        line => format!(":{line}"),
    }
}

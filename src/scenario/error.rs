//! Scenario errors, each naming the file and line.

use std::path::PathBuf;

use crate::board::MapError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("{file}:{line}: {message}", file = .file.display())]
    Spec {
        file: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{0}")]
    Map(#[from] MapError),
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

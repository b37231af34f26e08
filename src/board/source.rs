//! A text file kept with its path so that every error can name the file and the line.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest scenario, map, unit or setup file read (64 MiB; France 1940's map is 30 KiB).
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// The text of a file a designer wrote, and where it came from.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub path: PathBuf,
    pub text: String,
    /// Where each line starts, made at the first `line_of` (a file of 50 000 units asks for
    /// every unit's line: counting from the top each time took most of a minute).
    lines: std::sync::OnceLock<LineIndex>,
}

impl SourceText {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        SourceText {
            path: path.into(),
            text: text.into(),
            lines: std::sync::OnceLock::new(),
        }
    }

    /// Reads a file. Only regular files of at most `MAX_SOURCE_BYTES` (64 MiB) are read, so a
    /// file name in a scenario that points at a device (`/dev/zero`) or a huge file is an error,
    /// not a hang.
    pub fn read(path: &Path) -> Result<Self, std::io::Error> {
        read_capped(path, MAX_SOURCE_BYTES).map(|text| SourceText::new(path, text))
    }

    /// 1-based line number of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines
            .get_or_init(|| LineIndex::new(&self.text))
            .line_of(offset)
    }
}

/// The byte offsets where the lines of a text start: the line of any offset by a binary search,
/// for files whose every entry is named by its line in errors.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// 1-based line number of a byte offset (clamped to the text), as [`line_of`] counts it.
    pub fn line_of(&self, offset: usize) -> usize {
        let end = offset.min(self.len);
        // (the lines that start at or before `end`; a newline at `end` itself is not counted)
        self.starts.partition_point(|&start| start <= end)
    }
}

/// The text of a regular file of at most `cap` bytes (see [`read_bytes_capped`]).
pub fn read_capped(path: &Path, cap: u64) -> Result<String, std::io::Error> {
    text_of(read_bytes_capped(path, cap)?)
}

/// The bytes of a regular file of at most `cap` bytes. The kind of file is checked before it is
/// opened: opening a named pipe waits for a writer, forever (a pipe among a rules folder's
/// `.lua` files hung `check` and `run`), and a device (`/dev/zero`) never ends.
pub fn read_bytes_capped(path: &Path, cap: u64) -> Result<Vec<u8>, std::io::Error> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > cap {
        return Err(std::io::Error::other(format!(
            "{} bytes is more than the {cap} bytes this file may have",
            meta.len()
        )));
    }
    read_up_to(file, cap)
}

/// The bytes of an open file, refused once they pass `cap` (`take` also bounds a file that
/// grows while it is read, and a device that never ends).
fn read_up_to(file: std::fs::File, cap: u64) -> Result<Vec<u8>, std::io::Error> {
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::other(format!(
            "more than the {cap} bytes this file may have"
        )));
    }
    Ok(bytes)
}

/// Bytes read as UTF-8 text; bytes that are not are named by line and byte (`line 58: byte
/// 0xe9 is not UTF-8 ...`: a file saved as Latin-1 has them where its accents are).
fn text_of(bytes: Vec<u8>) -> Result<String, std::io::Error> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let byte = bytes.get(at).copied().unwrap_or_default();
        std::io::Error::new(std::io::ErrorKind::InvalidData, NotUtf8 { line, byte })
    })
}

/// A byte that is not UTF-8 text in a file read as text, and its line: kept in the read's error
/// so that a message can put the line after the file's name, `FILE:LINE: why`, as every error
/// of a line is written (see [`NotUtf8::of`]).
#[derive(Debug)]
pub struct NotUtf8 {
    pub line: usize,
    byte: u8,
}

impl NotUtf8 {
    /// The bytes that were not UTF-8 text, if that is why reading failed.
    pub fn of(e: &std::io::Error) -> Option<&NotUtf8> {
        e.get_ref()?.downcast_ref()
    }

    /// Why, without the line (the message puts it after the file's name).
    pub fn why(&self) -> String {
        format!(
            "byte 0x{:02x} is not UTF-8 text (a file saved in another encoding, such as Latin-1? \
             save it as UTF-8)",
            self.byte
        )
    }

    /// `FILE:LINE: why`, the file as `file` names it.
    pub fn at(&self, file: impl std::fmt::Display) -> String {
        format!("{file}:{}: {}", self.line, self.why())
    }
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why())
    }
}

impl std::error::Error for NotUtf8 {}

/// `text` without an editor's leading UTF-8 byte-order mark, which is no part of a Lua chunk, a
/// JSON value or a JSON line (Lua read it as `unexpected symbol near '<\239>'`); the TOML reader
/// skips it itself.
pub fn without_bom(mut text: String) -> String {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    text
}

/// [`without_bom`] of borrowed text: the one test for the mark, which every reader of a file
/// that may come from an editor (a save, a JSON-lines record) asks.
pub fn bom_stripped(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The text of a file a user named on the command line (an orders file, a replay, a record
/// file), of at most `cap` bytes: anything but a folder is read, so `/dev/null` reads as empty
/// and `<(...)` as the pipe's text, while `/dev/zero` stops at the cap instead of filling memory.
pub fn read_named_capped(path: &Path, cap: u64) -> Result<String, std::io::Error> {
    if std::fs::metadata(path)?.is_dir() {
        return Err(std::io::Error::other("a folder, not a file"));
    }
    text_of(read_up_to(std::fs::File::open(path)?, cap)?)
}

/// 1-based line number of a byte offset in `text` (clamped to the text): what error messages
/// about any text file the user wrote (maps, scenarios, orders, setups) print after the path.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_index_counts_lines_as_line_of_does() {
        for text in ["", "a", "\n", "a\nb", "a\n\nb\n", "\n\n\n", "é\nü\n"] {
            let index = LineIndex::new(text);
            let source = SourceText::new("t", text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(
                    index.line_of(offset),
                    line_of(text, offset),
                    "{text:?} {offset}"
                );
                assert_eq!(
                    source.line_of(offset),
                    line_of(text, offset),
                    "{text:?} {offset}"
                );
            }
        }
    }

    #[test]
    fn a_device_is_not_read_as_a_text_file() {
        let err = SourceText::read(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
    }

    #[test]
    fn a_folder_is_not_read_as_a_text_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            SourceText::read(dir.path()).unwrap_err().to_string(),
            "not a regular file"
        );
    }
}

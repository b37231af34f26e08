//! Standard output for the commands. `println!` panics when stdout cannot be written (a reader
//! that closed the pipe, `| head`; a full disk): the command would die with a backtrace and
//! exit 101. Writes go through [`write_out`] instead: the first failure is kept, later writes
//! are skipped, the command runs to its end (logs and saves are finished as usual) and
//! `main_with_args` turns the failure into `error: cannot write the output: ...` and exit 2 -
//! but for a reader that closed the pipe, which asked for no more (`hexwar legal ... | head`):
//! that one ends the output quietly, with the command's own exit code.

use std::fmt;
use std::io::{self, Write};
use std::sync::Mutex;

/// The first write to stdout that failed, if one did.
static LOST: Mutex<Option<io::Error>> = Mutex::new(None);

/// Writes `args` to stdout, or records why it could not.
pub(crate) fn write_out(args: fmt::Arguments) {
    let Ok(mut lost) = LOST.lock() else { return };
    if lost.is_some() {
        return;
    }
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        *lost = Some(e);
    }
}

/// Records a failed write made outside `write_out` (a command writing through its own handle).
pub(crate) fn lost(e: io::Error) {
    if let Ok(mut lost) = LOST.lock() {
        lost.get_or_insert(e);
    }
}

/// Whether `e`, met writing the output file `path`, is a reader of standard output that
/// closed the pipe (`--log - | head`): then it is kept as the output's end, quiet as every
/// other write to stdout ends there, and is no error of that output's.
pub(crate) fn reader_gone(path: &std::path::Path, e: &io::Error) -> bool {
    let gone = crate::output_file::is_stdout(path) && e.kind() == io::ErrorKind::BrokenPipe;
    if gone {
        lost(io::ErrorKind::BrokenPipe.into());
    }
    gone
}

/// Standard output as a writer for code that writes through one (`hexwar test`): each write
/// goes through [`write_out`], so a failure is kept and the rest skipped, never returned, and
/// the command runs to its end and its own exit code.
pub(crate) struct Out;

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let Ok(mut lost) = LOST.lock() else {
            return Ok(());
        };
        if lost.is_none() {
            if let Err(e) = io::stdout().lock().write_all(buf) {
                *lost = Some(e);
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Flushes stdout; returns why the output was not all written, if it was not and the reader
/// did not just stop reading (a closed pipe is no error: see the module's doc).
pub(crate) fn finish() -> Option<String> {
    let mut lost = LOST.lock().ok()?;
    if lost.is_none() {
        if let Err(e) = io::stdout().lock().flush() {
            *lost = Some(e);
        }
    }
    lost.take()
        .filter(|e| e.kind() != io::ErrorKind::BrokenPipe)
        .map(|e| e.to_string())
}

/// `print!` that records a failed write instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::output::write_out(format_args!($($arg)*)) };
}

/// `println!` that records a failed write instead of panicking.
macro_rules! outln {
    () => { $crate::cli::output::write_out(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes a line to stderr, ignoring a failure: `eprintln!` panics when stderr cannot be written
/// (`2>&1 | head` closing the pipe: exit 101). With nowhere to write, the exit code still says
/// how the command ended.
pub(crate) fn write_err(args: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// `eprintln!` that never panics (see [`write_err`]).
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::output::write_err(format_args!($($arg)*)) };
}

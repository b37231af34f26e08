//! Writing an output file (a save, a log, a replay, a picture, per-game records) so that a
//! failure part way (a full disk, a killed process) leaves the old file whole, never a cut-off
//! one: the text goes to a temporary file beside the target, is synced, then renamed over it.
//! [`check_writable`] asks beforehand whether it can be.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `path` through `fill`, atomically where the target is (or will be) a regular file.
/// A symbolic link is followed: the file it names is replaced and the link kept. `/dev/stdout`
/// (or `/dev/fd/1`) is this process's standard output, written in turn with the rest of it,
/// whatever it was redirected to. A target that exists and is no regular file (a named pipe,
/// `/dev/null`) is written into directly, since a rename would put a file in its place; a
/// directory is an error.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let path = match target_of(path)? {
        Target::Stdout => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            fill(&mut out)?;
            return out.flush();
        }
        Target::Device => {
            let mut out = BufWriter::new(OpenOptions::new().write(true).open(path)?);
            fill(&mut out)?;
            return out.flush();
        }
        Target::File(file) => file,
    };
    let kept = replaced_permissions(&path)?;
    // (a temporary file of a fresh random name beside the target, removed if anything fails:
    // no file of the user's is taken for a leftover, and no link there is followed)
    let mut tmp = temporary_in(folder_of(&path))?;
    {
        let mut out = BufWriter::new(tmp.as_file_mut());
        fill(&mut out)?;
        out.flush()?;
    }
    // (the rename puts a new file in the old one's place: it takes the old one's permission
    // bits, so a save kept private, 600, stays so)
    if let Some(permissions) = kept {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

/// Where an output named `path` goes: this process's standard output, a device or pipe written
/// into, or a regular file (new or not) replaced, named with any link followed.
enum Target {
    Stdout,
    Device,
    File(std::path::PathBuf),
}

fn target_of(path: &Path) -> std::io::Result<Target> {
    if is_stdout(path) {
        return Ok(Target::Stdout);
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(std::io::Error::other("is a folder, not a file")),
        Ok(m) if !m.is_file() => return Ok(Target::Device),
        _ => {}
    }
    Ok(Target::File(match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    }))
}

/// The folder `path` is written in (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Whether `path` can be written as [`write_with`] writes it, asked before long work (a whole
/// game, a batch) so that its result is not lost to an output that was never writable: not a
/// folder, a device that opens for writing, or a folder that takes a new file.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let path = match target_of(path)? {
        Target::Stdout => return Ok(()),
        // (asked, not opened: opening a pipe for writing and closing it gave its reader an end
        // of file before the game was played)
        Target::Device => return may_write(path),
        Target::File(file) => file,
    };
    replaced_permissions(&path)?;
    match std::fs::metadata(folder_of(&path)) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(std::io::Error::other("its folder is not a folder")),
        Err(_) => return Err(std::io::Error::other("no such folder")),
    }
    temporary_in(folder_of(&path)).map(drop)
}

/// Whether this user may write `path`, as the system judges it (permission bits, ACLs, the
/// process's ids), asked without opening it: opening a file for writing shows watchers a write
/// that never happened, and opening a pipe for writing ends its reader's input. (Plain
/// `access`, real ids: hexwar is never set-id, and `AT_EACCESS` needs `faccessat2`, which some
/// container profiles refuse with EPERM, so every output read as unwritable there.)
#[cfg(unix)]
fn may_write(path: &Path) -> std::io::Result<()> {
    use rustix::fs::{accessat, Access, AtFlags, CWD};
    accessat(CWD, path, Access::WRITE_OK, AtFlags::empty()).map_err(std::io::Error::from)
}

#[cfg(not(unix))]
fn may_write(path: &Path) -> std::io::Result<()> {
    OpenOptions::new().write(true).open(path).map(drop)
}

/// The permission bits of the regular file `path` that an output replaces (None when there is
/// none yet; the set-id and sticky bits left out, as a write in place clears them), or an error
/// when it may not be written: one with no write permission (chmod 444), refused whatever the
/// user's rights (a file made read-only is kept from being replaced on purpose, even by root,
/// whom `>` lets write it), or one this user may not write.
fn replaced_permissions(path: &Path) -> std::io::Result<Option<std::fs::Permissions>> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    let refused = |why: String| std::io::Error::new(std::io::ErrorKind::PermissionDenied, why);
    if meta.permissions().readonly() {
        return Err(refused(
            "the file is read-only (no write permission): it is not replaced".into(),
        ));
    }
    if let Err(e) = may_write(path) {
        return Err(refused(format!(
            "the file does not let this user write it ({})",
            e.kind()
        )));
    }
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        std::fs::Permissions::from_mode(meta.permissions().mode() & 0o777)
    };
    #[cfg(not(unix))]
    let permissions = meta.permissions();
    Ok(Some(permissions))
}

/// A new temporary file in `folder` (`.hexwar-XXXXXX.tmp`), made as any new file is (0666 less
/// the umask: the output renamed from it is readable as a file written in place would be).
fn temporary_in(folder: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hexwar-").suffix(".tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // (tempfile's error names its own temporary file, which the user never asked for: the
    // folder is named instead)
    builder.tempfile_in(folder).map_err(|e| {
        let problem = match e.kind() {
            std::io::ErrorKind::NotFound => "does not exist".to_string(),
            std::io::ErrorKind::PermissionDenied => "does not let this user add a file".to_string(),
            _ => format!("takes no new file ({})", e.kind()),
        };
        std::io::Error::new(
            e.kind(),
            format!("the folder {} {problem}", folder.display()),
        )
    })
}

/// Whether `path` names this process's standard output (written in turn, never replaced).
pub fn is_stdout(path: &Path) -> bool {
    STDOUT_NAMES.iter().any(|name| path == Path::new(name))
}

/// The names of standard output: opening them anew would write over what the process prints
/// there when it goes to a file. `-` as `render -o -` reads it (`--log -` wrote a file named
/// `-`; `./-` still names one).
const STDOUT_NAMES: [&str; 4] = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];

/// [`write_with`] for text already in memory.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, |out| out.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "old\n").unwrap();
        let e = write_with(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary left"
        );
        write_bytes(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
    }

    #[test]
    fn a_link_is_followed_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.svg");
        let link = dir.path().join("link.svg");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_bytes(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_device_is_written_into_and_a_folder_refused() {
        write_bytes(Path::new("/dev/null"), b"gone").unwrap();
        // (a link to a device, as /dev/stdout is, is written through, not resolved)
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        write_bytes(&link, b"gone").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        let dir = tempfile::tempdir().unwrap();
        let e = write_bytes(dir.path(), b"x").unwrap_err();
        assert_eq!(e.to_string(), "is a folder, not a file");
    }

    /// A file rewritten keeps its permission bits (a 600 save became 644); a read-only one is
    /// refused, before play and when written, and left as it was.
    #[test]
    fn a_rewritten_file_keeps_its_permissions_and_a_read_only_one_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_bytes(&path, b"new").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o600);
        // (a set-id bit is not carried over, as a write in place clears it)
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o4750)).unwrap();
        write_bytes(&path, b"new").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o750);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let why = "the file is read-only (no write permission): it is not replaced";
        assert_eq!(check_writable(&path).unwrap_err().to_string(), why);
        assert_eq!(write_bytes(&path, b"newer").unwrap_err().to_string(), why);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    /// A file in a folder that does not exist: the folder is named, not the temporary file
    /// (`... at path "nodir/.hexwar-Ed9lks.tmp"`) the user never asked for.
    #[test]
    fn a_missing_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nodir");
        let e = write_bytes(&missing.join("game.json"), b"x").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        assert_eq!(
            e.to_string(),
            format!("the folder {} does not exist", missing.display())
        );
    }
}

//! The files a command is asked to write, checked before it plays: a game or a batch played to
//! its end and then lost to an output that could never be written, or written over the save it
//! continued, a scenario or another of its outputs, cost the user the run or their files.

use std::path::{Path, PathBuf};

/// Refuses, naming the option: an output that cannot be written (no such folder, a folder, no
/// right to write there), one that is a scenario, map or rules file (`.toml`, `.lua`) already
/// there (itself or through a link), two options naming one file, an output naming `input`
/// (the save a run continues), which only `--save` may write over, and one naming a file of
/// `read` (the options' files the command reads: `--orders`, `--setup`), which none may.
pub(super) fn check(
    outputs: &[(&str, &Path)],
    input: Option<&Path>,
    read: &[(&str, &Path)],
) -> Result<(), String> {
    let mut seen: Vec<(&str, PathBuf)> = Vec::new();
    let input = input.filter(|p| p.is_file()).and_then(same_file_key);
    let read: Vec<(&str, PathBuf)> = read
        .iter()
        .filter_map(|&(flag, p)| Some((flag, same_file_key(p)?)))
        .collect();
    for &(flag, path) in outputs {
        // (a save is a file to read back: a device or a pipe would lose it, which the save's
        // writer refused only after the game was played)
        if flag == "--save"
            && !crate::output_file::is_stdout(path)
            && std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
        {
            return Err(format!(
                "--save {}: not a regular file (a device or a pipe): a save is a file to read \
                 back; name a file, or `-` for standard output",
                path.display()
            ));
        }
        // (standard output and devices are no file of the user's: several outputs may go
        // there in turn)
        if crate::output_file::is_stdout(path)
            || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
        {
            continue;
        }
        let shown = path.display();
        // (a link is judged by its name and by its target: `game.jsonl` linking to a scenario's
        // `scenario.toml`, and `map.toml` linking to `valley.map`)
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let source_like =
            |p: &Path| matches!(p.extension().and_then(|e| e.to_str()), Some("toml" | "lua"));
        if target.is_file() && (source_like(path) || source_like(&target)) {
            return Err(format!(
                "{flag} {shown}: that is a scenario, map, orders or rules file (.toml, .lua), \
                 which the output would replace: name another file"
            ));
        }
        if let Err(e) = crate::output_file::check_writable(path) {
            return Err(format!("{flag} {shown}: cannot be written: {e}"));
        }
        let Some(key) = same_file_key(path) else {
            continue;
        };
        if flag != "--save" && input.as_ref() == Some(&key) {
            return Err(format!(
                "{flag} {shown}: that is the save being played, which the output would replace \
                 (only --save may write over it)"
            ));
        }
        if let Some((option, _)) = read.iter().find(|(_, k)| *k == key) {
            return Err(format!(
                "{flag} {shown}: that is the {option} file this command reads, which the output \
                 would replace: name another file"
            ));
        }
        if let Some((other, _)) = seen.iter().find(|(_, k)| *k == key) {
            return Err(format!(
                "{other} and {flag} name the same file ({shown}): one would replace the other"
            ));
        }
        seen.push((flag, key));
    }
    Ok(())
}

/// Refuses an output to standard output beside `--json`, which promises one JSON value there
/// (a save or log printed before the summary made stdout unreadable as JSON).
pub(super) fn check_json_alone(outputs: &[(&str, &Path)], json: bool) -> Result<(), String> {
    match outputs
        .iter()
        .find(|(_, path)| json && crate::output_file::is_stdout(path))
    {
        Some((flag, path)) => Err(format!(
            "{flag} {}: with --json, standard output holds one JSON value, the summary: write \
             this output to a file",
            path.display()
        )),
        None => Ok(()),
    }
}

/// The absolute path `path` names, links followed, for telling whether two paths are one file
/// (whether it exists yet or not); None when its folder does not exist.
fn same_file_key(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(folder).ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::check;
    use std::path::Path;

    #[test]
    fn an_output_to_standard_output_is_refused_beside_json() {
        use super::check_json_alone;
        let stdout = Path::new("-");
        let file = Path::new("game.jsonl");
        assert_eq!(
            check_json_alone(&[("--save", file), ("--log", stdout)], true),
            Err(
                "--log -: with --json, standard output holds one JSON value, the summary: \
                 write this output to a file"
                    .into()
            )
        );
        assert_eq!(
            check_json_alone(&[("--save", file), ("--log", stdout)], false),
            Ok(())
        );
        assert_eq!(check_json_alone(&[("--save", file)], true), Ok(()));
    }

    #[test]
    fn outputs_are_refused_before_play_when_they_would_clash_or_cannot_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let save = d.join("mid.json");
        std::fs::write(&save, "{}").unwrap();
        let toml = d.join("scenario.toml");
        std::fs::write(&toml, "id = 'x'").unwrap();
        let log = d.join("game.jsonl");
        // (the same file named two ways: `./` and the folder's link are one)
        let also_log = d.join(".").join("game.jsonl");
        let show = |p: &Path| p.display().to_string();

        assert_eq!(
            check(&[("--log", &save)], Some(&save), &[]),
            Err(format!(
                "--log {}: that is the save being played, which the output would replace (only \
                 --save may write over it)",
                show(&save)
            ))
        );
        assert_eq!(check(&[("--save", &save)], Some(&save), &[]), Ok(()));
        assert_eq!(
            check(&[("--log", &log), ("--save", &also_log)], None, &[]),
            Err(format!(
                "--log and --save name the same file ({}): one would replace the other",
                show(&also_log)
            ))
        );
        assert_eq!(
            check(&[("--save", &toml)], None, &[]),
            Err(format!(
                "--save {}: that is a scenario, map, orders or rules file (.toml, .lua), which \
                 the output would replace: name another file",
                show(&toml)
            ))
        );
        let nowhere = d.join("no-such-folder").join("x.json");
        assert_eq!(
            check(&[("--per-game", &nowhere)], None, &[]),
            Err(format!(
                "--per-game {}: cannot be written: no such folder",
                show(&nowhere)
            ))
        );
        assert_eq!(
            check(&[("--save", d)], None, &[]),
            Err(format!(
                "--save {}: cannot be written: is a folder, not a file",
                show(d)
            ))
        );
        // (standard output twice, a device twice, and distinct new files are all fine)
        let stdout = Path::new("/dev/stdout");
        assert_eq!(
            check(
                &[
                    ("--log", stdout),
                    ("--replay", stdout),
                    ("--save", stdout),
                    ("--per-game", Path::new("/dev/null")),
                    ("--log", Path::new("/dev/null")),
                    ("--per-game", &log),
                ],
                Some(&save),
                &[]
            ),
            Ok(())
        );
        // (a file the command reads, by its name or through a link to it; a link named
        // `.jsonl` to a scenario file)
        let orders = d.join("orders.txt");
        std::fs::write(&orders, "").unwrap();
        assert_eq!(
            check(&[("--log", &orders)], None, &[("--orders", &orders)]),
            Err(format!(
                "--log {}: that is the --orders file this command reads, which the output would \
                 replace: name another file",
                show(&orders)
            ))
        );
        let link = d.join("link.jsonl");
        std::os::unix::fs::symlink(&toml, &link).unwrap();
        assert_eq!(
            check(&[("--log", &link)], None, &[]),
            Err(format!(
                "--log {}: that is a scenario, map, orders or rules file (.toml, .lua), which \
                 the output would replace: name another file",
                show(&link)
            ))
        );
        std::fs::remove_file(&link).unwrap();
        let other = d.join("valley.map");
        std::fs::write(&other, "").unwrap();
        let named = d.join("map.toml");
        std::os::unix::fs::symlink(&other, &named).unwrap();
        assert!(check(&[("--log", &named)], None, &[]).is_err());
        std::fs::remove_file(&named).unwrap();
        std::fs::remove_file(&other).unwrap();
        std::fs::remove_file(&orders).unwrap();
        // (nothing was left in the folder by the checks)
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 2);
    }

    /// Two new files of one name in two folders are two files: a path's folder is part of what
    /// names it (the folder was read as the working directory, and `a/game.jsonl` and
    /// `b/game.jsonl` were refused as one file).
    #[test]
    fn new_outputs_of_one_name_in_two_folders_are_not_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        let (log, save) = (a.join("game.jsonl"), b.join("game.jsonl"));
        assert_eq!(
            check(&[("--log", &log), ("--save", &save)], None, &[]),
            Ok(())
        );
        // (and the same new name in the same folder is still one file)
        assert_eq!(
            check(
                &[("--log", &log), ("--save", &a.join("game.jsonl"))],
                None,
                &[]
            ),
            Err(format!(
                "--log and --save name the same file ({}): one would replace the other",
                log.display()
            ))
        );
    }
}

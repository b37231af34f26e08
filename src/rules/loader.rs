//! `require`, confined to the scenario's rule roots: a virtual searcher that maps dotted names to
//! files under the roots and loads them as text only. Names with path syntax are refused, so a
//! script cannot reach outside the roots (`require("../../etc/passwd")`).

use std::path::{Path, PathBuf};

/// Why a module name cannot be loaded.
pub fn check_module_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "require(\"{}\"): module names are dotted names inside the rule roots (like \"demo.terrain\"); \
             paths, '..' and '/' are not allowed",
            crate::spelling::clipped(name, 100)
        ))
    }
}

/// The file a module name resolves to: `a.b` is `ROOT/a/b.lua`, or `ROOT/a/b/init.lua`.
/// Scenario rule lists may use `/` (`"demo/variants/x"`), which is read as `.`.
pub fn find_module(roots: &[PathBuf], name: &str) -> Option<PathBuf> {
    let dotted = name.replace('/', ".");
    check_module_name(&dotted).ok()?;
    let rel: PathBuf = dotted.split('.').collect();
    for root in roots {
        // (a symbolic link inside a root may point outside it: the file must really be inside)
        let inside = |file: &Path| match (file.canonicalize(), root.canonicalize()) {
            (Ok(file), Ok(root)) => file.starts_with(root),
            _ => false,
        };
        let file = root.join(&rel).with_extension("lua");
        if file.is_file() && inside(&file) {
            return Some(file);
        }
        let init = root.join(&rel).join("init.lua");
        if init.is_file() && inside(&init) {
            return Some(init);
        }
    }
    None
}

/// The module a misspelt module name most likely means (`france1940.aj` -> `france1940.ai`):
/// the nearest within two edits among the `.lua` files under the roots (four folders deep),
/// for the messages that refuse an unknown module.
pub fn nearest_module(roots: &[PathBuf], name: &str) -> Option<String> {
    fn walk(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let dotted = if prefix.is_empty() {
                stem.clone()
            } else {
                format!("{prefix}.{stem}")
            };
            if path.is_dir() && depth > 0 {
                walk(&path, &dotted, depth - 1, out);
            } else if path.extension().is_some_and(|e| e == "lua") {
                // (`a/init.lua` is required as `a`)
                out.push(if stem == "init" {
                    prefix.to_string()
                } else {
                    dotted
                });
            }
        }
    }
    let mut names = Vec::new();
    for root in roots {
        walk(root, "", 4, &mut names);
    }
    // (sorted: the first of equally near names must not depend on the directory's order)
    names.sort();
    let dotted = name.replace('/', ".");
    // (names under 4 letters get none: `lib` was offered an unrelated `b3b`)
    crate::spelling::nearest(&dotted, names.iter().map(String::as_str), 4)
        .map(str::to_string)
        // (the game's prefix left out: `require("combat")` for `riverline.combat`)
        .or_else(|| {
            let suffix = format!(".{dotted}");
            names.into_iter().find(|n| n.ends_with(&suffix))
        })
}

/// How a file is named in Lua error messages: relative to the root's parent, so that a script
/// error reads `rules/demo/init.lua:12: ...`.
pub fn chunk_name(roots: &[PathBuf], file: &Path) -> String {
    for root in roots {
        if let Ok(rel) = file.strip_prefix(root) {
            let root_name = root
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let rel = rel.to_string_lossy().replace('\\', "/");
            return if root_name.is_empty() || root_name == ".." {
                rel
            } else {
                format!("{root_name}/{rel}")
            };
        }
    }
    file.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_syntax_is_refused() {
        for bad in ["../x", "a/b", "a..b", "", ".a", "a.", "a\\b", "/etc/passwd"] {
            assert!(check_module_name(bad).is_err(), "{bad}");
        }
        assert!(check_module_name("demo.terrain").is_ok());
    }

    /// A symbolic link inside a rule root that points outside it (a folder or a file) finds
    /// nothing: `require` reads only files really inside the roots; a plain file there is found.
    #[cfg(unix)]
    #[test]
    fn a_symlink_out_of_the_roots_is_not_a_module() {
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("rules"), dir.path().join("outside"));
        std::fs::create_dir_all(root.join("game")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("x.lua"), "return 1").unwrap();
        std::fs::write(root.join("game/real.lua"), "return 2").unwrap();
        std::os::unix::fs::symlink(&outside, root.join("game/up")).unwrap();
        std::os::unix::fs::symlink(outside.join("x.lua"), root.join("game/evil.lua")).unwrap();
        let roots = vec![root.clone()];
        assert_eq!(find_module(&roots, "game.up.x"), None);
        assert_eq!(find_module(&roots, "game.evil"), None);
        assert_eq!(
            find_module(&roots, "game.real"),
            Some(root.join("game/real.lua"))
        );
    }
}

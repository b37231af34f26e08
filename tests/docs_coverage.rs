//! The docs cover every command the binary has and every API namespace it registers: a new
//! subcommand or namespace without documentation fails here, naming the doc to extend.

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommand names of a `--help` text (clap's "Commands:" list, without `help`).
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn every_command_is_in_the_cli_docs_and_the_readme() {
    let mut all = Vec::new();
    for c in commands(&help(&["--help"])) {
        let subs = commands(&help(&[&c, "--help"]));
        if subs.is_empty() {
            all.push(c);
        } else {
            all.extend(subs.into_iter().map(|s| format!("{c} {s}")));
        }
    }
    assert!(all.len() >= 10, "{all:?}");
    let (cli, readme) = (read("docs/cli.md"), read("README.md"));
    for c in &all {
        let mention = format!("hexwar {c} ");
        assert!(
            cli.contains(&mention),
            "docs/cli.md does not document `hexwar {c}`"
        );
        assert!(
            readme.contains(&mention),
            "README.md's command list lacks `hexwar {c}`"
        );
    }
}

#[test]
fn every_api_namespace_is_in_the_guide() {
    let types = hexwar::rules::luals_definitions().unwrap();
    let guide = read("docs/guide.md");
    let namespaces: Vec<&str> = types
        .lines()
        .filter_map(|l| l.strip_prefix("hex."))
        .filter_map(|l| l.strip_suffix(" = {}"))
        .collect();
    assert_eq!(namespaces.len(), 8, "{namespaces:?}");
    for ns in namespaces {
        assert!(
            guide.contains(&format!("### `hex.{ns}`")),
            "docs/guide.md has no section on hex.{ns}"
        );
    }
}

/// The fenced block that directly follows the line `` `path`: `` in `doc`.
fn block_after(doc: &str, path: &str) -> String {
    let marker = format!("`{path}`:");
    let mut lines = doc
        .lines()
        .skip_while(|l| *l != marker)
        .skip(1)
        .skip_while(|l| l.is_empty());
    let fence = lines.next().unwrap_or_default();
    assert!(fence.starts_with("```"), "no fenced block after {marker}");
    let body: Vec<&str> = lines.take_while(|l| *l != "```").collect();
    body.join("\n") + "\n"
}

/// docs/guide.md's "smallest complete game" quotes its three files, and the game it prints
/// (`check`, then `run --seed 1`), byte for byte: the listing a new designer copies works.
#[test]
fn the_guides_smallest_game_is_the_fixture_and_plays_as_shown() {
    let guide = read("docs/guide.md");
    let root = "tests/fixtures/smallest_game";
    for file in [
        "scenarios/smallest/map.toml",
        "scenarios/smallest/scenario.toml",
        "rules/smallest/init.lua",
    ] {
        let path = format!("{root}/{file}");
        assert_eq!(block_after(&guide, &path), read(&path), "{path}");
    }
    let hexwar = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(guide.contains("`hexwar check scenarios/smallest` answers `ok:\nscenarios/smallest`"));
    assert!(hexwar(&["check", "scenarios/smallest"]).starts_with("ok: scenarios/smallest\n"));
    let shown: String = guide
        .lines()
        .skip_while(|l| *l != "$ hexwar run scenarios/smallest --seed 1")
        .skip(1)
        .take_while(|l| *l != "```")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(hexwar(&["run", "scenarios/smallest", "--seed", "1"]), shown);
}

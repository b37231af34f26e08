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

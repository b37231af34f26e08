//! `hexwar status` where the rules answer oddly: a `score` or `status` query that is no table of
//! numbers or names, a victory whose scores are fractions or none (pinned by mutation testing of
//! src/cli/status.rs).

mod common;

use common::{hexwar, stderr, stdout, write_file};
use serde_json::{json, Value};

/// A `score` query answering something other than numbers, or a `status` query answering
/// something other than a table of name -> value (a list), is the rules' error: `status` says
/// what it answered and stops (exit 2), printing no position.
#[test]
fn a_score_or_status_query_answering_the_wrong_shape_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (file, query, answer, expected) in [
        (
            "text_score.lua",
            "score",
            "{ blue = \"three\" }",
            "error: the rules' score query answered {\"blue\":\"three\"}, not a table of side -> points\n",
        ),
        (
            "list_status.lua",
            "status",
            "{ \"a\", \"b\" }",
            "error: the rules' status query answered [\"a\",\"b\"], not a table of name -> value\n",
        ),
    ] {
        let rules = write_file(
            dir.path(),
            file,
            &format!("hex.rules.query(\"{query}\", function() return {answer} end)\n"),
        );
        let out = hexwar(&["status", "scenarios/demo", "--mod", &rules]);
        assert_eq!(out.status.code(), Some(2), "{query}: {}", stdout(&out));
        assert_eq!(stdout(&out), "", "{query}");
        assert_eq!(stderr(&out), expected, "{query}");
    }
}

/// The demo with a victory rule that ends the game at once with `scores`, played to the end and
/// saved; the save's path (the mod goes with the save).
fn finished_demo(dir: &std::path::Path, scores: &str) -> String {
    let rule = write_file(
        dir,
        "victory.lua",
        &format!(
            "hex.rules.victory(function()\n  return {{ winner = \"red\", scores = {scores}, reason = \"test\" }}\nend)\n"
        ),
    );
    let save = dir.join("end.json");
    let save = save.to_str().unwrap().to_string();
    let out = hexwar(&["run", "scenarios/demo", "--mod", &rule, "--save", &save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    save
}

/// Without a `score` query, a finished game's score is the outcome's: a fraction as it is, a
/// whole number without `.0`, in the text and in the JSON.
#[test]
fn a_finished_game_shows_fractional_outcome_scores_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let save = finished_demo(dir.path(), "{ blue = 2.5, red = 11 }");
    let out = hexwar(&["status", &save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\nfinished: red (test)\n"), "{text}");
    assert!(text.contains("\nfinal score: blue 2.5, red 11\n"), "{text}");
    let out = hexwar(&["status", &save, "--json"]);
    let answer: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(answer["score"], json!({"blue": 2.5, "red": 11}));
}

/// A finished game whose victory rule kept no scores, under rules without a `score` query, has
/// no score: no `final score:` line, `"score": null` in the JSON.
#[test]
fn a_finished_game_without_scores_shows_no_score() {
    let dir = tempfile::tempdir().unwrap();
    let save = finished_demo(dir.path(), "{}");
    let out = hexwar(&["status", &save]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\nfinished: red (test)\n"), "{text}");
    assert!(!text.contains("score"), "{text}");
    let out = hexwar(&["status", &save, "--json"]);
    let answer: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(answer["score"], Value::Null);
}

/// Diplomacy's status table lists each power's units, `-` for a power with none; the units on
/// the map follow, ids in natural order (FRANCE-9 before FRANCE-23), with no strength or MA (a
/// game without them shows none: it read `strength 0 MA 0`).
#[test]
fn diplomacy_status_shows_powers_without_units_and_units_without_factors() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write_file(
        dir.path(),
        "setup.toml",
        "phase = \"W1901A\"\n[units]\nENGLAND = [\"F LON\"]\n\
         FRANCE = [\"A PAR\", \"A BUR\", \"A PIC\", \"F BRE\"]\n\
         [centers]\nENGLAND = [\"LON\", \"EDI\", \"LVP\"]\nFRANCE = [\"PAR\", \"BRE\"]\n",
    );
    let out = hexwar(&["status", "scenarios/diplomacy", "--setup", &setup]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let tail = text.split_once("\nunits:\n").map(|(_, t)| t);
    assert_eq!(
        tail,
        Some(
            "  AUSTRIA: -\n  ENGLAND: F LON\n  FRANCE: A BUR, A PAR, A PIC, F BRE\n  GERMANY: -\n\
             \x20 ITALY: -\n  RUSSIA: -\n  TURKEY: -\n\
             ENGLAND: 1 unit(s)\n  ENGLAND-6 LON fleet\n\
             FRANCE: 4 unit(s)\n  FRANCE-8 PAR army\n  FRANCE-9 BRE fleet\n  FRANCE-23 BUR army\n\
             \x20 FRANCE-24 PIC army\n\
             (19 unit(s) of the scenario's start replaced by the setup are not listed; --json \
             lists them under \"gone\")\n"
        ),
        "{text}"
    );
}

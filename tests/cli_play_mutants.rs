//! `hexwar play` behaviour that the mutation run over `src/cli/play.rs`, `play_phases.rs` and
//! `orders.rs` found untested: each test here failed with a mutant of that code.

mod common;

use common::{
    demo_copy, edit, hexwar, play_diplomacy_texts, stderr, stdout, write_file, DIPLOMACY_SETUP,
};
use serde_json::Value;

/// An entry for a phase the game skipped gets a note on stderr only when it gave orders: an
/// entry without orders, or with an empty list, is what the contract asks for and is said
/// nothing of (the note counted "its 0 order(s)").
#[test]
fn a_skipped_phase_entry_without_orders_is_no_note() {
    let out = play_diplomacy_texts(
        DIPLOMACY_SETUP,
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A MAR - PIE\"]\n\
         [[phase]]\nphase = \"S1901R\"\n[phase.orders]\nITALY = []\n\
         [[phase]]\nphase = \"F1901M\"\n\
         [[phase]]\nphase = \"F1901R\"\n",
        &["--json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let done: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        done[1],
        serde_json::json!({"phase": "S1901R", "skipped": true})
    );
    assert_eq!(
        done[3],
        serde_json::json!({"phase": "F1901R", "skipped": true})
    );
}

/// `--stop-on-refusal` stops only at a refused order list: a file whose lists are all accepted
/// plays every phase, as without it (it stopped at the first phase, unresolved).
#[test]
fn stop_on_refusal_without_a_refusal_plays_every_phase() {
    let orders = "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A MAR - GAS\"]\n\
                  [[phase]]\nphase = \"F1901M\"\n[phase.orders]\nFRANCE = [\"A GAS - SPA\"]\n";
    let play = |extra: &[&str]| {
        play_diplomacy_texts(DIPLOMACY_SETUP, orders, &[&["--json"], extra].concat())
    };
    let stopping = play(&["--stop-on-refusal"]);
    assert_eq!(stopping.status.code(), Some(0), "{}", stderr(&stopping));
    assert_eq!(stderr(&stopping), "");
    let done: Value = serde_json::from_str(&stdout(&stopping)).unwrap();
    let phases: Vec<&Value> = done
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["phase"])
        .collect();
    assert_eq!(phases, ["S1901M", "F1901M"]);
    assert_eq!(
        done[1]["units"]["FRANCE"],
        serde_json::json!(["A BUR", "A SPA"])
    );
    assert_eq!(stdout(&stopping), stdout(&play(&[])));
}

/// `play --mod` loads the mod's commands and `play --trusted` runs the rules without the
/// instruction budget: a mod's command that loops past a budget of two million instructions
/// fails without `--trusted` and is played with it; without the mod it is no command at all.
#[test]
fn play_takes_mods_and_trusted_rules() {
    let (dir, scenario) = demo_copy();
    edit(
        &scenario.join("scenario.toml"),
        "seed = 1\n",
        "seed = 1\n[limits]\ninstructions = 2000000\n",
    );
    let spin = write_file(
        dir.path(),
        "spin.lua",
        "hex.commands.define(\"spin\", { resolve = function(cmd, side)\n  \
         local n = 0\n  for i = 1, 3000000 do n = n + 1 end\n  return {}\nend })\n",
    );
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[order]]\nside = \"blue\"\ncommand = \"spin\"\n",
    );
    let scenario = scenario.to_str().unwrap();
    let play = |extra: &[&str]| {
        let mut args = vec!["play", scenario, "--orders", &orders];
        args.extend(extra);
        hexwar(&args)
    };
    let trusted = play(&["--mod", &spin, "--trusted"]);
    assert_eq!(trusted.status.code(), Some(0), "{}", stderr(&trusted));
    assert_eq!(stdout(&trusted), "order 1 (blue, spin): ok\n");
    let bounded = play(&["--mod", &spin]);
    assert_eq!(bounded.status.code(), Some(2), "{}", stdout(&bounded));
    assert!(
        stderr(&bounded).contains("instruction budget of 2000000 instructions exceeded"),
        "{}",
        stderr(&bounded)
    );
    let unmodded = play(&["--trusted"]);
    assert_eq!(unmodded.status.code(), Some(1), "{}", stderr(&unmodded));
    assert_eq!(
        stdout(&unmodded),
        "order 1 (blue, spin): refused: rules: no rule handles the command 'spin'\n"
    );
}

/// The text form says "not played" of every movement order a later one for the same unit
/// replaced, whatever way the orders name the unit: with and without its coast (`F STP/NC`,
/// `F STP`), or by an alias of its province (`LIV` for `LVN`). The rules replaced them, and the
/// text, which read a unit as the order's first two words, listed them nowhere.
#[test]
fn an_order_replaced_by_one_naming_its_unit_otherwise_is_not_played() {
    let out = play_diplomacy_texts(
        "phase = \"S1901M\"\n[units]\nRUSSIA = [\"F STP/NC\", \"A LVN\", \"A MOS\"]\n",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\n\
         RUSSIA = [\"F STP/NC - BAR\", \"F STP H\", \"A LVN - MOS\", \"A LIV H\", \"A MOS - WAR\", \"a  mos - ukr\"]\n",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "S1901M:\n  \
             RUSSIA   A LIV H                  ok\n  \
             RUSSIA   a  mos - ukr             ok\n  \
             RUSSIA   F STP H                  ok\n  \
             RUSSIA   F STP/NC - BAR           not played (a later order for the unit replaces it)\n  \
             RUSSIA   A LVN - MOS              not played (a later order for the unit replaces it)\n  \
             RUSSIA   A MOS - WAR              not played (a later order for the unit replaces it)\n  \
             units:\n"
        ),
        "{text}"
    );
}

/// `--stop-on-refusal` counts the orders after the refused one, not after the file's first:
/// the second of three refused leaves one unplayed (the count was only seen for a first order).
#[test]
fn stop_on_refusal_counts_the_orders_after_the_refused_one() {
    let out = hexwar(&[
        "play",
        "tests/fixtures/demo_positions",
        "--orders",
        "tests/fixtures/orders/demo_positions.toml",
        "--stop-on-refusal",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "stopped at the refused order #2: 1 order(s) after it not played\n"
    );
    assert!(
        stdout(&out)
            .ends_with("order 2 (blue, move): refused: DEMO-1: b1 has already moved this phase\n"),
        "{}",
        stdout(&out)
    );
}

/// The note that an end_phase resolved a simultaneous phase before other sides' commands looks
/// only at the commands since the end_phase before it: France, whose end_phase resolved S1901M,
/// is named again when its commands follow Germany's end_phase of F1901M.
#[test]
fn the_late_sides_note_counts_from_the_previous_end_phase() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "order = [\n  { side = \"FRANCE\", command = \"end_phase\" },\n  \
         { side = \"GERMANY\", command = \"order\", order = \"A MUN - RUH\", power = \"GERMANY\" },\n  \
         { side = \"GERMANY\", command = \"end_phase\" },\n  \
         { side = \"FRANCE\", command = \"order\", order = \"A PAR - BUR\", power = \"FRANCE\" },\n  \
         { side = \"FRANCE\", command = \"end_phase\" },\n]\n",
    );
    let out = hexwar(&["play", "scenarios/diplomacy", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "note: {orders}:2: FRANCE's end_phase resolved S1901M for every side; the file's later \
             commands of GERMANY are played in the next phase (give one end_phase after every \
             side's orders)\n\
             note: {orders}:4: GERMANY's end_phase resolved F1901M for every side; the file's later \
             commands of FRANCE are played in the next phase (give one end_phase after every \
             side's orders)\n"
        )
    );
}

/// The board after a phase names each side once, in the scenario's order, every unit in
/// natural order of its id: the whole text of one end_phase.
#[test]
fn the_text_board_lists_each_side_once() {
    let dir = tempfile::tempdir().unwrap();
    let orders = write_file(
        dir.path(),
        "o.toml",
        "[[order]]\nside = \"blue\"\ncommand = \"end_phase\"\n",
    );
    let out = hexwar(&["play", "scenarios/demo", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "order 1 (blue, end_phase): ok\n  \
         {\"event\":\"PhaseEnded\",\"turn\":1,\"step\":0,\"side\":\"blue\",\"phase\":\"movement\"}\n  \
         {\"event\":\"PhaseStarted\",\"turn\":1,\"step\":1,\"side\":\"blue\",\"phase\":\"combat\"}\n\
         board after the phase:\n  \
         blue: b-arm-1 0103, b-art-1 0203, b-inf-1 0102, b-inf-2 0204\n  \
         red: r-arm-1 1207, r-inf-1 1208, r-inf-2 1109, r-mtn-1 1110\n"
    );
}

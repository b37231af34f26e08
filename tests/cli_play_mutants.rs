//! `hexwar play` behaviour that the mutation run over `src/cli/play.rs`, `play_phases.rs` and
//! `orders.rs` found untested: each test here failed with a mutant of that code.

mod common;

use std::path::Path;

use common::{hexwar, stderr, stdout};

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// The text form says "not played" of every movement order a later one for the same unit
/// replaced, whatever way the orders name the unit: with and without its coast (`F STP/NC`,
/// `F STP`), or by an alias of its province (`LIV` for `LVN`). The rules replaced them, and the
/// text, which read a unit as the order's first two words, listed them nowhere.
#[test]
fn an_order_replaced_by_one_naming_its_unit_otherwise_is_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let setup = write(
        dir.path(),
        "s.toml",
        "phase = \"S1901M\"\n[units]\nRUSSIA = [\"F STP/NC\", \"A LVN\", \"A MOS\"]\n",
    );
    let orders = write(
        dir.path(),
        "o.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\n\
         RUSSIA = [\"F STP/NC - BAR\", \"F STP H\", \"A LVN - MOS\", \"A LIV H\", \"A MOS - WAR\", \"a  mos - ukr\"]\n",
    );
    let out = hexwar(&[
        "play",
        "scenarios/diplomacy",
        "--setup",
        &setup,
        "--orders",
        &orders,
    ]);
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

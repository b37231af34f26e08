//! The `--setup` overlay (`Session::setup_text`): the first byte picks the game (demo, tactical
//! or Diplomacy, whose rules read `[units]` and `[centers]`), the rest is the setup file. A
//! refused setup leaves the state unchanged; an accepted one must leave a game that still
//! answers its legal commands and a phase label.
#![no_main]

use hexwar::board::SourceText;
use hexwar::SessionError;
use hexwar_fuzz::start;
use libfuzzer_sys::fuzz_target;

const GAMES: [&str; 3] = ["demo", "tactical", "diplomacy"];

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else { return };
    let Some(text) = hexwar_fuzz::text(rest) else {
        return;
    };
    let mut session = start(GAMES[*pick as usize % GAMES.len()]);
    let before = session.game.state().hash();
    match session.setup_text(&SourceText::new("fuzz/setup.toml", text)) {
        Err(e) => {
            assert_eq!(
                before,
                session.game.state().hash(),
                "a refused setup changed the state: {e}"
            );
            // A setup error names the file.
            if let SessionError::Setup { path, .. } = &e {
                assert_eq!(path.to_str(), Some("fuzz/setup.toml"));
            }
        }
        Ok(()) => {
            let sides = session.scenario.sides.clone();
            for side in &sides {
                let _ = session.game.legal_commands(side);
            }
            let _ = session.game.phase_label();
        }
    }
});

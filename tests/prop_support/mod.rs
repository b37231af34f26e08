//! Shared pieces of the property tests (tests/prop_*.rs): random positions reached by the random
//! bot from a scenario's start, copies of a position through its save, and case counts.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use hexwar::bot::{Bot, LegalCommands, RandomBot};
use hexwar::engine::{Command, Dice, GameError, Save};
use hexwar::Session;
use proptest::test_runner::{Config, RngSeed};

/// The scenarios the properties run over, with the folder each is loaded from. France 1940's
/// full scenario lists its legal commands slowly, so the legality properties use its small
/// combat fixture (same rules, a 5×3 map) and the full scenario gets the cheap properties.
pub const DEMO: &str = "scenarios/demo";
pub const FRANCE: &str = "scenarios/france1940";
pub const FRANCE_SMALL: &str = "tests/fixtures/f40/combat";
pub const DIPLOMACY: &str = "scenarios/diplomacy";
pub const TACTICAL: &str = "scenarios/tactical";
pub const ANCIENTS: &str = "scenarios/ancients";

/// A proptest configuration with `default` cases, or `PROPTEST_CASES` when set (a deliberate,
/// heavier run: `PROPTEST_CASES=200 cargo test --release --test prop_legal`). The generator's
/// seed is fixed, so `cargo test` (and CI) tries the same positions every run; a deliberate run
/// explores others with `PROPTEST_RNG_SEED=N`.
pub fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1940);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        // Failures are reported with their seed and steps; no regression files are written
        // beside the tests.
        failure_persistence: None,
        ..Config::default()
    }
}

/// The most steps into the full France 1940 scenario its properties go: `default` (a few: its
/// legal lists are slow in a debug build), or `PROP_FRANCE_STEPS` for a deliberate run deeper
/// into the game (`PROP_FRANCE_STEPS=80 cargo test --release --test prop_legal france1940`).
pub fn france_steps(default: u32) -> u32 {
    std::env::var("PROP_FRANCE_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
        .max(1)
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn start(scenario: &str, seed: u64) -> Session {
    Session::start(&root().join(scenario), Some(seed))
        .unwrap_or_else(|e| panic!("{scenario} loads: {e}"))
}

/// A command as it was submitted: the side that gave it (None: the engine's own end of a
/// simultaneous phase).
pub type Played = (Option<String>, Command);

/// A position `steps` bot decisions from the start of `scenario` (seed `seed` for the game and
/// the bot), with every command submitted on the way, refused ones included, in order.
pub struct Position {
    pub session: Session,
    pub played: Vec<Played>,
}

/// Plays `steps` steps of the random bot (at most 6 commands a phase, so positions reach later
/// phases and turns). A step is one command of the phasing side, or one whole simultaneous
/// phase (every side's commands, then the end of the phase).
pub fn random_position(scenario: &str, seed: u64, steps: u32) -> Position {
    let mut session = start(scenario, seed);
    let mut bot = RandomBot::new(Dice::new(seed ^ 0xb07));
    bot.max_per_phase = 6;
    let sides = session.scenario.sides.clone();
    let mut played = Vec::new();
    for _ in 0..steps {
        if session.game.is_over() {
            break;
        }
        let game = &mut session.game;
        match game.phasing_side() {
            Some(side) => {
                let mut legal = LegalCommands::new(&side);
                let command = bot.choose(game, &mut legal).expect("bot");
                played.push((Some(side.clone()), command.clone()));
                match game.submit(Some(&side), &command) {
                    Ok(_) => {}
                    Err(GameError::Refused(_)) if command != Command::EndPhase => {
                        played.push((Some(side.clone()), Command::EndPhase));
                        game.submit(Some(&side), &Command::EndPhase)
                            .expect("the phase ends");
                    }
                    Err(e) => panic!("{scenario} seed {seed}: {command:?} failed: {e}"),
                }
            }
            None => {
                for side in &sides {
                    for _ in 0..3 {
                        let mut legal = LegalCommands::new(side);
                        let command = bot.choose(game, &mut legal).expect("bot");
                        if command == Command::EndPhase {
                            break;
                        }
                        played.push((Some(side.clone()), command.clone()));
                        match game.submit(Some(side), &command) {
                            Ok(_) | Err(GameError::Refused(_)) => {}
                            Err(e) => panic!("{scenario} seed {seed}: {command:?} failed: {e}"),
                        }
                    }
                }
                played.push((None, Command::EndPhase));
                game.submit(None, &Command::EndPhase)
                    .unwrap_or_else(|e| panic!("{scenario} seed {seed}: end of phase: {e}"));
            }
        }
    }
    Position { session, played }
}

/// The position's save as text (what `hexwar run --save` writes).
pub fn save_text(session: &Session) -> String {
    session.to_save().to_json()
}

/// A separate game in the same position, loaded from the save text.
pub fn copy_of(save: &str) -> Session {
    let save = Save::from_json(Path::new("prop.json"), save).expect("own save reads");
    Session::resume_save(save, Path::new("prop.json")).expect("own save resumes")
}

/// The side that gives commands now: the phasing side, or (simultaneous phases) each side.
pub fn commanding_sides(session: &Session) -> Vec<String> {
    match session.game.phasing_side() {
        Some(side) => vec![side],
        None => session.scenario.sides.clone(),
    }
}

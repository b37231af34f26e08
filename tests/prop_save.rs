//! Property (b), over random positions of every scenario: apply a command, save, load, and the
//! loaded game saves byte-identically; and it goes on exactly like the game it was saved from
//! (the next listed command and the end of the phase give the same save in both).

mod prop_support;

use hexwar::engine::{Command, GameError};
use hexwar::Session;
use prop_support::*;
use proptest::prelude::*;

/// Submits the `pick`-th listed command of the first commanding side (or ends the phase).
fn apply_listed(session: &mut Session, pick: usize) -> Result<(), GameError> {
    if session.game.is_over() {
        return Ok(());
    }
    let side = commanding_sides(session).remove(0);
    let legal = session.game.legal_commands(&side)?;
    let command = legal
        .get(pick % legal.len().max(1))
        .cloned()
        .unwrap_or(Command::EndPhase);
    match session.game.submit(Some(&side), &command) {
        Ok(_) | Err(GameError::Refused(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

fn end_phase(session: &mut Session) -> Result<(), GameError> {
    if session.game.is_over() {
        return Ok(());
    }
    let side = session.game.phasing_side();
    match session.game.submit(side.as_deref(), &Command::EndPhase) {
        Ok(_) | Err(GameError::Refused(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

fn check(scenario: &str, seed: u64, steps: u32, pick: usize) {
    let Position { mut session, .. } = random_position(scenario, seed, steps);
    apply_listed(&mut session, pick).expect("apply");
    let saved = save_text(&session);
    let mut loaded = copy_of(&saved);
    assert_eq!(
        save_text(&loaded),
        saved,
        "{scenario} seed {seed} steps {steps}: reloaded save differs"
    );
    for game in [&mut session, &mut loaded] {
        apply_listed(game, pick / 3).expect("apply");
        end_phase(game).expect("end phase");
    }
    assert_eq!(
        save_text(&loaded),
        save_text(&session),
        "{scenario} seed {seed} steps {steps}: the loaded game went on differently"
    );
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn demo_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..60, pick in 0usize..50) {
        check(DEMO, seed, steps, pick);
    }

    #[test]
    fn tactical_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..40, pick in 0usize..50) {
        check(TACTICAL, seed, steps, pick);
    }

    #[test]
    fn ancients_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..40, pick in 0usize..50) {
        check(ANCIENTS, seed, steps, pick);
    }

    #[test]
    fn france1940_small_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..20, pick in 0usize..50) {
        check(FRANCE_SMALL, seed, steps, pick);
    }
}

proptest! {
    #![proptest_config(config(2))]

    #[test]
    fn diplomacy_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..6, pick in 0usize..50) {
        check(DIPLOMACY, seed, steps, pick);
    }

    /// The full France 1940 scenario: few steps (its legal lists are slow today).
    #[test]
    fn france1940_save_load_is_byte_identical(seed in 1u64..1_000_000, steps in 0u32..france_steps(3), pick in 0usize..50) {
        check(FRANCE, seed, steps, pick);
    }
}

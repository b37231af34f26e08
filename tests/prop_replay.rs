//! Property (c), over random positions of every scenario: the same scenario, seed and commands
//! give the same log. The game is played twice by the seeded bot, and its recorded commands are
//! then given again to a fresh game with no bot: all three logs and saves are byte-identical.

mod prop_support;

use hexwar::engine::GameError;
use prop_support::*;
use proptest::prelude::*;

fn log_of(session: &hexwar::Session) -> String {
    serde_json::to_string(session.game.log()).expect("the log serializes")
}

fn check(scenario: &str, seed: u64, steps: u32) {
    let first = random_position(scenario, seed, steps);
    let second = random_position(scenario, seed, steps);
    assert_eq!(
        first.played, second.played,
        "{scenario} seed {seed}: the bot chose differently"
    );
    assert_eq!(
        log_of(&first.session),
        log_of(&second.session),
        "{scenario} seed {seed}: logs differ"
    );
    let mut replayed = start(scenario, seed);
    for (side, command) in &first.played {
        match replayed.game.submit(side.as_deref(), command) {
            Ok(_) | Err(GameError::Refused(_)) => {}
            Err(e) => panic!("{scenario} seed {seed}: replaying {command:?}: {e}"),
        }
    }
    assert_eq!(
        log_of(&replayed),
        log_of(&first.session),
        "{scenario} seed {seed}: the replayed log differs"
    );
    // The bot's own dice are not part of a replay; the game's state is.
    assert_eq!(
        replayed.game.state().hash(),
        first.session.game.state().hash(),
        "{scenario} seed {seed}: the replayed state differs"
    );
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn demo_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..80) {
        check(DEMO, seed, steps);
    }

    #[test]
    fn tactical_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..40) {
        check(TACTICAL, seed, steps);
    }

    #[test]
    fn ancients_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..40) {
        check(ANCIENTS, seed, steps);
    }

    #[test]
    fn france1940_small_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..30) {
        check(FRANCE_SMALL, seed, steps);
    }
}

proptest! {
    #![proptest_config(config(2))]

    #[test]
    fn diplomacy_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..6) {
        check(DIPLOMACY, seed, steps);
    }

    #[test]
    fn france1940_same_seed_and_commands_give_the_same_log(seed in 1u64..1_000_000, steps in 0u32..france_steps(3)) {
        check(FRANCE, seed, steps);
    }
}

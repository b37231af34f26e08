//! The scenario parser (`src/scenario/`): the text stands in for `scenarios/demo/scenario.toml`
//! (so `map = "map.toml"` and the default rule roots resolve as in the repository). A scenario
//! that validates is started and played for one turn by the random bot.
#![no_main]

use hexwar::board::SourceText;
use hexwar::bot::{play, RandomBot, RunLimit};
use hexwar::engine::Dice;
use hexwar::scenario::parse_scenario;
use hexwar::Session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = hexwar_fuzz::text(data) else {
        return;
    };
    let path = hexwar_fuzz::repo().join("scenarios/demo/scenario.toml");
    let Ok(scenario) = parse_scenario(&SourceText::new(path, text)) else {
        return;
    };
    let sides = scenario.sides.clone();
    let Ok(mut session) = Session::start_scenario(scenario, Some(1)) else {
        return;
    };
    let mut bot = RandomBot::new(Dice::new(1));
    bot.max_per_phase = 4;
    let _ = play(&mut session.game, &mut bot, &sides, RunLimit::BeforeTurn(2));
});

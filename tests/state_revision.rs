//! A game's state carries a revision (src/engine/state.rs) that names its version and lists what
//! each applied event changed, so that the rules host's path cache (src/rules/api/path.rs)
//! catches up unit by unit and hex by hex instead of comparing the whole position. Whatever the
//! game does (moves, control changes, status flags, units leaving, more changes than the list
//! keeps, a command rolled back), the answers must be those of a VM that never saw the game.

mod common;

use std::path::Path;

use common::{control, moved};
use hexwar::engine::{
    Command, CommandFilter, Event, EventLimits, Game, GameState, Outcome, Refusal, Resolution,
    RulesError, Ruleset, Sequence,
};
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::Session;
use serde_json::{json, Map, Value};

fn scenario_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/france1940")
}

/// What the rules answer about the position: two units' reach (the occupancy, ZOC) and the
/// supply of every unit (the owners as well).
fn answers(mut ask: impl FnMut(&str, Value) -> Value) -> (Value, Value, Value) {
    (
        ask("reach", json!("de-1-kav")),
        ask("reach", json!("fr-1-dlm")),
        ask("supply", Value::Null),
    )
}

/// What a fresh VM answers on a copy of `state` (a copy's revision is unknown: it compares).
fn fresh(state: &GameState) -> (Value, Value, Value) {
    let mut rules = LuaRules::load(&load_scenario(&scenario_path()).unwrap()).unwrap();
    let copy = state.clone();
    answers(|name, arg| rules.query(&copy, name, &arg).unwrap().unwrap())
}

/// The game's own VM (its path cache kept from call to call) on the game's state.
fn kept(game: &mut Game) -> (Value, Value, Value) {
    answers(|name, arg| game.query(name, &arg).unwrap().unwrap())
}

/// The France rules without their setup hook, so that `Game::setup` applies the test's events
/// as they are (with the rules' reactions to each), not followed by the whole position judged
/// again (territory.lua's `PositionSet`), which would hide what the events changed.
struct EventsAsGiven(LuaRules);

impl Ruleset for EventsAsGiven {
    fn sequence(&self) -> &Sequence {
        self.0.sequence()
    }
    fn legal_commands(&mut self, s: &GameState, side: &str) -> Result<Vec<Command>, RulesError> {
        self.0.legal_commands(s, side)
    }
    fn legal_commands_matching(
        &mut self,
        s: &GameState,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        self.0.legal_commands_matching(s, side, filter)
    }
    fn resolve(
        &mut self,
        s: &GameState,
        side: Option<&str>,
        c: &Command,
    ) -> Result<Resolution, RulesError> {
        self.0.resolve(s, side, c)
    }
    fn before_event(&mut self, s: &GameState, e: &Event) -> Result<Option<Refusal>, RulesError> {
        self.0.before_event(s, e)
    }
    fn after_event(&mut self, s: &GameState, e: &Event) -> Result<Vec<Event>, RulesError> {
        self.0.after_event(s, e)
    }
    fn victory(&mut self, s: &GameState) -> Result<Outcome, RulesError> {
        self.0.victory(s)
    }
    fn query(
        &mut self,
        s: &GameState,
        name: &str,
        arg: &Value,
    ) -> Result<Option<Value>, RulesError> {
        self.0.query(s, name, arg)
    }
    fn skip_step(&mut self, s: &GameState, turn: u32, step: u32) -> Result<bool, RulesError> {
        self.0.skip_step(s, turn, step)
    }
    fn phase_label(
        &mut self,
        s: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<Option<String>, RulesError> {
        self.0.phase_label(s, turn, step)
    }
}

/// A France 1940 game (seed 1) whose `setup` applies the events it is given as they are.
fn game_taking_events() -> Game {
    let scenario = load_scenario(&scenario_path()).unwrap();
    let rules = EventsAsGiven(LuaRules::load(&scenario).unwrap());
    let mut game = Game::new(
        scenario.initial_state(1),
        Box::new(rules),
        scenario.turns,
        EventLimits::default(),
    );
    game.start(1).unwrap();
    game
}

#[test]
fn a_games_state_has_a_known_revision_that_copies_and_loads_do_not() {
    let session = Session::start(&scenario_path(), Some(1)).unwrap();
    let state = session.game.state();
    assert!(state.revision.known().is_some());
    let copy = state.clone();
    assert_eq!(copy.revision.known(), None);
    // not part of the state's value
    assert_eq!(&copy, state);
    assert_eq!(copy.hash(), state.hash());
    let text = serde_json::to_string(state).unwrap();
    assert!(!text.contains("revision"));
    let loaded: GameState = serde_json::from_str(&text).unwrap();
    assert_eq!(loaded.revision.known(), None);
    assert_eq!(&loaded, state);
}

#[test]
fn every_applied_event_and_every_roll_back_gives_a_new_revision() {
    let mut session = Session::start(&scenario_path(), Some(1)).unwrap();
    let before = session.game.state().revision.known().unwrap();
    let var = Event::VarSet {
        key: "probe".into(),
        value: json!(1).into(),
    };
    session.game.setup(&Map::new(), vec![var]).unwrap();
    let after = session.game.state().revision.known().unwrap();
    assert!(after > before);
    let hash = session.game.state().hash();
    // the second event names no unit in play: the command fails and is rolled back
    let failing = vec![
        moved("de-1-kav", "3106", "3005"),
        moved("nobody", "0101", "0102"),
    ];
    assert!(session.game.setup(&Map::new(), failing).is_err());
    assert_eq!(session.game.state().hash(), hash);
    assert!(session.game.state().revision.known().unwrap() > after);
}

#[test]
fn the_path_cache_follows_the_games_changes_event_by_event() {
    let mut game = game_taking_events();
    let flag = |unit: &str| Event::UnitStatusChanged {
        unit: unit.into(),
        add: vec!["disorganized".into()],
        remove: Vec::new(),
    };
    let at = |g: &Game, id: &str| g.state().units[id].at.clone().unwrap();
    let kav = at(&game, "de-1-kav");
    let dlm = at(&game, "fr-1-dlm");
    // Every Allied hex German in one go: more changes than the revision keeps, so the cache
    // compares; the Allied units are then out of supply.
    let many: Vec<Event> = game
        .state()
        .control
        .iter()
        .filter(|(_, side)| side.as_str() == "allied")
        .map(|(hex, _)| control(hex, "german"))
        .collect();
    assert!(many.len() > 100);
    let steps: Vec<Vec<Event>> = vec![
        vec![],
        vec![moved("de-1-kav", &kav, "2805")],
        vec![control("3006", "allied"), control("3105", "allied")],
        vec![flag("de-x-ak")],
        vec![moved("de-1-kav", "2805", &kav), control("3006", "german")],
        vec![Event::UnitRemoved {
            unit: "de-x-ak".into(),
            reason: "test".into(),
        }],
        many,
        vec![moved("fr-1-dlm", &dlm, "2405")],
        // rolled back: the cache must not keep the first event's move
        vec![
            moved("fr-1-dlm", "2405", "2406"),
            moved("nobody", "0101", "0102"),
        ],
    ];
    let mut answers = Vec::new();
    for events in steps {
        let _ = game.setup(&Map::new(), events);
        let answer = kept(&mut game);
        assert_eq!(answer, kept(&mut game), "asked twice in a row");
        assert_eq!(answer, fresh(game.state()));
        answers.push(answer);
    }
    // the positions do differ where the cache is concerned
    assert_ne!(answers[0].0, answers[1].0);
    assert_ne!(answers[6].2, answers[5].2);
    assert_eq!(answers[7], answers[8]);
}

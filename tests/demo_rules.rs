//! The demo rules module, clause by clause (rules/demo/init.lua), on a test position.

use std::path::Path;

use hexwar::engine::{Command, Dice, Event, GameError, Refusal};
use hexwar::Session;
use serde_json::{json, Map, Value};

fn session() -> Session {
    Session::start(Path::new("tests/fixtures/demo_positions"), Some(11)).unwrap()
}

fn mv(unit: &str, path: &[&str]) -> Command {
    Command::Move {
        unit: unit.into(),
        path: path.iter().map(|s| s.to_string()).collect(),
    }
}

fn attack(unit: &str, target: &str) -> Command {
    let mut args = Map::new();
    args.insert("unit".into(), Value::String(unit.into()));
    args.insert("target".into(), Value::String(target.into()));
    Command::Custom {
        name: "attack".into(),
        args,
    }
}

fn refused(s: &mut Session, side: &str, c: &Command) -> Refusal {
    let before = s.to_save().to_json();
    let err = s.game.submit(Some(side), c).unwrap_err();
    // A refused command leaves the state byte-identical.
    assert_eq!(s.to_save().to_json(), before);
    match err {
        GameError::Refused(r) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn demo_1_moves_go_to_adjacent_hexes_within_ma_once_per_phase() {
    let mut s = session();
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0506"])),
        Refusal::new(
            "DEMO-1",
            "each hex of a path must be adjacent to the one before (step 1: 0504 to 0506)"
        )
    );
    // b2 at 0503: 0502 clear 1, 0402 forest 2, 0302 forest 2: 5 > 4 at the third step.
    assert_eq!(
        refused(
            &mut s,
            "blue",
            &mv("b2", &["0502", "0402", "0302", "0202", "0102"])
        ),
        Refusal::new(
            "DEMO-1",
            "the path costs 5 MP by this step, more than the 4 MP allowed (step 3: 0402 to 0302)"
        )
    );
    // A hex that is not on the map is refused in words for the player (no "runtime error:"),
    // under the engine's rule for a malformed command (it was "move", no rule at all).
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0505", "9999"])),
        Refusal::new(
            "command",
            "'9999' is not a hex of the map (this 12×10 map's labels are 4 digits, column then row: 0101 to 1210)"
        )
    );
    s.game.submit(Some("blue"), &mv("b2", &["0502"])).unwrap();
    assert_eq!(
        refused(&mut s, "blue", &mv("b2", &["0501"])),
        Refusal::new("DEMO-1", "b2 has already moved this phase")
    );
}

#[test]
fn demo_2_lake_is_prohibited_and_a_river_costs_one_more() {
    let mut s = session();
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0605"])),
        Refusal::new(
            "DEMO-2",
            "foot units may not enter lake (step 1: 0504 to 0605)"
        )
    );
    let events = s.game.submit(Some("blue"), &mv("b1", &["0604"])).unwrap();
    let moved = events.iter().find(|e| e.name() == "UnitMoved").unwrap();
    assert_eq!(
        moved,
        &Event::UnitMoved {
            unit: "b1".into(),
            from: Some("0504".into()),
            to: "0604".into(),
            path: vec!["0604".into()],
            cost: 2.0
        }
    );
}

#[test]
fn demo_3_no_entering_enemy_hexes_and_stop_next_to_an_enemy() {
    let mut s = session();
    // b1 0504 -> 0505 -> 0506 -> 0607 (next to r1 at 0706): it must stop at 0607.
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0505", "0606"])),
        Refusal::new(
            "DEMO-2",
            "foot units may not enter lake (step 2: 0505 to 0606)"
        )
    );
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0505", "0506", "0607", "0707"])),
        Refusal::new(
            "DEMO-3",
            "a unit that enters an enemy ZOC stops there (step 4: 0607 to 0707)"
        )
    );
    assert_eq!(
        refused(&mut s, "blue", &mv("b1", &["0505", "0506", "0607", "0706"])),
        Refusal::new(
            "DEMO-3",
            "a unit that enters an enemy ZOC stops there (step 4: 0607 to 0706)"
        )
    );
    s.game
        .submit(Some("blue"), &mv("b1", &["0505", "0506", "0607"]))
        .unwrap();
}

#[test]
fn demo_4_stacking_is_checked_when_the_phase_ends() {
    let mut s = session();
    s.game.submit(Some("blue"), &mv("b2", &["0504"])).unwrap();
    s.game
        .submit(Some("blue"), &mv("b3", &["0503", "0504"]))
        .unwrap();
    assert_eq!(
        refused(&mut s, "blue", &Command::EndPhase),
        Refusal::new(
            "DEMO-4",
            "hex 0504 holds 3 blue units at the end of the phase (at most 2)"
        )
    );
}

#[test]
fn demo_5_attacks_only_adjacent_enemies_once_in_the_combat_phase() {
    let mut s = session();
    assert_eq!(
        refused(&mut s, "blue", &attack("b1", "r1")),
        Refusal::new("DEMO-5", "attacks happen in the combat phase")
    );
    s.game
        .submit(Some("blue"), &mv("b1", &["0505", "0506", "0607"]))
        .unwrap();
    s.game.submit(Some("blue"), &Command::EndPhase).unwrap();
    assert_eq!(
        refused(&mut s, "blue", &attack("b2", "r1")),
        Refusal::new("DEMO-5", "r1 is not adjacent to b2")
    );
    // (a unit id not in play, named: both were "attack needs a unit and a target unit")
    assert_eq!(
        refused(&mut s, "blue", &attack("b2", "nobody")),
        Refusal::new("DEMO-5", "no unit 'nobody' in play to be attacked")
    );
    assert_eq!(
        refused(&mut s, "blue", &attack("b9", "r1")),
        Refusal::new("DEMO-5", "no unit 'b9' in play to attack")
    );
    // An attack whose target is no unit id (a list) is a malformed order, refused by the
    // engine's `command` rule before the rules run: it was a rules error inside `resolve`
    // (`bad argument #1 to 'get'`), which a host blames on the rules.
    let mut malformed = Map::new();
    malformed.insert("unit".into(), json!("b2"));
    malformed.insert("target".into(), json!([1]));
    assert_eq!(
        refused(
            &mut s,
            "blue",
            &Command::Custom {
                name: "attack".into(),
                args: malformed,
            }
        ),
        Refusal::new(
            "command",
            "attack: argument 'target' must be a unit id (a string), not a list, [1]"
        )
    );
    s.game.submit(Some("blue"), &attack("b1", "r1")).unwrap();
    assert_eq!(
        refused(&mut s, "blue", &attack("b1", "r1")),
        Refusal::new("DEMO-5", "b1 has already attacked")
    );
}

#[test]
fn demo_6_combat_result_follows_the_die() {
    let mut s = session();
    s.game
        .submit(Some("blue"), &mv("b1", &["0505", "0506", "0607"]))
        .unwrap();
    s.game.submit(Some("blue"), &Command::EndPhase).unwrap();
    let rolls_before = s.game.state().dice.rolls;
    let events = s.game.submit(Some("blue"), &attack("b1", "r1")).unwrap();
    let roll = Dice::value_at(11, rolls_before, 6);
    let total = roll as i64; // strength 3 against 3
    let result = if total >= 6 {
        "defender eliminated"
    } else if total <= 1 {
        "attacker eliminated"
    } else {
        "no effect"
    };
    assert_eq!(
        events[0],
        Event::DiceRolled {
            sides: 6,
            value: roll
        }
    );
    assert_eq!(
        events[1],
        Event::Custom {
            name: "CombatResolved".into(),
            data: json!({"attacker": "b1", "defender": "r1", "roll": roll, "total": total, "result": result}).into(),
        }
    );
    let eliminated: Vec<&Event> = events
        .iter()
        .filter(|e| e.name() == "UnitEliminated")
        .collect();
    assert_eq!(eliminated.len(), usize::from(result != "no effect"));
}

#[test]
fn demo_7_victory_counts_objectives_and_eliminations() {
    let mut s = session();
    // Blue takes the city 0604 (3 points); red holds town 1004 (2 points) from the start.
    s.game.submit(Some("blue"), &mv("b1", &["0604"])).unwrap();
    for side in ["blue", "blue", "red", "red"] {
        s.game.submit(Some(side), &Command::EndPhase).unwrap();
    }
    let outcome = s.game.state().outcome.clone().unwrap();
    assert_eq!(outcome.winner.as_deref(), Some("blue"));
    assert_eq!(
        outcome.scores,
        [
            ("blue".to_string(), 3.0 + 2.0 + 2.0),
            ("red".to_string(), 2.0)
        ]
        .into_iter()
        .collect()
    );
}

#[test]
fn the_mud_variant_raises_forest_costs_and_lowers_the_stack_limit() {
    let mut s = Session::start(Path::new("scenarios/demo-mud"), Some(1)).unwrap();
    // b-inf-1 at 0102: 0202 clear (1), 0302 forest (3 in mud) = 4, its whole MA; 0402 forest too far.
    let events = s
        .game
        .submit(Some("blue"), &mv("b-inf-1", &["0202", "0302"]))
        .unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::UnitMoved { cost, .. } if *cost == 4.0)),
        "{events:?}"
    );
    let mut s = Session::start(Path::new("scenarios/demo-mud"), Some(1)).unwrap();
    assert_eq!(
        refused(&mut s, "blue", &mv("b-inf-1", &["0202", "0302", "0402"])),
        Refusal::new(
            "DEMO-1",
            "the path costs 7 MP by this step, more than the 4 MP allowed (step 3: 0302 to 0402)"
        )
    );
    s.game
        .submit(Some("blue"), &mv("b-inf-1", &["0103"]))
        .unwrap();
    assert_eq!(
        refused(&mut s, "blue", &Command::EndPhase),
        Refusal::new(
            "DEMO-4",
            "hex 0103 holds 2 blue units at the end of the phase (at most 1)"
        )
    );
}

#[test]
fn legal_moves_are_the_engine_reach_with_paths() {
    let mut s = session();
    let legal = s.game.legal_commands("blue").unwrap();
    let b2: Vec<&Command> = legal
        .iter()
        .filter(|c| matches!(c, Command::Move { unit, .. } if unit == "b2"))
        .collect();
    assert!(!b2.is_empty());
    // Every listed move is accepted (and the list ends with end_phase).
    assert_eq!(legal.last(), Some(&Command::EndPhase));
    for c in b2 {
        let mut fresh = session();
        fresh
            .game
            .submit(Some("blue"), c)
            .unwrap_or_else(|e| panic!("{c:?} listed but refused: {e}"));
    }
}

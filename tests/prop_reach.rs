//! Property (d), over random positions of the hex games: the hexes the `reach` query answers
//! for a unit are hexes of the map, cost no more than the unit's movement allowance, and never
//! hold an enemy unit (DEMO-3, F40-9.5), but in France 1940 a hex holding only enemy para
//! regiments, which F40-11.3 lets enemies enter. The facing games are the exception their rules make:
//! TAC-6 / TA-R8 let any unit enter an enemy-occupied hex (it stops there and a melee starts),
//! and the ancients module shares that movement (rules/lib/facing.lua); for them only the
//! budget and the map are checked. Facing games answer a cost per facing; every one is checked.

mod prop_support;

use hexwar::engine::Unit;
use hexwar::Session;
use prop_support::*;
use proptest::prelude::*;
use serde_json::Value;

/// Every cost in a reach answer's entry: a number, or a table / list of numbers per facing.
fn costs(entry: &Value) -> Vec<f64> {
    match entry {
        Value::Number(n) => n.as_f64().into_iter().collect(),
        Value::Object(m) => m.values().flat_map(costs).collect(),
        Value::Array(a) => a.iter().flat_map(costs).collect(),
        _ => vec![f64::NAN],
    }
}

/// May a unit reach an enemy-occupied hex?
#[derive(Clone, Copy, PartialEq)]
enum EnemyHexes {
    Never,
    /// F40-11.3: only a hex holding nothing but para regiments (attribute `para`, size III).
    OnlyParaRegiments,
    /// TAC-6: entering one ends the move in a melee.
    EndTheMove,
}

/// A France 1940 para regiment (F40-11.3): enemies may enter a hex holding only such units.
fn is_para_regiment(unit: &Unit) -> bool {
    unit.size == "III" && unit.attrs.get("para") == Some(&Value::Bool(true))
}

fn check_unit(session: &mut Session, id: &str, context: &str, enemy_hexes: EnemyHexes) {
    let unit = session.game.state().units[id].clone();
    let answer = session
        .game
        .query("reach", &Value::String(id.to_string()))
        .unwrap_or_else(|e| panic!("{context}: reach {id}: {e}"));
    let Some(Value::Object(hexes)) = answer else {
        panic!("{context}: reach {id} answered {answer:?}");
    };
    let map = session.scenario.map.as_hex().expect("a hex game").clone();
    for (label, entry) in &hexes {
        assert!(
            map.parse_label(label).is_some(),
            "{context}: {id} reaches {label}, not a hex of the map"
        );
        for cost in costs(entry) {
            assert!(
                cost >= 0.0 && cost <= unit.ma + 1e-9,
                "{context}: {id} (MA {}) reaches {label} for {cost} MP",
                unit.ma
            );
        }
        let enemies: Vec<&str> = session
            .game
            .state()
            .units_at(label)
            .filter(|u| u.side != unit.side)
            .filter(|u| enemy_hexes != EnemyHexes::OnlyParaRegiments || !is_para_regiment(u))
            .map(|u| u.id.as_str())
            .collect();
        assert!(
            enemy_hexes == EnemyHexes::EndTheMove || enemies.is_empty(),
            "{context}: {id} reaches {label}, held by {enemies:?}"
        );
    }
}

fn check(scenario: &str, seed: u64, steps: u32, enemy_hexes: EnemyHexes) {
    let Position { mut session, .. } = random_position(scenario, seed, steps);
    let context = format!("{scenario} seed {seed} steps {steps}");
    let ids: Vec<String> = session
        .game
        .state()
        .units
        .values()
        .filter(|u| u.at.is_some())
        .map(|u| u.id.clone())
        .collect();
    for id in ids {
        check_unit(&mut session, &id, &context, enemy_hexes);
    }
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn demo_reach_stays_within_ma_and_off_enemies(seed in 1u64..1_000_000, steps in 0u32..60) {
        check(DEMO, seed, steps, EnemyHexes::Never);
    }

    #[test]
    fn tactical_reach_stays_within_ma(seed in 1u64..1_000_000, steps in 0u32..40) {
        check(TACTICAL, seed, steps, EnemyHexes::EndTheMove);
    }

    #[test]
    fn ancients_reach_stays_within_ma(seed in 1u64..1_000_000, steps in 0u32..40) {
        check(ANCIENTS, seed, steps, EnemyHexes::EndTheMove);
    }

    #[test]
    fn france1940_small_reach_stays_within_ma_and_off_enemies(seed in 1u64..1_000_000, steps in 0u32..20) {
        check(FRANCE_SMALL, seed, steps, EnemyHexes::OnlyParaRegiments);
    }
}

proptest! {
    #![proptest_config(config(2))]

    /// The full France 1940 map, a few steps in (its legal lists are slow today).
    #[test]
    fn france1940_reach_stays_within_ma_and_off_enemies(seed in 1u64..1_000_000, steps in 0u32..france_steps(3)) {
        check(FRANCE, seed, steps, EnemyHexes::OnlyParaRegiments);
    }
}

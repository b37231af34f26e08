//! Facing-aware movement (`hexwar::path::reach_facing`, `check_move`): one test per clause
//! TAC-1..8 and ANC-5.1..7.3, and per reading TA-R1..R20 (`ta_r*`; TA-R2 is in
//! src/path/arc.rs; TA-R6, TA-R15 and TA-R20 also have Lua tests in rules/*/tests), on small
//! purpose-built maps.
//!
//! Maps are flat-topped, printed-odd columns shifted down, labels CCRR. From an even column
//! (04) the edge directions 0..5 lead to (c+1,r) (c,r+1) (c-1,r) (c-1,r-1) (c,r-1) (c+1,r-1);
//! from an odd column to (c+1,r+1) (c,r+1) (c-1,r+1) (c-1,r) (c,r-1) (c+1,r). So from 0404:
//! 0504 0405 0304 0303 0403 0503. A one-row map is a line (0101 0201 ... 0901).
//! Expected values are worked out by hand from these neighbour rules.

mod facing_fixture;

use std::collections::BTreeMap;

use facing_fixture::*;
use hexwar::board::{parse_map, HexMap, SourceText};
use hexwar::engine::Unit;
use hexwar::path::{check_move, reach_facing, Facing, FacingOptions, FacingRules, FacingSearch};
use serde_json::{json, Value};

fn tac() -> Value {
    json!({
        "model": "tactical", "sides": ["blue", "red"],
        "kinds": {
            "infantry": { "tactical": 1 }, "cavalry": { "tactical": 2 },
            "foot_skirmisher": { "tactical": 2, "skirmisher": true },
            "mounted_skirmisher": { "tactical": 3, "skirmisher": true },
            "leader": { "leader": true, "tactical": 2 },
            "artillery": { "tactical": 1 }, "artillery_unlimbered": { "immobile": true, "tactical": 0 },
            "colonial": { "tactical": 1 }
        },
        "clauses": { "friendly": "TAC-5", "melee": "TAC-6", "front_to_front": "TAC-7", "distance": "TAC-2", "immobile": "TA-R4" }
    })
}

fn anc() -> Value {
    json!({
        "model": "ancients", "sides": ["blue", "red"], "not_in_order": ["disordered"],
        "kinds": {
            "phalanx": { "facing": "vertex", "turn_cost": 1, "join": 1 },
            "light": { "front": "all", "join": 1, "escort": true },
            "cavalry": { "front": "all" },
            "elephant": { "front": "all", "join": 1, "escorted": true },
            "leader": { "leader": true }
        },
        "clauses": { "phalanx_front": "ANC-7.2", "front_stop": "ANC-7.3", "join": "ANC-5.3",
                     "stack": "ANC-5.1", "stack_facing": "ANC-5.4", "turn": "ANC-6.2", "contact_turn": "ANC-6.3", "enemy_hex": "TA-R12", "budget": "ANC-7.1",
                     "friendly": "ANC-7.1" }
    })
}

// ---------------------------------------------------------------- TAC

#[test]
fn tac_1_move_within_two_hexes_of_a_counting_enemy_is_tactical() {
    // Line map; infantry (TAC-2: 1 hex) with MA 4 at 0101, enemy infantry at 0701: hexes
    // 0501..0901 are within 2 of it, so any move touching them is tactical (at most 1 hex).
    let line = || grid(9, 1);
    let f = fx(
        line(),
        tac(),
        &[
            u("b", "blue", "infantry", "0101", 4.0, Some(0)),
            u("r", "red", "infantry", "0701", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
    // An isolated enemy leader does not count (TA-R3): the full MA applies.
    let f = fx(
        line(),
        tac(),
        &[
            u("b", "blue", "infantry", "0101", 4.0, Some(0)),
            u("r", "red", "leader", "0701", 4.0, None),
        ],
    );
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[
            ("0101", 0),
            ("0201", 1),
            ("0301", 2),
            ("0401", 3),
            ("0501", 4)
        ])
    );
    // A leader next to one of its troops is not isolated: it counts again.
    let f = fx(
        line(),
        tac(),
        &[
            u("b", "blue", "infantry", "0101", 4.0, Some(0)),
            u("r", "red", "leader", "0601", 4.0, None),
            u("r2", "red", "cavalry", "0901", 4.0, Some(0)),
            u("r3", "red", "cavalry", "0701", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2)])
    );
}

#[test]
fn tac_2_tactical_distances_per_kind() {
    // Line map, enemy infantry at 0901; the mover at 0701 is within 2 of it, so every move is
    // tactical. Entering 0901 (the enemy) is a melee step (TAC-6).
    let run = |kind: &str| {
        let f = fx(
            grid(9, 1),
            tac(),
            &[
                u("m", "blue", kind, "0701", 6.0, Some(0)),
                u("r", "red", "infantry", "0901", 4.0, Some(2)),
            ],
        );
        f.hexes(&["m"])
    };
    assert_eq!(
        run("mounted_skirmisher"),
        hc(&[
            ("0401", 3),
            ("0501", 2),
            ("0601", 1),
            ("0701", 0),
            ("0801", 1),
            ("0901", 2)
        ])
    );
    assert_eq!(
        run("cavalry"),
        hc(&[
            ("0501", 2),
            ("0601", 1),
            ("0701", 0),
            ("0801", 1),
            ("0901", 2)
        ])
    );
    assert_eq!(run("foot_skirmisher"), run("cavalry"));
    assert_eq!(
        run("infantry"),
        hc(&[("0601", 1), ("0701", 0), ("0801", 1)])
    );
    assert_eq!(run("artillery"), run("infantry"));
    assert_eq!(run("artillery_unlimbered"), hc(&[]));
    let lead = fx(
        grid(9, 1),
        tac(),
        &[
            u("m", "blue", "leader", "0701", 6.0, None),
            u("r", "red", "infantry", "0901", 4.0, Some(2)),
        ],
    );
    // A facing given to a leader is refused citing the rules' `leader_facing` clause, or their
    // `facing` one when they declare none for leaders (TA-R2).
    let given = Facing::One(2);
    let refusal = |key: &str| {
        let mut decl = tac();
        decl["clauses"][key] = json!("X-9");
        let with = fx(
            grid(9, 1),
            decl,
            &[
                u("m", "blue", "leader", "0701", 6.0, None),
                u("r", "red", "infantry", "0901", 4.0, Some(2)),
            ],
        );
        with.check(&["m"], &["0601"], given)
    };
    let why = "leaders have no facing (TA-R2), so none is given, not 2";
    assert_eq!(refusal("leader_facing"), Err(format!("X-9: {why}")));
    assert_eq!(refusal("facing"), Err(format!("X-9: {why}")));
    // A leader has no facing: the start hex is not listed at all (TA-R20).
    assert_eq!(
        lead.states(&["m"])
            .keys()
            .map(|k| (k.0.as_str(), k.1.as_str()))
            .collect::<Vec<_>>(),
        [
            ("0501", "none"),
            ("0601", "none"),
            ("0801", "none"),
            ("0901", "none")
        ]
    );
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("m", "blue", "infantry", "0701", 6.0, Some(0)),
            u("r", "red", "infantry", "0901", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.check(&["m"], &["0601", "0501"], Facing::One(0)),
        Err("TAC-2: a tactical move is at most 1 hex (TAC-2)".into())
    );
}

#[test]
fn tac_3_refacing_in_the_start_hex_is_a_move() {
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("m", "blue", "infantry", "0701", 6.0, Some(0)),
            u("r", "red", "infantry", "0901", 4.0, Some(2)),
        ],
    );
    let s = f.states(&["m"]);
    let start: Vec<(&str, u32)> = s
        .iter()
        .filter(|(k, _)| k.0 == "0701")
        .map(|(k, c)| (k.1.as_str(), *c))
        .collect();
    assert_eq!(start, [("1", 0), ("2", 0), ("3", 0), ("4", 0), ("5", 0)]);
    // Every end facing is free (TA-R5).
    let end: Vec<&str> = s
        .keys()
        .filter(|k| k.0 == "0801")
        .map(|k| k.1.as_str())
        .collect();
    assert_eq!(end, ["0", "1", "2", "3", "4", "5"]);
    assert_eq!(f.check(&["m"], &[], Facing::One(3)), Ok(0));
    assert!(f
        .check(&["m"], &[], Facing::One(0))
        .unwrap_err()
        .contains("not a move"));
    let a = fx(
        grid(9, 1),
        tac(),
        &[u("a", "blue", "artillery_unlimbered", "0701", 6.0, Some(0))],
    );
    assert_eq!(
        a.check(&["a"], &[], Facing::One(3)),
        Err("TA-R4: unlimbered artillery neither moves nor re-faces (TA-R4)".into())
    );
}

#[test]
fn tac_4_two_base_unit_faces_each_base() {
    let mut c = u("c", "blue", "colonial", "0701", 6.0, Some(0));
    c.attrs.insert("facing2".into(), json!(3));
    let f = fx(
        grid(9, 1),
        tac(),
        &[c, u("r", "red", "infantry", "0901", 4.0, Some(2))],
    );
    let s = f.states(&["c"]);
    let start: Vec<&String> = s.keys().filter(|k| k.0 == "0701").map(|k| &k.1).collect();
    assert_eq!(start.len(), 35); // 36 pairs, minus the start pair
    assert!(!s.contains_key(&("0701".into(), "0,3".into())));
    assert_eq!(s.get(&("0701".into(), "0,4".into())), Some(&0)); // only base 2 re-faced
    assert_eq!(s.keys().filter(|k| k.0 == "0601").count(), 36);
    assert_eq!(s.get(&("0601".into(), "5,5".into())), Some(&1));
    assert_eq!(f.check(&["c"], &["0801"], Facing::Two(1, 4)), Ok(1));
    // The front of a two-base unit is the union of both arcs: facings 0 and 3 cover all six
    // neighbours, so a cavalry leaving one may not enter another (TAC-7).
    let mut e = u("e", "red", "colonial", "0404", 6.0, Some(0));
    e.attrs.insert("facing2".into(), json!(3));
    let f = fx(
        grid(7, 7),
        tac(),
        &[e, u("k", "blue", "cavalry", "0403", 6.0, Some(0))],
    );
    assert_eq!(f.check(&["k"], &["0503"], Facing::One(0)), Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0503 (TAC-7)".into()));
}

#[test]
fn tac_5_only_leaders_enter_friends_skirmishers_pass_through() {
    let line = |mover: &str, friend: &str| {
        fx(
            grid(9, 1),
            tac(),
            &[
                u("a", "blue", mover, "0301", 4.0, Some(0)),
                u("f", "blue", friend, "0401", 4.0, Some(0)),
            ],
        )
    };
    let f = line("infantry", "infantry");
    assert_eq!(
        f.hexes(&["a"]),
        hc(&[("0101", 2), ("0201", 1), ("0301", 0)])
    );
    assert_eq!(
        f.check(&["a"], &["0401", "0501"], Facing::One(0)),
        Err("TAC-5: 0401 holds a friendly unit: only skirmishers pass through, and no non-leader ends there (TAC-5)".into())
    );
    let crossing = hc(&[
        ("0101", 2),
        ("0201", 1),
        ("0301", 0),
        ("0501", 2),
        ("0601", 3),
        ("0701", 4),
    ]);
    assert_eq!(line("foot_skirmisher", "infantry").hexes(&["a"]), crossing);
    assert_eq!(line("infantry", "foot_skirmisher").hexes(&["a"]), crossing);
    let mut lead = crossing.clone();
    lead.insert("0401".into(), 1);
    lead.remove("0301"); // a leader's start state is the only one in its start hex
    assert_eq!(line("leader", "infantry").hexes(&["a"]), lead);
}

#[test]
fn tac_6_entering_an_enemy_hex_stops_for_melee() {
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("c", "blue", "cavalry", "0501", 4.0, Some(0)),
            u("r", "red", "infantry", "0601", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[("0301", 2), ("0401", 1), ("0501", 0), ("0601", 1)])
    );
    assert_eq!(f.check(&["c"], &["0601"], Facing::One(0)), Ok(1));
    assert_eq!(
        f.check(&["c"], &["0601", "0701"], Facing::One(0)),
        Err("TAC-6: entering the enemy hex 0601 ended the move in a melee (TAC-6)".into())
    );
    // A second charge into the hex a friendly unit charged already: refused by TAC-5 (a
    // friendly non-leader there), not as a melee its path does not go past.
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("c", "blue", "cavalry", "0501", 4.0, Some(0)),
            u("d", "blue", "infantry", "0601", 4.0, Some(0)),
            u("r", "red", "infantry", "0601", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.check(&["c"], &["0601"], Facing::One(0)),
        Err("TAC-5: 0601 holds a friendly unit; only leaders may end there (TAC-5)".into())
    );
}

fn tac7(mover: &str, enemy: &str, decl: Value) -> Fx {
    // Enemy at 0404 facing edge 4 (up): front = edges 3, 4, 5 = 0303, 0403, 0503.
    fx(
        grid(7, 7),
        decl,
        &[
            u("e", "red", enemy, "0404", 4.0, Some(4)),
            u("m", "blue", mover, "0403", 6.0, Some(1)),
        ],
    )
}

const TAC7_CAVALRY: &[(&str, u32)] = &[
    ("0202", 2),
    ("0203", 2),
    ("0301", 2),
    ("0302", 1),
    ("0401", 2),
    ("0402", 1),
    ("0403", 0),
    ("0404", 1),
    ("0501", 2),
    ("0502", 1),
    ("0602", 2),
    ("0603", 2),
];

#[test]
fn tac_7_no_front_hex_to_front_hex() {
    // Cavalry (2 hexes) in the enemy's front hex 0403: 0303 and 0503 (the other front hexes)
    // are forbidden however reached; the enemy's own hex is not its front.
    let f = tac7("cavalry", "infantry", tac());
    assert_eq!(f.hexes(&["m"]), hc(TAC7_CAVALRY));
    assert_eq!(f.check(&["m"], &["0303"], Facing::One(0)), Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0303 (TAC-7)".into()));
    assert_eq!(f.check(&["m"], &["0402", "0403"], Facing::One(0)), Ok(2)); // back to h is allowed
                                                                           // A skirmisher is exempt.
    let f = tac7("foot_skirmisher", "infantry", tac());
    let mut s = hc(TAC7_CAVALRY);
    s.extend(hc(&[
        ("0303", 1),
        ("0503", 1),
        ("0204", 2),
        ("0304", 2),
        ("0504", 2),
        ("0604", 2),
    ]));
    assert_eq!(f.hexes(&["m"]), s);
    // So is leaving the front of an enemy skirmisher.
    let f = tac7("cavalry", "foot_skirmisher", tac());
    assert_eq!(f.hexes(&["m"]), s);
}

#[test]
fn tac_8_front_arc_is_declared_per_kind() {
    // Default: the faced hex and its two neighbours (see tac_7). Declared front = {0} only:
    // the enemy facing edge 4 has the single front hex 0403, so 0303 and 0503 are open.
    let mut d = tac();
    d["kinds"]["infantry"] = json!({ "tactical": 1, "front": [0] });
    let f = tac7("cavalry", "infantry", d);
    let mut s = hc(TAC7_CAVALRY);
    s.extend(hc(&[
        ("0303", 1),
        ("0503", 1),
        ("0204", 2),
        ("0304", 2),
        ("0504", 2),
        ("0604", 2),
    ]));
    assert_eq!(f.hexes(&["m"]), s);
}

// ---------------------------------------------------------------- ANC

#[test]
fn anc_5_1_only_same_type_stacks_leaders_and_elephant_escorts_excepted() {
    let m = grid(3, 3);
    let r = FacingRules::compile(&anc(), &m).unwrap();
    assert!(r.stack_legal(["phalanx", "phalanx", "phalanx"]));
    assert!(!r.stack_legal(["phalanx", "light"]));
    assert!(!r.stack_legal(["cavalry", "light"]));
    assert!(r.stack_legal(["leader", "phalanx", "leader"]));
    assert!(r.stack_legal(["elephant", "light", "light"]));
    assert!(r.stack_legal(["elephant", "elephant", "light"]));
    assert!(!r.stack_legal(["elephant", "light", "light", "light"]));
    // Joining a stack is refused when the result would be illegal.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("l", "blue", "light", "0201", 4.0, Some(0)),
            u("p", "blue", "phalanx", "0301", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["l"], &["0301"], Facing::One(0)),
        Err("ANC-5.1: the stack at 0301 would mix troop types (ANC-5.1)".into())
    );
    // An elephant joining three lights: the escorts are too many (it read "would mix troop
    // types", which they do not).
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("e", "blue", "elephant", "0201", 4.0, Some(0)),
            u("l1", "blue", "light", "0301", 4.0, Some(0)),
            u("l2", "blue", "light", "0301", 4.0, Some(0)),
            u("l3", "blue", "light", "0301", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["e"], &["0301"], Facing::One(0)),
        Err("ANC-5.1: the stack at 0301 would hold 3 light escorts with its elephant (at most 2) (ANC-5.1)".into())
    );
}

/// ANC-7.1: no unit passes through friendly units. A path that goes on past friendly troops
/// is told so, whether or not it could have joined them there (it read "the move is not
/// possible", or why the join failed: "would mix troop types").
#[test]
fn anc_7_1_no_unit_passes_through_friendly_units() {
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("l", "blue", "light", "0101", 6.0, Some(0)),
            u("l2", "blue", "light", "0201", 4.0, Some(0)),
            u("c", "blue", "cavalry", "0601", 6.0, Some(0)),
            u("p", "blue", "phalanx", "0501", 4.0, Some(0)),
        ],
    );
    let through = |at: &str| {
        format!(
            "ANC-7.1: {at} holds friendly troops: no unit passes through friendly units \
             (ANC-7.1); entering them joins their stack, the last step of a move (TA-R18)"
        )
    };
    assert_eq!(
        f.check(&["l"], &["0201", "0301"], Facing::One(0)),
        Err(through("0201"))
    );
    assert_eq!(
        f.check(&["c"], &["0501", "0401"], Facing::One(0)),
        Err(through("0501"))
    );
    // (ending there is a join, the last step)
    assert_eq!(f.check(&["l"], &["0201"], Facing::One(0)), Ok(2));
}

#[test]
fn anc_5_2_splitting_a_stack_is_free() {
    // Two phalanxes stacked at 0404 facing vertex 0: one moves alone with the same steps as a
    // lone phalanx (splitting costs nothing), but it cannot turn in place beside the one left
    // behind (ANC-5.4: a stack shares one facing), and coming back into the hex is joining it.
    // The two together turn as a lone phalanx does.
    let lone = fx(
        grid(7, 7),
        anc(),
        &[u("p1", "blue", "phalanx", "0404", 1.0, Some(0))],
    );
    let split = fx(
        grid(7, 7),
        anc(),
        &[
            u("p1", "blue", "phalanx", "0404", 1.0, Some(0)),
            u("p2", "blue", "phalanx", "0404", 1.0, Some(0)),
        ],
    );
    let expect: BTreeMap<(String, String), u32> = [
        ("0404", "1", 1),
        ("0404", "5", 1),
        ("0503", "0", 1),
        ("0504", "0", 1),
    ]
    .iter()
    .map(|(h, f, c)| ((h.to_string(), f.to_string()), *c))
    .collect();
    assert_eq!(lone.states(&["p1"]), expect);
    let mut moved_away = expect.clone();
    moved_away.retain(|(h, _), _| h != "0404");
    assert_eq!(split.states(&["p1"]), moved_away);
    assert_eq!(split.states(&["p1", "p2"]), expect);
}

#[test]
fn anc_5_3_joining_a_stack_costs_declared_mp_and_not_in_contact() {
    // Light infantry (join cost 1) at 0101, a friendly light at 0401: entering 0401 costs
    // 1 + 1, so 4 MP in all, and the joiner takes the stack's facing (2).
    let units = |ma: f64| {
        vec![
            u("a", "blue", "light", "0101", ma, Some(0)),
            u("s", "blue", "light", "0401", 4.0, Some(2)),
        ]
    };
    let f = fx(grid(9, 1), anc(), &units(4.0));
    let s = f.states(&["a"]);
    let at: Vec<(&str, u32)> = s
        .iter()
        .filter(|(k, _)| k.0 == "0401")
        .map(|(k, c)| (k.1.as_str(), *c))
        .collect();
    assert_eq!(at, [("2", 4)]);
    assert_eq!(
        f.check(&["a"], &["0201", "0301", "0401"], Facing::One(2)),
        Ok(4)
    );
    // Joining is the last step: nothing beyond 0401.
    assert!(!s.keys().any(|k| k.0 == "0501"));
    let f = fx(grid(9, 1), anc(), &units(3.0));
    assert_eq!(
        f.check(&["a"], &["0201", "0301", "0401"], Facing::One(2)),
        Err("ANC-5.3: joining the stack at 0401 costs 2 MP (ANC-5.3)".into())
    );
    // A kind without a joining cost cannot join.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("a", "blue", "cavalry", "0301", 4.0, Some(0)),
            u("s", "blue", "cavalry", "0401", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.check(&["a"], &["0401"], Facing::One(2)),
        Err("ANC-5.3: a troop type of the group cannot join a stack (ANC-5.3)".into())
    );
    // Not in contact with an enemy in good order.
    let mut us = units(4.0);
    us.push(u("r", "red", "cavalry", "0501", 4.0, Some(0)));
    let f = fx(grid(9, 1), anc(), &us);
    assert_eq!(
        f.check(&["a"], &["0201", "0301", "0401"], Facing::One(2)),
        Err("ANC-5.3: no stack may be formed in contact with the enemy at 0401 (ANC-5.3)".into())
    );
}

#[test]
fn anc_5_4_a_stack_moves_as_one_at_its_slowest() {
    // Phalanx MA 3 + phalanx MA 1 + a leader MA 6: the group has 1 MP and moves as a phalanx.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("p1", "blue", "phalanx", "0404", 3.0, Some(0)),
            u("p2", "blue", "phalanx", "0404", 1.0, Some(0)),
            u("l", "blue", "leader", "0404", 6.0, None),
        ],
    );
    let expect: BTreeMap<(String, String), u32> = [
        ("0404", "1", 1),
        ("0404", "5", 1),
        ("0503", "0", 1),
        ("0504", "0", 1),
    ]
    .iter()
    .map(|(h, f, c)| ((h.to_string(), f.to_string()), *c))
    .collect();
    assert_eq!(f.states(&["p1", "p2", "l"]), expect);
}

fn st(list: &[(&str, u8, u32)]) -> BTreeMap<(String, String), u32> {
    list.iter()
        .map(|(h, f, c)| ((h.to_string(), f.to_string()), *c))
        .collect()
}

#[test]
fn anc_6_1_phalanx_faces_a_vertex_others_front_all_around() {
    // Enemy phalanx at 0404 facing vertex 2 (between edges 1 and 2): front 0405 and 0304.
    // A cavalry entering 0405 stops (ANC-7.3); going round by the flank 0504, 0503 does not.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("e", "red", "phalanx", "0404", 3.0, Some(2)),
            u("c", "blue", "cavalry", "0406", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["c"], &["0505", "0504", "0503"], Facing::One(0)),
        Ok(3)
    );
    assert_eq!(
        f.check(&["c"], &["0405", "0305"], Facing::One(0)),
        Err("ANC-7.3: entering the enemy front at 0405 ended the move (ANC-7.3)".into())
    );
    // An enemy cavalry fronts all six neighbours: the flank route now stops at 0504.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("e", "red", "cavalry", "0404", 3.0, Some(2)),
            u("c", "blue", "cavalry", "0406", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["c"], &["0505", "0504", "0503"], Facing::One(0)),
        Err("ANC-7.3: entering the enemy front at 0504 ended the move (ANC-7.3)".into())
    );
}

#[test]
fn anc_6_2_phalanx_turns_for_one_mp_out_of_contact() {
    // Phalanx at 0404 facing vertex 0 (front 0503, 0504), 3 MP, no enemy.
    let f = fx(
        grid(7, 7),
        anc(),
        &[u("p", "blue", "phalanx", "0404", 3.0, Some(0))],
    );
    assert_eq!(
        f.states(&["p"]),
        st(&[
            ("0303", 4, 3),
            ("0304", 2, 3),
            ("0402", 5, 3),
            ("0403", 0, 3),
            ("0403", 4, 3),
            ("0403", 5, 2),
            ("0404", 1, 1),
            ("0404", 2, 2),
            ("0404", 3, 3),
            ("0404", 4, 2),
            ("0404", 5, 1),
            ("0405", 0, 3),
            ("0405", 1, 2),
            ("0405", 2, 3),
            ("0406", 1, 3),
            ("0502", 5, 3),
            ("0503", 0, 1),
            ("0503", 1, 2),
            ("0503", 2, 3),
            ("0503", 4, 3),
            ("0503", 5, 2),
            ("0504", 0, 1),
            ("0504", 1, 2),
            ("0504", 2, 3),
            ("0504", 4, 3),
            ("0504", 5, 2),
            ("0505", 1, 3),
            ("0603", 0, 2),
            ("0603", 1, 3),
            ("0603", 5, 3),
            ("0604", 0, 2),
            ("0604", 1, 3),
            ("0604", 5, 3),
            ("0605", 0, 2),
            ("0605", 1, 3),
            ("0605", 5, 3),
            ("0702", 0, 3),
            ("0703", 0, 3),
            ("0704", 0, 3),
            ("0705", 0, 3),
        ])
    );
    assert_eq!(f.check(&["p"], &["0405"], Facing::One(1)), Ok(2)); // turn, then step
                                                                   // Turn to 1, step, turn back to 0: 3 MP. Facing 3 there would need 4.
    assert_eq!(f.check(&["p"], &["0405"], Facing::One(0)), Ok(3));
    assert_eq!(
        f.check(&["p"], &["0405"], Facing::One(3)),
        Err("facing: the phalanx reaches 0405 facing 0, 1 or 2 only, not 3 (each 60° turn costs 1 MP, ANC-6.2)".into())
    );
}

#[test]
fn anc_6_3_phalanx_in_contact_turns_only_with_all_its_mp() {
    // Same phalanx, an enemy cavalry at 0403 (in contact; its front covers 0404 and 0503).
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("p", "blue", "phalanx", "0404", 3.0, Some(0)),
            u("r", "red", "cavalry", "0403", 3.0, Some(0)),
        ],
    );
    let without = st(&[
        ("0503", 0, 1),
        ("0503", 5, 3),
        ("0504", 0, 1),
        ("0504", 1, 2),
        ("0504", 2, 3),
        ("0504", 4, 3),
        ("0504", 5, 2),
        ("0505", 1, 3),
        ("0604", 0, 2),
        ("0604", 1, 3),
        ("0604", 5, 3),
        ("0605", 0, 2),
        ("0605", 1, 3),
        ("0605", 5, 3),
        ("0703", 0, 3),
        ("0704", 0, 3),
        ("0705", 0, 3),
    ]);
    assert_eq!(f.states(&["p"]), without);
    assert_eq!(f.check(&["p"], &[], Facing::One(1)), Err("ANC-6.3: in contact at 0404: a phalanx turns only by spending its whole movement after a morale test (ANC-6.3)".into()));
    // With the morale test passed (TA-R15): one 60° turn in place, costing all 3 MP.
    let g = f.group(&["p"]);
    let with = reach_facing(
        &f.map,
        &f.rules,
        &f.board,
        &g,
        3,
        FacingOptions { contact_turn: true },
    )
    .unwrap();
    let with: BTreeMap<(String, String), u32> = with
        .iter()
        .map(|r| ((f.map.label(r.hex), r.facing.key()), r.cost))
        .collect();
    let mut expect = without.clone();
    expect.extend(st(&[("0404", 1, 3), ("0404", 5, 3)]));
    assert_eq!(with, expect);
}

#[test]
fn anc_6_4_phalanx_zoc_is_its_two_front_hexes() {
    // Enemy phalanx at 0404 facing vertex 0: front 0503, 0504. A cavalry entering its flank
    // hex 0405 goes on; entering 0504 stops.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("e", "red", "phalanx", "0404", 3.0, Some(0)),
            u("c", "blue", "cavalry", "0406", 4.0, Some(0)),
        ],
    );
    assert_eq!(f.check(&["c"], &["0405", "0305"], Facing::One(0)), Ok(2));
    assert_eq!(
        f.check(&["c"], &["0505", "0504", "0604"], Facing::One(0)),
        Err("ANC-7.3: entering the enemy front at 0504 ended the move (ANC-7.3)".into())
    );
    // A disordered phalanx has no front that stops anyone.
    let mut e = u("e", "red", "phalanx", "0404", 3.0, Some(0));
    e.status.insert("disordered".into());
    let f = fx(
        grid(7, 7),
        anc(),
        &[e, u("c", "blue", "cavalry", "0406", 4.0, Some(0))],
    );
    assert_eq!(
        f.check(&["c"], &["0505", "0504", "0604"], Facing::One(0)),
        Ok(3)
    );
}

#[test]
fn anc_7_1_move_up_to_mp_never_through_friends() {
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("c", "blue", "cavalry", "0201", 4.0, Some(0)),
            u("f", "blue", "cavalry", "0401", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[("0101", 1), ("0201", 0), ("0301", 1)])
    );
    let f = fx(
        grid(9, 1),
        anc(),
        &[u("c", "blue", "cavalry", "0201", 4.0, Some(0))],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[
            ("0101", 1),
            ("0201", 0),
            ("0301", 1),
            ("0401", 2),
            ("0501", 3),
            ("0601", 4)
        ])
    );
    assert_eq!(
        f.check(
            &["c"],
            &["0301", "0401", "0501", "0601", "0701"],
            Facing::One(0)
        ),
        Err("ANC-7.1: not enough MP (ANC-7.1: 4 MP)".into())
    );
    // Leaders ignore stacking (TA-R17): they cross and end in friendly hexes.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("l", "blue", "leader", "0201", 3.0, None),
            u("f", "blue", "cavalry", "0301", 4.0, Some(0)),
        ],
    );
    let s: Vec<(String, u32)> = f
        .states(&["l"])
        .into_iter()
        .map(|(k, c)| (k.0, c))
        .collect();
    assert_eq!(
        s,
        [
            ("0101".into(), 1),
            ("0301".into(), 1),
            ("0401".into(), 2),
            ("0501".into(), 3)
        ]
    );
    // No unit enters an enemy hex (TA-R12).
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("c", "blue", "cavalry", "0201", 4.0, Some(0)),
            u("r", "red", "leader", "0301", 4.0, None),
        ],
    );
    assert_eq!(
        f.check(&["c"], &["0301"], Facing::One(0)),
        Err("TA-R12: 0301 holds an enemy unit (TA-R12)".into())
    );
}

#[test]
fn anc_7_2_phalanx_moves_only_into_its_front_hexes() {
    let f = fx(
        grid(7, 7),
        anc(),
        &[u("p", "blue", "phalanx", "0404", 3.0, Some(0))],
    );
    assert_eq!(f.check(&["p"], &["0503"], Facing::One(0)), Ok(1));
    assert_eq!(f.check(&["p"], &["0504"], Facing::One(0)), Ok(1));
    // 0403 (edge 4) is outside the front: only after turning to vertex 5 (front 4, 5), then
    // back to 0: 3 MP.
    assert_eq!(f.check(&["p"], &["0403"], Facing::One(0)), Ok(3));
    let f1 = fx(
        grid(7, 7),
        anc(),
        &[u("p", "blue", "phalanx", "0404", 1.0, Some(0))],
    );
    assert_eq!(
        f1.check(&["p"], &["0403"], Facing::One(5)),
        Err(
            "ANC-7.2: a phalanx facing vertex 0 moves only into its 2 front hexes (ANC-7.2)".into()
        )
    );
}

#[test]
fn anc_7_3_entering_an_enemy_front_stops_starting_in_one_does_not() {
    // Line: enemy light at 0101 (front all round). A cavalry starting in its front (0201)
    // moves away freely; coming back into 0201 is entering it.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("r", "red", "light", "0101", 4.0, Some(0)),
            u("c", "blue", "cavalry", "0201", 3.0, Some(0)),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[("0201", 0), ("0301", 1), ("0401", 2), ("0501", 3)])
    );
    assert_eq!(f.check(&["c"], &["0301", "0201"], Facing::One(0)), Ok(2));
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("r", "red", "light", "0101", 4.0, Some(0)),
            u("c", "blue", "cavalry", "0501", 4.0, Some(0)),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[
            ("0201", 3),
            ("0301", 2),
            ("0401", 1),
            ("0501", 0),
            ("0601", 1),
            ("0701", 2),
            ("0801", 3),
            ("0901", 4)
        ])
    );
}

#[test]
fn reach_paths_are_the_hexes_entered_and_check_agrees() {
    // Every listed state's path is an order the check accepts at the listed cost (the phalanx
    // of anc_6_2: paths after turns in the start hex do not repeat the start).
    let f = fx(
        grid(7, 7),
        anc(),
        &[u("p", "blue", "phalanx", "0404", 3.0, Some(0))],
    );
    let g = f.group(&["p"]);
    let reach = reach_facing(&f.map, &f.rules, &f.board, &g, 3, FacingOptions::default()).unwrap();
    for (i, r) in reach.iter().enumerate() {
        let path = reach.path(i);
        let got = check_move(
            &f.map,
            &f.rules,
            &f.board,
            &g,
            3,
            &path,
            r.facing,
            FacingOptions::default(),
        )
        .unwrap();
        assert_eq!(
            got,
            Ok(r.cost),
            "{} {:?} via {:?}",
            f.map.label(r.hex),
            r.facing,
            path
        );
    }
    let f = tac7("cavalry", "infantry", tac());
    let g = f.group(&["m"]);
    let reach = reach_facing(&f.map, &f.rules, &f.board, &g, 6, FacingOptions::default()).unwrap();
    for (i, r) in reach.iter().enumerate() {
        let got = check_move(
            &f.map,
            &f.rules,
            &f.board,
            &g,
            6,
            &reach.path(i),
            r.facing,
            FacingOptions::default(),
        )
        .unwrap();
        assert_eq!(got, Ok(r.cost), "{} {:?}", f.map.label(r.hex), r.facing);
    }
}

/// A one-row map 0101..0601: marsh at 0301, a wall on the hexside 0501/0601.
fn walled_line() -> HexMap {
    parse_map(&SourceText::new(
        "w.toml",
        "name = \"w\"\ncolumns = 6\nrows = 1\ngrid = [\". . m . . .\"]\n[legend]\n\".\" = \"clear\"\nm = \"marsh\"\n[hexsides]\nwall = [\"0501/0601\"]\n",
    ))
    .unwrap()
}

fn barred(mut decl: Value) -> Value {
    decl["impassable"] = json!(["marsh"]);
    decl["impassable_hexsides"] = json!(["wall"]);
    decl["clauses"]["terrain"] = json!("MAP");
    decl
}

#[test]
fn ta_r12_every_step_costs_one_barred_terrain_and_hexsides_are_never_entered() {
    // TA-R4 / TA-R12: a step costs 1 whatever the terrain (marsh too), so without bars the
    // infantry (MA 4, no enemy: not tactical) reaches the whole line at its hex count.
    let units = [u("i", "blue", "infantry", "0401", 4.0, Some(0))];
    let open = fx(walled_line(), tac(), &units);
    assert_eq!(
        open.hexes(&["i"]),
        hc(&[
            ("0101", 3),
            ("0201", 2),
            ("0301", 1),
            ("0401", 0),
            ("0501", 1),
            ("0601", 2)
        ])
    );
    // Declared bars: marsh is never entered, the wall never crossed.
    let f = fx(walled_line(), barred(tac()), &units);
    assert_eq!(f.hexes(&["i"]), hc(&[("0401", 0), ("0501", 1)]));
    assert_eq!(
        f.check(&["i"], &["0301"], Facing::One(0)),
        Err("MAP: 0301 cannot be entered".into())
    );
    assert_eq!(
        f.check(&["i"], &["0501", "0601"], Facing::One(0)),
        Err("MAP: the hexside 0501/0601 cannot be crossed".into())
    );
    // The same bars in the ANC search.
    let f = fx(
        walled_line(),
        barred(anc()),
        &[u("c", "blue", "cavalry", "0401", 4.0, Some(0))],
    );
    assert_eq!(f.hexes(&["c"]), hc(&[("0401", 0), ("0501", 1)]));
    assert_eq!(
        f.check(&["c"], &["0501", "0601"], Facing::One(3)),
        Err("MAP: the hexside 0501/0601 cannot be crossed".into())
    );
    // A bar naming a feature the map lacks is a declaration error.
    let mut bad = tac();
    bad["impassable_hexsides"] = json!(["ditch"]);
    assert_eq!(
        FacingRules::compile(&bad, &walled_line())
            .unwrap_err()
            .to_string(),
        "facing declaration: impassable_hexsides: unknown hexside feature 'ditch' (this map has: wall)"
    );
}

#[test]
fn ta_r12_only_units_in_good_order_move() {
    // TA-R12 (ANC-7.1 "les unités en ordre"): a counter out of good order (status
    // "disordered") neither moves nor turns; neither does a group holding one. No enemy near.
    let mut dp = u("dp", "blue", "phalanx", "0404", 3.0, Some(0));
    dp.status.insert("disordered".into());
    let mut dl = u("dl", "blue", "light", "0202", 4.0, Some(0));
    dl.status.insert("disordered".into());
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            dp,
            dl,
            u("ok", "blue", "light", "0202", 4.0, Some(0)),
            u("p", "blue", "phalanx", "0606", 3.0, Some(0)),
        ],
    );
    assert_eq!(f.states(&["dp"]), BTreeMap::new());
    assert_eq!(f.states(&["dl"]), BTreeMap::new());
    assert_eq!(f.states(&["ok", "dl"]), BTreeMap::new());
    assert_eq!(
        f.check(&["dp"], &["0504"], Facing::One(0)),
        Err("immobile: only units in good order move (TA-R12)".into())
    );
    assert_eq!(
        f.check(&["dp"], &[], Facing::One(1)),
        Err("immobile: only units in good order move (TA-R12)".into())
    );
    // Counters in good order move (0606 facing vertex 0: front 0705, 0706).
    assert_eq!(f.check(&["p"], &["0706"], Facing::One(0)), Ok(1));
    assert!(f.states(&["ok"]).len() > 6);
}

#[test]
fn one_scratch_serves_many_queries_with_the_one_off_answers() {
    // The generation-stamped scratch is reused across maps, models, groups and order checks:
    // every answer (states, costs, paths) equals a fresh one-off search's.
    let fixtures = [
        tac7("cavalry", "infantry", tac()),
        fx(
            grid(7, 7),
            anc(),
            &[
                u("p", "blue", "phalanx", "0404", 3.0, Some(0)),
                u("m", "blue", "light", "0202", 4.0, Some(0)),
                u("e", "red", "phalanx", "0406", 3.0, Some(3)),
            ],
        ),
        fx(
            walled_line(),
            barred(anc()),
            &[u("m", "blue", "cavalry", "0401", 4.0, Some(0))],
        ),
    ];
    let mut scratch = FacingSearch::new();
    for _round in 0..2 {
        for f in &fixtures {
            let g = f.group(&["m"]);
            let b = f.board.group_budget(&g);
            let opts = FacingOptions::default();
            let reused = scratch
                .reach(&f.map, &f.rules, &f.board, &g, b, opts)
                .unwrap();
            let fresh = reach_facing(&f.map, &f.rules, &f.board, &g, b, opts).unwrap();
            assert!(!fresh.is_empty());
            assert_eq!(reused.states(), fresh.states());
            for i in 0..fresh.len() {
                let path = fresh.path(i);
                assert_eq!(reused.path(i), path);
                let r = fresh.states()[i];
                let checked = scratch
                    .check(&f.map, &f.rules, &f.board, &g, b, &path, r.facing, opts)
                    .unwrap();
                assert_eq!(checked, Ok(r.cost));
            }
        }
    }
}

#[test]
fn rules_or_board_of_another_map_are_an_error() {
    let f = tac7("cavalry", "infantry", tac());
    let g = f.group(&["m"]);
    let other = grid(3, 3);
    let err =
        reach_facing(&other, &f.rules, &f.board, &g, 6, FacingOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the facing rules or board were built for another map (this one has 9 hexes)"
    );
    let err = check_move(
        &other,
        &f.rules,
        &f.board,
        &g,
        6,
        &[],
        Facing::One(0),
        FacingOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the facing rules or board were built for another map (this one has 9 hexes)"
    );
}

// ---------------------------------------------------------------- readings TA-R1..R20
//
// One test (or more) per reading, each on the smallest position that shows it. TA-R2 is in
// src/path/arc.rs, TA-R12 above.

impl Fx {
    /// The labels of a unit's front hexes, in edge-direction order.
    fn front(&self, id: &str) -> Vec<String> {
        let i = self.board.unit_index(id).unwrap();
        self.board
            .front_hexes(&self.map, i)
            .into_iter()
            .map(|h| self.map.label(h))
            .collect()
    }
}

/// `(hex, facing) -> cost` with every one of the six facings at each hex's cost.
fn any_facing(list: &[(&str, u32)]) -> BTreeMap<(String, String), u32> {
    list.iter()
        .flat_map(|(h, c)| (0..6).map(move |f| ((h.to_string(), f.to_string()), *c)))
        .collect()
}

#[test]
fn ta_r1_facing_k_is_the_neighbour_k_of_hexx_and_k_plus_1_is_clockwise() {
    use hexx::{EdgeDirection, Hex, VertexDirection};
    // The hexx 0.25 conventions TA-R1 names: edge k leads to NEIGHBORS_COORDS[k], k+1 is the
    // clockwise edge, vertex k lies between edges k-1 (ccw) and k (cw).
    assert_eq!(
        Hex::NEIGHBORS_COORDS,
        [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)].map(|(q, r)| Hex { x: q, y: r })
    );
    for k in 0..6usize {
        let e = EdgeDirection::ALL_DIRECTIONS[k];
        assert_eq!(e.index() as usize, k);
        assert_eq!(Hex::ZERO.neighbor(e), Hex::NEIGHBORS_COORDS[k]);
        assert_eq!(e.clockwise(), EdgeDirection::ALL_DIRECTIONS[(k + 1) % 6]);
        let v = VertexDirection::ALL_DIRECTIONS[k];
        assert_eq!(v.index() as usize, k);
        assert_eq!(v.edge_ccw(), EdgeDirection::ALL_DIRECTIONS[(k + 5) % 6]);
        assert_eq!(v.edge_cw(), e);
    }
    // Through the engine: a kind whose arc is the faced edge alone ([0]) fronts exactly the
    // neighbour its stored facing index names. Six such units at 0404 (an even column) and six
    // at 0504 (odd), facings 0..5.
    let mut decl = tac();
    decl["kinds"]["pointer"] = json!({ "front": [0] });
    let mut units = Vec::new();
    for at in ["0404", "0504"] {
        for k in 0..6u8 {
            units.push(u(&format!("{at}-{k}"), "blue", "pointer", at, 1.0, Some(k)));
        }
    }
    let f = fx(grid(7, 7), decl, &units);
    let fronts = |at: &str| -> Vec<String> {
        (0..6)
            .map(|k| f.front(&format!("{at}-{k}")).concat())
            .collect()
    };
    assert_eq!(
        fronts("0404"),
        ["0504", "0405", "0304", "0303", "0403", "0503"]
    );
    assert_eq!(
        fronts("0504"),
        ["0605", "0505", "0405", "0404", "0503", "0604"]
    );
    // Facing k leads to the hexx neighbour k: front hex minus the unit's hex = NEIGHBORS_COORDS[k].
    for at in ["0404", "0504"] {
        let origin = f.map.hex(f.map.parse_label(at).unwrap());
        for (k, label) in fronts(at).iter().enumerate() {
            let h = f.map.hex(f.map.parse_label(label).unwrap());
            assert_eq!(h - origin, Hex::NEIGHBORS_COORDS[k], "{at} facing {k}");
        }
    }
    // Clockwise as printed: centres at x = 1.5 c, y = sqrt(3) r (+ sqrt(3)/2 in odd printed
    // columns, shifted down), y growing down the sheet. Measured from east towards south (that
    // is, clockwise on the sheet), facings 0..5 point at 30, 90, 150, 210, 270, 330 degrees:
    // each k+1 is 60 degrees clockwise of k.
    let centre = |label: &str| {
        let (c, r): (f64, f64) = (label[..2].parse().unwrap(), label[2..].parse().unwrap());
        let shift = if c as u32 % 2 == 1 { 0.5 } else { 0.0 };
        (1.5 * c, 3f64.sqrt() * (r + shift))
    };
    for at in ["0404", "0504"] {
        let (x0, y0) = centre(at);
        let angles: Vec<i64> = fronts(at)
            .iter()
            .map(|l| {
                let (x, y) = centre(l);
                ((y - y0).atan2(x - x0).to_degrees().round() as i64).rem_euclid(360)
            })
            .collect();
        assert_eq!(angles, [30, 90, 150, 210, 270, 330], "{at}");
    }
    // Vertex facings: a phalanx facing vertex v fronts the two neighbours through
    // VertexDirection(v).edge_ccw() = v-1 and edge_cw() = v, i.e. ring[v-1] and ring[v].
    let ring = fronts("0404");
    let phalanxes: Vec<Unit> = (0..6u8)
        .map(|v| u(&format!("p{v}"), "blue", "phalanx", "0404", 1.0, Some(v)))
        .collect();
    let f = fx(grid(7, 7), anc(), &phalanxes);
    let at = f.map.parse_label("0404").unwrap();
    for (v, dir) in VertexDirection::ALL_DIRECTIONS.iter().enumerate() {
        let [ccw, cw] = dir
            .edge_directions()
            .map(|e| f.map.label(f.map.neighbor(at, e).unwrap()));
        assert_eq!([&ccw, &cw], [&ring[(v + 5) % 6], &ring[v]], "vertex {v}");
        let mut front = f.front(&format!("p{v}"));
        front.sort();
        let mut expected = vec![ccw, cw];
        expected.sort();
        assert_eq!(front, expected, "vertex {v}");
    }
}

#[test]
fn ta_r3_isolated_enemy_leaders_do_not_count_leaders_with_troops_next_to_them_do() {
    // Line 0101..0901, blue infantry (TAC-2: 1 hex) MA 4 at 0101, red leader at 0601. If the
    // leader counts, 0401..0801 are within 2 of it and a move touching them is at most 1 hex:
    // the infantry stops at 0301. If it does not, the MA applies up to 0501 (0601 is its hex).
    let reach = |others: &[Unit]| {
        let mut units = vec![
            u("b", "blue", "infantry", "0101", 4.0, Some(0)),
            u("l", "red", "leader", "0601", 4.0, None),
        ];
        units.extend_from_slice(others);
        fx(grid(9, 1), tac(), &units).hexes(&["b"])
    };
    let full = hc(&[
        ("0101", 0),
        ("0201", 1),
        ("0301", 2),
        ("0401", 3),
        ("0501", 4),
    ]);
    let counted = hc(&[("0101", 0), ("0201", 1), ("0301", 2)]);
    // Alone: isolated.
    assert_eq!(reach(&[]), full);
    // With another leader next to it: still no non-leader, still isolated.
    assert_eq!(reach(&[u("l2", "red", "leader", "0701", 4.0, None)]), full);
    // With a red infantry 2 hexes away (0801, near 0601..0901): not "in or next to" its hex.
    assert_eq!(
        reach(&[u("r", "red", "infantry", "0801", 4.0, Some(2))]),
        full
    );
    // With a non-leader of the other side next to it: a leader is isolated from its own side.
    assert_eq!(
        reach(&[u("x", "blue", "infantry", "0701", 4.0, Some(2))]),
        full
    );
    // With a red infantry next to it (0701, whose own near hexes start at 0501): it counts.
    assert_eq!(
        reach(&[u("r", "red", "infantry", "0701", 4.0, Some(2))]),
        counted
    );
}

#[test]
fn ta_r3_a_move_is_tactical_if_any_hex_it_occupies_start_included_is_near() {
    // Line 0101..0901, red infantry at 0101: near hexes (distance <= 2) are 0101..0301.
    let from = |at: &str| {
        fx(
            grid(9, 1),
            tac(),
            &[
                u("r", "red", "infantry", "0101", 4.0, Some(0)),
                u("b", "blue", "infantry", at, 4.0, Some(2)),
            ],
        )
    };
    // Starting at 0301 (distance 2): every move is tactical, even one going away: 1 hex.
    assert_eq!(
        from("0301").hexes(&["b"]),
        hc(&[("0201", 1), ("0301", 0), ("0401", 1)])
    );
    // Starting at 0401 (distance 3): going away uses the MA; 0301 is near, so reaching it is a
    // tactical move of 1 hex, and 0201 (2 hexes) is out.
    assert_eq!(
        from("0401").hexes(&["b"]),
        hc(&[
            ("0301", 1),
            ("0401", 0),
            ("0501", 1),
            ("0601", 2),
            ("0701", 3),
            ("0801", 4)
        ])
    );
    // A move that only passes through a near hex is tactical too: from 0401, out to 0301 and
    // back to 0501 ends 3 hexes from the enemy but occupied 0301.
    let f = from("0401");
    assert_eq!(f.check(&["b"], &["0501"], Facing::One(0)), Ok(1));
    assert_eq!(
        f.check(&["b"], &["0301", "0401", "0501"], Facing::One(0)),
        Err("TAC-2: a tactical move is at most 1 hex (TAC-2)".into())
    );
}

#[test]
fn ta_r4_non_tactical_moves_count_the_ma_tactical_ones_the_tac2_distance_from_the_start() {
    // No enemy: infantry MA 3 moves 3 hexes (TAC-2 would allow only 1).
    let f = fx(
        grid(9, 1),
        tac(),
        &[u("b", "blue", "infantry", "0101", 3.0, Some(0))],
    );
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
    assert_eq!(
        f.check(&["b"], &["0201", "0301", "0401", "0501"], Facing::One(0)),
        Err("budget: the unit moves at most 3 hexes (TA-R4)".into())
    );
    // Cavalry (TAC-2: 2) MA 6 at 0101, red infantry at 0901 (near: 0701..0901). 0701 is the
    // first near hex, 6 hexes from the start: the tactical move counts all 6, not the 1 hex
    // inside the near zone, so it is refused; 0601 (5 hexes, never near) is within the MA.
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("c", "blue", "cavalry", "0101", 6.0, Some(0)),
            u("r", "red", "infantry", "0901", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[
            ("0101", 0),
            ("0201", 1),
            ("0301", 2),
            ("0401", 3),
            ("0501", 4),
            ("0601", 5)
        ])
    );
    let six = ["0201", "0301", "0401", "0501", "0601", "0701"];
    assert_eq!(
        f.check(&["c"], &six, Facing::One(0)),
        Err("TAC-2: a tactical move is at most 2 hexes (TAC-2)".into())
    );
    // The cap is the whole move's: a mounted skirmisher (TAC-2: 3) with MA 1 at 0101, red
    // infantry at 0601 (near: 0401..0601). A move that turns tactical at its third hex is a
    // tactical move of 3 hexes (legal); one that stays out of the near zone is held to MA 1, so
    // 0201 (1 hex) is an end but 0301 (2 hexes, never near) is not, though the move through it
    // to 0401 is.
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("m", "blue", "mounted_skirmisher", "0101", 1.0, Some(0)),
            u("r", "red", "infantry", "0601", 4.0, Some(3)),
        ],
    );
    assert_eq!(
        f.hexes(&["m"]),
        hc(&[("0101", 0), ("0201", 1), ("0401", 3)])
    );
    assert_eq!(
        f.check(&["m"], &["0201", "0301", "0401"], Facing::One(0)),
        Ok(3)
    );
    assert_eq!(
        f.check(&["m"], &["0201", "0301"], Facing::One(0)),
        Err("budget: the unit moves at most 1 hex (TA-R4)".into())
    );
    assert_eq!(
        f.check(&["m"], &["0201", "0301", "0401", "0501"], Facing::One(0)),
        Err("TAC-2: a tactical move is at most 3 hexes (TAC-2)".into())
    );
    // Unlimbered artillery with MA 6 and no enemy near (so not a tactical move): it neither
    // moves nor re-faces; its reach is empty, the start re-facings included.
    let f = fx(
        grid(9, 1),
        tac(),
        &[u("a", "blue", "artillery_unlimbered", "0401", 6.0, Some(0))],
    );
    assert_eq!(f.states(&["a"]), BTreeMap::new());
    let immobile = Err("TA-R4: unlimbered artillery neither moves nor re-faces (TA-R4)".into());
    assert_eq!(f.check(&["a"], &["0501"], Facing::One(0)), immobile);
    assert_eq!(f.check(&["a"], &[], Facing::One(1)), immobile);
}

#[test]
fn ta_r5_facing_is_free_refacing_in_place_is_a_move_the_start_state_is_not() {
    // Line 0101..0301, infantry MA 2 at 0201 facing 0, no enemy. Every hex reached offers the
    // six facings at its hex count; the start hex the five others at 0.
    let f = fx(
        grid(3, 1),
        tac(),
        &[u("b", "blue", "infantry", "0201", 2.0, Some(0))],
    );
    let mut expect = any_facing(&[("0101", 1), ("0201", 0), ("0301", 1)]);
    expect.remove(&("0201".into(), "0".into()));
    assert_eq!(f.states(&["b"]), expect);
    // The same in a tactical move (red infantry at 0401: all of 0101..0301 is near; TAC-2: 1).
    let tactical = fx(
        grid(9, 1),
        tac(),
        &[
            u("b", "blue", "infantry", "0201", 2.0, Some(0)),
            u("r", "red", "infantry", "0401", 2.0, Some(0)),
        ],
    );
    assert_eq!(tactical.states(&["b"]), expect);
    // Facing costs nothing: a step ending about-face costs the step.
    assert_eq!(f.check(&["b"], &["0301"], Facing::One(3)), Ok(1));
    // Re-facing in the start hex is a 0-hex move; the start facing there is no move.
    assert_eq!(f.check(&["b"], &[], Facing::One(3)), Ok(0));
    let not_a_move = Err("not_a_move: not a move: same hex, same facing (TA-R5)".to_string());
    assert_eq!(f.check(&["b"], &[], Facing::One(0)), not_a_move);
    // Nor is a round trip that ends in the start hex with the start facing; ending it with
    // another facing is a move (of its 2 hexes).
    assert_eq!(
        f.check(&["b"], &["0301", "0201"], Facing::One(0)),
        not_a_move
    );
    assert_eq!(f.check(&["b"], &["0301", "0201"], Facing::One(3)), Ok(2));
}

/// A unit with one attribute set (`facing2`, `skirmisher`).
fn with_attr(mut unit: Unit, key: &str, value: Value) -> Unit {
    unit.attrs.insert(key.into(), value);
    unit
}

/// `(hex, "none") -> cost`: the states of a leader (no facing, TA-R2).
fn no_facing(list: &[(&str, u32)]) -> BTreeMap<(String, String), u32> {
    list.iter()
        .map(|(h, c)| ((h.to_string(), "none".to_string()), *c))
        .collect()
}

#[test]
fn ta_r6_a_two_base_unit_has_one_hex_two_facings_and_the_union_of_their_arcs() {
    let colonial = |facing2: u8, ma: f64| {
        let c = u("c", "blue", "colonial", "0404", ma, Some(0));
        fx(
            grid(7, 7),
            tac(),
            &[with_attr(c, "facing2", json!(facing2))],
        )
    };
    // Base 1 faces edge 0 (front edges 5, 0, 1), base 2 edge 3 (edges 2, 3, 4): the unit's
    // front is all six neighbours. With base 2 facing edge 1 (edges 0, 1, 2): edges 0, 1, 2, 5.
    assert_eq!(
        colonial(3, 1.0).front("c"),
        ["0504", "0405", "0304", "0303", "0403", "0503"]
    );
    assert_eq!(
        colonial(1, 1.0).front("c"),
        ["0504", "0405", "0304", "0503"]
    );
    // One hex, a facing per base: with MA 1 and no enemy, each neighbour lists the 36 pairs
    // at 1 and the start hex the 35 others than (0, 3) at 0.
    let mut expect = BTreeMap::new();
    for (hex, cost) in [
        ("0404", 0),
        ("0504", 1),
        ("0405", 1),
        ("0304", 1),
        ("0303", 1),
        ("0403", 1),
        ("0503", 1),
    ] {
        for a in 0..6 {
            for b in 0..6 {
                expect.insert((hex.to_string(), format!("{a},{b}")), cost);
            }
        }
    }
    expect.remove(&("0404".to_string(), "0,3".to_string()));
    assert_eq!(colonial(3, 1.0).states(&["c"]), expect);
    // Which bases moved is recorded by the move command: rules/tactical/tests (TA-R6).
}

#[test]
fn ta_r7_friendly_non_leaders_are_never_ended_in_and_crossed_only_with_a_skirmisher() {
    // Line 0101..0901, a blue mover MA 3 at 0101 and friends at 0201.
    let line = |mover: Unit, friends: &[Unit]| {
        let mut units = vec![mover];
        units.extend_from_slice(friends);
        fx(grid(9, 1), tac(), &units)
    };
    let infantry = |id: &str| u(id, "blue", "infantry", "0101", 3.0, Some(0));
    let friend = |id: &str, kind: &str| u(id, "blue", kind, "0201", 3.0, Some(0));
    let skirmisher = |unit: Unit| with_attr(unit, "skirmisher", json!(true));
    let blocked = hc(&[("0101", 0)]);
    let crossed = hc(&[("0101", 0), ("0301", 2), ("0401", 3)]);
    // A friendly leader is no occupant: its hex is crossed and ended in.
    assert_eq!(
        line(infantry("m"), &[friend("l", "leader")]).hexes(&["m"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
    // A friendly infantry: neither side a skirmisher, so 0201 is neither crossed nor ended in.
    let f = line(infantry("m"), &[friend("f", "infantry")]);
    assert_eq!(f.hexes(&["m"]), blocked);
    // The skirmisher flag makes either infantry a skirmisher: 0201 is crossed, never ended in.
    let f = line(skirmisher(infantry("m")), &[friend("f", "infantry")]);
    assert_eq!(f.hexes(&["m"]), crossed);
    assert_eq!(
        f.check(&["m"], &["0201"], Facing::One(0)),
        Err("TAC-5: 0201 holds a friendly unit; only leaders may end there (TAC-5)".into())
    );
    let f = line(infantry("m"), &[skirmisher(friend("f", "infantry"))]);
    assert_eq!(f.hexes(&["m"]), crossed);
    // Every friendly non-leader there must be a skirmisher: two skirmisher kinds let the
    // infantry cross; a skirmisher with an infantry do not.
    let f = line(
        infantry("m"),
        &[
            friend("s1", "foot_skirmisher"),
            friend("s2", "mounted_skirmisher"),
        ],
    );
    assert_eq!(f.hexes(&["m"]), crossed);
    let f = line(
        infantry("m"),
        &[friend("s1", "foot_skirmisher"), friend("f", "infantry")],
    );
    assert_eq!(f.hexes(&["m"]), blocked);
    assert_eq!(
        f.check(&["m"], &["0201", "0301"], Facing::One(0)),
        Err("TAC-5: 0201 holds a friendly unit: only skirmishers pass through, and no non-leader ends there (TAC-5)".into())
    );
    // A leader enters, crosses and ends in hexes of friendly infantry (0201, 0301).
    let f = line(
        u("m", "blue", "leader", "0101", 3.0, None),
        &[
            friend("f", "infantry"),
            u("g", "blue", "infantry", "0301", 3.0, Some(0)),
        ],
    );
    assert_eq!(
        f.states(&["m"]),
        no_facing(&[("0201", 1), ("0301", 2), ("0401", 3)])
    );
}

#[test]
fn ta_r8_any_unit_may_enter_an_enemy_hex_the_step_counts_and_the_move_ends_there() {
    // Line, blue infantry MA 4 at 0201 and an isolated red leader at 0501: the leader does
    // not make the move tactical (TA-R3), but its hex is enemy-occupied: entered at its step
    // count (3), nothing beyond it.
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("b", "blue", "infantry", "0201", 4.0, Some(0)),
            u("l", "red", "leader", "0501", 4.0, None),
        ],
    );
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[
            ("0101", 1),
            ("0201", 0),
            ("0301", 1),
            ("0401", 2),
            ("0501", 3)
        ])
    );
    assert_eq!(
        f.check(&["b"], &["0301", "0401", "0501"], Facing::One(2)),
        Ok(3)
    );
    assert_eq!(
        f.check(&["b"], &["0301", "0401", "0501", "0601"], Facing::One(0)),
        Err("TAC-6: entering the enemy hex 0501 ended the move in a melee (TAC-6)".into())
    );
    // Any unit: a blue leader (TAC-2: 2) next to a red infantry enters its hex and stops.
    let f = fx(
        grid(9, 1),
        tac(),
        &[
            u("l", "blue", "leader", "0401", 6.0, None),
            u("r", "red", "infantry", "0501", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.states(&["l"]),
        no_facing(&[("0201", 2), ("0301", 1), ("0501", 1)])
    );
}

#[test]
fn ta_r9_after_leaving_a_front_hex_no_other_front_hex_at_any_later_step() {
    // Red infantry at 0404 facing edge 4: FH = 0303, 0403, 0503 (see tac7).
    // A front hex entered during the move counts once left: a cavalry from 0402 (outside FH)
    // may go 0403 then not 0503; 0502 (outside FH) then 0503 is its first front hex.
    let f = fx(
        grid(7, 7),
        tac(),
        &[
            u("e", "red", "infantry", "0404", 4.0, Some(4)),
            u("m", "blue", "cavalry", "0402", 6.0, Some(1)),
        ],
    );
    assert_eq!(
        f.check(&["m"], &["0403", "0503"], Facing::One(0)),
        Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0503 (TAC-7)".into())
    );
    assert_eq!(f.check(&["m"], &["0502", "0503"], Facing::One(0)), Ok(2));
    // At any later step: from 0403 out to 0302 (no front hex), then into 0303.
    let f = tac7("cavalry", "infantry", tac());
    assert_eq!(
        f.check(&["m"], &["0302", "0303"], Facing::One(0)),
        Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0303 (TAC-7)".into())
    );
    // Entering the enemy's own hex is not entering its front (it is a melee, TA-R8).
    assert_eq!(f.check(&["m"], &["0404"], Facing::One(0)), Ok(1));
    // A leader is not a skirmisher: the reading binds it too.
    let f = tac7("leader", "infantry", tac());
    assert_eq!(
        f.check(&["m"], &["0303"], Facing::None),
        Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0303 (TAC-7)".into())
    );
}

#[test]
fn ta_r9_fronts_of_every_enemy_count_and_h_is_closed_when_in_two_fronts() {
    // FH gathers the fronts of all enemies: red e1 at 0404 facing 4 (front 0303, 0403, 0503),
    // red e2 at 0602 facing 2 (front 0603, 0502, 0501). A cavalry at 0503, in e1's front, may
    // not step into 0603, in e2's; without e1 it starts outside FH and may.
    let e1 = u("e1", "red", "infantry", "0404", 4.0, Some(4));
    let e2 = u("e2", "red", "infantry", "0602", 4.0, Some(2));
    let m = u("m", "blue", "cavalry", "0503", 6.0, Some(0));
    let f = fx(grid(7, 7), tac(), &[e1, e2.clone(), m.clone()]);
    assert_eq!(
        f.check(&["m"], &["0603"], Facing::One(0)),
        Err("TAC-7: having left the enemy front hex 0503, the unit may not enter the enemy front hex 0603 (TAC-7)".into())
    );
    let f = fx(grid(7, 7), tac(), &[e2, m]);
    assert_eq!(f.check(&["m"], &["0603"], Facing::One(0)), Ok(1));
    // Coming back to h: arcs narrowed to the faced hex (TAC-8). e1 at 0404 facing 4 fronts
    // 0403 only; so does e2 at 0402 facing 1. The cavalry at 0403 may step out to 0503 and
    // back when 0403 is one enemy's front, not when it is in two.
    let mut narrow = tac();
    narrow["kinds"]["infantry"]["front"] = json!([0]);
    let e1 = u("e1", "red", "infantry", "0404", 4.0, Some(4));
    let e2 = u("e2", "red", "infantry", "0402", 4.0, Some(1));
    let m = u("m", "blue", "cavalry", "0403", 6.0, Some(0));
    let one = fx(grid(7, 7), narrow.clone(), &[e1.clone(), m.clone()]);
    assert_eq!(one.front("e1"), ["0403"]);
    assert_eq!(one.check(&["m"], &["0503", "0403"], Facing::One(3)), Ok(2));
    let two = fx(grid(7, 7), narrow, &[e1, e2, m]);
    assert_eq!(two.front("e2"), ["0403"]);
    assert_eq!(
        two.check(&["m"], &["0503", "0403"], Facing::One(3)),
        Err("TAC-7: having left 0403, which lies in the fronts of 2 enemy units, the unit may not enter it again (TA-R9)".into())
    );
}

/// Pinned from tests/oracle_facing.rs: TA-R7 ("a non-leader never ends in a hex holding a
/// friendly non-leader") also bars the 0-hex move of TA-R5 when the start hex holds one (a
/// position TAC-5 forbids reaching, which a setup may hold); a friendly leader there does not.
#[test]
fn ta_r7_refacing_in_a_start_hex_shared_with_a_friendly_non_leader_is_not_a_move() {
    let with = |kind: &str| {
        fx(
            grid(9, 1),
            tac(),
            &[
                u("m", "blue", "infantry", "0101", 3.0, Some(0)),
                u("f", "blue", kind, "0101", 3.0, Some(0)),
            ],
        )
    };
    assert_eq!(
        with("infantry").hexes(&["m"]),
        hc(&[("0201", 1), ("0301", 2), ("0401", 3)])
    );
    assert_eq!(
        with("leader").hexes(&["m"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
}

/// TA-R9's "entering the enemy's own hex is not entering its front", read as written: a charge
/// into enemy e2's hex is not entering e2's front, but when e2 stands in the front of enemy e1,
/// it is entering "a front hex of another unit" (TAC-7: "un hexagone de front d'une autre
/// unité"), so a unit that left a front hex may not make it. Charging e1 itself is still legal.
#[test]
fn ta_r9_a_charge_into_an_enemy_standing_in_another_enemys_front_is_a_front_entry() {
    // Red e1 at 0404 facing 4 fronts 0303, 0403, 0503; red e2 stands at 0503. The blue cavalry
    // at 0403 leaves e1's front and charges e2.
    let f = fx(
        grid(7, 7),
        tac(),
        &[
            u("e1", "red", "infantry", "0404", 4.0, Some(4)),
            u("e2", "red", "infantry", "0503", 4.0, Some(0)),
            u("m", "blue", "cavalry", "0403", 6.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["m"], &["0503"], Facing::One(0)),
        Err("TAC-7: having left the enemy front hex 0403, the unit may not enter the enemy front hex 0503 (TAC-7)".into())
    );
    assert_eq!(f.hexes(&["m"]).get("0503"), None);
    // e1's own hex is in no front (e2 faces away from it): the charge on e1 stays legal.
    assert_eq!(f.check(&["m"], &["0404"], Facing::One(0)), Ok(1));
    assert_eq!(f.hexes(&["m"]).get("0404"), Some(&1));
}

/// ANC-5.4 ("Tous les pions d'une pile doivent avoir la même orientation"): a sub-group that
/// stays in its start hex beside the rest of its stack keeps the stack's facing, so it has no
/// end state there (the start state is never listed, TA-R20), and an order re-facing it in place
/// is refused; the whole stack re-faces freely (troops for 0 MP, a phalanx for 1 MP out of
/// contact). Splitting stays free: the sub-group moves away as a group of its own (TA-R13).
#[test]
fn anc_5_4_a_sub_group_staying_in_its_hex_keeps_the_stack_facing() {
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("l1", "blue", "light", "0404", 2.0, Some(0)),
            u("l2", "blue", "light", "0404", 2.0, Some(0)),
            u("p1", "blue", "phalanx", "0202", 1.0, Some(0)),
            u("p2", "blue", "phalanx", "0202", 1.0, Some(0)),
        ],
    );
    let at = |ids: &[&str], hex: &str| -> Vec<(String, u32)> {
        f.states(ids)
            .into_iter()
            .filter(|((h, _), _)| h == hex)
            .map(|((_, k), c)| (k, c))
            .collect()
    };
    let five: Vec<(String, u32)> = (1..6).map(|k| (k.to_string(), 0)).collect();
    assert_eq!(at(&["l1"], "0404"), []);
    assert_eq!(at(&["l1", "l2"], "0404"), five);
    assert_eq!(at(&["p1"], "0202"), []);
    assert_eq!(
        at(&["p1", "p2"], "0202"),
        [("1".to_string(), 1), ("5".to_string(), 1)]
    );
    assert_eq!(
        f.check(&["l1"], &[], Facing::One(1)),
        Err("ANC-5.4: a stack shares one facing: the group ends at 0404 beside the rest of its stack, which faces 0".into())
    );
    assert_eq!(f.check(&["l1", "l2"], &[], Facing::One(1)), Ok(0));
    // Moving away stays free.
    assert!(f.states(&["l1"]).keys().any(|(h, _)| h == "0405"));
}

#[test]
fn ta_r10_contact_is_adjacency_to_an_enemy_non_leader_in_good_order() {
    // Red: a cavalry in good order at 0202, a leader at 0606, a disordered light at 0602.
    // Blue: a light at 0404, a cavalry at 0206. For blue, the hexes in contact are the six
    // neighbours of 0202 only (a leader or a unit out of good order gives none); for red, the
    // neighbours of both blue troops.
    let mut disordered = u("rd", "red", "light", "0602", 4.0, Some(0));
    disordered.status.insert("disordered".into());
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("rc", "red", "cavalry", "0202", 4.0, Some(0)),
            u("rl", "red", "leader", "0606", 4.0, None),
            disordered,
            u("b", "blue", "light", "0404", 4.0, Some(0)),
            u("bc", "blue", "cavalry", "0206", 4.0, Some(0)),
        ],
    );
    let contact = |id: &str| {
        let i = f.board.unit_index(id).unwrap();
        let mut labels: Vec<String> = (0..f.map.len())
            .filter(|&h| f.board.in_contact(i, h))
            .map(|h| f.map.label(h))
            .collect();
        labels.sort();
        labels
    };
    assert_eq!(
        contact("b"),
        ["0101", "0102", "0201", "0203", "0301", "0302"]
    );
    assert_eq!(
        contact("rc"),
        [
            "0105", "0106", "0205", "0207", "0303", "0304", "0305", "0306", "0403", "0405", "0503",
            "0504"
        ]
    );
    // What contact changes (ANC-6.2): a phalanx (vertex 0, 1 MP) next to an enemy leader
    // (0403) and a disordered enemy (0405) is not in contact and turns in place; next to a
    // light in good order at 0405 it only steps (0504, in that light's front, ends the move).
    let phalanx = || u("p", "blue", "phalanx", "0404", 1.0, Some(0));
    let mut rd = u("rd", "red", "light", "0405", 4.0, Some(0));
    rd.status.insert("disordered".into());
    let free = fx(
        grid(7, 7),
        anc(),
        &[phalanx(), u("rl", "red", "leader", "0403", 4.0, None), rd],
    );
    assert_eq!(
        free.states(&["p"]),
        st(&[
            ("0404", 1, 1),
            ("0404", 5, 1),
            ("0503", 0, 1),
            ("0504", 0, 1)
        ])
    );
    let held = fx(
        grid(7, 7),
        anc(),
        &[phalanx(), u("r", "red", "light", "0405", 4.0, Some(0))],
    );
    assert_eq!(held.states(&["p"]), st(&[("0503", 0, 1), ("0504", 0, 1)]));
}

#[test]
fn ta_r11_non_phalanx_troops_face_an_edge_freely_and_front_all_six_neighbours() {
    // A light facing edge 2 and a cavalry facing edge 5 at 0404: both front all six.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("l", "blue", "light", "0404", 1.0, Some(2)),
            u("c", "red", "cavalry", "0404", 1.0, Some(5)),
        ],
    );
    let all = ["0504", "0405", "0304", "0303", "0403", "0503"];
    assert_eq!(f.front("l"), all);
    assert_eq!(f.front("c"), all);
    // Facing changes cost 0 MP: a cavalry with 1 MP ends anywhere it steps with any facing,
    // and re-faces in place for nothing.
    let f = fx(
        grid(7, 7),
        anc(),
        &[u("c", "blue", "cavalry", "0404", 1.0, Some(0))],
    );
    let mut expect = any_facing(&[
        ("0404", 0),
        ("0504", 1),
        ("0405", 1),
        ("0304", 1),
        ("0303", 1),
        ("0403", 1),
        ("0503", 1),
    ]);
    expect.remove(&("0404".into(), "0".into()));
    assert_eq!(f.states(&["c"]), expect);
    // At any time: even after stopping in an enemy front (red light at 0202: 0203 is in its
    // front) the end facing is free.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("r", "red", "light", "0202", 4.0, Some(0)),
            u("c", "blue", "cavalry", "0404", 3.0, Some(0)),
        ],
    );
    for facing in 0..6 {
        assert_eq!(
            f.check(&["c"], &["0303", "0203"], Facing::One(facing)),
            Ok(2)
        );
    }
}

#[test]
fn ta_r13_a_group_is_counters_of_one_side_in_one_hex_at_its_lowest_mp_and_one_facing() {
    // Line: lights l1 (MA 4) and l2 (MA 2) stacked at 0101, a light l3 at 0901.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("l1", "blue", "light", "0101", 4.0, Some(0)),
            u("l2", "blue", "light", "0101", 2.0, Some(0)),
            u("l3", "blue", "light", "0901", 4.0, Some(0)),
        ],
    );
    // Any subset moves: both at 2 MP, l1 alone at its 4.
    assert_eq!(
        f.hexes(&["l1", "l2"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2)])
    );
    // (l1 alone does not stay: re-facing beside l2 would give the stack two facings, ANC-5.4)
    assert_eq!(
        f.hexes(&["l1"]),
        hc(&[("0201", 1), ("0301", 2), ("0401", 3), ("0501", 4)])
    );
    // Counters of two hexes are no group.
    let g = f.group(&["l1", "l3"]);
    let err = reach_facing(&f.map, &f.rules, &f.board, &g, 2, FacingOptions::default());
    assert_eq!(
        err.unwrap_err().to_string(),
        "a moving group is counters of one side in one hex (TA-R13)"
    );
    // A group holding a phalanx moves as one, with the phalanx's facing (vertex 0) even when
    // a leader is named first: steps only into 0503, 0504, turns for 1 MP (leader MA 6,
    // phalanx MA 1: 1 MP).
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("l", "blue", "leader", "0404", 6.0, None),
            u("p", "blue", "phalanx", "0404", 1.0, Some(0)),
        ],
    );
    assert_eq!(
        f.states(&["l", "p"]),
        st(&[
            ("0404", 1, 1),
            ("0404", 5, 1),
            ("0503", 0, 1),
            ("0504", 0, 1)
        ])
    );
}

#[test]
fn ta_r14_a_phalanx_steps_into_its_front_keeping_its_facing_and_turns_only_out_of_contact() {
    // Blue phalanx at 0404 facing vertex 0 (front 0503, 0504), 2 MP. A red phalanx at 0604
    // facing vertex 0 (front 0703, 0704) touches 0503 and 0504 without fronting them: both
    // are in contact, the start hex is not.
    let position = |with_enemy: bool| {
        let mut units = vec![u("p", "blue", "phalanx", "0404", 2.0, Some(0))];
        if with_enemy {
            units.push(u("e", "red", "phalanx", "0604", 3.0, Some(0)));
        }
        fx(grid(7, 7), anc(), &units)
    };
    // Steps keep the facing (0 after each step from 0503, 0504); turns cost 1 MP each, and
    // only in 0404: 0503 facing 1 and 0504 facing 5 would need a turn in contact.
    assert_eq!(
        position(true).states(&["p"]),
        st(&[
            ("0403", 5, 2),
            ("0404", 1, 1),
            ("0404", 2, 2),
            ("0404", 4, 2),
            ("0404", 5, 1),
            ("0405", 1, 2),
            ("0503", 0, 1),
            ("0503", 5, 2),
            ("0504", 0, 1),
            ("0504", 1, 2),
            ("0603", 0, 2),
            ("0605", 0, 2),
        ])
    );
    // Out of contact the phalanx turns in any hex of its move: step to 0503, then turn.
    assert_eq!(
        position(false).check(&["p"], &["0503"], Facing::One(1)),
        Ok(2)
    );
    assert_eq!(
        position(true).check(&["p"], &["0503"], Facing::One(1)),
        Err(
            "ANC-6.2: the phalanx cannot end facing 1 at 0503: it turns only out of contact \
             (TA-R14)"
                .into()
        )
    );
}

#[test]
fn ta_r15_a_phalanx_group_starting_in_contact_may_turn_once_in_place_for_all_its_mp() {
    // Two stacked phalanxes at 0404 facing vertex 0, 2 MP, a red cavalry at 0304 (contact at
    // 0404 only: the front hexes 0503 and 0504 are not next to it).
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("p1", "blue", "phalanx", "0404", 2.0, Some(0)),
            u("p2", "blue", "phalanx", "0404", 2.0, Some(0)),
            u("r", "red", "cavalry", "0304", 4.0, Some(0)),
        ],
    );
    let moves = st(&[
        ("0503", 0, 1),
        ("0503", 1, 2),
        ("0503", 5, 2),
        ("0504", 0, 1),
        ("0504", 1, 2),
        ("0504", 5, 2),
        ("0603", 0, 2),
        ("0604", 0, 2),
        ("0605", 0, 2),
    ]);
    assert_eq!(f.states(&["p1", "p2"]), moves);
    // With the morale test passed (the caller's: contact_turn), one 60 degree turn either way,
    // in place, for the whole 2 MP; not 120 degrees.
    let g = f.group(&["p1", "p2"]);
    let turned: BTreeMap<(String, String), u32> = reach_facing(
        &f.map,
        &f.rules,
        &f.board,
        &g,
        2,
        FacingOptions { contact_turn: true },
    )
    .unwrap()
    .iter()
    .map(|r| ((f.map.label(r.hex), r.facing.key()), r.cost))
    .collect();
    let mut expect = moves.clone();
    expect.extend(st(&[("0404", 1, 2), ("0404", 5, 2)]));
    assert_eq!(turned, expect);
    // Without it (an ordinary move), the turn in place is refused, saying why.
    assert_eq!(
        f.check(&["p1", "p2"], &[], Facing::One(1)),
        Err(
            "ANC-6.3: in contact at 0404: a phalanx turns only by spending its whole movement \
             after a morale test (ANC-6.3)"
                .into()
        )
    );
    // The morale test itself (host dice) is the wheel command: rules/ancients/tests (TA-R15).
}

#[test]
fn ta_r16_entering_an_enemy_front_ends_the_move_starting_in_one_does_not() {
    // A red light at 0202 (front all six: 0302, 0203, 0102, 0101, 0201, 0301). A blue cavalry
    // (4 MP) starts in its front at 0302.
    let at = |enemy: &str| {
        fx(
            grid(7, 7),
            anc(),
            &[
                u("r", "red", enemy, "0202", 4.0, Some(0)),
                u("c", "blue", "cavalry", "0302", 4.0, Some(0)),
            ],
        )
    };
    let f = at("light");
    // Leaving it is free, along hexes outside the front.
    assert_eq!(f.check(&["c"], &["0303", "0304"], Facing::One(0)), Ok(2));
    // Entering another front hex (0203) ends the move there: no further step. (No further
    // turn either; for a phalanx that is already so, a front hex being in contact, TA-R14.)
    assert_eq!(f.check(&["c"], &["0203"], Facing::One(0)), Ok(1));
    assert_eq!(
        f.check(&["c"], &["0203", "0204"], Facing::One(0)),
        Err("ANC-7.3: entering the enemy front at 0203 ended the move (ANC-7.3)".into())
    );
    // Coming back to the start hex later is entering it.
    assert_eq!(
        f.check(&["c"], &["0303", "0302", "0402"], Facing::One(0)),
        Err("ANC-7.3: entering the enemy front at 0302 ended the move (ANC-7.3)".into())
    );
    // An enemy leader has no front (TA-R2): nothing stops.
    let f = at("leader");
    assert_eq!(f.check(&["c"], &["0203", "0204"], Facing::One(0)), Ok(2));
}

#[test]
fn ta_r17_leaders_ignore_stacking_and_hexes_of_friendly_leaders_count_as_empty() {
    // Line: a blue leader MA 4 at 0101; blue light at 0201, blue cavalry at 0401, red cavalry
    // at 0501 (0401 is in its front and in contact). The leader crosses 0201 and ends in 0401
    // (the red front ends its move there) at its step count: no joining cost, contact or not.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("l", "blue", "leader", "0101", 4.0, None),
            u("a", "blue", "light", "0201", 4.0, Some(0)),
            u("b", "blue", "cavalry", "0401", 4.0, Some(0)),
            u("r", "red", "cavalry", "0501", 4.0, Some(2)),
        ],
    );
    assert_eq!(
        f.states(&["l"]),
        no_facing(&[("0201", 1), ("0301", 2), ("0401", 3)])
    );
    // Hexes holding only friendly leaders are empty: a cavalry (a kind that cannot join a
    // stack) crosses and ends in them at 1 MP a hex.
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("c", "blue", "cavalry", "0101", 3.0, Some(0)),
            u("l1", "blue", "leader", "0201", 4.0, None),
            u("l2", "blue", "leader", "0301", 4.0, None),
        ],
    );
    assert_eq!(
        f.hexes(&["c"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
    // So does a phalanx (vertex 0, 1 MP): a leader in its front hex 0503 takes no facing from
    // it; the phalanx's reach is that of a lone phalanx.
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("p", "blue", "phalanx", "0404", 1.0, Some(0)),
            u("l", "blue", "leader", "0503", 4.0, None),
        ],
    );
    assert_eq!(
        f.states(&["p"]),
        st(&[
            ("0404", 1, 1),
            ("0404", 5, 1),
            ("0503", 0, 1),
            ("0504", 0, 1)
        ])
    );
}

#[test]
fn ta_r18_entering_friendly_troops_joins_as_the_last_step_for_one_plus_the_largest_cost() {
    // Elephants join for 2 MP here, lights for 1. Line: an elephant e, a light l and a leader
    // k stacked at 0101 (MA 6), a friendly elephant s at 0401 facing 2.
    let mut decl = anc();
    decl["kinds"]["elephant"]["join"] = json!(2);
    let line = |decl: Value, extra: &[Unit]| {
        let mut units = vec![
            u("e", "blue", "elephant", "0101", 6.0, Some(0)),
            u("l", "blue", "light", "0101", 6.0, Some(0)),
            u("k", "blue", "leader", "0101", 6.0, None),
            u("s", "blue", "elephant", "0401", 6.0, Some(2)),
        ];
        units.extend_from_slice(extra);
        fx(grid(9, 1), decl, &units)
    };
    let at_0401 = |f: &Fx, ids: &[&str]| -> Vec<(String, u32)> {
        f.states(ids)
            .into_iter()
            .filter(|(k, _)| k.0 == "0401")
            .map(|(k, c)| (k.1, c))
            .collect()
    };
    let to_0401 = ["0201", "0301", "0401"];
    // The light alone (leaving e and k behind): two steps, then 1 + 1 into 0401, where it
    // takes the stack's facing 2 and stops: nothing beyond.
    let f = line(decl.clone(), &[]);
    // (it does not re-face in place beside e: ANC-5.4)
    let mut expect = any_facing(&[("0201", 1), ("0301", 2)]);
    expect.insert(("0401".into(), "2".into()), 4);
    assert_eq!(f.states(&["l"]), expect);
    // A leader in the group adds no cost; an elephant adds its larger one: 2 + 1 + max(2, 1).
    assert_eq!(at_0401(&f, &["l", "k"]), [("2".to_string(), 4)]);
    assert_eq!(at_0401(&f, &["e", "l"]), [("2".to_string(), 5)]);
    // A kind missing from the table cannot join, whatever comes with it: without a cost for
    // lights, the elephant and the light do not join; the elephant alone does (2 + 1 + 2).
    let mut no_light = decl.clone();
    no_light["kinds"]["light"]
        .as_object_mut()
        .unwrap()
        .remove("join");
    let f = line(no_light, &[]);
    assert_eq!(
        f.check(&["e", "l"], &to_0401, Facing::One(2)),
        Err("ANC-5.3: a troop type of the group cannot join a stack (ANC-5.3)".into())
    );
    assert_eq!(f.check(&["e"], &to_0401, Facing::One(2)), Ok(5));
    // Not in contact: a red light in good order at 0501 forbids it, a disordered one does not.
    let f = line(
        decl.clone(),
        &[u("r", "red", "light", "0501", 4.0, Some(0))],
    );
    assert_eq!(
        f.check(&["l"], &to_0401, Facing::One(2)),
        Err("ANC-5.3: no stack may be formed in contact with the enemy at 0401 (ANC-5.3)".into())
    );
    let mut rd = u("r", "red", "light", "0501", 4.0, Some(0));
    rd.status.insert("disordered".into());
    assert_eq!(
        line(decl, &[rd]).check(&["l"], &to_0401, Facing::One(2)),
        Ok(4)
    );
    // The result must be a legal stack: TA-R19.
    // A phalanx group must already face the stack's way. Phalanx at 0404 facing vertex 0, a
    // friendly phalanx at 0504 (a front hex) facing vertex 1: it first turns to 1 (1 MP),
    // then joins (1 + 1): 3 MP; with 2 MP it cannot.
    let join = |ma: f64, stack: u8| {
        fx(
            grid(7, 7),
            anc(),
            &[
                u("p", "blue", "phalanx", "0404", ma, Some(0)),
                u("s", "blue", "phalanx", "0504", 3.0, Some(stack)),
            ],
        )
    };
    assert_eq!(join(3.0, 1).check(&["p"], &["0504"], Facing::One(1)), Ok(3));
    assert_eq!(
        join(2.0, 1).check(&["p"], &["0504"], Facing::One(1)),
        Err("ANC-5.3: a phalanx joins a stack only already facing its way (TA-R18)".into())
    );
    // Facing the stack's way already: 2 MP.
    assert_eq!(join(2.0, 0).check(&["p"], &["0504"], Facing::One(0)), Ok(2));
}

#[test]
fn ta_r19_a_legal_stack_is_one_kind_or_elephants_with_at_most_two_lights_in_all() {
    let r = FacingRules::compile(&anc(), &grid(3, 3)).unwrap();
    // One kind, whatever the count; leaders are ignored.
    assert!(r.stack_legal(["phalanx"; 5]));
    assert!(r.stack_legal(["light", "light", "light"]));
    assert!(r.stack_legal(["leader", "leader"]));
    assert!(r.stack_legal(["elephant", "elephant", "elephant", "leader"]));
    // Elephants plus at most 2 light counters in all (not per elephant).
    assert!(r.stack_legal(["elephant", "elephant", "light", "light"]));
    assert!(!r.stack_legal(["elephant", "elephant", "light", "light", "light"]));
    // Only lights escort, only elephants are escorted.
    assert!(!r.stack_legal(["elephant", "cavalry"]));
    assert!(!r.stack_legal(["elephant", "light", "phalanx"]));
    assert!(!r.stack_legal(["cavalry", "light"]));
    // The search applies it: an elephant joins two lights (legal), a light does not join an
    // elephant with two lights (a third escort).
    let f = fx(
        grid(9, 1),
        anc(),
        &[
            u("e", "blue", "elephant", "0101", 6.0, Some(0)),
            u("a", "blue", "light", "0301", 4.0, Some(2)),
            u("b", "blue", "light", "0301", 4.0, Some(2)),
            u("l", "blue", "light", "0901", 6.0, Some(2)),
            u("s", "blue", "elephant", "0701", 4.0, Some(2)),
            u("s1", "blue", "light", "0701", 4.0, Some(2)),
            u("s2", "blue", "light", "0701", 4.0, Some(2)),
        ],
    );
    assert_eq!(f.check(&["e"], &["0201", "0301"], Facing::One(2)), Ok(3));
    assert_eq!(
        f.check(&["l"], &["0801", "0701"], Facing::One(2)),
        Err("ANC-5.1: the stack at 0701 would hold 3 light escorts with its elephant (at most 2) (ANC-5.1)".into())
    );
}

#[test]
fn ta_r20_reach_lists_each_hex_and_facing_once_at_least_cost_never_the_start_state() {
    let reached = |f: &Fx, ids: &[&str]| -> Vec<(String, Facing, u32)> {
        f.reach_opts(ids, FacingOptions::default())
            .into_iter()
            .map(|r| (f.map.label(r.hex), r.facing, r.cost))
            .collect()
    };
    let list = |l: &[(&str, Facing, u32)]| -> Vec<(String, Facing, u32)> {
        l.iter().map(|(h, f, c)| (h.to_string(), *f, *c)).collect()
    };
    // An ANC phalanx (vertex facings, One(v)) at 0404 facing 0 with 2 MP. Its start state is
    // reachable (turn right, turn left: 2 MP) yet never listed. 0503 facing 5 has two
    // cheapest orders (turn then step, step then turn): listed once, at 2. States come sorted
    // by hex index (row by row), then facing.
    let f = fx(
        grid(7, 7),
        anc(),
        &[u("p", "blue", "phalanx", "0404", 2.0, Some(0))],
    );
    assert_eq!(
        reached(&f, &["p"]),
        list(&[
            ("0403", Facing::One(5), 2),
            ("0503", Facing::One(0), 1),
            ("0503", Facing::One(1), 2),
            ("0503", Facing::One(5), 2),
            ("0603", Facing::One(0), 2),
            ("0404", Facing::One(1), 1),
            ("0404", Facing::One(2), 2),
            ("0404", Facing::One(4), 2),
            ("0404", Facing::One(5), 1),
            ("0504", Facing::One(0), 1),
            ("0504", Facing::One(1), 2),
            ("0504", Facing::One(5), 2),
            ("0604", Facing::One(0), 2),
            ("0405", Facing::One(1), 2),
            ("0605", Facing::One(0), 2),
        ])
    );
    // A TAC leader has no facing (None) and its start hex is not listed at all; a two-base
    // unit's facing is a pair, Two(facing, facing2). Line 0101..0201, MA 1, no enemy.
    let f = fx(
        grid(2, 1),
        tac(),
        &[
            u("l", "blue", "leader", "0101", 1.0, None),
            with_attr(
                u("c", "blue", "colonial", "0201", 0.0, Some(0)),
                "facing2",
                json!(3),
            ),
        ],
    );
    assert_eq!(reached(&f, &["l"]), list(&[("0201", Facing::None, 1)]));
    // With MA 0 the two-base unit only re-faces: the 35 pairs other than (0, 3), at 0.
    let mut pairs = Vec::new();
    for a in 0..6 {
        for b in 0..6 {
            if (a, b) != (0, 3) {
                pairs.push(("0201".to_string(), Facing::Two(a, b), 0));
            }
        }
    }
    assert_eq!(reached(&f, &["c"]), pairs);
}

/// A kind whose keys its model never reads is refused where it is declared: a vertex troop or a
/// turning cost in the tactical model, a turning cost on an edge kind of the ancients model.
/// Each was accepted and the troop played as an edge unit turning free (ANC-6.2 unapplied).
#[test]
fn anc_6_2_a_turn_cost_or_vertex_facing_the_model_never_reads_is_refused() {
    let map = walled_line();
    let refusal = |decl: Value| FacingRules::compile(&decl, &map).unwrap_err().to_string();
    let mut vertex_in_tac = tac();
    vertex_in_tac["kinds"]["phalanx"] = json!({ "facing": "vertex", "turn_cost": 1 });
    assert_eq!(
        refusal(vertex_in_tac),
        "facing declaration: kinds.phalanx.facing: 'vertex' is the ancients model's (a phalanx \
         facing a hex corner, ANC-6.1); the tactical model gives troops edge facings, every end \
         facing free (TAC-3): declare model = \"ancients\" for vertex troops"
    );
    let mut turning_infantry = tac();
    turning_infantry["kinds"]["infantry"]["turn_cost"] = json!(1);
    assert_eq!(
        refusal(turning_infantry),
        "facing declaration: kinds.infantry.turn_cost: only a vertex kind of the ancients model \
         pays to turn (ANC-6.2); in the tactical model every end facing is free (TAC-3) (a rule \
         of your own that charges turns wraps the move command)"
    );
    let mut turning_cavalry = anc();
    turning_cavalry["kinds"]["cavalry"]["turn_cost"] = json!(3);
    assert_eq!(
        refusal(turning_cavalry),
        "facing declaration: kinds.cavalry.turn_cost: only a vertex kind of the ancients model \
         pays to turn (ANC-6.2); an edge kind ends its move with any facing (a rule of your own \
         that charges turns wraps the move command)"
    );
}

/// A step that does not lead to an adjacent hex names the two hexes, as a plain move's refusal
/// does (it named the step alone).
#[test]
fn ta_r4_a_step_to_a_hex_not_adjacent_names_the_hexes() {
    let f = fx(
        walled_line(),
        tac(),
        &[u("i", "blue", "infantry", "0101", 4.0, Some(0))],
    );
    assert_eq!(
        f.check(&["i"], &["0201", "0401"], Facing::One(0)),
        Err("adjacent: step 2 does not lead to an adjacent hex (0201 to 0401)".into())
    );
}

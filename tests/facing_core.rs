//! Facing declarations and searches (TAC, ANC; `docs/facing.md`): what the clause tests of
//! `tests/facing.rs` leave unpinned, found by mutation testing. Maps are flat-topped,
//! printed-odd columns shifted down, labels CCRR: from an even column (04) the edge
//! directions 0..5 lead to (c+1,r) (c,r+1) (c-1,r) (c-1,r-1) (c,r-1) (c+1,r-1). A one-row map
//! is a line (0101 0201 ... 0901).

use std::collections::BTreeMap;

use serde_json::{json, Value};

mod facing_fixture;

use facing_fixture::*;
use hexwar::board::HexMap;
use hexwar::engine::Unit;
use hexwar::path::{check_move, reach_facing, Facing, FacingBoard, FacingOptions, FacingRules};

fn tac() -> Value {
    json!({
        "model": "tactical", "sides": ["blue", "red"],
        "kinds": {
            "infantry": { "tactical": 1 }, "cavalry": { "tactical": 2 },
            "foot_skirmisher": { "tactical": 2, "skirmisher": true },
            "leader": { "leader": true, "tactical": 2 }
        }
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
        }
    })
}

fn compile_err(map: &HexMap, decl: &Value) -> String {
    FacingRules::compile(decl, map).unwrap_err().to_string()
}

/// `decl` with `key` set to `value`.
fn with(mut decl: Value, key: &str, value: Value) -> Value {
    decl[key] = value;
    decl
}

fn st(list: &[(&str, &str, u32)]) -> BTreeMap<(String, String), u32> {
    list.iter()
        .map(|(h, f, c)| ((h.to_string(), f.to_string()), *c))
        .collect()
}

// ------------------------------------------------------------------ declaration

/// An empty Lua table arrives as an empty JSON object: a name list given as `{}` is the empty
/// list, not an error.
#[test]
fn an_empty_table_is_an_empty_name_list() {
    let map = grid(3, 1);
    let rules = FacingRules::compile(&with(anc(), "not_in_order", json!({})), &map).unwrap();
    assert!(rules.not_in_order.is_empty());
}

/// A name list given as a table with keys is refused, naming the key.
#[test]
fn a_keyed_table_is_not_a_name_list() {
    let map = grid(3, 1);
    assert_eq!(
        compile_err(
            &map,
            &with(anc(), "not_in_order", json!({ "a": "disordered" }))
        ),
        "facing declaration: not_in_order: expected a list of names"
    );
}

/// `front = "all"` is the only word a front takes (ANC-6.1 troops fronting all six edges).
#[test]
fn a_front_given_as_a_word_other_than_all_is_refused() {
    let map = grid(3, 1);
    let mut d = anc();
    d["kinds"]["cavalry"]["front"] = json!("none");
    assert_eq!(
        compile_err(&map, &d),
        "facing declaration: kinds.cavalry.front: expected a list of offsets or \"all\""
    );
}

/// `front = {}` (an empty Lua table) declares no front hexes: the kind's unit puts no enemy
/// hex in its front, so an ANC mover next to it is not stopped (ANC-7.3).
#[test]
fn anc_7_3_a_front_declared_empty_stops_nobody() {
    let mut d = anc();
    d["kinds"]["cavalry"]["front"] = json!({});
    // Enemy cavalry at 0401 with no front; blue cavalry (MA 3) at 0101 runs to 0301 and on.
    let f = fx(
        grid(5, 1),
        d,
        &[
            u("b", "blue", "cavalry", "0101", 3.0, Some(0)),
            u("r", "red", "cavalry", "0501", 3.0, Some(0)),
        ],
    );
    assert_eq!(f.board.front_hexes(&f.map, 1), Vec::<u32>::new());
    assert_eq!(
        f.hexes(&["b"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2), ("0401", 3)])
    );
}

/// A front given as a table with keys is refused, not read as no front.
#[test]
fn a_front_given_as_a_keyed_table_is_refused() {
    let map = grid(3, 1);
    let mut d = anc();
    d["kinds"]["cavalry"]["front"] = json!({ "left": -1 });
    assert_eq!(
        compile_err(&map, &d),
        "facing declaration: kinds.cavalry.front: expected a list of offsets or \"all\""
    );
}

/// One to eight sides: eight compile, none and nine are refused.
#[test]
fn a_declaration_names_one_to_eight_sides() {
    let map = grid(3, 1);
    let names = |n: usize| json!((0..n).map(|i| format!("s{i}")).collect::<Vec<_>>());
    assert!(FacingRules::compile(&with(tac(), "sides", names(8)), &map).is_ok());
    assert!(FacingRules::compile(&with(tac(), "sides", names(1)), &map).is_ok());
    for n in [0, 9] {
        assert_eq!(
            compile_err(&map, &with(tac(), "sides", names(n))),
            "facing declaration: sides: expected 1 to 8 side names",
            "{n} sides"
        );
    }
}

/// `impassable_hexsides` bars the feature it names, whatever its place in the map's list:
/// a map with a hedge (feature 0) and a wall (feature 1), only the wall declared impassable.
#[test]
fn ta_r12_the_barred_hexside_is_the_feature_named_not_the_first() {
    let map = grid_with(
        5,
        1,
        "[hexsides]\nhedge = [\"0201/0301\"]\nwall = [\"0301/0401\"]\n",
    );
    assert_eq!(map.hexside_feature_names(), ["hedge", "wall"]);
    let f = fx(
        map,
        with(tac(), "impassable_hexsides", json!(["wall"])),
        &[u("i", "blue", "infantry", "0101", 4.0, Some(0))],
    );
    // The hedge is crossed, the wall is not.
    assert_eq!(
        f.hexes(&["i"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2)])
    );
    assert_eq!(
        f.check(&["i"], &["0201", "0301", "0401"], Facing::One(0)),
        Err("terrain: the hexside 0301/0401 cannot be crossed".into())
    );
}

/// A third side's units are enemies of both others (sides are told apart by their place in
/// `sides`): a red unit next to a green one may charge it (TA-R8: the move ends there).
#[test]
fn ta_r8_with_three_sides_each_side_is_the_enemy_of_the_others() {
    let f = fx(
        grid(4, 1),
        with(tac(), "sides", json!(["blue", "red", "green"])),
        &[
            u("r", "red", "cavalry", "0101", 1.0, Some(0)),
            u("g", "green", "infantry", "0201", 1.0, Some(0)),
        ],
    );
    // Red cavalry (MA 1, TAC-2 distance 2): its one step is into the green hex, a melee.
    assert_eq!(f.hexes(&["r"]), hc(&[("0101", 0), ("0201", 1)]));
    assert_eq!(f.check(&["r"], &["0201"], Facing::One(0)), Ok(1));
}

/// A game of one declared side compiles and its units are placed.
#[test]
fn a_single_side_game_places_its_units() {
    let f = fx(
        grid(3, 1),
        with(tac(), "sides", json!(["blue"])),
        &[u("i", "blue", "infantry", "0101", 2.0, Some(0))],
    );
    assert_eq!(
        f.hexes(&["i"]),
        hc(&[("0101", 0), ("0201", 1), ("0301", 2)])
    );
}

// ------------------------------------------------------------------ stacks (ANC-5.1)

/// `anc()` with a second escort kind, `peltast`.
fn anc_two_escort_kinds() -> FacingRules {
    let mut d = anc();
    d["kinds"]["peltast"] = json!({ "front": "all", "join": 1, "escort": true });
    FacingRules::compile(&d, &grid(3, 1)).unwrap()
}

/// ANC-5.1 / TA-R19: escorts of two kinds without an elephant do not stack (the escort
/// exception needs the elephant).
#[test]
fn anc_5_1_escorts_of_two_kinds_without_an_elephant_do_not_stack() {
    let rules = anc_two_escort_kinds();
    assert!(!rules.stack_legal(["light", "peltast"]));
    assert!(rules.stack_legal(["elephant", "light", "peltast"]));
}

/// ANC-5.1: an elephant with a troop that is no escort is a mix of kinds, not an escort count.
#[test]
fn anc_5_1_an_elephant_with_a_non_escort_is_a_mix_of_kinds() {
    let rules = anc_two_escort_kinds();
    assert!(!rules.stack_legal(["elephant", "cavalry"]));
    assert_eq!(
        rules.stack_fault(["elephant", "cavalry"]),
        "would mix troop types"
    );
}

/// ANC-5.1: three escorts with a troop of another kind and no elephant are a mix of kinds
/// (the escort count is the fault only of an elephant's stack).
#[test]
fn anc_5_1_many_escorts_without_an_elephant_are_a_mix_of_kinds() {
    let rules = anc_two_escort_kinds();
    let kinds = ["light", "light", "peltast", "cavalry"];
    assert!(!rules.stack_legal(kinds));
    assert_eq!(rules.stack_fault(kinds), "would mix troop types");
    // An elephant's stack with one escort too many is told so, naming each kind of escort.
    let kinds = ["elephant", "light", "light", "peltast"];
    assert!(!rules.stack_legal(kinds));
    assert_eq!(
        rules.stack_fault(kinds),
        "would hold 3 escorts (light, peltast) with its elephant (at most 2)"
    );
    let kinds = ["elephant", "light", "light", "light"];
    assert_eq!(
        rules.stack_fault(kinds),
        "would hold 3 light escorts with its elephant (at most 2)"
    );
}

// ------------------------------------------------------------------ kinds and warnings

/// The vertex kinds (ANC-6.1 phalanxes) are listed by name, and only they: the renderer draws
/// their facing at a corner.
#[test]
fn anc_6_1_vertex_kinds_are_the_kinds_facing_a_corner() {
    let map = grid(3, 1);
    let mut d = anc();
    d["kinds"]["hoplite"] = json!({ "facing": "vertex", "turn_cost": 2 });
    let rules = FacingRules::compile(&d, &map).unwrap();
    assert_eq!(rules.vertex_kinds(), ["hoplite", "phalanx"]);
    let rules = FacingRules::compile(&tac(), &map).unwrap();
    assert!(rules.vertex_kinds().is_empty());
}

/// A unit type the declaration does not list is refused with the kinds there are.
#[test]
fn a_unit_type_without_a_facing_rule_is_named_with_the_kinds_there_are() {
    let rules = FacingRules::compile(&tac(), &grid(3, 1)).unwrap();
    assert_eq!(rules.knows_kind("cavalry"), Ok(()));
    assert_eq!(
        rules.knows_kind("dragoon"),
        Err(
            "unit type 'dragoon' has no facing rule (the rules' facing kinds: cavalry, \
             foot_skirmisher, infantry, leader)"
                .into()
        )
    );
}

fn with_facing2(mut unit: Unit, f2: u64) -> Unit {
    unit.attrs.insert("facing2".into(), json!(f2));
    unit
}

/// TAC-4: an edge-facing unit of a tactical game reads `facing2` (a second base), so `check`
/// has nothing to warn of; a leader (no facing, TA-R2) without `facing` neither.
#[test]
fn tac_4_a_second_base_on_a_tactical_edge_unit_is_no_warning() {
    let rules = FacingRules::compile(&tac(), &grid(3, 1)).unwrap();
    let two_base = with_facing2(u("i", "blue", "infantry", "0101", 1.0, Some(0)), 3);
    assert!(rules.unit_warnings(&two_base).is_empty());
    let leader = u("l", "blue", "leader", "0101", 1.0, None);
    assert!(rules.unit_warnings(&leader).is_empty());
}

/// TAC-4: in an ancients game even an edge-facing troop has one facing, so its `facing2` is
/// warned of.
#[test]
fn tac_4_a_second_base_on_an_ancients_edge_unit_is_warned_of() {
    let rules = FacingRules::compile(&anc(), &grid(3, 1)).unwrap();
    let cav = with_facing2(u("c", "blue", "cavalry", "0101", 1.0, Some(0)), 3);
    assert_eq!(
        rules.unit_warnings(&cav),
        [
            "unit 'c' (type 'cavalry'): attrs.facing2 is read only for edge-facing units of a \
          tactical game (TAC-4); this one has one facing"
        ]
    );
}

// ------------------------------------------------------------------ groups and the answer

/// The rules and the board must both be of the searched map: a board of another map with the
/// right rules is an error, and so are rules of another map with the right board.
#[test]
fn a_board_or_rules_of_another_map_alone_is_an_error() {
    let (line, square) = (grid(5, 1), grid(3, 3));
    let units = [u("i", "blue", "infantry", "0101", 2.0, Some(0))];
    let line_rules = FacingRules::compile(&tac(), &line).unwrap();
    let square_rules = FacingRules::compile(&tac(), &square).unwrap();
    let line_board = FacingBoard::build(&line, &line_rules, &units).unwrap();
    let square_board = FacingBoard::build(&square, &square_rules, &units).unwrap();
    let opts = FacingOptions::default();
    let expected = "the facing rules or board were built for another map (this one has 5 hexes)";
    let err = reach_facing(&line, &line_rules, &square_board, &[0], 2, opts).unwrap_err();
    assert_eq!(err.to_string(), expected);
    let err = reach_facing(&line, &square_rules, &line_board, &[0], 2, opts).unwrap_err();
    assert_eq!(err.to_string(), expected);
}

/// The answer's size, emptiness and iteration agree with its states.
#[test]
fn a_facing_reach_counts_and_iterates_its_states() {
    let f = fx(
        grid(2, 1),
        tac(),
        &[u("i", "blue", "infantry", "0101", 1.0, Some(0))],
    );
    let reach = reach_facing(
        &f.map,
        &f.rules,
        &f.board,
        &[0],
        1,
        FacingOptions::default(),
    )
    .unwrap();
    // 0101: the five other facings at 0; 0201: six facings at 1.
    assert_eq!(reach.len(), 11);
    assert!(!reach.is_empty());
    assert_eq!((&reach).into_iter().count(), 11);
    assert_eq!(
        (&reach).into_iter().copied().collect::<Vec<_>>(),
        reach.states()
    );
    // An unlimbered gun lists nothing.
    let mut d = tac();
    d["kinds"]["gun"] = json!({ "immobile": true });
    let f = fx(
        grid(2, 1),
        d,
        &[u("g", "blue", "gun", "0101", 1.0, Some(0))],
    );
    let reach = reach_facing(
        &f.map,
        &f.rules,
        &f.board,
        &[0],
        1,
        FacingOptions::default(),
    )
    .unwrap();
    assert!(reach.is_empty());
}

/// TA-R7 / TAC-5: a TAC group of two non-leaders would end together wherever it ends: it has
/// no move, and an order for it is refused (they move one by one).
#[test]
fn ta_r7_a_tactical_group_of_two_non_leaders_has_no_move() {
    // (a position made by hand: two infantry in 0101, as a setup may place them)
    let f = fx(
        grid(3, 1),
        tac(),
        &[
            u("i", "blue", "infantry", "0101", 2.0, Some(0)),
            u("j", "blue", "infantry", "0101", 2.0, Some(0)),
            u("l", "blue", "leader", "0101", 2.0, None),
        ],
    );
    assert_eq!(f.hexes(&["i", "j"]), hc(&[]));
    assert_eq!(
        f.check(&["i", "j"], &["0201"], Facing::One(0)),
        Err(
            "friendly: the group holds 2 non-leaders, and a non-leader never ends in a hex \
             holding a friendly non-leader (TA-R7): they move one by one"
                .into()
        )
    );
    // A leader with one of them is a group that moves (not ending beside the other).
    assert_eq!(f.hexes(&["i", "l"]), hc(&[("0201", 1), ("0301", 2)]));
}

/// TA-R7: a non-leader that leaves a start hex it shares with a formed friendly non-leader
/// may not pass back through it (no crossing without a skirmisher on one side).
#[test]
fn ta_r7_an_order_back_through_the_start_hex_shared_with_formed_troops_is_refused() {
    let f = fx(
        grid(3, 1),
        tac(),
        &[
            u("i", "blue", "infantry", "0201", 3.0, Some(0)),
            u("j", "blue", "infantry", "0201", 3.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["i"], &["0301", "0201", "0101"], Facing::One(0)),
        Err(
            "friendly: 0201 holds a friendly unit: only skirmishers pass through, and no \
             non-leader ends there (TAC-5)"
                .into()
        )
    );
}

/// TA-R7: a skirmisher left in the start hex is crossed: the same order back through it is a
/// 3-hex move.
#[test]
fn ta_r7_an_order_back_through_the_start_hex_shared_with_a_skirmisher_passes() {
    let f = fx(
        grid(3, 1),
        tac(),
        &[
            u("i", "blue", "infantry", "0201", 3.0, Some(0)),
            u("s", "blue", "foot_skirmisher", "0201", 3.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["i"], &["0301", "0201", "0101"], Facing::One(0)),
        Ok(3)
    );
}

/// TA-R6 / TA-R20: a two-base unit whose first base does not face edge 0 (here bases 2 and 4)
/// lists in its start hex the 35 pairs other than its own, (0, 4) among them.
#[test]
fn ta_r20_the_start_pair_left_out_is_the_two_base_units_own() {
    let mut c = u("c", "blue", "infantry", "0101", 0.0, Some(2));
    c.attrs.insert("facing2".into(), json!(4));
    let f = fx(grid(2, 1), tac(), &[c]);
    let mut expect = BTreeMap::new();
    for a in 0..6 {
        for b in 0..6 {
            expect.insert(("0101".to_string(), format!("{a},{b}")), 0);
        }
    }
    expect.remove(&("0101".to_string(), "2,4".to_string()));
    assert_eq!(f.states(&["c"]), expect);
}

// ------------------------------------------------------------------ order checks

/// `anc()` with a troop kind that has no facing (a baggage train).
fn anc_with_wagon() -> Value {
    let mut d = anc();
    d["kinds"]["wagon"] = json!({ "facing": "none" });
    d
}

/// A troop declared without a facing given one is told so, naming its kind (leaders in the
/// group are not named: they have no facing by TA-R2, not by declaration).
#[test]
fn a_facing_given_to_a_group_of_a_faceless_troop_names_its_kind() {
    let f = fx(
        grid(3, 1),
        anc_with_wagon(),
        &[
            u("w", "blue", "wagon", "0101", 2.0, None),
            u("l", "blue", "leader", "0101", 2.0, None),
        ],
    );
    let expected = "facing: wagon is declared without a facing (facing = \"none\"), so none \
                    is given, not 2";
    assert_eq!(
        f.check(&["w", "l"], &["0201"], Facing::One(2)),
        Err(expected.into())
    );
    assert_eq!(
        f.check(&["l", "w"], &["0201"], Facing::One(2)),
        Err(expected.into())
    );
    assert_eq!(f.check(&["w", "l"], &["0201"], Facing::None), Ok(1));
}

/// A path step that is no hex of the map is named by its index (it has no label).
#[test]
fn a_step_off_the_map_is_named_by_its_index() {
    let f = fx(
        grid(5, 1),
        tac(),
        &[u("i", "blue", "infantry", "0501", 2.0, Some(0))],
    );
    let refusal = check_move(
        &f.map,
        &f.rules,
        &f.board,
        &[0],
        2,
        &[5],
        Facing::One(0),
        FacingOptions::default(),
    )
    .unwrap()
    .unwrap_err();
    assert_eq!(refusal.key, "adjacent");
    assert_eq!(
        refusal.reason,
        "step 1 does not lead to an adjacent hex (0501 to #5)"
    );
}

/// TA-R18: joiners take the stack's facing; an order giving another is told the stack's.
#[test]
fn ta_r18_a_join_order_with_another_facing_is_told_the_stacks() {
    let f = fx(
        grid(3, 1),
        anc(),
        &[
            u("l", "blue", "light", "0101", 3.0, Some(0)),
            u("m", "blue", "light", "0201", 3.0, Some(1)),
        ],
    );
    assert_eq!(f.check(&["l"], &["0201"], Facing::One(1)), Ok(2));
    assert_eq!(
        f.check(&["l"], &["0201"], Facing::One(3)),
        Err(
            "join: the group joins the stack at 0201 and takes its facing 1, not 3 (TA-R18)".into()
        )
    );
}

/// TA-R15 / TA-R20: the in-contact turn in place costs all the MP, so when the same end
/// (hex, facing) is reached cheaper by moving, the answer lists the cheaper cost. Phalanx
/// turning free (no `turn_cost`) at 0404 facing vertex 0 (front 0503, 0504), MA 4, in contact
/// with red cavalry at 0303: out to 0504, across to 0405, back into 0404 facing 5 costs 3, the
/// in-place turn to 5 costs 4.
#[test]
fn ta_r15_a_facing_reached_by_moving_lists_its_cost_not_the_contact_turns() {
    let mut d = anc();
    d["kinds"]["drilled"] = json!({ "facing": "vertex" });
    let f = fx(
        grid(7, 7),
        d,
        &[
            u("p", "blue", "drilled", "0404", 4.0, Some(0)),
            u("r", "red", "cavalry", "0303", 4.0, Some(0)),
        ],
    );
    let at_start: BTreeMap<(String, String), u32> = f
        .reach_opts(&["p"], FacingOptions { contact_turn: true })
        .into_iter()
        .filter(|r| f.map.label(r.hex) == "0404")
        .map(|r| (("0404".to_string(), r.facing.key()), r.cost))
        .collect();
    // (2, 3, 4: out to a front hex and straight back; 1: only by the turn in place, 0403
    // being in the cavalry's front and 0303 its hex)
    assert_eq!(
        at_start,
        st(&[
            ("0404", "1", 4),
            ("0404", "2", 2),
            ("0404", "3", 2),
            ("0404", "4", 2),
            ("0404", "5", 3)
        ])
    );
}

/// TAC-6: an order going on past an enemy hex is refused for the melee that ends the move
/// there, even when that hex (after a charge) also holds a friendly unit it could not end in.
#[test]
fn tac_6_an_order_past_a_melee_hex_shared_with_friends_names_the_melee() {
    let f = fx(
        grid(4, 1),
        tac(),
        &[
            u("i", "blue", "infantry", "0101", 2.0, Some(0)),
            u("j", "blue", "infantry", "0201", 2.0, Some(0)),
            u("r", "red", "infantry", "0201", 2.0, Some(3)),
        ],
    );
    assert_eq!(
        f.check(&["i"], &["0201", "0301"], Facing::One(0)),
        Err("melee: entering the enemy hex 0201 ended the move in a melee (TAC-6)".into())
    );
}

/// ANC-6.3 / TA-R15: the turn in place for all the MP is the in-contact phalanx's; out of
/// contact a phalanx turns only for its turn cost, so one whose MP (1) do not pay a turn (2)
/// lists no turn in place even when the caller allows contact turns.
#[test]
fn anc_6_3_out_of_contact_no_turn_in_place_for_all_the_mp() {
    let mut d = anc();
    d["kinds"]["slow"] = json!({ "facing": "vertex", "turn_cost": 2 });
    let f = fx(
        grid(7, 7),
        d,
        &[
            u("p", "blue", "slow", "0404", 1.0, Some(0)),
            u("r", "red", "cavalry", "0701", 1.0, Some(0)),
        ],
    );
    let states: BTreeMap<(String, String), u32> = f
        .reach_opts(&["p"], FacingOptions { contact_turn: true })
        .into_iter()
        .map(|r| ((f.map.label(r.hex), r.facing.key()), r.cost))
        .collect();
    assert_eq!(states, st(&[("0503", "0", 1), ("0504", "0", 1)]));
}

/// ANC-5.4: a sub-group that ends in its start hex beside the rest of its stack ends in the
/// stack's facing, also when the position gives the sub-group another one (a setup may): a
/// light facing 0 beside a light facing 3 lists 3 there at 0; a phalanx turns to it, 1 MP a
/// turn.
#[test]
fn anc_5_4_a_sub_group_ending_beside_its_stack_takes_the_stacks_facing_though_given_another() {
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("l1", "blue", "light", "0404", 2.0, Some(0)),
            u("l2", "blue", "light", "0404", 2.0, Some(3)),
            u("p1", "blue", "phalanx", "0202", 3.0, Some(0)),
            u("p2", "blue", "phalanx", "0202", 3.0, Some(3)),
        ],
    );
    let at = |ids: &[&str], hex: &str| -> Vec<(String, u32)> {
        f.states(ids)
            .into_iter()
            .filter(|((h, _), _)| h == hex)
            .map(|((_, k), c)| (k, c))
            .collect()
    };
    assert_eq!(at(&["l1"], "0404"), [("3".to_string(), 0)]);
    assert_eq!(at(&["p1"], "0202"), [("3".to_string(), 3)]);
}

/// ANC-7.3: an order going on past the enemy front hex that ended the move is refused for
/// that stop, not for a turn the phalanx might have made before it (facing 5 at its start,
/// 0504 would not be in its front).
#[test]
fn anc_7_3_an_order_past_an_enemy_front_hex_names_the_stop() {
    let f = fx(
        grid(7, 7),
        anc(),
        &[
            u("p", "blue", "phalanx", "0404", 3.0, Some(0)),
            u("r", "red", "cavalry", "0605", 3.0, Some(0)),
        ],
    );
    assert_eq!(
        f.check(&["p"], &["0504", "0604"], Facing::One(0)),
        Err("front_stop: entering the enemy front at 0504 ended the move (ANC-7.3)".into())
    );
}

/// TA-R18 / ANC-7.1: a group facing other than 0 that joins a stack ends there in the stack's
/// facing only, and goes no further (the joined state keeps its facing and its stop).
#[test]
fn ta_r18_a_joiner_facing_2_ends_in_the_stacks_facing_and_stops() {
    let f = fx(
        grid(4, 1),
        anc(),
        &[
            u("l", "blue", "light", "0101", 3.0, Some(2)),
            u("m", "blue", "light", "0201", 3.0, Some(1)),
        ],
    );
    assert_eq!(
        f.states(&["l"]),
        st(&[
            ("0101", "0", 0),
            ("0101", "1", 0),
            ("0101", "3", 0),
            ("0101", "4", 0),
            ("0101", "5", 0),
            ("0201", "1", 2)
        ])
    );
}

/// ANC-7.1: a troop with no whole MP (MA 0) only re-faces in place, at no cost.
#[test]
fn anc_7_1_a_troop_without_mp_only_refaces_in_place() {
    let f = fx(
        grid(3, 1),
        anc(),
        &[u("c", "blue", "cavalry", "0201", 0.5, Some(0))],
    );
    assert_eq!(
        f.states(&["c"]),
        st(&[
            ("0201", "1", 0),
            ("0201", "2", 0),
            ("0201", "3", 0),
            ("0201", "4", 0),
            ("0201", "5", 0)
        ])
    );
}

//! `hex.path.reach_facing`, `hex.path.check_facing`, `hex.path.stack_legal`,
//! `hex.path.in_contact`: the facing-aware movement engine (`crate::path::facing`) for rules
//! that declare `hex.rules.declare("facing", {...})` (docs/facing.md).
//!
//! A group is a unit id or a list of ids (counters of one side in one hex, TA-R13). Facings
//! cross the API as an integer (edge, or vertex for a phalanx), a string `"f1,f2"` for a
//! two-base unit, or `"none"` for leaders (as table keys; `nil` is accepted as an argument).

use std::sync::Arc;

use mlua::{Lua, Table, Value};

use super::{string_list, with_host, with_state, REFUSAL_MT_KEY};
use crate::board::HexMap;
use crate::engine::Unit;
use crate::path::{check_move, reach_facing, Facing, FacingBoard, FacingOptions, FacingRules};
use crate::rules::host_work::{charge_listed, charge_search};

fn runtime(e: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

fn rules_of(lua: &Lua) -> mlua::Result<(Arc<HexMap>, Arc<FacingRules>)> {
    let (map, rules) = with_host(lua, |h| (h.map.as_hex().cloned(), h.facing.clone()))?;
    let map = map.ok_or_else(|| runtime("hex.path facing functions work on hex maps"))?;
    let rules = rules.ok_or_else(|| {
        runtime(
            "hex.path: the rules declare no facing table (hex.rules.declare(\"facing\", {...}))",
        )
    })?;
    Ok((map, rules))
}

fn board_of(
    lua: &Lua,
    map: &HexMap,
    rules: &FacingRules,
) -> mlua::Result<(Vec<Unit>, FacingBoard)> {
    with_state(lua, |state| {
        // (the board copies and places every unit)
        charge_listed(lua, state.units.len())?;
        let units: Vec<Unit> = state.units.values().cloned().collect();
        let board = FacingBoard::build(map, rules, &units).map_err(runtime)?;
        Ok((units, board))
    })
}

fn group_of(board: &FacingBoard, v: Value) -> mlua::Result<Vec<usize>> {
    let ids: Vec<String> = match v {
        Value::String(s) => vec![s.to_str()?.to_string()],
        Value::Table(t) => {
            // (a hole would leave the ids after it out of the group)
            let n = crate::rules::list_length::list_length(&t, "unit ids")
                .map_err(|e| runtime(format!("hex.path: a group is {e}")))?;
            (1..=n)
                .map(|i| t.raw_get::<String>(i))
                .collect::<mlua::Result<_>>()?
        }
        _ => {
            return Err(runtime(
                "hex.path: a group is a unit id or a list of unit ids",
            ))
        }
    };
    ids.iter()
        .map(|id| {
            board
                .unit_index(id)
                .ok_or_else(|| runtime(format!("hex.path: no unit '{id}' in play")))
        })
        .collect()
}

fn facing_of(v: &Value) -> mlua::Result<Facing> {
    match v {
        Value::Nil => Ok(Facing::None),
        Value::Integer(i) if (0..6).contains(i) => Ok(Facing::One(*i as u8)),
        Value::Number(n) if n.fract() == 0.0 && (0.0..6.0).contains(n) => Ok(Facing::One(*n as u8)),
        Value::String(s) => Facing::parse(&s.to_str()?).ok_or_else(|| {
            runtime(format!(
                "'{}' is not a facing",
                s.to_str().map(|s| s.to_string()).unwrap_or_default()
            ))
        }),
        // (the value as a script wrote it: Rust's `Integer(7)` named no Lua value)
        other => Err(runtime(format!(
            "{} is not a facing (0..5, \"f1,f2\" or nil)",
            crate::rules::error::value_in_message(other)
        ))),
    }
}

fn facing_key(lua: &Lua, f: Facing) -> mlua::Result<Value> {
    Ok(match f {
        Facing::One(x) => Value::Integer(x as i64),
        other => Value::String(lua.create_string(other.key())?),
    })
}

fn options(lua: &Lua, opts: &Option<Table>, what: &str) -> mlua::Result<(bool, FacingOptions)> {
    super::only_options(lua, opts.as_ref(), &["paths", "contact_turn"], what)?;
    let get = |k: &str| {
        opts.as_ref()
            .map(|o| o.raw_get::<bool>(k).unwrap_or(false))
            .unwrap_or(false)
    };
    Ok((
        get("paths"),
        FacingOptions {
            contact_turn: get("contact_turn"),
        },
    ))
}

fn budget(board: &FacingBoard, group: &[usize], b: Option<f64>) -> u32 {
    match b {
        Some(x) if x >= 0.0 => x.floor() as u32,
        _ => board.group_budget(group),
    }
}

/// Adds the facing functions to `hex.path` (registered by `path::register`).
pub fn register(lua: &Lua, hex: &Table) -> mlua::Result<()> {
    let t: Table = hex.raw_get("path")?;
    // reach_facing(group, budget?, {paths=, contact_turn=}?) ->
    //   { [label] = { [facing] = cost } }  or, with paths, { [label] = { [facing] = {cost=, path=} } }
    t.raw_set(
        "reach_facing",
        lua.create_function(|lua, (g, b, opts): (Value, Option<f64>, Option<Table>)| {
            let (map, rules) = rules_of(lua)?;
            let (_units, board) = board_of(lua, &map, &rules)?;
            let group = group_of(&board, g)?;
            let (paths, fo) = options(lua, &opts, "hex.path.reach_facing")?;
            let reach = reach_facing(&map, &rules, &board, &group, budget(&board, &group, b), fo)
                .map_err(runtime)?;
            // (each hex and facing it lists was settled)
            charge_search(lua, reach.len() + 1)?;
            let out = lua.create_table()?;
            for (i, r) in reach.iter().enumerate() {
                let label = map.label(r.hex);
                let per: Table = match out.raw_get::<Option<Table>>(label.as_str())? {
                    Some(t) => t,
                    None => {
                        let t = lua.create_table()?;
                        out.raw_set(label.as_str(), t.clone())?;
                        t
                    }
                };
                let key = facing_key(lua, r.facing)?;
                if paths {
                    let e = lua.create_table()?;
                    e.raw_set("cost", r.cost)?;
                    let p: Vec<String> = reach.path(i).iter().map(|&h| map.label(h)).collect();
                    e.raw_set("path", string_list(lua, p.iter().map(String::as_str))?)?;
                    per.raw_set(key, e)?;
                } else {
                    per.raw_set(key, r.cost)?;
                }
            }
            Ok(out)
        })?,
    )?;
    // check_facing(group, {labels}, facing, budget?, opts?) -> cost, or a refusal naming the clause
    t.raw_set(
        "check_facing",
        lua.create_function(
            |lua,
             (g, path, facing, b, opts): (
                Value,
                Vec<String>,
                Value,
                Option<f64>,
                Option<Table>,
            )| {
                let (map, rules) = rules_of(lua)?;
                let (_units, board) = board_of(lua, &map, &rules)?;
                let group = group_of(&board, g)?;
                let facing = facing_of(&facing)?;
                let (_, fo) = options(lua, &opts, "hex.path.check_facing")?;
                let mut hexes = Vec::new();
                for l in &path {
                    match map.parse_label(l) {
                        Some(h) => hexes.push(h),
                        None => {
                            // (a place not on the board: a malformed command)
                            return refusal(
                                lua,
                                "command",
                                &format!("'{l}' is not a hex of the map"),
                            );
                        }
                    }
                }
                charge_search(lua, hexes.len())?;
                match check_move(
                    &map,
                    &rules,
                    &board,
                    &group,
                    budget(&board, &group, b),
                    &hexes,
                    facing,
                    fo,
                )
                .map_err(runtime)?
                {
                    Ok(c) => Ok(Value::Integer(c as i64)),
                    Err(r) => refusal(lua, &r.clause, &r.reason),
                }
            },
        )?,
    )?;
    // stack_legal({kinds}) -> ANC-5.1 / TA-R19
    t.raw_set(
        "stack_legal",
        lua.create_function(|lua, kinds: Vec<String>| {
            let (_map, rules) = rules_of(lua)?;
            Ok(rules.stack_legal(kinds.iter().map(String::as_str)))
        })?,
    )?;
    // in_contact(unit) -> whether the unit's hex is adjacent to an enemy in good order (TA-R10)
    t.raw_set(
        "in_contact",
        lua.create_function(|lua, id: String| {
            let (map, rules) = rules_of(lua)?;
            let (units, board) = board_of(lua, &map, &rules)?;
            let i = board
                .unit_index(&id)
                .ok_or_else(|| runtime(format!("hex.path: no unit '{id}' in play")))?;
            let Some(hex) = units[i].at.as_deref().and_then(|a| map.parse_label(a)) else {
                return Ok(false);
            };
            Ok(board.in_contact(i, hex))
        })?,
    )?;
    // front(unit) -> the labels of the unit's front hexes (its declared arc)
    t.raw_set(
        "front",
        lua.create_function(|lua, id: String| {
            let (map, rules) = rules_of(lua)?;
            let (_units, board) = board_of(lua, &map, &rules)?;
            let i = board
                .unit_index(&id)
                .ok_or_else(|| runtime(format!("hex.path: no unit '{id}' in play")))?;
            let labels: Vec<String> = board
                .front_hexes(&map, i)
                .into_iter()
                .map(|h| map.label(h))
                .collect();
            string_list(lua, labels.iter().map(String::as_str))
        })?,
    )?;
    Ok(())
}

fn refusal(lua: &Lua, rule: &str, reason: &str) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    t.raw_set("rule", rule)?;
    t.raw_set("reason", reason)?;
    let mt: Table = lua.named_registry_value(REFUSAL_MT_KEY)?;
    t.set_metatable(Some(mt))?;
    Ok(Value::Table(t))
}

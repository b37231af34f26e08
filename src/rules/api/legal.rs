//! `hex.commands.legal(side, filter?)`: the legal commands as the rules' own `legal` functions
//! return them, as Lua tables, without leaving the VM. A bot written in Lua lists only what it
//! needs (one unit's moves, the attacks) instead of receiving every command of every unit
//! converted to Rust and back. `lazy_list(side)` is the list a bot receives as its `legal`
//! argument: built on first use, so a bot that never reads it never pays for it.
//!
//! Order: command names in byte order (as the host's `legal_commands` lists them), each
//! command's list in its own order, then `{command = "end_phase"}` when the rules define no
//! `legal` for `end_phase` (the engine then lists it itself).
//!
//! Cost: a filter naming a command calls that command's `legal` only; without a unit to match,
//! its list (a sequence) is copied in one `table.move` instead of item by item from Rust (the
//! F40 lists run to hundreds of placements or drops).

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::COMMANDS_KEY;
use crate::rules::convert::listing_of;

/// What a filter asks for: a command name and/or a unit id.
struct Filter {
    command: Option<String>,
    unit: Option<String>,
}

impl Filter {
    fn read(lua: &Lua, filter: &Option<Table>) -> mlua::Result<Filter> {
        Ok(match filter {
            None => Filter {
                command: None,
                unit: None,
            },
            Some(t) => {
                super::only_options(lua, Some(t), &["command", "unit"], "hex.commands.legal")?;
                Filter {
                    command: t.raw_get("command")?,
                    unit: t.raw_get("unit")?,
                }
            }
        })
    }

    /// Refuses a command the rules do not define and a unit not in play: a misspelt `mvoe` or
    /// unit id listed nothing, as if that command or unit had nothing legal.
    fn check(&self, lua: &Lua, commands: &Table) -> mlua::Result<()> {
        if let Some(name) = self.command.as_deref() {
            if name != "end_phase" && !commands.contains_key(name)? {
                let mut names = Vec::new();
                for pair in commands.pairs::<String, Value>() {
                    names.push(pair?.0);
                }
                // (the engine's own, listed when the rules do not list it)
                if !names.iter().any(|n| n == "end_phase") {
                    names.push("end_phase".into());
                }
                names.sort();
                let near = crate::spelling::nearest(name, names.iter().map(String::as_str), 0)
                    .map(|n| format!(" (did you mean '{n}'?)"))
                    .unwrap_or_default();
                return Err(mlua::Error::runtime(format!(
                    "hex.commands.legal: option 'command': the rules define no command '{}'{near} \
                     (their commands: {})",
                    crate::spelling::clipped(name, 40),
                    names.join(", ")
                )));
            }
        }
        if let Some(unit) = self.unit.as_deref() {
            // (a unit out of play has no legal command, and a bot may well ask of one it knew:
            // only an id the game never had is a mistake)
            let hint = super::with_state(lua, |state| {
                let known = state.units.contains_key(unit) || state.gone.contains_key(unit);
                Ok((!known).then(|| {
                    super::with_host(lua, |h| {
                        crate::spelling::unit_hint(&h.map, &state.units, unit)
                    })
                }))
            })?;
            if let Some(hint) = hint {
                return Err(mlua::Error::runtime(format!(
                    "hex.commands.legal: option 'unit': no unit '{}' in play{}",
                    crate::spelling::clipped(unit, 40),
                    hint?
                )));
            }
        }
        Ok(())
    }

    /// Whether a listed command orders the filter's unit (its `unit`, or one of its `units`).
    fn unit_matches(&self, item: &Value) -> mlua::Result<bool> {
        let Some(unit) = &self.unit else {
            return Ok(true);
        };
        let Value::Table(t) = item else {
            return Ok(false);
        };
        if let Value::String(s) = t.raw_get::<Value>("unit")? {
            return Ok(s.to_str()? == unit.as_str());
        }
        if let Value::Table(list) = t.raw_get::<Value>("units")? {
            for v in list.sequence_values::<Value>() {
                if let Value::String(s) = v? {
                    if s.to_str()? == unit.as_str() {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }
}

/// The legal commands of `side` that `filter` matches, as a fresh Lua sequence. `copy`: the
/// VM's own `table.move`, taken before any script ran (None: copied item by item).
pub(crate) fn legal_list(
    lua: &Lua,
    side: &str,
    filter: Option<Table>,
    copy: Option<&Function>,
) -> mlua::Result<Table> {
    let wanted = Filter::read(lua, &filter)?;
    let commands: Table = lua.named_registry_value(COMMANDS_KEY)?;
    wanted.check(lua, &commands)?;
    if let (Some(name), None) = (wanted.command.as_deref(), &wanted.unit) {
        return one_command(lua, &commands, name, side, filter.clone(), copy);
    }
    let mut names: Vec<String> = Vec::new();
    for pair in commands.pairs::<String, Value>() {
        names.push(pair?.0);
    }
    names.sort();
    let out = lua.create_table()?;
    let mut end_phase_listed_by_rules = false;
    for name in &names {
        let def: Table = commands.raw_get(name.as_str())?;
        let Value::Function(legal) = def.raw_get::<Value>("legal")? else {
            continue;
        };
        if name == "end_phase" {
            end_phase_listed_by_rules = true;
        }
        if wanted.command.as_deref().is_some_and(|c| c != name) {
            continue;
        }
        let legal: Function = legal;
        let list: Value = legal.call((side, filter.clone()))?;
        if let Some((list, n)) = listing_of(&list).map_err(|e| misshapen(name, &legal, e))? {
            for i in 1..=n {
                let item = list.raw_get::<Value>(i)?;
                if wanted.unit_matches(&item)? {
                    out.raw_push(item)?;
                }
            }
        }
    }
    let end_phase_wanted = wanted.command.as_deref().is_none_or(|c| c == "end_phase");
    if !end_phase_listed_by_rules && end_phase_wanted && wanted.unit.is_none() {
        let end = lua.create_table()?;
        end.raw_set("command", "end_phase")?;
        out.raw_push(end)?;
    }
    Ok(out)
}

/// A listing of the wrong shape as an error naming the command and where its `legal` is.
fn misshapen(name: &str, legal: &Function, why: String) -> mlua::Error {
    let place = crate::rules::host::origin_of(legal);
    mlua::Error::runtime(format!(
        "hex.commands.legal: legal '{name}' ({place}) {why}"
    ))
}

/// The list of one command `name` with no unit to match: what `legal_list` gives for it, the
/// rules' list copied whole.
fn one_command(
    lua: &Lua,
    commands: &Table,
    name: &str,
    side: &str,
    filter: Option<Table>,
    copy: Option<&Function>,
) -> mlua::Result<Table> {
    let legal = match commands.raw_get::<Value>(name)? {
        Value::Table(def) => def.raw_get::<Value>("legal")?,
        _ => Value::Nil,
    };
    let out = lua.create_table()?;
    let Value::Function(legal) = legal else {
        // No `legal`: nothing listed, but `end_phase`, which the engine lists itself.
        if name == "end_phase" {
            let end = lua.create_table()?;
            end.raw_set("command", "end_phase")?;
            out.raw_push(end)?;
        }
        return Ok(out);
    };
    let answer = legal.call::<Value>((side, filter))?;
    // (items 1 to n, none missing: a hole is the listing's error, as in the host's listing)
    let Some((list, n)) = listing_of(&answer).map_err(|e| misshapen(name, &legal, e))? else {
        return Ok(out);
    };
    match copy {
        Some(copy) if list.metatable().is_none() => {
            if n > 0 {
                copy.call::<()>((list, 1, n, 1, &out))?;
            }
        }
        _ => {
            for i in 1..=n {
                out.raw_push(list.raw_get::<Value>(i)?)?;
            }
        }
    }
    Ok(out)
}

/// A list that fills itself with every legal command of `side` when first read (`#list`,
/// `list[i]`, `ipairs(list)`), then behaves as a plain sequence.
///
/// Its metamethods are host functions that drop a table's metatable: a script that reached
/// them could strip the read-only lock off `hex.dice` or `string`. So `getmetatable` answers
/// `false` for the list (`__metatable`), and each metamethod works only on the list it was
/// made for (its address, kept without a reference that would keep it alive).
pub(crate) fn lazy_list(lua: &Lua, side: &str) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    let meta = lua.create_table()?;
    let own = list.to_pointer() as usize;
    let fill = {
        let side = side.to_string();
        lua.create_function(move |lua, list: Table| -> mlua::Result<()> {
            if list.to_pointer() as usize != own {
                return Err(mlua::Error::runtime(
                    "legal list: a list's metamethod used on another table",
                ));
            }
            // Filled once: drop the metatable so later reads are plain.
            list.set_metatable(None)?;
            for item in legal_list(lua, &side, None, None)?.sequence_values::<Value>() {
                list.raw_push(item?)?;
            }
            Ok(())
        })?
    };
    let index = {
        let fill = fill.clone();
        lua.create_function(move |_, (list, key): (Table, Value)| {
            fill.call::<()>(list.clone())?;
            list.raw_get::<Value>(key)
        })?
    };
    let len = lua.create_function(move |_, args: MultiValue| {
        let list = match args.into_iter().next() {
            Some(Value::Table(t)) => t,
            _ => return Err(mlua::Error::runtime("legal list: # on a non-table")),
        };
        fill.call::<()>(list.clone())?;
        Ok(list.raw_len())
    })?;
    meta.raw_set("__index", index)?;
    meta.raw_set("__len", len)?;
    meta.raw_set("__metatable", false)?;
    list.set_metatable(Some(meta))?;
    Ok(list)
}

/// Adds `legal` to the `hex.commands` table.
pub fn register(lua: &Lua, commands: &Table) -> mlua::Result<()> {
    // Taken now, before any script could replace it.
    let copy: Option<Function> = lua
        .globals()
        .raw_get::<Option<Table>>("table")?
        .map(|t| t.raw_get::<Option<Function>>("move"))
        .transpose()?
        .flatten();
    commands.raw_set(
        "legal",
        lua.create_function(move |lua, (side, filter): (String, Option<Table>)| {
            // (a side the scenario lacks has no commands, not even end_phase; a misspelt side
            // would otherwise read as one that may only end the phase)
            super::known_side(lua, &side, "hex.commands.legal")?;
            legal_list(lua, &side, filter, copy.as_ref())
        })?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot used the list's `__len` on `hex.dice` to strip its lock and load the dice: the
    /// metatable is hidden from scripts, and its metamethods refuse any other table.
    #[test]
    fn a_legal_lists_metamethods_are_hidden_and_refuse_another_table() {
        let lua = Lua::new();
        let list = lazy_list(&lua, "red").unwrap();
        let seen: Value = lua
            .load("local l = ...; return getmetatable(l)")
            .call(list.clone())
            .unwrap();
        assert_eq!(seen, Value::Boolean(false));
        let meta = list.metatable().unwrap();
        let locked = lua.create_table().unwrap();
        locked
            .set_metatable(Some(lua.create_table().unwrap()))
            .unwrap();
        for name in ["__len", "__index"] {
            let f: Function = meta.raw_get(name).unwrap();
            let e = f.call::<Value>((locked.clone(), 1)).unwrap_err();
            assert!(
                e.to_string()
                    .contains("legal list: a list's metamethod used on another table"),
                "{name}: {e}"
            );
            assert!(locked.metatable().is_some(), "{name} dropped the lock");
        }
    }
}

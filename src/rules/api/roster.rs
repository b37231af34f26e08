//! Light unit views for rules and bots that loop over many units many times (a bot choosing
//! one command at a time, a legal list checking stacks): `hex.units.ids` gives ids only and
//! `hex.units.brief` a few plain fields, without the status and attribute tables a full
//! `hex.units.get` view builds.
//!
//!   hex.units.ids(side?, {on_map = true, with = {flags}, without = {flags}}?) -> {id ...}
//!   hex.units.brief(side?, {off_map = true}?) -> { {id, side, nation, type, size, strength, ma, at,
//!     class} ... } (`class`: the movement class the engine gives the unit, when the rules
//!     declare movement)
//!     (units on the map; with `off_map`, those off it too, `at` nil)
//!
//!   hex.units.gone_for(reason) -> the views of `hex.units.gone()` whose reason is `reason`
//!     (a reserve pool: "pool"), without converting the eliminated units
//!
//! `side` nil means every side; the lists are in id order.

use mlua::{Lua, Table};

use super::{with_host, with_state};
use crate::engine::Unit;
use crate::rules::convert::unit_to_lua;

struct Selection {
    side: Option<String>,
    on_map: bool,
    with: Vec<String>,
    without: Vec<String>,
}

impl Selection {
    fn read(side: Option<String>, opts: Option<Table>) -> mlua::Result<Selection> {
        let mut s = Selection {
            side,
            on_map: false,
            with: Vec::new(),
            without: Vec::new(),
        };
        if let Some(o) = opts {
            s.on_map = o.raw_get::<Option<bool>>("on_map")?.unwrap_or(false);
            s.with = o
                .raw_get::<Option<Vec<String>>>("with")?
                .unwrap_or_default();
            s.without = o
                .raw_get::<Option<Vec<String>>>("without")?
                .unwrap_or_default();
        }
        Ok(s)
    }

    fn matches(&self, u: &Unit) -> bool {
        self.side.as_deref().is_none_or(|s| s == u.side)
            && (!self.on_map || u.at.is_some())
            && self.with.iter().all(|f| u.status.contains(f))
            && !self.without.iter().any(|f| u.status.contains(f))
    }
}

/// Whole numbers as Lua integers, like the full views.
fn whole_or_float(x: f64) -> mlua::Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        mlua::Value::Integer(x as i64)
    } else {
        mlua::Value::Number(x)
    }
}

/// Adds `ids`, `brief` and `gone_for` to the `hex.units` table.
pub fn register(lua: &Lua, units: &Table) -> mlua::Result<()> {
    units.raw_set(
        "gone_for",
        lua.create_function(|lua, reason: String| {
            with_state(lua, |s| {
                let out = lua.create_table()?;
                for g in s.gone.values().filter(|g| g.reason == reason) {
                    let u = unit_to_lua(lua, &g.unit)?;
                    u.raw_set("gone_reason", g.reason.as_str())?;
                    u.raw_set("eliminated", g.eliminated)?;
                    u.raw_set("gone_turn", g.turn)?;
                    out.raw_push(u)?;
                }
                Ok(out)
            })
        })?,
    )?;
    units.raw_set(
        "ids",
        lua.create_function(|lua, (side, opts): (Option<String>, Option<Table>)| {
            let selection = Selection::read(side, opts)?;
            with_state(lua, |s| {
                let out = lua.create_table()?;
                for u in s.units.values().filter(|u| selection.matches(u)) {
                    out.raw_push(u.id.as_str())?;
                }
                Ok(out)
            })
        })?,
    )?;
    units.raw_set(
        "brief",
        lua.create_function(|lua, (side, opts): (Option<String>, Option<Table>)| {
            let off_map = match opts {
                Some(o) => o.raw_get::<Option<bool>>("off_map")?.unwrap_or(false),
                None => false,
            };
            let rules = with_host(lua, |h| h.path.clone())?;
            with_state(lua, |s| {
                let out = lua.create_table()?;
                for u in s.units.values() {
                    let at = u.at.as_deref();
                    if at.is_none() && !off_map {
                        continue;
                    }
                    if side.as_deref().is_some_and(|side| side != u.side) {
                        continue;
                    }
                    let t = lua.create_table_with_capacity(0, 9)?;
                    t.raw_set("id", u.id.as_str())?;
                    t.raw_set("side", u.side.as_str())?;
                    t.raw_set("nation", u.nation.as_str())?;
                    t.raw_set("type", u.kind.as_str())?;
                    t.raw_set("size", u.size.as_str())?;
                    t.raw_set("strength", whole_or_float(u.strength))?;
                    t.raw_set("ma", whole_or_float(u.ma))?;
                    if let Some(r) = &rules {
                        if let Some(class) = r
                            .profile
                            .class_of(u)
                            .ok()
                            .and_then(|c| r.profile.classes().get(c))
                        {
                            t.raw_set("class", class.as_str())?;
                        }
                    }
                    t.raw_set("at", at)?;
                    out.raw_push(t)?;
                }
                Ok(out)
            })
        })?,
    )
}

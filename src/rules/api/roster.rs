//! Light unit views for rules and bots that loop over many units many times (a bot choosing
//! one command at a time, a legal list checking stacks): `hex.units.ids` gives ids only and
//! `hex.units.brief` a few plain fields, without the status and attribute tables a full
//! `hex.units.get` view builds.
//!
//!   hex.units.ids(side?, {on_map = true, with = {flags}, without = {flags}, limit = N}?) -> {id ...}
//!     (`limit`: the first N only, for a rule that asks whether any unit matches)
//!   hex.units.brief(side?, {off_map = true}?) -> { {id, side, nation, type, size, strength, ma, at,
//!     class} ... } (`class`: the movement class the engine gives the unit, when the rules
//!     declare movement)
//!     (units on the map; with `off_map`, those off it too, `at` nil)
//!
//!   hex.units.gone_for(reason, id?) -> the views of `hex.units.gone()` whose reason is `reason`
//!     (a reserve pool: "pool"), without converting the eliminated units; with `id`, that unit's
//!     alone (an empty list when it is not gone for that reason)
//!
//! `side` nil means every side; the lists are in id order.

use mlua::{Lua, Table};

use super::{with_host, with_state};
use crate::engine::Unit;
use crate::rules::host_work::{charge_listed, charge_unit_views};
use crate::rules::lua_stack::options::{plain_options, PlainOption};
use crate::rules::lua_stack::writer::write;

/// The options `hex.units.ids` takes.
const OPTIONS: [&str; 4] = ["on_map", "with", "without", "limit"];

/// `on_map`, `with`, `without` and `limit` as the plain reading gives them.
type PlainSelection = (bool, Vec<String>, Vec<String>, usize);

struct Selection {
    side: Option<String>,
    on_map: bool,
    with: Vec<String>,
    without: Vec<String>,
    limit: usize,
}

impl Selection {
    fn read(lua: &Lua, side: Option<String>, opts: Option<Table>) -> mlua::Result<Selection> {
        let (on_map, with, without, limit) = match opts {
            None => (false, Vec::new(), Vec::new(), usize::MAX),
            Some(o) => match Selection::plain(lua, &o)? {
                Some(plain) => plain,
                None => Selection::general(lua, &o)?,
            },
        };
        Ok(Selection {
            side,
            on_map,
            with,
            without,
            limit,
        })
    }

    /// The options read key by key through mlua: any shape mlua converts, and the refusals.
    fn general(lua: &Lua, o: &Table) -> mlua::Result<PlainSelection> {
        super::only_options(lua, Some(o), &OPTIONS, "hex.units.ids")?;
        let on_map = o.raw_get::<Option<bool>>("on_map")?.unwrap_or(false);
        let statuses = "a list of status names";
        let with = super::option::<Option<Vec<String>>>(o, "with", "hex.units.ids", statuses)?
            .unwrap_or_default();
        let without =
            super::option::<Option<Vec<String>>>(o, "without", "hex.units.ids", statuses)?
                .unwrap_or_default();
        let limit = match o.raw_get::<mlua::Value>("limit")? {
            mlua::Value::Nil => usize::MAX,
            mlua::Value::Integer(n) if n >= 0 => n as usize,
            mlua::Value::Number(x) if x >= 0.0 && x.fract() == 0.0 => x as usize,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "hex.units.ids: opts.limit must be a whole number, 0 or more (got {})",
                    crate::rules::error::value_in_message(&other)
                )))
            }
        };
        Ok((on_map, with, without, limit))
    }

    /// The options read in one walk when they hold the plain shapes (`on_map` a boolean,
    /// `with`/`without` lists of names, `limit` an integer 0 or more): the same selection the
    /// general reading makes of them; `None` sends anything else to that reading.
    fn plain(lua: &Lua, opts: &Table) -> mlua::Result<Option<PlainSelection>> {
        Ok(plain_options(lua, opts, &OPTIONS)?.and_then(Selection::from_plain))
    }

    fn from_plain(read: Vec<PlainOption>) -> Option<PlainSelection> {
        let [on_map, with, without, limit]: [PlainOption; 4] = read.try_into().ok()?;
        let names = |o: PlainOption| match o {
            PlainOption::Absent => Some(Vec::new()),
            PlainOption::Names(n) => Some(n),
            _ => None,
        };
        let on_map = match on_map {
            PlainOption::Absent => false,
            PlainOption::Bool(b) => b,
            _ => return None,
        };
        let limit = match limit {
            PlainOption::Absent => usize::MAX,
            PlainOption::Count(n) => usize::try_from(n).ok()?,
            _ => return None,
        };
        Some((on_map, names(with)?, names(without)?, limit))
    }

    fn matches(&self, u: &Unit) -> bool {
        self.side.as_deref().is_none_or(|s| s == u.side)
            && (!self.on_map || u.at.is_some())
            && self.with.iter().all(|f| u.status.contains(f))
            && !self.without.iter().any(|f| u.status.contains(f))
    }
}

/// Adds `ids`, `brief` and `gone_for` to the `hex.units` table.
pub fn register(lua: &Lua, units: &Table) -> mlua::Result<()> {
    units.raw_set(
        "gone_for",
        lua.create_function(|lua, (reason, id): (String, Option<String>)| {
            with_state(lua, |s| {
                let reason = reason.as_str();
                let of_reason = move |g: &&crate::engine::GoneUnit| g.reason == reason;
                match id {
                    // (one unit: a command naming a pool unit reads its view alone)
                    Some(id) => {
                        super::units::gone_list(lua, s.gone.get(&id).into_iter().filter(of_reason))
                    }
                    None => super::units::gone_list(lua, s.gone.values().filter(of_reason)),
                }
            })
        })?,
    )?;
    units.raw_set(
        "ids",
        lua.create_function(|lua, (side, opts): (Option<String>, Option<Table>)| {
            if let Some(side) = &side {
                super::known_side(lua, side, "hex.units.ids")?;
            }
            let selection = Selection::read(lua, side, opts)?;
            with_state(lua, |s| {
                charge_listed(lua, s.units.len())?;
                let selection = &selection;
                let ids = s
                    .units
                    .values()
                    .filter(move |u| selection.matches(u))
                    .take(selection.limit);
                // (only borrows: see writer.rs)
                write::<Table, _>(lua, (), |w| {
                    w.table(0, 0);
                    for (i, u) in ids.enumerate() {
                        w.str(&u.id);
                        w.set_item(i + 1);
                    }
                })
            })
        })?,
    )?;
    units.raw_set(
        "brief",
        lua.create_function(|lua, (side, opts): (Option<String>, Option<Table>)| {
            if let Some(side) = &side {
                super::known_side(lua, side, "hex.units.brief")?;
            }
            super::only_options(lua, opts.as_ref(), &["off_map"], "hex.units.brief")?;
            let off_map = match opts {
                Some(o) => o.raw_get::<Option<bool>>("off_map")?.unwrap_or(false),
                None => false,
            };
            let rules = with_host(lua, |h| h.path.clone())?;
            with_state(lua, |s| {
                let side = side.as_deref();
                let listed: Vec<(&Unit, Option<&str>)> = s
                    .units
                    .values()
                    .filter(|u| off_map || u.at.is_some())
                    .filter(|u| side.is_none_or(|side| side == u.side))
                    .map(|u| {
                        let class = rules.as_ref().and_then(|r| {
                            let id = r.profile.class_of(u).ok()?;
                            r.profile.classes().get(id).map(String::as_str)
                        });
                        (u, class)
                    })
                    .collect();
                charge_listed(lua, s.units.len())?;
                charge_unit_views(lua, listed.len())?;
                let listed = listed.as_slice();
                // (only borrows: see writer.rs)
                write::<Table, _>(lua, (), |w| {
                    w.table(listed.len(), 0);
                    for (i, (u, class)) in listed.iter().enumerate() {
                        w.table(0, 9);
                        crate::rules::convert::write_unit_identity(w, u);
                        w.number(u.strength);
                        w.set("strength");
                        w.number(u.ma);
                        w.set("ma");
                        if let Some(class) = class {
                            w.str(class);
                            w.set("class");
                        }
                        w.opt_str(u.at.as_deref());
                        w.set("at");
                        w.set_item(i + 1);
                    }
                })
            })
        })?,
    )
}

#[cfg(test)]
mod tests {
    use mlua::{Lua, Table};

    use super::Selection;

    /// The one-walk reading gives what the key-by-key reading gives, or leaves the table to it.
    #[test]
    fn the_plain_reading_of_ids_options_agrees_with_the_general_one() {
        let lua = Lua::new();
        let plain_ones = [
            "{}",
            "{on_map = true}",
            "{on_map = false, limit = 0}",
            r#"{with = {"moved"}, limit = 1}"#,
            r#"{on_map = true, without = {"moved", "railed", "neutral"}}"#,
            r#"{with = {"a", nil, "c"}, without = {}}"#,
            r#"{with = {"dropped", n = 2}}"#,
        ];
        for code in plain_ones {
            let t: Table = lua.load(code).eval().unwrap();
            let plain = Selection::plain(&lua, &t).unwrap();
            assert_eq!(plain, Some(Selection::general(&lua, &t).unwrap()), "{code}");
        }
        // Left to the general reading: what mlua converts, and the mistakes it names.
        let general_ones = [
            ("{limit = 2.0}", Ok("(false, [], [], 2)")),
            (
                "{with = {7}}",
                Ok(r#"(false, ["7"], [], 18446744073709551615)"#),
            ),
            ("{on_map = 1}", Ok("(true, [], [], 18446744073709551615)")),
            ("{limit = -1}", Err("")),
            (r#"{with = "moved"}"#, Err("")),
            ("{wiht = {}}", Err("")),
        ];
        for (code, expected) in general_ones {
            let t: Table = lua.load(code).eval().unwrap();
            assert_eq!(Selection::plain(&lua, &t).unwrap(), None, "{code}");
            match (Selection::general(&lua, &t), expected) {
                (Ok(read), Ok(shown)) => assert_eq!(format!("{read:?}"), shown, "{code}"),
                (Err(_), Err(_)) => {}
                (got, _) => panic!("{code}: {got:?}"),
            }
        }
    }
}

//! The arguments a command declares (`hex.commands.define(name, {args = ...})`) and the host's
//! check of a command against them, before the rules' `resolve` runs. A list of names says
//! which arguments the command takes; a table of kinds says what each must hold too, so that a
//! player's `"to": null` or `"units": "g1"` is refused as the player's mistake instead of failing
//! inside a script as a rules error.

use serde_json::{Map, Value};

/// One argument a command takes: its name and, when declared, what it must hold.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgSpec {
    pub name: String,
    pub kind: Option<ArgKind>,
}

/// What an argument holds, as declared (`"place"`, `"units?"`): its shape and whether it may
/// be left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgKind {
    /// The kind as written in the declaration (given back by `hex.commands.get`).
    pub written: String,
    shape: Shape,
    optional: bool,
    /// What a value of this kind is, for a refusal (`a place label (a string)`).
    said: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    String,
    Number,
    Integer,
    Boolean,
    Table,
    List,
    Strings,
    Any,
    Direction,
}

/// The kinds a declaration may name: the name, its shape, and what a refusal says it must be.
const KINDS: [(&str, Shape, &str); 14] = [
    ("unit", Shape::String, "a unit id (a string)"),
    ("place", Shape::String, "a place label (a string)"),
    ("string", Shape::String, "a string"),
    ("units", Shape::Strings, "a list of unit ids"),
    ("places", Shape::Strings, "a list of place labels"),
    ("path", Shape::Strings, "a list of place labels"),
    ("strings", Shape::Strings, "a list of strings"),
    ("number", Shape::Number, "a number"),
    ("integer", Shape::Integer, "a whole number"),
    ("boolean", Shape::Boolean, "true or false"),
    ("list", Shape::List, "a list"),
    ("table", Shape::Table, "a table of named fields"),
    ("any", Shape::Any, "any value"),
    (
        "direction",
        Shape::Direction,
        "a direction (a whole number, 0 to 5)",
    ),
];

impl ArgKind {
    /// Reads a declared kind (`"place"`, `"units?"`: `?` makes the argument optional).
    pub fn parse(written: &str) -> Result<Self, String> {
        let (base, optional) = match written.strip_suffix('?') {
            Some(base) => (base, true),
            None => (written, false),
        };
        match KINDS.iter().find(|(name, ..)| *name == base) {
            Some(&(_, shape, said)) => Ok(ArgKind {
                written: written.to_string(),
                shape,
                optional,
                said,
            }),
            None => {
                let names: Vec<&str> = KINDS.iter().map(|(name, ..)| *name).collect();
                let near = crate::spelling::nearest(base, names.iter().copied(), 0)
                    .map(|n| format!("did you mean '{n}'? "))
                    .unwrap_or_default();
                Err(format!(
                    "'{}' is not a kind of argument ({near}the kinds: {}; a '?' after one makes \
                     the argument optional)",
                    crate::spelling::clipped(written, 100),
                    names.join(", ")
                ))
            }
        }
    }

    /// Whether the kind names places of the board (`place`, `places`, `path`), which a command
    /// given is checked against ([`unknown_place`]).
    fn names_places(&self) -> bool {
        matches!(
            self.written.trim_end_matches('?'),
            "place" | "places" | "path"
        )
    }

    /// Whether `value` is of this kind.
    fn holds(&self, value: &Value) -> bool {
        match self.shape {
            Shape::String => value.is_string(),
            Shape::Number => value.is_number(),
            // (3.0 is a whole number: Lua 5.4 makes 6 / 2 a float, and a listing gives it)
            Shape::Integer => whole(value).is_some(),
            Shape::Direction => whole(value).is_some_and(|d| (0.0..=5.0).contains(&d)),
            Shape::Boolean => value.is_boolean(),
            Shape::Table => value.is_object(),
            Shape::List => value.is_array(),
            Shape::Strings => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            Shape::Any => true,
        }
    }
}

/// A number with no fractional part, as a float (`3`, `3.0`), or None.
fn whole(value: &Value) -> Option<f64> {
    value.as_f64().filter(|x| x.is_finite() && x.fract() == 0.0)
}

/// A value as a refusal names it: its kind, and the value itself when short.
fn shown(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".into(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a table",
    };
    let text = value.to_string();
    if text.chars().count() <= 40 {
        format!("{kind}, {text}")
    } else {
        kind.to_string()
    }
}

/// Whether any argument of `specs` names places of the board (kind `place`, `places`, `path`):
/// only such commands are checked by [`unknown_place`].
pub fn names_places(specs: &[ArgSpec]) -> bool {
    specs
        .iter()
        .any(|s| s.kind.as_ref().is_some_and(ArgKind::names_places))
}

/// The first place an argument of kind `place`, `places` or `path` names that the board lacks,
/// as the refusal's reason with the nearest name (`reinforce: argument 'area': 'ASHFROD' is not
/// a location of the map (did you mean 'ASHFORD'?)`), or None. Checked when a command is
/// given, after `misfit`, so that the rules' `resolve` never meets a place that is not there.
pub fn unknown_place(
    name: &str,
    specs: &[ArgSpec],
    args: &Map<String, Value>,
    board: &crate::board::Board,
) -> Option<String> {
    for spec in specs {
        if !spec.kind.as_ref().is_some_and(ArgKind::names_places) {
            continue;
        }
        let labels: Vec<&str> = match args.get(&spec.name) {
            Some(Value::String(label)) => vec![label],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        if let Some(bad) = labels
            .into_iter()
            .find(|label| board.canonical_place(label).is_none())
        {
            return Some(format!(
                "{name}: argument '{}': '{}' is not a {} of the map{}",
                spec.name,
                crate::spelling::clipped(bad, 40),
                board.place_word(),
                board.unknown_place_hint(bad)
            ));
        }
    }
    None
}

/// The command with every place written as an area region's alias (`BRK`) replaced by the
/// region's id (`BRACKEN`), the name the game keeps, or None when it names none: the places of
/// a `move`'s path, and of the arguments `specs` declares as places. The host's checks accept
/// an alias, so the rules' `resolve` is handed the id it would put in an event (a `UnitMoved`
/// to an alias is refused as the rules' error).
pub fn with_region_ids(
    command: &crate::engine::Command,
    specs: Option<&[ArgSpec]>,
    board: &crate::board::Board,
) -> Option<crate::engine::Command> {
    use crate::engine::Command;
    if !matches!(board, crate::board::Board::Area(_)) {
        return None;
    }
    // (the id of an alias, or None for an id or a name the map lacks: the rules refuse that)
    let id = |place: &str| match board.canonical_place(place) {
        Some(std::borrow::Cow::Owned(id)) => Some(id),
        _ => None,
    };
    let ids_in = |places: &[String]| -> Option<Vec<String>> {
        places.iter().any(|p| id(p).is_some()).then(|| {
            places
                .iter()
                .map(|p| id(p).unwrap_or_else(|| p.clone()))
                .collect()
        })
    };
    match command {
        Command::Move { unit, path } => ids_in(path).map(|path| Command::Move {
            unit: unit.clone(),
            path,
        }),
        Command::EndPhase => None,
        Command::Custom { name, args } => {
            // (a facing game's move keeps its path among its fields)
            let places = |spec: &&ArgSpec| {
                spec.kind.as_ref().is_some_and(ArgKind::names_places)
                    || (name == "move" && spec.name == "path")
            };
            let specs = specs.unwrap_or_default();
            // (the arguments are copied only when a place among them is an alias: most
            // commands, Diplomacy's orders among them, name none)
            let aliased = |v: &Value| match v {
                Value::String(place) => id(place).is_some(),
                Value::Array(items) => items.iter().any(|i| i.as_str().and_then(id).is_some()),
                _ => false,
            };
            if !specs
                .iter()
                .filter(places)
                .any(|spec| args.get(&spec.name).is_some_and(aliased))
            {
                return None;
            }
            let mut changed = args.clone();
            for spec in specs.iter().filter(places) {
                let values: Vec<&mut Value> = match changed.get_mut(&spec.name) {
                    Some(Value::Array(items)) => items.iter_mut().collect(),
                    Some(one) => vec![one],
                    None => Vec::new(),
                };
                for value in values {
                    if let Some(region) = value.as_str().and_then(id) {
                        *value = Value::String(region);
                    }
                }
            }
            Some(Command::Custom {
                name: name.clone(),
                args: changed,
            })
        }
    }
}

/// Why `args` (a command's fields, `command` aside) do not fit the declaration `specs` of
/// command `name`, or None: an argument it does not take, a declared one missing, or one
/// holding the wrong kind of value. The message is the refusal's reason.
pub fn misfit(name: &str, specs: &[ArgSpec], args: &Map<String, Value>) -> Option<String> {
    if let Some(extra) = args
        .keys()
        .find(|k| *k != "command" && !specs.iter().any(|s| &s.name == *k))
    {
        let takes = if specs.is_empty() {
            "none".to_string()
        } else {
            specs
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Some(format!(
            "{name}: unknown argument '{extra}' (it takes {takes})"
        ));
    }
    for spec in specs {
        let Some(kind) = &spec.kind else { continue };
        match args.get(&spec.name) {
            None if kind.optional => {}
            None => {
                return Some(format!(
                    "{name}: argument '{}' is missing ({})",
                    spec.name, kind.said
                ))
            }
            Some(value) if kind.holds(value) => {}
            Some(value) => {
                return Some(format!(
                    "{name}: argument '{}' must be {}, not {}",
                    spec.name,
                    kind.said,
                    shown(value)
                ))
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn specs(list: &[(&str, Option<&str>)]) -> Vec<ArgSpec> {
        list.iter()
            .map(|(name, kind)| ArgSpec {
                name: name.to_string(),
                kind: kind.map(|k| ArgKind::parse(k).unwrap()),
            })
            .collect()
    }

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn kinds_are_checked_missing_ones_refused_optional_ones_not() {
        let drop = specs(&[
            ("unit", Some("unit")),
            ("to", Some("place")),
            ("note", Some("string?")),
        ]);
        assert_eq!(
            misfit("drop", &drop, &args(json!({"unit": "p1", "to": "0301"}))),
            None
        );
        assert_eq!(
            misfit("drop", &drop, &args(json!({"unit": "p1", "to": null}))).unwrap(),
            "drop: argument 'to' must be a place label (a string), not null"
        );
        assert_eq!(
            misfit("drop", &drop, &args(json!({"unit": "p1"}))).unwrap(),
            "drop: argument 'to' is missing (a place label (a string))"
        );
        assert_eq!(
            misfit("drop", &drop, &args(json!({"unit": 7, "to": "0301"}))).unwrap(),
            "drop: argument 'unit' must be a unit id (a string), not a number, 7"
        );
        assert_eq!(
            misfit(
                "drop",
                &drop,
                &args(json!({"unit": "p1", "to": "0301", "tp": 1}))
            )
            .unwrap(),
            "drop: unknown argument 'tp' (it takes unit, to, note)"
        );
        let attack = specs(&[("hex", Some("place")), ("units", Some("units"))]);
        assert_eq!(
            misfit(
                "attack",
                &attack,
                &args(json!({"hex": "0302", "units": "g1"}))
            )
            .unwrap(),
            "attack: argument 'units' must be a list of unit ids, not a string, \"g1\""
        );
        assert_eq!(
            misfit(
                "attack",
                &attack,
                &args(json!({"hex": "0302", "units": ["g1", 2]}))
            )
            .unwrap(),
            "attack: argument 'units' must be a list of unit ids, not a list, [\"g1\",2]"
        );
        // Names only: any value, and an argument may be left out.
        let untyped = specs(&[("unit", None), ("to", None)]);
        assert_eq!(misfit("rail", &untyped, &args(json!({"to": null}))), None);
    }

    #[test]
    fn an_unknown_kind_is_named_with_the_nearest() {
        assert_eq!(
            ArgKind::parse("plce").unwrap_err(),
            "'plce' is not a kind of argument (did you mean 'place'? the kinds: unit, place, \
             string, units, places, path, strings, number, integer, boolean, list, table, any, \
             direction; a '?' after one makes the argument optional)"
        );
        assert!(ArgKind::parse("integer?").unwrap().holds(&json!(3)));
        assert!(ArgKind::parse("integer").unwrap().holds(&json!(3.0)));
        assert!(!ArgKind::parse("integer").unwrap().holds(&json!(2.5)));
        let direction = ArgKind::parse("direction").unwrap();
        assert!(direction.holds(&json!(5)) && direction.holds(&json!(0.0)));
        assert!(!direction.holds(&json!(6)) && !direction.holds(&json!(-1)));
    }
}

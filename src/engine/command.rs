//! Commands: what a player asks for (imperative). The rules check them; a refused command leaves
//! the state untouched (DESIGN.md principle 4).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A player's order. Written flat in files and in Lua: `{command = "move", unit = "b1",
/// path = {"0203", "0204"}}`, `{command = "end_phase"}`, `{command = "attack", from = ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Map<String, Value>", into = "Map<String, Value>")]
pub enum Command {
    /// Move a unit along a path of hex labels (the destination last). A move that also gives
    /// a `facing` or `units` (its path may then be empty) is kept as `Custom { name: "move" }` with all
    /// its fields.
    Move { unit: String, path: Vec<String> },
    /// The phasing side is done with the current phase.
    EndPhase,
    /// Any other order the rules define (`attack`, `drop`, `orders` for Diplomacy ...).
    Custom {
        name: String,
        args: Map<String, Value>,
    },
}

impl Command {
    /// The name the rules register a handler under (`move`, `end_phase`, or the custom name).
    pub fn name(&self) -> &str {
        match self {
            Command::Move { .. } => "move",
            Command::EndPhase => "end_phase",
            Command::Custom { name, .. } => name,
        }
    }
}

impl From<Command> for Map<String, Value> {
    fn from(command: Command) -> Self {
        let mut map = Map::new();
        match command {
            Command::Move { unit, path } => {
                map.insert("command".into(), "move".into());
                map.insert("unit".into(), unit.into());
                map.insert("path".into(), path.into());
            }
            Command::EndPhase => {
                map.insert("command".into(), "end_phase".into());
            }
            Command::Custom { name, args } => {
                map = args;
                map.insert("command".into(), name.into());
            }
        }
        map
    }
}

/// How deep a command's arguments may nest (`{units = {...}}` is 2): far more than any rules
/// need, and below what the Lua host builds as a view for the rules (100 levels).
pub const MAX_COMMAND_DEPTH: usize = 64;

/// Why `args` nest too deep to be a command, or None.
pub(crate) fn too_deep(args: &Map<String, Value>) -> Option<String> {
    fn depth(v: &Value, at: usize) -> usize {
        if at > MAX_COMMAND_DEPTH {
            return at;
        }
        match v {
            Value::Array(items) => items.iter().map(|x| depth(x, at + 1)).max().unwrap_or(at),
            Value::Object(m) => m.values().map(|x| depth(x, at + 1)).max().unwrap_or(at),
            _ => at,
        }
    }
    let deepest = args.values().map(|v| depth(v, 1)).max().unwrap_or(0);
    (deepest > MAX_COMMAND_DEPTH)
        .then(|| format!("the command's arguments nest more than {MAX_COMMAND_DEPTH} levels deep"))
}

/// Whether a move's arguments give an empty path (`[]`, or `{}` as an empty Lua table comes):
/// a turn in place for a game whose rules define `move`, else a move that goes nowhere.
pub(crate) fn has_empty_path(args: &Map<String, Value>) -> bool {
    args.get("path").is_some_and(|p| {
        p.as_array().is_some_and(Vec::is_empty) || p.as_object().is_some_and(Map::is_empty)
    })
}

impl TryFrom<Map<String, Value>> for Command {
    type Error = String;

    fn try_from(mut map: Map<String, Value>) -> Result<Self, Self::Error> {
        let name = match map.remove("command") {
            Some(Value::String(name)) => name,
            _ => {
                // (a misspelt key, `comand`, is named: the table has the command, under it)
                let misspelt =
                    crate::spelling::nearest("command", map.keys().map(String::as_str), 0)
                        .map(|key| format!(" (did you mean 'command' for '{key}'?)"))
                        .unwrap_or_default();
                return Err(format!(
                    "a command needs a string field 'command' (move, end_phase, ...){misspelt}"
                ));
            }
        };
        // A move that also gives an end facing or a group of units (facing games,
        // docs/facing.md; its path may be empty: a turn in place), or an empty path (a turn in
        // place, or no move: the rules say which), goes to the rules whole.
        if name == "move"
            && (map.contains_key("facing") || map.contains_key("units") || has_empty_path(&map))
        {
            // (a turn in place's empty path, which an empty Lua table gives as an empty map:
            // listed as `path = {}`, a TOML table and a JSON object beside every other list)
            if let Some(path) = map.get_mut("path") {
                if path.as_object().is_some_and(Map::is_empty) {
                    *path = Value::Array(Vec::new());
                }
            }
            return Ok(Command::Custom { name, args: map });
        }
        match name.as_str() {
            "move" => {
                // (the engine's `move` has these fields only: another would be dropped unread;
                // named first, so that `unit_id` or `hexes` is not read as a missing unit or path)
                const MOVE_ARGS: [&str; 3] = ["unit", "path", "to"];
                if let Some(extra) = map.keys().find(|k| !MOVE_ARGS.contains(&k.as_str())) {
                    // (the words people write for them: `hexes` for the path, `dest` for `to`)
                    let said = match extra.as_str() {
                        "hexes" | "route" | "steps" => Some("path"),
                        "dest" | "destination" | "target" => Some("to"),
                        "id" => Some("unit"),
                        _ => None,
                    };
                    let meant = said
                        .or_else(|| crate::spelling::nearest(extra, MOVE_ARGS, 0))
                        .or_else(|| MOVE_ARGS.into_iter().find(|a| extra.contains(a)))
                        .map(|a| format!(" (did you mean '{a}'?)"))
                        .unwrap_or_default();
                    return Err(format!(
                        "move: unknown argument '{extra}'{meant} (a move takes unit and path, or \
                         to; facing and units make it a facing game's move; a command of the \
                         rules' own takes any)"
                    ));
                }
                let Some(Value::String(unit)) = map.remove("unit") else {
                    return Err("move: 'unit' must be a unit id string".into());
                };
                // (both: one of them would be dropped unread)
                if map.contains_key("path") && map.contains_key("to") {
                    return Err(
                        "move: give 'path' (every hex entered) or 'to' (one step), not both".into(),
                    );
                }
                let path = match map.remove("path") {
                    Some(Value::Array(items)) => items
                        .into_iter()
                        .map(|v| match v {
                            Value::String(s) => Ok(s),
                            other => Err(format!(
                                "move: path entries must be hex labels, found {other}"
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(Value::String(to)) => vec![to],
                    _ => match map.remove("to") {
                        Some(Value::String(to)) => vec![to],
                        _ => return Err(
                            "move: give 'path' (a list of hex labels or area locations) or 'to'"
                                .into(),
                        ),
                    },
                };
                Ok(Command::Move { unit, path })
            }
            "end_phase" => match map.keys().next() {
                // (the engine's own command has no arguments: one would be dropped unread)
                Some(extra) => Err(format!(
                    "end_phase: unknown argument '{extra}' (it takes none)"
                )),
                None => Ok(Command::EndPhase),
            },
            _ => Ok(Command::Custom { name, args: map }),
        }
    }
}

/// Why a command was refused: the rule (clause id) and a sentence for the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct Refusal {
    /// The clause that refused it (`F40-6.4`, `DIP-4.b`), or one of the engine's own
    /// [`Refusal::ENGINE_RULES`] for a command the rules never judged.
    pub rule: String,
    /// What was wrong, a sentence for the player.
    pub reason: String,
}

impl Refusal {
    /// The rule ids of refusals the engine makes before any game rule judges the command:
    /// `command` (a malformed command: an argument unknown, missing, of the wrong kind or
    /// naming no place of the board), `rules` (no rule handles a command of that name),
    /// `sequence` (not that side's phase), `setup` (a position the engine cannot set up). A
    /// client tells a malformed request from an illegal move with [`Refusal::by_engine`].
    pub const ENGINE_RULES: [&'static str; 4] = [
        Self::MALFORMED,
        Self::NO_SUCH_COMMAND,
        Self::NOT_NOW,
        Self::SETUP,
    ];
    /// The rule of a malformed command (`refusal.rule == Refusal::MALFORMED`), so a client
    /// matches the engine's refusals without spelling them.
    pub const MALFORMED: &'static str = "command";
    /// The rule of a command no rule handles.
    pub const NO_SUCH_COMMAND: &'static str = "rules";
    /// The rule of a command out of turn: another side's phase, a finished or unstarted game.
    pub const NOT_NOW: &'static str = "sequence";
    /// The rule of a position the engine cannot set up.
    pub const SETUP: &'static str = "setup";

    /// Why a move with an empty path is malformed (rule `command`), whether the engine or the
    /// rules' path check (`hex.path`) finds it: one refusal however the command was built.
    pub const NO_PATH: &'static str = "a move needs a path of at least one hex";

    /// Whether the engine refused the command before the game's rules judged it (see
    /// [`Refusal::ENGINE_RULES`]), as opposed to a rule of the game (`F40-6.4`).
    pub fn by_engine(&self) -> bool {
        Self::ENGINE_RULES.contains(&self.rule.as_str())
    }

    /// The longest reason and rule id kept (bytes): a refusal quoting a client's 10 MB unit id
    /// or side name, or a mod's runaway reason, reached the host and the log whole.
    pub const REASON_LIMIT: usize = 4096;
    pub const RULE_LIMIT: usize = 128;

    pub fn new(rule: impl Into<String>, reason: impl Into<String>) -> Self {
        Refusal {
            rule: cut(rule.into(), Self::RULE_LIMIT),
            reason: cut(reason.into(), Self::REASON_LIMIT),
        }
    }
}

/// `text` cut to at most `limit` bytes (at a character boundary) and marked, when longer.
fn cut(mut text: String, limit: usize) -> String {
    if text.len() <= limit {
        return text;
    }
    let all = text.len();
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(&format!("... ({all} bytes in all)"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: serde_json::Value) -> Result<Command, String> {
        match json {
            Value::Object(map) => Command::try_from(map),
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_refusal_keeps_at_most_its_limits_of_text() {
        let r = Refusal::new("x".repeat(200), format!("no unit {}", "é".repeat(5000)));
        assert_eq!(r.rule, format!("{}... (200 bytes in all)", "x".repeat(128)));
        // (cut at a character boundary: "no unit " is 8 bytes, each é 2)
        assert_eq!(
            r.reason,
            format!("no unit {}... (10008 bytes in all)", "é".repeat(2044))
        );
        let short = Refusal::new("DEMO-1", "no unit nope");
        assert_eq!(
            (short.rule.as_str(), short.reason.as_str()),
            ("DEMO-1", "no unit nope")
        );
    }

    #[test]
    fn a_move_gives_a_path_or_one_step_not_both() {
        assert_eq!(
            parse(serde_json::json!({"command": "move", "unit": "b1", "to": "0203"})),
            Ok(Command::Move {
                unit: "b1".into(),
                path: vec!["0203".into()]
            })
        );
        assert_eq!(
            parse(
                serde_json::json!({"command": "move", "unit": "b1", "path": ["0203"], "to": "0304"})
            )
            .unwrap_err(),
            "move: give 'path' (every hex entered) or 'to' (one step), not both"
        );
    }

    #[test]
    fn a_move_without_its_unit_names_a_misspelt_key() {
        // (the unknown key first: `unit_id` and `hexes` were read as a unit or path missing)
        let tail = "(a move takes unit and path, or to; facing and units make it a facing \
                    game's move; a command of the rules' own takes any)";
        for (key, meant) in [("unti", "unit"), ("unit_id", "unit"), ("hexes", "path")] {
            let mut json = serde_json::json!({"command": "move", "unit": "b1", "path": ["0203"]});
            let value = json[meant].take();
            json.as_object_mut().unwrap().remove(meant);
            json[key] = value;
            assert_eq!(
                parse(json).unwrap_err(),
                format!("move: unknown argument '{key}' (did you mean '{meant}'?) {tail}")
            );
        }
        assert_eq!(
            parse(serde_json::json!({"command": "move", "unit": 5, "path": ["0203"]})).unwrap_err(),
            "move: 'unit' must be a unit id string"
        );
    }

    #[test]
    fn a_command_without_its_name_names_a_misspelt_key() {
        assert_eq!(
            parse(serde_json::json!({"comand": "move", "unit": "b1"})).unwrap_err(),
            "a command needs a string field 'command' (move, end_phase, ...) (did you mean 'command' for 'comand'?)"
        );
        assert_eq!(
            parse(serde_json::json!({"unit": "b1"})).unwrap_err(),
            "a command needs a string field 'command' (move, end_phase, ...)"
        );
    }

    #[test]
    fn a_move_names_the_field_meant_by_a_common_word_for_it() {
        let tail = "(a move takes unit and path, or to; facing and units make it a facing \
                    game's move; a command of the rules' own takes any)";
        for (key, meant) in [
            ("hexes", "path"),
            ("route", "path"),
            ("steps", "path"),
            ("dest", "to"),
            ("destination", "to"),
            ("target", "to"),
            ("id", "unit"),
        ] {
            let mut json = serde_json::json!({"command": "move", "unit": "b1", "path": ["0203"]});
            json[key] = serde_json::json!("x");
            assert_eq!(
                parse(json).unwrap_err(),
                format!("move: unknown argument '{key}' (did you mean '{meant}'?) {tail}")
            );
        }
    }

    #[test]
    fn a_path_given_as_one_label_is_a_one_step_move() {
        assert_eq!(
            parse(serde_json::json!({"command": "move", "unit": "b1", "path": "0203"})),
            Ok(Command::Move {
                unit: "b1".into(),
                path: vec!["0203".into()]
            })
        );
    }

    /// An empty path, or a group of units, makes a move the rules' own, kept whole; an empty
    /// Lua table's `{}` is read as the empty list it stands for.
    #[test]
    fn a_move_in_place_or_of_a_group_goes_to_the_rules_whole() {
        let custom = |args: serde_json::Value| Command::Custom {
            name: "move".into(),
            args: args.as_object().unwrap().clone(),
        };
        for path in [serde_json::json!([]), serde_json::json!({})] {
            assert_eq!(
                parse(serde_json::json!({"command": "move", "unit": "b1", "path": path})),
                Ok(custom(serde_json::json!({"unit": "b1", "path": []})))
            );
        }
        assert_eq!(
            parse(serde_json::json!({"command": "move", "units": ["b1", "b2"], "path": ["0203"]})),
            Ok(custom(
                serde_json::json!({"units": ["b1", "b2"], "path": ["0203"]})
            ))
        );
    }

    /// Tables nest as deep as lists do: both are counted.
    #[test]
    fn arguments_nested_in_tables_are_counted_as_lists_are() {
        let nested = |levels: usize| {
            let mut value = serde_json::json!("x");
            for _ in 1..levels {
                value = serde_json::json!({ "in": value });
            }
            let mut args = Map::new();
            args.insert("orders".into(), value);
            args
        };
        assert_eq!(
            too_deep(&nested(65)),
            Some("the command's arguments nest more than 64 levels deep".into())
        );
        assert_eq!(too_deep(&nested(64)), None);
    }

    /// A cut falling inside a character moves back to the character's start, never past the
    /// limit.
    #[test]
    fn a_refusal_cut_inside_a_character_keeps_the_whole_characters_before_it() {
        // ('x' is 1 byte, each é 2: byte 4096 falls inside the 2048th é)
        let r = Refusal::new("DEMO-1", format!("x{}", "é".repeat(3000)));
        assert_eq!(
            r.reason,
            format!("x{}... (6001 bytes in all)", "é".repeat(2047))
        );
    }
}

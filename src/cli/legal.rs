//! `hexwar legal`: the commands a side may give now, as the rules list them (the bots' legal
//! lists), for a person writing orders: one line each, in the orders file's own form.

use clap::Args;
use serde_json::Value;

use crate::engine::{Command, CommandFilter};

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct LegalArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// The side (default: the side whose phase it is).
    #[arg(long)]
    pub side: Option<String>,
    /// Only commands of this name (`move`, `attack`, `end_phase`, ...).
    #[arg(long)]
    pub command: Option<String>,
    /// Only commands that order this unit.
    #[arg(long)]
    pub unit: Option<String>,
    /// Print the commands as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &LegalArgs) -> i32 {
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    // (the phasing side is one of the scenario's: the sequence is checked as the rules load)
    if let Some(side) = &args.side {
        if let Some(e) = super::unknown_side("--side", side, &session.scenario.sides) {
            return fail(e);
        }
    }
    // (a finished game has no phase and no side to play: said so, not "name a side")
    if let Some(outcome) = session.game.state().outcome.clone() {
        let winner = outcome.winner.as_deref().unwrap_or("none");
        if args.json {
            outln!(
                "{}",
                serde_json::json!({ "side": args.side, "position": "the game is over", "phase": null, "over": true, "commands": [] })
            );
        } else {
            outln!(
                "# the game is over (winner: {winner}; {}): no side gives commands",
                outcome.reason
            );
        }
        return EXIT_OK;
    }
    // (a save `run --until-side` stopped for one side of a simultaneous step: that side)
    let only_waiting = || match session.sides_to_play() {
        (done, mut waiting) if !done.is_empty() && waiting.len() == 1 => waiting.pop(),
        _ => None,
    };
    let side = match args
        .side
        .clone()
        .or_else(|| session.game.phasing_side())
        .or_else(only_waiting)
    {
        Some(side) => side,
        None => {
            // (the sides with something to order, as `status` names them: a retreat phase's
            // one power, not all seven)
            let ordering = match session.sides_with_orders() {
                Ok(sides) => sides,
                Err(e) => return fail(e),
            };
            return fail(format!(
                "--side: every side gives orders in this step (a simultaneous step): name one ({})",
                ordering.join(", ")
            ));
        }
    };
    if let Some(unit) = &args.unit {
        // (a unit off the map is asked about too: a reserve in its pool has `place` commands)
        let state = session.game.state();
        if !state.units.contains_key(unit) && !state.gone.contains_key(unit) {
            let hint = crate::spelling::unit_hint(&session.scenario.map, &state.units, unit);
            return fail(format!("--unit: no unit '{unit}' in play{hint}"));
        }
    }
    let filter = CommandFilter {
        command: args.command.clone(),
        unit: args.unit.clone(),
    };
    let listed = if filter == CommandFilter::default() {
        session.game.legal_commands(&side)
    } else {
        session.game.legal_commands_matching(&side, &filter)
    };
    let commands = match listed {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    // (a name no command of the rules has is a slip, not "none legal now": `atack`; under
    // --json too, where it read as an empty list)
    if let Some(name) = &args.command {
        let mut known = session.game.rules_mut().command_names();
        if !known.is_empty() {
            for engine in ["end_phase", "move"] {
                if !known.iter().any(|k| k == engine) {
                    known.push(engine.to_string());
                }
            }
            known.sort();
            if !known.contains(name) {
                let hint = crate::spelling::nearest(name, known.iter().map(String::as_str), 3)
                    .map(|n| format!(": did you mean '{n}'?"))
                    .unwrap_or_default();
                return fail(format!(
                    "--command {name}: no command of these rules is called so{hint} (commands: {})",
                    known.join(", ")
                ));
            }
        }
    }
    if args.json {
        let list: Vec<Value> = commands.iter().map(as_order).collect();
        outln!(
            "{}",
            serde_json::json!({
                "side": side,
                "position": session.game.position_text(),
                "phase": session.game.phase_label().ok().flatten(),
                "commands": list
            })
        );
        return EXIT_OK;
    }
    let at = session.game.position_text();
    // (each line a TOML comment, as the list's heading is: pasted, the output still reads)
    if commands.is_empty() {
        // (--unit matches a command's `unit` or `units`; Diplomacy's orders name their unit in
        // the order text, which the filter does not read)
        let unfiltered = match (&args.unit, &args.command) {
            (Some(_), None) | (None, Some(_)) => {
                session.game.legal_commands(&side).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        if let (Some(name), false) = (&args.command, unfiltered.is_empty()) {
            // (a command name none of them has: `orders` for Diplomacy's `order`)
            let mut names: Vec<&str> = unfiltered.iter().map(|c| c.name()).collect();
            names.sort_unstable();
            names.dedup();
            outln!(
                "# {side} has no legal '{name}' command now ({at}); it may give {} of other kinds: {}",
                unfiltered.len(),
                names.join(", ")
            );
            return EXIT_OK;
        }
        // (commands that name a unit the filter reads: then this one simply has none now)
        let name_units = unfiltered.iter().any(|c| match c {
            Command::Move { .. } => true,
            Command::EndPhase => false,
            Command::Custom { args, .. } => args.contains_key("unit") || args.contains_key("units"),
        });
        let mut kinds: Vec<&str> = unfiltered.iter().map(|c| c.name()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let unfiltered = unfiltered.len();
        if let (Some(unit), true) = (&args.unit, unfiltered > 0 && !name_units) {
            // (Diplomacy's orders name their unit in the order text; other commands name none)
            outln!(
                "# {side} has no legal command naming '{unit}' in a unit argument ({at}): none of its \
                 {unfiltered} command(s) now ({}) has a `unit` or `units` argument; leave out --unit \
                 to list them",
                kinds.join(", ")
            );
        } else if let Some(unit) = &args.unit {
            let what = match &args.command {
                Some(name) => format!("'{name}' command"),
                None => "command".to_string(),
            };
            // (a unit out of play says so: "no legal command" read as a unit stuck in place)
            let why = match session.game.state().gone.get(unit.as_str()) {
                Some(gone) if gone.eliminated => format!(
                    ": it was eliminated on turn {} ({})",
                    gone.turn, gone.reason
                ),
                Some(gone) => format!(": it is out of play ({})", gone.reason),
                None => String::new(),
            };
            outln!("# {side} has no legal {what} for '{unit}' now ({at}){why}");
        } else {
            outln!("# {side} has no legal command now ({at})");
        }
        return EXIT_OK;
    }
    // (a TOML comment: the whole output pasted into `order = [ ... ]` reads as it is)
    outln!("# {side} may give {} command(s) ({at}):", commands.len());
    // (in a simultaneous step one end_phase resolves the phase for every side: said before it,
    // for the person pasting several sides' lists into one file)
    let simultaneous = session.game.phasing_side().is_none();
    for c in &commands {
        if simultaneous && matches!(c, Command::EndPhase) {
            outln!("  # end_phase resolves the phase for every side: give it once, after all their orders");
        }
        outln!("  {},", inline_order(&side, &as_order(c)));
    }
    EXIT_OK
}

/// A command as an `[[order]]` table reads: `command` and its arguments (a JSON object, whose
/// keys come sorted; `inline_order` writes `command` first).
fn as_order(command: &Command) -> Value {
    let mut order = serde_json::Map::new();
    order.insert("command".into(), Value::String(command.name().to_string()));
    if let Ok(Value::Object(fields)) = serde_json::to_value(command) {
        for (k, v) in fields {
            if k != "command" {
                order.insert(k, v);
            }
        }
    }
    Value::Object(order)
}

/// `{ side = "blue", command = "move", path = ["0202"], unit = "b1" }`: the order as an inline
/// TOML table, which pasted (with its comma) into an orders file's `order = [ ... ]` list is an
/// order `play` takes. (A value TOML cannot hold, a JSON null, is left out.)
fn inline_order(side: &str, order: &Value) -> String {
    let mut keys = vec![format!("side = {}", toml::Value::from(side))];
    if let Some(map) = order.as_object() {
        // (the command's name first, then its arguments: a map's keys come sorted, and an
        // argument named `attacker` came before `command`)
        let command = map.get_key_value("command");
        for (k, v) in command
            .into_iter()
            .chain(map.iter().filter(|(k, _)| *k != "command"))
        {
            if let Ok(value) = toml::Value::try_from(v) {
                keys.push(format!("{} = {value}", toml_key(k)));
            }
        }
    }
    format!("{{ {} }}", keys.join(", "))
}

/// A key as TOML writes it: bare when it may be, else quoted.
fn toml_key(key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare {
        key.to_string()
    } else {
        toml::Value::from(key).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{inline_order, toml_key};

    /// Letters, digits, `_` and `-` make a bare key; anything else, and the empty key, is
    /// quoted, as TOML requires.
    #[test]
    fn a_key_is_bare_only_when_toml_allows_it() {
        assert_eq!(toml_key("unit"), "unit");
        assert_eq!(toml_key("from_hex"), "from_hex");
        assert_eq!(toml_key("to-hex"), "to-hex");
        assert_eq!(toml_key("_"), "_");
        assert_eq!(toml_key("-"), "-");
        assert_eq!(toml_key("Ab9"), "Ab9");
        assert_eq!(toml_key(""), "\"\"");
        assert_eq!(toml_key("a b"), "\"a b\"");
        assert_eq!(toml_key("a.b"), "\"a.b\"");
        assert_eq!(toml_key("é"), "\"é\"");
    }

    /// An order reads as an inline table: the side first, then the command, then its other
    /// keys, a key TOML cannot leave bare quoted, and a JSON null (which TOML cannot hold) left
    /// out. An argument whose name sorts before `command` still comes after it.
    #[test]
    fn an_order_is_an_inline_table_with_its_side_first() {
        let order = serde_json::json!({"command": "fire", "gone": null, "to hex": "0101"});
        assert_eq!(
            inline_order("red", &order),
            "{ side = \"red\", command = \"fire\", \"to hex\" = \"0101\" }"
        );
        let order = serde_json::json!({"attacker": "r1", "command": "fire", "at": "0101"});
        assert_eq!(
            inline_order("red", &order),
            "{ side = \"red\", command = \"fire\", at = \"0101\", attacker = \"r1\" }"
        );
    }
}

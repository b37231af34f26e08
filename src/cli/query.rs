//! `hexwar reach` and `hexwar supply`: questions about a position, answered by the rules'
//! queries (`hex.rules.query("reach", ...)`) or the movement engine.

use clap::Args;
use serde_json::{json, Value};

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct ReachArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// The unit's id.
    pub unit: String,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SupplyArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Costs as numbers: whole MP print as integers. Facing games answer a table per hex,
/// `{ [facing] = cost }` (docs/facing.md): tidied entry by entry.
pub(super) fn tidy(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), tidy(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(tidy).collect()),
        _ => match v.as_f64() {
            Some(x) if x.fract() == 0.0 => json!(x as i64),
            _ => v.clone(),
        },
    }
}

/// One hex's answer as text: a cost, or `facing:cost` pairs for facing games.
fn show(v: &Value) -> String {
    match tidy(v) {
        Value::Object(m) => m
            .iter()
            .map(|(f, c)| format!("{f}:{c}"))
            .collect::<Vec<_>>()
            .join(" "),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}:{c}", i + 1))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

pub fn reach(args: &ReachArgs) -> i32 {
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let answer = match session.reach_of(&args.unit) {
        Ok(answer) => answer,
        Err(e) => return fail(e),
    };
    let area = session.scenario.map.as_area().is_some();
    // (the reach is where the unit could go were its side moving in this phase; whether it may move now
    // is the rules' legal list: a combat phase lists no move, and a player read one there)
    let side = session.game.state().units[&args.unit].side.clone();
    let filter = crate::engine::CommandFilter::unit_command("move", &args.unit);
    let movable = match session.game.legal_commands_matching(&side, &filter) {
        Ok(moves) => !moves.is_empty(),
        Err(e) => return fail(e),
    };
    let places = if area { "locations" } else { "hexes" };
    // (why no move is listed, when none is: the same words in the text and the JSON)
    let over = session.game.state().outcome.is_some();
    let note = if movable {
        None
    } else if over {
        // (not "may not move now" on the last phase played: nobody moves again)
        Some(format!(
            "the game is over: no move is legal; these are the {places} {} could reach if its \
             side moved in this phase",
            args.unit
        ))
    } else if !session
        .game
        .rules_mut()
        .command_names()
        .iter()
        .any(|c| c == "move")
    {
        // (not "may not move now": no phase would let it, the rules having no move)
        Some(format!(
            "the rules define no 'move' command, so no move is legal: these are the {places} \
             the movement table gives"
        ))
    } else if session.game.phasing_side().as_deref() == Some(side.as_str()) {
        // (its own side's phase: "may not move now" read as a phase of another side, for
        // an unlimbered gun or a unit that has moved)
        let tail = if answer.is_empty() {
            String::new()
        } else {
            format!(": these are the {places} its movement would reach")
        };
        Some(format!(
            "the rules list no move of {} now ({}){tail}",
            args.unit,
            session.game.position_text()
        ))
    } else if !session
        .game
        .rules()
        .sequence()
        .all_steps()
        .any(|step| step.side.as_deref() == Some(side.as_str()))
    {
        // (a neutral country's unit: no phase is its side's, so "if its side moved" misleads)
        let tail = if answer.is_empty() {
            ", and the rules' reach gives it none".to_string()
        } else {
            format!(": these are the {places} the rules' reach gives")
        };
        Some(format!(
            "{}'s side '{side}' has no phase of its own, so no move of it is legal now \
             ({}){tail}",
            args.unit,
            session.game.position_text()
        ))
    } else if answer.is_empty() {
        Some(format!(
            "{} may not move now ({}), and the rules' reach gives it no {} even were its side \
             moving in this phase",
            args.unit,
            session.game.position_text(),
            if area { "location" } else { "hex" }
        ))
    } else {
        Some(format!(
            "{} may not move now ({}): these are the {places} it could reach if its side moved in this phase",
            args.unit,
            session.game.position_text()
        ))
    };
    if args.json {
        let hexes: serde_json::Map<String, Value> =
            answer.iter().map(|(k, v)| (k.clone(), tidy(v))).collect();
        outln!(
            "{}",
            json!({ "unit": args.unit, "hexes": hexes, "may_move_now": movable, "note": note })
        );
    } else {
        outln!("{} can reach {} {places}:", args.unit, answer.len());
        for (label, cost) in &answer {
            outln!("  {label} {}", show(cost));
        }
        if let Some(note) = note {
            outln!("note: {note}");
        }
    }
    EXIT_OK
}

pub fn supply(args: &SupplyArgs) -> i32 {
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let answer = match session.game.query("supply", &Value::Null) {
        Ok(Some(Value::Object(map))) => map,
        Ok(Some(_)) | Ok(None) => {
            return fail("the rules answer no supply query (hex.rules.query(\"supply\", ...)): this game has no supply to show")
        }
        Err(e) => return fail(e),
    };
    let status: serde_json::Map<String, Value> = match crate::supply_answer::supply_status(&answer)
    {
        Ok(status) => status
            .into_iter()
            .map(|(id, supplied)| {
                let word = if supplied { "supplied" } else { "isolated" };
                (id, Value::String(word.into()))
            })
            .collect(),
        Err(e) => return fail(e),
    };
    if args.json {
        outln!("{}", json!({ "units": status }));
    } else {
        // (ids in natural order, as status lists them: de-2-mot before de-10-pz)
        let mut ids: Vec<(&String, &Value)> = status.iter().collect();
        ids.sort_by_key(|(id, _)| crate::cli::status::natural_key(id));
        for (id, s) in ids {
            outln!("{id}: {}", s.as_str().unwrap_or(""));
        }
    }
    EXIT_OK
}

#[cfg(test)]
mod tests {
    use super::{show, tidy};
    use serde_json::json;

    /// Whole costs print as integers however the rules computed them (`0.5 + 0.5` is the float
    /// 1.0 in Lua), in a facing table too, keyed by facing (an object) or listed from facing 1
    /// (an array); fractions stay as they are.
    #[test]
    fn whole_costs_print_as_integers_in_facing_tables_too() {
        assert_eq!(tidy(&json!(2.0)), json!(2));
        assert_eq!(tidy(&json!(1.5)), json!(1.5));
        assert_eq!(
            tidy(&json!({"0": 1.0, "3": 2.5, "5": 3})),
            json!({"0": 1, "3": 2.5, "5": 3})
        );
        assert_eq!(tidy(&json!([1.0, 2.5, 4.0])), json!([1, 2.5, 4]));
        assert_eq!(show(&json!(3.0)), "3");
        assert_eq!(show(&json!({"0": 1.0, "3": 2.5})), "0:1 3:2.5");
        assert_eq!(show(&json!([1.0, 2.5, 4.0])), "1:1 2:2.5 3:4");
    }
}

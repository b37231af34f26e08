//! `hexwar status`: where a game stands, for a person playing it through saves: the turn and
//! phase, who is to play, the score (the rules' `score` query, when they answer one), what else
//! the rules show (their `status` query: Diplomacy's centres, board and builds due) and every
//! unit, on the map or out of play, side by side.

use std::collections::BTreeMap;

use clap::Args;
use serde_json::{json, Value};

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// Only this side's units.
    #[arg(long)]
    pub side: Option<String>,
    /// Print the status as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &StatusArgs) -> i32 {
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(side) = &args.side {
        if let Some(e) = super::unknown_side("--side", side, &session.scenario.sides) {
            return fail(e);
        }
    }
    let score = match score_now(&mut session) {
        Ok(score) => score,
        Err(e) => return fail(e),
    };
    // (rules without a `score` query: a finished game's score is the outcome's, which the
    // victory rule gave)
    let score = score.or_else(|| {
        let outcome = session.game.state().outcome.as_ref()?;
        (!outcome.scores.is_empty()).then(|| {
            outcome
                .scores
                .iter()
                .map(|(side, &points)| (side.clone(), whole_if_whole(points)))
                .collect()
        })
    });
    // (what else the rules show a player: their `status` query, a table of name -> value)
    let extra = match session.game.query("status", &Value::Null) {
        Ok(None) => None,
        Ok(Some(Value::Object(map))) => Some(map),
        Ok(Some(other)) => {
            return fail(format!(
                "the rules' status query answered {other}, not a table of name -> value"
            ))
        }
        Err(e) => return fail(e),
    };
    let at = session.game.position_text();
    // (the phase as orders files and setups name it: `S1901M`, `movement`)
    let phase_now = session.game.phase_label().ok().flatten();
    let to_play = session.game.phasing_side();
    // (who is still to give orders: the phasing side; in a simultaneous step, every side but
    // those a save stopped after, `run --until-side`; nobody once the game is over)
    let (done, simultaneous) = session.sides_to_play();
    // (in a simultaneous step, the sides with something to give besides end_phase: a retreat
    // phase asks only the powers with a unit to retreat, and `run --until-side` passes the
    // others by; the whole list when none has, as in a step the rules order nothing in)
    let ordering = match session.sides_with_orders() {
        Ok(sides) => sides,
        Err(e) => return fail(e),
    };
    let idle: Vec<String> = if ordering.is_empty() {
        Vec::new()
    } else {
        (simultaneous.iter())
            .filter(|s| !ordering.contains(s))
            .cloned()
            .collect()
    };
    let state = session.game.state();
    let waiting: Vec<&str> = match (&state.outcome, &to_play) {
        (Some(_), _) => Vec::new(),
        (None, Some(side)) => vec![side.as_str()],
        (None, None) => simultaneous
            .iter()
            .filter(|s| !idle.contains(s))
            .map(String::as_str)
            .collect(),
    };
    let of_side = |side: &str| args.side.as_deref().is_none_or(|s| s == side);
    let mut on_map: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    // (ids in natural order: FRANCE-7 before FRANCE-23)
    let mut units: Vec<&crate::engine::Unit> =
        state.units.values().filter(|u| of_side(&u.side)).collect();
    units.sort_by_key(|u| natural_key(&u.id));
    for u in units {
        let mut status: Vec<&str> = u.status.iter().map(String::as_str).collect();
        status.sort_unstable();
        let mut entry = json!({
            "id": u.id, "at": u.at, "type": u.kind, "size": u.size,
            "strength": u.strength, "ma": u.ma, "status": status,
        });
        // (the facing games: a setup's or a move's facing was shown nowhere but in events)
        if let Some(facing) = u.facing {
            entry["facing"] = json!(facing);
        }
        if let Some(second) = u.attrs.get("facing2") {
            entry["facing2"] = second.clone();
        }
        on_map.entry(&u.side).or_default().push(entry);
    }
    let mut gone: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    // (eliminated units by the turn they fell, then every id in natural order, as on the map)
    let mut out_of_play: Vec<&crate::engine::GoneUnit> = state
        .gone
        .values()
        .filter(|g| of_side(&g.unit.side))
        .collect();
    out_of_play.sort_by_key(|g| (g.eliminated.then_some(g.turn), natural_key(&g.unit.id)));
    for g in out_of_play {
        gone.entry(&g.unit.side).or_default().push(json!({
            "id": g.unit.id, "reason": g.reason, "eliminated": g.eliminated, "turn": g.turn,
        }));
    }
    // (--side: the other sides' entries of the rules' tables left out, and a table left with
    // none, in the JSON as in the text)
    let extra = extra.map(|tables| {
        let sides = &session.scenario.sides;
        tables
            .into_iter()
            .filter_map(|(name, value)| match value {
                Value::Object(entries) => {
                    let kept: serde_json::Map<String, Value> = entries
                        .into_iter()
                        .filter(|(key, _)| !sides.contains(key) || of_side(key))
                        .collect();
                    (!kept.is_empty()).then_some((name, Value::Object(kept)))
                }
                other => Some((name, other)),
            })
            .collect::<serde_json::Map<String, Value>>()
    });
    if args.json {
        let mut answer = json!({
                "scenario": session.scenario.id,
                "sides": session.scenario.sides,
                "turn": state.turn,
                "turns": session.scenario.turns,
                "position": at,
                "phase": if state.outcome.is_some() { None } else { phase_now },
                "to_play": to_play,
                "waiting": waiting,
                "finished": state.outcome.is_some(),
                "outcome": state.outcome,
                "score": score,
                "rules_status": extra,
                "units": on_map,
                "gone": gone,
                "mods": session.mods,
        });
        // (only in a game whose map play changed: a bridge blown)
        if !state.map_changes.is_empty() {
            answer["map_changes"] = json!(state.map_changes);
        }
        outln!("{answer}");
        return EXIT_OK;
    }
    // ("turn 2, movement (blue)" -> "turn 2 of 8: movement (blue)"; a finished game is in no
    // phase: the step it ended in read as still to play)
    let phase = at.split_once(", ").map_or(at.as_str(), |(_, rest)| rest);
    if state.outcome.is_some() {
        outln!(
            "{} ({}), game over in turn {} of {}",
            session.scenario.name,
            session.scenario.id,
            state.turn,
            session.scenario.turns
        );
    } else {
        outln!(
            "{} ({}), turn {} of {}: {phase}",
            session.scenario.name,
            session.scenario.id,
            state.turn,
            session.scenario.turns
        );
    }
    // (the position is the scenario's as the mods change it: `--mod`, or a save's own)
    super::print_mods(&session);
    match (&state.outcome, &to_play) {
        (Some(o), _) => outln!(
            "finished: {} ({})",
            o.winner.as_deref().unwrap_or("a draw"),
            o.reason
        ),
        (None, Some(side)) => outln!("to play: {side}"),
        (None, None) => {
            // (a save a run stopped for one side: the others have given their orders; sides
            // with nothing to order are left out, and said so)
            let mut why = Vec::new();
            if !done.is_empty() {
                why.push(format!("{} gave their orders", done.join(", ")));
            }
            if !idle.is_empty() {
                why.push(format!("{} have nothing to order in it", idle.join(", ")));
            }
            if why.is_empty() {
                outln!("to play: every side (a simultaneous step)");
            } else {
                outln!(
                    "to play: {} (a simultaneous step; {})",
                    waiting.join(", "),
                    why.join("; ")
                );
            }
        }
    }
    if let Some(score) = &score {
        let points: Vec<String> = score.iter().map(|(s, p)| format!("{s} {p}")).collect();
        let when = if state.outcome.is_some() {
            "final score"
        } else {
            "score now"
        };
        outln!("{when}: {}", points.join(", "));
    }
    for (name, value) in extra.iter().flatten() {
        match value {
            Value::Object(entries) => {
                outln!("{name}:");
                for (key, v) in entries {
                    outln!("  {key}: {}", shown(v));
                }
            }
            other => outln!("{name}: {}", shown(other)),
        }
    }
    for (side, units) in &on_map {
        outln!("{side}: {} unit(s)", units.len());
        for u in units {
            let status = u["status"].as_array().map_or(String::new(), |s| {
                let flags: Vec<&str> = s.iter().filter_map(Value::as_str).collect();
                if flags.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", flags.join(", "))
                }
            });
            // (a game without strengths and MA, Diplomacy, shows none)
            let factors = if u["strength"] == 0.0 && u["ma"] == 0.0 {
                String::new()
            } else {
                format!(
                    " strength {} MA {}",
                    super::query::tidy(&u["strength"]),
                    super::query::tidy(&u["ma"])
                )
            };
            let kind = [u["size"].as_str(), u["type"].as_str()]
                .into_iter()
                .flatten()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let facing = match (&u["facing"], &u["facing2"]) {
                (Value::Null, _) => String::new(),
                (f, Value::Null) => format!(" facing {f}"),
                (f, g) => format!(" facing {f},{g}"),
            };
            outln!(
                "  {} {} {kind}{factors}{facing}{status}",
                u["id"].as_str().unwrap_or(""),
                u["at"].as_str().unwrap_or("off the map"),
            );
        }
    }
    // (the units a setup replaced never played in this position: counted, not listed)
    let replaced = |g: &Value| g["reason"] == "setup" && g["eliminated"] != true;
    let mut replaced_count = 0;
    for (side, units) in &gone {
        let (set_aside, units): (Vec<&Value>, Vec<&Value>) =
            units.iter().partition(|g| replaced(g));
        replaced_count += set_aside.len();
        if units.is_empty() {
            continue;
        }
        outln!("{side} out of play:");
        // (eliminated units one a line, with how; the others grouped by why: `pool`, ...)
        let mut by_reason: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for g in units {
            let id = g["id"].as_str().unwrap_or("");
            let reason = g["reason"].as_str().unwrap_or("");
            if g["eliminated"] == true {
                outln!("  eliminated on turn {}: {id} ({reason})", g["turn"]);
            } else {
                by_reason.entry(reason).or_default().push(id);
            }
        }
        for (reason, ids) in by_reason {
            outln!("  {reason}: {}", ids.join(", "));
        }
    }
    if !state.map_changes.is_empty() {
        outln!("map changed in play:");
        for line in map_change_lines(&state.map_changes) {
            outln!("  {line}");
        }
    }
    if replaced_count > 0 {
        outln!(
            "({replaced_count} unit(s) of the scenario's start replaced by the setup are not listed; --json lists them under \"gone\")"
        );
    }
    EXIT_OK
}

/// What play changed on the map, a line a place: `hexside 0502/0602: +bridge`, `0304: terrain
/// marsh, +fort, -town`.
fn map_change_lines(changes: &crate::engine::MapChanges) -> Vec<String> {
    let features = |change: &crate::engine::FeatureChange| -> Vec<String> {
        let added = change.add.iter().map(|f| format!("+{f}"));
        added
            .chain(change.remove.iter().map(|f| format!("-{f}")))
            .collect()
    };
    let hexes = changes.hexes.iter().map(|(hex, change)| {
        let terrain = change.terrain.iter().map(|t| format!("terrain {t}"));
        let all: Vec<String> = terrain.chain(features(&change.features)).collect();
        format!("{hex}: {}", all.join(", "))
    });
    let hexsides = changes
        .hexsides
        .iter()
        .map(|(key, change)| format!("hexside {key}: {}", features(change).join(", ")));
    hexes.chain(hexsides).collect()
}

/// A value of the rules' status answer as text: a list joined by commas, a number tidied, a
/// string as it is.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "-".into(),
        Value::Array(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        Value::Number(_) => super::query::tidy(value).to_string(),
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// An id as text and numbers, so that ids sort as a person reads them (`FRANCE-7` before
/// `FRANCE-23`, `b-inf-2` before `b-inf-10`).
pub(crate) fn natural_key(id: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in id.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                out.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.push(c);
        }
    }
    out.push((text, digits.parse().unwrap_or(0)));
    out
}

/// `11` for 11.0 (as a `score` query's answer prints), else the number as it is.
fn whole_if_whole(points: f64) -> Value {
    if points.fract() == 0.0 && points.abs() < 1e15 {
        json!(points as i64)
    } else {
        json!(points)
    }
}

/// The score as it would be counted now: the rules' `score` query (side -> points). A score the
/// rules do not answer is none; one that is no table of numbers is their error.
pub(super) fn score_now(
    session: &mut crate::Session,
) -> Result<Option<serde_json::Map<String, Value>>, String> {
    match session.game.query("score", &Value::Null) {
        Ok(None) => Ok(None),
        Ok(Some(Value::Object(map))) if map.values().all(Value::is_number) => Ok(Some(map)),
        Ok(Some(other)) => Err(format!(
            "the rules' score query answered {other}, not a table of side -> points"
        )),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(parts: &[(&str, u64)]) -> Vec<(String, u64)> {
        parts.iter().map(|&(t, n)| (t.to_string(), n)).collect()
    }

    /// An id splits into runs of text each followed by its number; the text after the last
    /// number ends the key with 0.
    #[test]
    fn natural_key_splits_an_id_into_text_and_numbers() {
        assert_eq!(natural_key("b-inf-10"), key(&[("b-inf-", 10)]));
        assert_eq!(natural_key("fr-2-di"), key(&[("fr-", 2), ("-di", 0)]));
        assert_eq!(natural_key("leader"), key(&[("leader", 0)]));
    }

    /// Ids sort as a person reads them: by the first number, then the text after it
    /// (`a1b` before `a2a`), shorter numbers before longer ones (`x-9` before `x-10`).
    #[test]
    fn natural_key_orders_ids_number_by_number() {
        let mut ids = vec!["a2a", "x-10", "a1b", "x-9", "fr-13-di", "fr-2-di"];
        ids.sort_by_key(|id| natural_key(id));
        assert_eq!(ids, ["a1b", "a2a", "fr-2-di", "fr-13-di", "x-9", "x-10"]);
    }

    /// A whole number of points is an integer in the JSON (`11`, not `11.0`); a fraction stays
    /// one; a whole number too large for an exact integer stays a float.
    #[test]
    fn whole_if_whole_makes_whole_points_integers_only() {
        assert_eq!(whole_if_whole(11.0), json!(11));
        assert!(whole_if_whole(11.0).is_i64());
        assert_eq!(whole_if_whole(-3.0), json!(-3));
        assert!(whole_if_whole(-3.0).is_i64());
        assert_eq!(whole_if_whole(2.5), json!(2.5));
        assert_eq!(whole_if_whole(0.0).to_string(), "0");
        assert!(whole_if_whole(1e16).is_f64());
        assert_eq!(whole_if_whole(1e16), json!(1e16));
    }

    /// The rules' status values as text: strings as they are, numbers tidied, lists joined by
    /// commas, an empty list or a nil as `-`.
    #[test]
    fn shown_renders_status_values_as_text() {
        assert_eq!(shown(&json!("neutral")), "neutral");
        assert_eq!(shown(&json!(3.0)), "3");
        assert_eq!(shown(&json!(2.5)), "2.5");
        assert_eq!(shown(&json!([])), "-");
        assert_eq!(shown(&json!(["F LON", "A PAR"])), "F LON, A PAR");
        assert_eq!(shown(&json!(["a", 1.0, []])), "a, 1, -");
        assert_eq!(shown(&Value::Null), "-");
        assert_eq!(shown(&json!(true)), "true");
    }
}

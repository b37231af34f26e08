//! `hexwar play` with a `[[phase]]` orders file: the orders of every power for each phase, for
//! games where all sides order at once (Diplomacy). For each phase in the file: if it is the
//! game's current phase (its label, e.g. `S1901M`), each power's orders are given (`orders`
//! command) and the phase is ended, and the rules' `PhaseAdjudicated` report is printed; if the
//! game passed over that phase (nothing to retreat) it is reported as skipped; any other phase
//! is an error (exit 2). A refused order list is reported on stderr (exit 1 at the end). A power
//! the scenario lacks is refused before any phase is played (`OrdersFile::unknown_side`).
//!
//! ```toml
//! [[phase]]
//! phase = "S1901M"
//! [phase.orders]
//! FRANCE = ["A PAR - BUR", "A MAR S A PAR - BUR"]
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map};

use crate::engine::{Command, Event, GameError};
use crate::report::PhaseReport;
use crate::session::Session;

use super::orders::PhaseOrders;
use super::play::PlayArgs;

/// Plays the phases. On an error that stops the play (exit 2) the phases done are still
/// reported: in text they are already printed, with `--json` the array of them is printed, so
/// stdout stays one JSON value.
pub(super) fn run(args: &PlayArgs, session: &mut Session, phases: &[PhaseOrders]) -> i32 {
    let mut out: Vec<String> = Vec::new();
    let outcome = play_each(args, session, phases, &mut out);
    if args.json {
        print_json(&out);
    }
    super::play::exit_code(outcome)
}

/// Plays each `[[phase]]` entry, printing it (text) or collecting it in `out` (JSON); the
/// number of order lists refused, or the error that stopped the play.
fn play_each(
    args: &PlayArgs,
    session: &mut Session,
    phases: &[PhaseOrders],
    out: &mut Vec<String>,
) -> Result<usize, String> {
    let mut skipped: BTreeSet<String> = BTreeSet::new();
    let mut refused = 0;
    for entry in phases {
        // (labels are read as the game writes them, whatever the case: "s1901m" is S1901M)
        let current = session
            .game
            .phase_label()
            .map_err(|e| e.to_string())?
            .unwrap_or_default();
        // (and around spaces: `phase = "S1901M "` was refused as "orders for phase S1901M , but
        // the game is at phase S1901M")
        let same = |label: &str| label.eq_ignore_ascii_case(entry.phase.trim());
        if !same(&current) && skipped.iter().any(|p| same(p)) {
            // (not an error, as the contract says; but orders given for it were not played, which
            // a designer testing a rule change wants to know)
            let given: usize = entry.orders.values().map(Vec::len).sum();
            if given > 0 {
                errln!(
                    "note: {}:{}: the game skipped phase {} (nothing to do), so its {given} order(s) were not played",
                    args.orders.display(),
                    entry.line,
                    entry.phase
                );
            }
            emit(args.json, out, Item::Skipped(entry.phase.clone()));
            continue;
        }
        if session.game.is_over() || !same(&current) {
            let past = session
                .game
                .is_past_phase(entry.phase.trim())
                .map_err(|e| e.to_string())?;
            let now = if session.game.is_over() {
                "the game is over".to_string()
            } else if past {
                format!(
                    "the game is at phase {current}, past it (played or passed over before this \
                     file): leave its entry out"
                )
            } else {
                format!(
                    "the game is at phase {current}: give {current} first (an entry without orders \
                     if there are none)"
                )
            };
            return Err(format!(
                "{}:{}: orders for phase '{}', but {now}; phases must come in order",
                args.orders.display(),
                entry.line,
                entry.phase
            ));
        }
        // (why an order will be void, asked before the phase resolves: printed beside it)
        let reasons = if args.json {
            Reasons::new()
        } else {
            void_reasons(session, &entry.orders)
        };
        // (a save from `run --until-side` holds the bots' orders: a power the file gives orders
        // for loses its own, which the player should hear of)
        let pending = match session.game.query("orders", &serde_json::Value::Null) {
            Ok(Some(serde_json::Value::Object(map))) => map,
            _ => Map::new(),
        };
        for power in entry.orders.keys() {
            let given = pending
                .get(power)
                .and_then(|l| l.as_array())
                .map_or(0, Vec::len);
            if given > 0 {
                errln!(
                    "note: {}:{}: {power} had given {given} order(s) in {} already; the file's \
                     orders replace them",
                    args.orders.display(),
                    entry.line,
                    entry.phase
                );
            }
        }
        let notes = TextNotes {
            reasons,
            given: given_orders(&entry.orders, &pending),
            movement: movement_orders(&entry.phase, &entry.orders),
        };
        // (the phase's refused order lists, for --json: its report carries them)
        let mut refusals: Vec<serde_json::Value> = Vec::new();
        for (power, orders) in &entry.orders {
            let mut a = Map::new();
            a.insert("power".into(), power.clone().into());
            a.insert("orders".into(), orders.clone().into());
            let command = Command::Custom {
                name: "orders".into(),
                args: a,
            };
            match session.game.submit(Some(power), &command) {
                Ok(_) => {}
                Err(GameError::Refused(r)) => {
                    refused += 1;
                    errln!("refused: {} orders for {power}: {r}", entry.phase);
                    refusals.push(json!({"power": power, "rule": r.rule, "reason": r.reason}));
                }
                // (a rules error names where the orders are: the file's line, phase and power)
                Err(e) => {
                    return Err(format!(
                        "{}:{}: phase {}, {power}'s orders: {e}",
                        args.orders.display(),
                        entry.line,
                        entry.phase
                    ))
                }
            }
        }
        // (a refused list of orders: with --stop-on-refusal the phase is not resolved without it)
        if args.stop_on_refusal && refused > 0 {
            errln!(
                "stopped at phase {}: an order list was refused, and the phase is not resolved",
                entry.phase
            );
            emit(args.json, out, Item::Stopped(entry.phase.clone(), refusals));
            break;
        }
        let events = session.game.submit(None, &Command::EndPhase).map_err(|e| {
            format!(
                "{}:{}: phase {}: {e}",
                args.orders.display(),
                entry.line,
                entry.phase
            )
        });
        super::show_script_log(&mut session.game);
        let events = events?;
        for e in &events {
            if let Event::PhaseSkipped { phase, .. } = e {
                skipped.insert(phase.clone());
            }
        }
        let reports = PhaseReport::from_events(&events).map_err(|e| {
            format!(
                "{}:{}: phase {}: malformed report: {e}",
                args.orders.display(),
                entry.line,
                entry.phase
            )
        })?;
        // (the phase that ended the game says so: its winner, or null for a draw, and why)
        let ended = events.iter().find_map(|e| match e {
            Event::GameEnded { winner, reason, .. } => Some((winner.clone(), reason.clone())),
            _ => None,
        });
        let last = reports.len();
        for (k, report) in reports.into_iter().enumerate() {
            let end = if k + 1 == last { ended.clone() } else { None };
            let refused_here = if k == 0 {
                std::mem::take(&mut refusals)
            } else {
                Vec::new()
            };
            emit(
                args.json,
                out,
                Item::Report(Box::new(report), end, notes.clone(), refused_here),
            );
        }
    }
    Ok(refused)
}

/// Why orders were void, by power and order text (`order_key`).
type Reasons = BTreeMap<(String, String), String>;

/// What the text form says beside a phase's results that the report does not: why orders were
/// void, which entries no order of the power gave (a unit left unordered holds; a power that
/// sends no adjustment orders disbands in civil disorder: both read like orders in the report),
/// and orders a later order for the same unit replaced (not in the report at all).
#[derive(Clone, Default)]
struct TextNotes {
    reasons: Reasons,
    /// Every order given for the phase, by power and `order_key`: the file's, or for a power
    /// the file leaves out, the ones already given (a bot's, in a save from `run --until-side`).
    given: BTreeSet<(String, String)>,
    /// (power, order) of each order given in a movement phase: those the results do not hold, a
    /// later order for the same unit replaced (`movement_orders`).
    movement: Vec<(String, String)>,
}

/// The orders given for a phase, by power and `order_key`.
fn given_orders(
    file: &BTreeMap<String, Vec<String>>,
    pending: &Map<String, serde_json::Value>,
) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (power, list) in file {
        out.extend(list.iter().map(|o| (power.clone(), order_key(o))));
    }
    for (power, list) in pending {
        if file.contains_key(power) {
            continue;
        }
        let orders = list.as_array().into_iter().flatten();
        out.extend(
            orders
                .filter_map(|o| o.as_str())
                .map(|o| (power.clone(), order_key(o))),
        );
    }
    out
}

/// In a movement phase (a label ending in `M`) the last order for a unit counts
/// (docs/diplomacy.md), and the rules' results hold every order given, void ones too, but those
/// a later order for the same unit replaced: so every order of a movement phase, by power, in
/// the file's order, is a candidate, and the text says "not played" of those the results do not
/// hold. (The unit was read from the order's first two words, as written: an order replaced by
/// one naming the unit otherwise, `F STP/NC - BAR` then `F STP H`, or `A LVN - MOS` then `A LIV
/// H` (an alias), was in the text nowhere, neither played nor replaced.)
fn movement_orders(phase: &str, file: &BTreeMap<String, Vec<String>>) -> Vec<(String, String)> {
    if !phase.trim().to_uppercase().ends_with('M') {
        return Vec::new();
    }
    file.iter()
        .flat_map(|(power, list)| list.iter().map(|o| (power.clone(), o.clone())))
        .collect()
}

/// An order's text as a key: upper case, single spaces (the report writes orders so).
fn order_key(order: &str) -> String {
    order
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase()
}

/// The reasons the rules' `check_order` query gives for the orders it judges void, asked on the
/// position before the phase resolves (Diplomacy answers it; other rules answer nothing, and a
/// query that fails is left out: the reasons only explain).
fn void_reasons(session: &mut Session, orders: &BTreeMap<String, Vec<String>>) -> Reasons {
    let mut out = Reasons::new();
    for (power, list) in orders {
        for order in list {
            let asked = session.game.query(
                "check_order",
                &json!({"power": power, "order": order, "orders": orders}),
            );
            let Ok(Some(answer)) = asked else { continue };
            let text = |key: &str| answer.get(key).and_then(|r| r.as_str()).map(str::to_string);
            let reason = if answer.get("void").and_then(|v| v.as_bool()) == Some(true) {
                text("reason")
            } else {
                // (valid alone: void only beside the other orders, a support the supported
                // unit's order does not match, a third build of two due)
                text("beside").or_else(|| {
                    Some("it stands alone; void beside the other orders given".to_string())
                })
            };
            if let Some(reason) = reason {
                out.insert((power.clone(), order_key(order)), reason);
            }
        }
    }
    out
}

/// What one `[[phase]]` entry gave: a phase's report (with the winner and the reason when that
/// phase ended the game, and why orders were void), or a skipped phase.
enum Item {
    /// A phase's result table; how the game ended when it did; why its void orders are void
    /// (text); the order lists refused in it (`{power, rule, reason}`, JSON `refused`).
    Report(
        Box<PhaseReport>,
        Option<(Option<String>, String)>,
        TextNotes,
        Vec<serde_json::Value>,
    ),
    Skipped(String),
    /// `--stop-on-refusal`: the phase not resolved, and the refusals that stopped it.
    Stopped(String, Vec<serde_json::Value>),
}

/// JSON: collect for the one array printed at the end (fields in the documented order); text:
/// print now.
fn emit(json: bool, out: &mut Vec<String>, item: Item) {
    if json {
        out.push(match &item {
            Item::Report(r, end, _, refused) => {
                // (appended after the documented fields, which keep their order; only when
                // there is something to say)
                let mut text = serde_json::to_string(r).unwrap_or_else(|_| "{}".into());
                let mut append = |key: &str, value: serde_json::Value| {
                    if let Some(body) = text.strip_suffix('}') {
                        text = format!("{body},\"{key}\":{value}}}");
                    }
                };
                if !refused.is_empty() {
                    append("refused", json!(refused));
                }
                if let Some((winner, reason)) = end {
                    append("game_over", json!({"winner": winner, "reason": reason}));
                }
                text
            }
            Item::Skipped(phase) => json!({"phase": phase, "skipped": true}).to_string(),
            Item::Stopped(phase, refused) => {
                json!({"phase": phase, "stopped": true, "refused": refused}).to_string()
            }
        });
    } else {
        print_text(&item);
    }
}

fn print_json(out: &[String]) {
    outln!("[{}]", out.join(","));
}

/// The readable form of one phase.
fn print_text(item: &Item) {
    let (r, notes, refused) = match item {
        Item::Skipped(phase) => {
            outln!("{phase}: skipped (nothing to do)");
            return;
        }
        // (the refusals and the stop were said on stderr as they came)
        Item::Stopped(..) => return,
        Item::Report(r, _, notes, refused) => (r, notes, refused),
    };
    // (a power whose order list the rules refused gave none: its units hold, and its list's
    // orders were neither played nor replaced)
    let refused: BTreeSet<&str> = refused
        .iter()
        .filter_map(|x| x.get("power").and_then(|p| p.as_str()))
        .collect();
    outln!("{}:", r.phase);
    // (what an entry no order gave means in this kind of phase)
    let unordered = match r.phase.chars().last() {
        Some('A') => "civil disorder: no order given",
        Some('M') => "no order given: it holds",
        _ => "no order given",
    };
    for o in &r.results {
        let key = (o.power.clone(), order_key(&o.order));
        let mut flags = o.flags.join(", ");
        if o.flags.iter().any(|f| f == "void") {
            if let Some(why) = notes.reasons.get(&key) {
                flags = format!("{flags} ({why})");
            }
        }
        if refused.contains(o.power.as_str()) {
            flags = if flags.is_empty() {
                format!("ok ({unordered}: its orders were refused)")
            } else {
                format!("{flags} ({unordered}: its orders were refused)")
            };
        } else if !notes.given.contains(&key) {
            flags = if flags.is_empty() {
                format!("ok ({unordered})")
            } else {
                format!("{flags} ({unordered})")
            };
        }
        outln!(
            "  {:<8} {:<24} {}",
            o.power,
            o.order,
            if flags.is_empty() { "ok" } else { &flags }
        );
    }
    // (an order the results hold was played: a Francqueville stack's two armies in one
    // province take one order each, `A PIE - TUS` and `A PIE H`; one they do not hold, a later
    // order for its unit replaced)
    let played: BTreeSet<(&str, String)> = r
        .results
        .iter()
        .map(|o| (o.power.as_str(), order_key(&o.order)))
        .collect();
    for (power, order) in &notes.movement {
        if refused.contains(power.as_str()) || played.contains(&(power.as_str(), order_key(order)))
        {
            continue;
        }
        outln!("  {power:<8} {order:<24} not played (a later order for the unit replaces it)");
    }
    for d in &r.dislodged {
        let retreats = d.retreats.join(", ");
        outln!(
            "  dislodged: {} {} (by {}), retreats: {}",
            d.power,
            d.unit,
            d.by,
            if retreats.is_empty() {
                "none"
            } else {
                &retreats
            }
        );
    }
    if !r.disbanded.is_empty() {
        outln!("  disbanded: {}", r.disbanded.join(", "));
    }
    outln!("  units:");
    for (power, units) in &r.units {
        let list = if units.is_empty() {
            "-".to_string()
        } else {
            units.join(", ")
        };
        outln!("    {power}: {list}");
    }
    outln!("  centres:");
    for (power, centers) in &r.centers {
        outln!("    {power}: {}", centers.join(", "));
    }
    // (a game this phase ended has no next phase to play: said instead)
    match item {
        Item::Report(_, Some((winner, reason)), _, _) => outln!(
            "  game over: {} ({reason})",
            winner.as_deref().unwrap_or("a draw")
        ),
        _ => outln!("  next phase: {}", r.next_phase),
    }
}

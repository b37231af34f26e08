//! `hexwar check`: every error in a scenario, its map and its rules, each with file and line.

use std::path::Path;

use crate::rules::LuaRules;
use crate::scenario::load_scenario;

use super::{EXIT_INPUT, EXIT_OK};

/// `bots`: `--bot SIDE=MODULE` choices, whose modules are checked with the rules; `mods`:
/// `--mod FILE.lua`, loaded after the scenario's rules as `run --mod` loads them.
pub fn run(path: &Path, json: bool, bots: &[String], mods: &[std::path::PathBuf]) -> i32 {
    // A save: itself read and verified, then the scenario it names checked.
    let saved = if super::is_save(path) {
        match crate::engine::Save::read(path) {
            Ok(save) => Some(save),
            Err(e) => return report(path, json, vec![e.to_string()], &[], None),
        }
    } else {
        None
    };
    let scenario_path = saved
        .as_ref()
        .map_or(path, |save| save.scenario_path.as_path());
    match check_scenario(path, scenario_path, saved.as_ref(), bots, mods) {
        Ok(Passed { summary, warnings }) => {
            report(path, json, Vec::new(), &warnings, Some(&summary))
        }
        Err(errors) => report(path, json, errors, &[], None),
    }
}

/// A check that found no error: the line under `ok` and the warnings.
struct Passed {
    summary: String,
    warnings: Vec<String>,
}

/// Checks the scenario at `scenario_path` (the one a save names, with the save's choices) and
/// its rules, step by step: each step's errors stop the check, as what follows depends on it.
fn check_scenario(
    path: &Path,
    scenario_path: &Path,
    saved: Option<&crate::engine::Save>,
    bots: &[String],
    mods: &[std::path::PathBuf],
) -> Result<Passed, Vec<String>> {
    let mut scenario = load_scenario(scenario_path).map_err(|errors| {
        // (the modules' syntax errors too, when the scenario names its modules readably)
        let mut all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        if let Some((roots, modules)) = crate::scenario::rules_named(scenario_path) {
            all.extend(crate::rules::syntax_errors(&roots, &modules));
        }
        all
    })?;
    let saved_modules = host_choices(&mut scenario, saved, bots, mods).map_err(|e| vec![e])?;
    let syntax = crate::rules::syntax_errors(&scenario.rule_roots, &scenario.played_modules());
    if !syntax.is_empty() {
        return Err(syntax);
    }
    let mut rules = LuaRules::load(&scenario).map_err(|e| {
        // (what the scripts printed on the way to the error, as a run shows a script's output)
        super::show_script_lines(&e.printed);
        e.errors
    })?;
    if rules_declare_no_sequence(&rules) {
        return Err(vec![format!(
            "{}: the rules declare no sequence of play (hex.rules.sequence)",
            scenario.path.display()
        )]);
    }
    if let Some(misfit) = saved.and_then(|save| save_misfit(path, save, &scenario, &mut rules)) {
        return Err(vec![misfit]);
    }
    let summary = summary_of(&scenario, &rules);
    let mut warnings = crate::rules::event_name_warnings(&rules.subscribed_events());
    if let Some(save) = saved {
        warnings.extend(save_changes(path, save, &scenario, &rules, &saved_modules));
    }
    warnings.extend(late_special_turns(&scenario, &rules));
    warnings.extend(near_phase_names(&scenario, &rules));
    warnings.extend(misspelt_unit_types(&scenario, &rules));
    warnings.extend(facing_warnings(&scenario, &rules));
    warnings.extend(start_game(scenario, rules).map_err(|e| vec![e])?);
    Ok(Passed { summary, warnings })
}

/// `unit_class.by_type` naming a type no unit has, one letter or two off a type whose units
/// get the default class (`armour` listed, `armor` units): those units play as the default
/// class, which `check` passed without a word.
fn misspelt_unit_types(scenario: &crate::scenario::Scenario, rules: &LuaRules) -> Vec<String> {
    let Some(movement) = rules.movement_rules() else {
        return Vec::new();
    };
    let types: std::collections::BTreeSet<&str> = scenario
        .initial
        .units
        .values()
        .map(|u| u.kind.as_str())
        .collect();
    movement
        .profile
        .misspelt_types(&types)
        .into_iter()
        .map(|(listed, near)| {
            format!(
                "the rules' movement declaration: unit_class.by_type names type '{listed}', which \
                 no unit of the scenario has, while its units of type '{near}' get the default \
                 class: a misspelling?"
            )
        })
        .collect()
}

/// The facing games' units whose data a slip would leave playing otherwise (no facing, a
/// second base no rule reads): `FacingRules::unit_warnings`, in id order.
fn facing_warnings(scenario: &crate::scenario::Scenario, rules: &LuaRules) -> Vec<String> {
    let Some(facing) = rules.facing_rules() else {
        return Vec::new();
    };
    scenario
        .initial
        .units
        .values()
        .flat_map(|u| facing.unit_warnings(u))
        .collect()
}

/// Starts the scenario's game (its setup run, nothing played) and asks its victory rule once.
/// A game that cannot start is an error `run` would meet at once. A victory rule that fails on
/// the start position is a warning: it runs only when a game ends, so its error showed only
/// after a whole game, though a rule may read what only play sets.
fn start_game(
    scenario: crate::scenario::Scenario,
    rules: LuaRules,
) -> Result<Option<String>, String> {
    let mut session =
        crate::Session::start_with_rules(scenario, Box::new(rules), None).map_err(|e| {
            // (what the scripts printed on the way, as `run` shows it)
            super::show_script_lines(e.printed());
            format!("the game does not start: {e}")
        })?;
    let start = session.game.state().clone();
    Ok(session
        .game
        .rules_mut()
        .victory(&start)
        .err()
        .map(|e| format!("{e} (asked on the start position: the rule runs when a game ends)")))
}

/// The mods and bots a save chose (so its game is checked as it goes on), then `--bot`'s and
/// `--mod`'s (refused with a save: it carries its mods). The modules the saved game ran, which
/// its recorded hashes cover, are returned.
fn host_choices(
    scenario: &mut crate::scenario::Scenario,
    saved: Option<&crate::engine::Save>,
    bots: &[String],
    mods: &[std::path::PathBuf],
) -> Result<Vec<String>, String> {
    if let Some(save) = saved {
        if !mods.is_empty() {
            return Err(
                "--mod cannot be used with a save (the save carries its mods, checked with it)"
                    .into(),
            );
        }
        crate::session::add_mods(scenario, &save.mods).map_err(|e| format!("the save's {e}"))?;
        for (side, module) in &save.bots {
            scenario
                .choose_bot(side, module)
                .map_err(|e| format!("the save's bot for {side}: {e}"))?;
        }
    }
    let saved_modules = scenario.played_modules();
    super::HostChoices {
        bots,
        mods,
        ..Default::default()
    }
    .apply(scenario)?;
    Ok(saved_modules)
}

/// What `run` warns of as it resumes a save whose scenario or rules files changed since (a
/// save `check` passed gave those warnings at `run`).
fn save_changes(
    path: &Path,
    save: &crate::engine::Save,
    scenario: &crate::scenario::Scenario,
    rules: &LuaRules,
    saved_modules: &[String],
) -> Vec<String> {
    use crate::engine::Ruleset;
    let mut warnings = Vec::new();
    if save
        .scenario_hash
        .as_ref()
        .is_some_and(|h| !scenario.fingerprint.recorded_by(h))
    {
        warnings.push(format!(
            "{}: the scenario changed since the game was saved ({} or its map): the game would go on under the scenario as it is now",
            path.display(),
            scenario.path.display()
        ));
    }
    let loaded = rules.loaded_files();
    if let Some(changes) =
        crate::session::save_rules_changes(save, scenario, saved_modules, &loaded)
    {
        warnings.push(format!(
            "{}: the rules changed since the game was saved ({changes}): the game would go on under the rules as they are now",
            path.display()
        ));
    }
    warnings
}

/// Whether a save's position fits its scenario, as resuming it checks (a save `run` refuses
/// passed `check`): the message `run` gives, or None.
fn save_misfit(
    path: &Path,
    save: &crate::engine::Save,
    scenario: &crate::scenario::Scenario,
    rules: &mut LuaRules,
) -> Option<String> {
    if save.state.scenario != scenario.id {
        return Some(
            crate::SessionError::WrongScenario {
                path: path.into(),
                found: save.state.scenario.clone(),
                expected: scenario.id.clone(),
            }
            .to_string(),
        );
    }
    crate::session::save_fits(save, scenario, rules)
        .err()
        .map(|message| {
            crate::SessionError::SaveMisfit {
                path: path.into(),
                scenario: scenario.id.clone(),
                message,
            }
            .to_string()
        })
}

/// Special turns of the sequence after the scenario's last turn: never played (a warning, since
/// rules shared by a long and a short scenario may declare them).
fn late_special_turns(scenario: &crate::scenario::Scenario, rules: &LuaRules) -> Vec<String> {
    use crate::engine::Ruleset;
    rules
        .sequence()
        .special
        .keys()
        .filter(|&&turn| turn > scenario.turns || turn == 0)
        .map(|turn| {
            format!(
                "{}: hex.rules.sequence: special turn {turn} is never played (turns 1..{})",
                scenario.path.display(),
                scenario.turns
            )
        })
        .collect()
}

/// Two phase names of the sequence a letter or two apart (`combt` beside `combat`): the step
/// whose phase is misspelt is played, and the rules, which ask for `combat`, answer nothing in
/// it (its side's attacks are refused). Names of five letters or more; names that differ in
/// digits only (`fire1`, `fire2`) are meant.
fn near_phase_names(scenario: &crate::scenario::Scenario, rules: &LuaRules) -> Vec<String> {
    use crate::engine::Ruleset;
    let sequence = rules.sequence();
    let mut names: Vec<&str> = sequence.all_steps().map(|s| s.phase.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let letters = |name: &str| -> String { name.chars().filter(|c| !c.is_ascii_digit()).collect() };
    // (where the rules declared the sequence, else the scenario)
    let at = match rules.declared_at("sequence") {
        place if place.is_empty() => format!("{}: ", scenario.path.display()),
        place => place,
    };
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let others = names[i + 1..].iter().copied();
        if let Some(near) = crate::spelling::nearest(name, others, 5) {
            if letters(name) != letters(near) {
                out.push(format!(
                    "{at}hex.rules.sequence: phases '{name}' and '{near}' are a letter or two \
                     apart: a misspelling? (a step's phase is what the rules ask for)"
                ));
            }
        }
    }
    out
}

/// What was checked, in one line under `ok`: a designer sees the scenario read as meant (the
/// map, the sides, the units, the modules, the steps of a turn).
fn summary_of(scenario: &crate::scenario::Scenario, rules: &LuaRules) -> String {
    use crate::engine::Ruleset;
    let map = &scenario.map;
    let board = match (map.as_hex(), map.as_area()) {
        (Some(hex), _) => format!(
            "hex map '{}' {}x{} ({} hexes)",
            map.name(),
            hex.columns(),
            hex.rows(),
            hex.len()
        ),
        (None, Some(area)) => format!(
            "area map '{}' ({} regions, {} supply centres, {} powers)",
            map.name(),
            area.regions().len(),
            area.regions().iter().filter(|r| r.supply_center).count(),
            area.powers().len()
        ),
        (None, None) => format!("{} map '{}'", map.kind(), map.name()),
    };
    let units = scenario.initial.units.len();
    // (units without `at`: reinforcements waiting off the map)
    let off_map = scenario
        .initial
        .units
        .values()
        .filter(|u| u.at.is_none())
        .count();
    // (an area map's powers bring start units the rules place when the game starts: Diplomacy's
    // scenario has none of its own, and "0 unit(s)" read as an empty board)
    let map_units: usize = map
        .as_area()
        .map_or(0, |a| a.powers().iter().map(|p| p.start_units.len()).sum());
    let units = match (off_map > 0, map_units > 0) {
        (true, _) => format!("{units} unit(s) in the scenario ({off_map} off the map)"),
        (false, true) => format!(
            "{units} unit(s) in the scenario, {map_units} start unit(s) in the map (the rules \
             place them)"
        ),
        (false, false) => format!("{units} unit(s) in the scenario"),
    };
    let steps = rules.sequence().steps.len();
    format!(
        "  {}: {board}; sides {}; {units}; {} turn(s) of {steps} step(s); rules {}",
        scenario.name,
        scenario.sides.join(", "),
        scenario.turns,
        scenario.rules.join(", ")
    )
}

/// Prints the outcome and returns the exit code: the errors, else the warnings, `ok` and the
/// scenario's summary (a line of text; `"summary"` in `--json`, null when there are errors).
/// `warnings` do not fail the check: with `--json` they are the `warnings` list, else
/// `warning:` lines on stderr.
fn report(
    path: &Path,
    json: bool,
    errors: Vec<String>,
    warnings: &[String],
    summary: Option<&str>,
) -> i32 {
    if json {
        let summary = summary.map(str::trim);
        outln!(
            "{}",
            serde_json::json!({ "ok": errors.is_empty(), "errors": errors, "warnings": warnings, "summary": summary })
        );
    } else if errors.is_empty() {
        for w in warnings {
            errln!("warning: {}", super::printable_lines(w));
        }
        outln!("ok: {}", path.display());
        if let Some(summary) = summary {
            outln!("{summary}");
        }
    } else {
        for e in &errors {
            errln!("error: {}", super::printable_lines(&e.to_string()));
        }
        errln!("{} error(s) in {}", errors.len(), path.display());
    }
    if errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}

fn rules_declare_no_sequence(rules: &LuaRules) -> bool {
    use crate::engine::Ruleset;
    rules.sequence().steps.is_empty()
}

//! France 1940 variants written as a designer writes them: a small mod over the module that
//! changes its data or functions after loading (docs/france1940.md, "Combat", "Sequence of
//! play", "Bots"). Each change must be followed by every part that reads it, or stop with an
//! error naming it; none may be silently ignored. On tests/fixtures/f40/combat (see
//! tests/f40_combat.rs): g1 and g3 attack d2 at 0401 at 5:1, and the first roll of seed 1 is 3.

mod f40;

use std::path::{Path, PathBuf};

use f40::*;
use hexwar::engine::{Dice, Event};
use hexwar::rules::LuaRules;
use hexwar::scenario::load_scenario;
use hexwar::{Session, SessionError};
use serde_json::json;

/// A mod `name`.lua made of `text`, in the tests' scratch folder.
fn mod_file(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("f40-variant-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("{name}.lua"));
    std::fs::write(&file, text).unwrap();
    file
}

/// The fixture `fixture` under tests/fixtures/f40 with a mod made of `text`.
fn with_mod(fixture: &str, name: &str, text: &str) -> Result<Session, SessionError> {
    Session::start_with_mods(
        &Path::new("tests/fixtures/f40").join(fixture),
        Some(1),
        &[mod_file(name, text)],
    )
}

/// The France 1940 scenario with a mod made of `text`.
fn france_with_mod(name: &str, text: &str) -> Session {
    Session::start_with_mods(
        Path::new("scenarios/france1940"),
        Some(1),
        &[mod_file(name, text)],
    )
    .unwrap()
}

#[test]
fn f40_c_5_a_column_added_after_loading_is_followed_by_the_odds_and_the_bot() {
    let scenario = load_scenario(Path::new("scenarios/france1940")).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let answer = rules
        .eval(
            &scenario.initial_state(1),
            "local combat = require('france1940.combat')
             local before = combat.column(21, 3)
             combat.COLUMNS[#combat.COLUMNS + 1] = { 7, 1 }
             return { before, combat.column(21, 3), combat.column(18, 3), combat.column_rank('7:1'),
                      combat.column_rank('2:1') }",
        )
        .unwrap();
    assert_eq!(answer, json!(["6:1", "7:1", "6:1", 8, 3]));
}

#[test]
fn f40_c_6_a_new_result_with_its_effect_is_played() {
    let mut s = with_mod(
        "combat",
        "no_effect",
        r#"local combat = require("france1940.combat")
combat.CRT["5:1"] = { "NE", "NE", "NE", "NE", "NE", "NE" }
combat.RESULT_EFFECTS.NE = function() end
"#,
    )
    .unwrap();
    advance_to(&mut s, 1, 1);
    assert_eq!(Dice::value_at(1, 0, 6), 3);
    let events: Vec<Event> = ok(&mut s, "german", &attack("0401", &["g1", "g3"]))
        .into_iter()
        .filter(|e| !matches!(e, Event::ControlChanged { .. }))
        .collect();
    assert_eq!(events, attack_on_0401_begins("NE"));
    assert!(s.game.state().units.contains_key("d2"));
}

/// A CRT result without an effect is refused as the game starts (the variant's tables checked
/// at GameStarted, so `hexwar check` reports it): it used to stop only the attack that rolled
/// it, turns into a game.
#[test]
fn f40_c_6_a_new_result_without_an_effect_is_refused_as_the_game_starts() {
    let e = with_mod(
        "combat",
        "no_entry",
        r#"require("france1940.combat").CRT["5:1"] = { "DE", "NE", "NE", "NE", "NE", "NE" }
"#,
    )
    .expect_err("refused");
    assert!(
        e.to_string().contains(
            ": F40-C.6: combat.CRT[\"5:1\"][2] is NE, which combat.RESULT_EFFECTS has no entry \
             for (results: AE, AR, DE, DR, DR%, EX)"
        ),
        "{e}"
    );
}

/// The CRT a variant writes is checked whole as the game starts (F40-C.6): a misspelt result,
/// a missing row, a row no column names, a row of other than six results; each names the
/// nearest name where there is one.
#[test]
fn f40_c_6_a_crt_the_module_cannot_read_is_refused_as_the_game_starts() {
    let refused = |name: &str, text: &str| -> String {
        let e = with_mod("combat", name, text).expect_err("refused");
        let text = e.to_string();
        let from = &text[text.find("F40-C.6").expect("the clause")..];
        from.split("\nstack traceback").next().unwrap().to_string()
    };
    assert_eq!(
        refused(
            "spaced",
            "require('france1940.combat').CRT['2:1'][6] = 'D E'\n"
        ),
        "F40-C.6: combat.CRT[\"2:1\"][6] is D E, which combat.RESULT_EFFECTS has no entry for \
         (did you mean 'DE'?) (results: AE, AR, DE, DR, DR%, EX)"
    );
    assert_eq!(
        refused(
            "dashed",
            "local crt = require('france1940.combat').CRT\ncrt['2-1'] = crt['2:1']\ncrt['2:1'] = nil\n"
        ),
        "F40-C.6: combat.CRT has no row for the column 2:1 (one row per column of combat.COLUMNS: \
         1:2, 1:1, 2:1, 3:1, 4:1, 5:1, 6:1)"
    );
    assert_eq!(
        refused(
            "extra_row",
            "local crt = require('france1940.combat').CRT\ncrt['2-1'] = crt['2:1']\n"
        ),
        "F40-C.6: combat.CRT has a row '2-1' that no column of combat.COLUMNS names (did you mean \
         '2:1'?) (columns: 1:2, 1:1, 2:1, 3:1, 4:1, 5:1, 6:1; a new column needs its entry in \
         COLUMNS)"
    );
    assert_eq!(
        refused(
            "five",
            "require('france1940.combat').CRT['1:1'] = { 'AE', 'AR', 'EX', 'EX', 'DR' }\n"
        ),
        "F40-C.6: combat.CRT[\"1:1\"] has 5 results: one per d6 roll, 6"
    );
    assert_eq!(
        refused(
            "text_row",
            "require('france1940.combat').CRT['4:1'] = 'EX'\n"
        ),
        "F40-C.6: combat.CRT[\"4:1\"] is a string, not a row of 6 results (one per d6 roll)"
    );
    assert_eq!(
        refused(
            "lower",
            "require('france1940.combat').CRT['3:1'][2] = 'ex'\n"
        ),
        "F40-C.6: combat.CRT[\"3:1\"][2] is ex, which combat.RESULT_EFFECTS has no entry for \
         (did you mean 'EX'?) (results: AE, AR, DE, DR, DR%, EX)"
    );
    assert_eq!(
        refused(
            "short_row",
            "require('france1940.combat').CRT['6:1'] = { 'DE', 'DE', 'DE', 'DE', 'DE', 'DE', 'DE' }\n"
        ),
        "F40-C.6: combat.CRT[\"6:1\"] has 7 results: one per d6 roll, 6"
    );
}

/// Victory points that are no number are refused as the game starts: they stopped the game
/// at its end (a string) or scored NaN.
#[test]
fn f40_victory_points_that_are_no_number_are_refused() {
    for (name, text, message) in [
        (
            "points_str",
            "require('france1940.victory').UNIT_POINTS.XX = 'lots'\n",
            "victory.UNIT_POINTS.XX is \"lots\", not a number of points",
        ),
        (
            "points_nan",
            "require('france1940.victory').CITY_POINTS.paris = 0/0\n",
            "victory.CITY_POINTS.paris is",
        ),
    ] {
        let e = with_mod("combat", name, text).expect_err("refused");
        assert!(e.to_string().contains(message), "{e}");
    }
}

/// Victory points for a size no unit has (`xx` for `XX`) are refused as the game starts: they
/// never counted, and the size meant scored nothing.
#[test]
fn f40_victory_unit_points_for_a_size_no_unit_has_are_refused() {
    let e = with_mod(
        "combat",
        "lower_sizes",
        "require('france1940.victory').UNIT_POINTS = { xx = 2, XXX = 5, III = 1 }\n",
    )
    .expect_err("refused");
    assert!(
        e.to_string().contains(
            "victory.UNIT_POINTS has 'xx', a size no unit of the game has (did you mean 'XX'?) \
             (sizes: III, XX, XXX): its points would never count"
        ),
        "{e}"
    );
}

#[test]
fn f40_victory_a_replaced_score_function_is_followed_by_the_score_query() {
    let mut s = with_mod(
        "combat",
        "flat_score",
        r#"require("france1940.victory").scores = function() return { german = 7, allied = 9 } end
"#,
    )
    .unwrap();
    let score = s.game.query("score", &serde_json::Value::Null).unwrap();
    assert_eq!(score, Some(json!({"german": 7, "allied": 9})));
}

#[test]
fn f40_9_1_changed_steps_are_played_once_declared_again() {
    const ALLIED_FIRST: &str = r#"local sequence = require("france1940.sequence")
sequence.turn1 = {
  { side = "allied", phase = "movement", assault = 1 },
  { side = "allied", phase = "combat", assault = 1 },
  { side = "german", phase = "movement", assault = 1 },
  { side = "german", phase = "combat", assault = 1 },
}
"#;
    let Err(e) = with_mod("combat", "undeclared", ALLIED_FIRST) else {
        panic!("expected the game not to start")
    };
    assert!(
        e.to_string().ends_with(
            "france1940.sequence: step 0 of turn 1 is german's in the engine but allied's in \
             sequence.steps: a variant that changes the steps calls sequence.declare() again \
             while it loads"
        ),
        "{e}"
    );
    let s = with_mod(
        "combat",
        "declared",
        &format!("{ALLIED_FIRST}sequence.declare()\n"),
    )
    .unwrap();
    assert_eq!(s.game.phasing_side().as_deref(), Some("allied"));
}

/// F40-16.2's handlers call `politics.invasions` through the module table: a variant that wraps
/// it ("a pro-German Switzerland") enters Switzerland without invading it (on
/// tests/fixtures/f40/politics, g4 moves into Switzerland at 0405; tests/f40_politics.rs shows
/// the invasion the rules as written make of it).
#[test]
fn f40_16_2_a_variant_decides_which_moves_invade() {
    let mut s = with_mod(
        "politics",
        "pro_german_swiss",
        r#"local politics = require("france1940.politics")
local invasions = politics.invasions
politics.invasions = function(ev)
  local kept = {}
  for _, e in ipairs(invasions(ev) or {}) do
    if e.data.country ~= "switzerland" then kept[#kept + 1] = e end
  end
  return kept
end
"#,
    )
    .unwrap();
    let events = ok(&mut s, "german", &mv("g4", &["0405"]));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Custom { name, .. } if name == "CountryInvaded")),
        "{events:?}"
    );
    assert_eq!(s.game.state().units["sw1"].side, "neutral");
}

/// F40-5.2's limit read at each call: a variant that lowers `stacking.LIMIT` after loading is
/// followed by the legal lists' check (it once kept the value it read at load).
#[test]
fn f40_5_2_a_changed_stacking_limit_is_followed() {
    let scenario = load_scenario(Path::new("scenarios/france1940")).unwrap();
    let mut rules = LuaRules::load(&scenario).unwrap();
    let answer = rules
        .eval(
            &scenario.initial_state(1),
            "local stacking = require('france1940.stacking')
             local restrictions = require('france1940.restrictions')
             local u = { side = 'german', size = 'XX', type = 'infantry', at = '0101' }
             local stacks = { total = { ['0202'] = 2 }, armored = {} }
             local before = restrictions.fits(u, '0202', stacks)
             stacking.LIMIT = 2
             return { before, restrictions.fits(u, '0202', stacks) }",
        )
        .unwrap();
    assert_eq!(answer, json!([true, false]));
}

/// A bot threshold that is no odds column (`"2-1"` for `"2:1"`) used to count as the lowest
/// column: the bot attacked at any odds without a word. It is an error naming the value, as
/// the game starts (it was found only at the first German combat).
#[test]
fn f40_c_5_a_bot_threshold_that_is_no_column_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("threshold.lua");
    std::fs::write(
        &file,
        "require(\"france1940.strategy\").attack_at = \"2-1\"\n",
    )
    .unwrap();
    let Err(e) = Session::start_with_mods(Path::new("scenarios/france1940"), Some(1), &[file])
    else {
        panic!("the game started with a threshold that is no column");
    };
    let message = e.to_string();
    assert!(
        message.contains(
            "strategy.attack_at = \"2-1\" is no odds column (the columns: 1:2, 1:1, 2:1, 3:1, 4:1, 5:1, 6:1)"
        ),
        "{message}"
    );
}

/// A variant that replaces `restrictions.hex_refusal` (here: no German unit enters 0503) is
/// followed by the move check, the legal moves and the `reach` query. The module called its
/// local function, so the replacement did nothing.
#[test]
fn f40_16_1_a_variant_replacing_hex_refusal_is_followed_everywhere() {
    let mut plain = session("combat");
    let plain_reach = reach(&mut plain, "g2");
    assert!(plain_reach.contains_key("0503"), "{plain_reach:?}");
    let through = |moves: &[hexwar::engine::Command]| {
        moves
            .iter()
            .filter(|c| matches!(c, hexwar::engine::Command::Move { path, .. } if path.iter().any(|h| h == "0503")))
            .count()
    };
    assert!(through(&legal_of(&mut plain, "german", "move")) > 0);

    let mut s = with_mod(
        "combat",
        "no_0503",
        r#"local restrictions = require("france1940.restrictions")
local standard = restrictions.hex_refusal
restrictions.hex_refusal = function(u, label, turn)
  if label == "0503" and u.side == "german" then
    return "VAR-1", u.id .. " may not enter 0503"
  end
  return standard(u, label, turn)
end
"#,
    )
    .unwrap();
    let mut expected = plain_reach.clone();
    expected.remove("0503");
    assert_eq!(reach(&mut s, "g2"), expected);
    assert_eq!(through(&legal_of(&mut s, "german", "move")), 0);
    assert_eq!(
        refused(&mut s, "german", &mv("g3", &["0502", "0503"])),
        refusal("VAR-1", "g3 may not enter 0503")
    );
    // (other hexes as before)
    ok(&mut s, "german", &mv("g3", &["0502"]));
}

/// A variant that misspells a field of a module (`victory.score` for `victory.scores`) is
/// stopped at load with the nearest name: the assignment used to add an unused field, and the
/// standard scores were played. A new field far from every name is the variant's own.
#[test]
fn a_misspelt_module_field_in_a_variant_is_refused_with_the_nearest_name() {
    let e = with_mod(
        "combat",
        "score_typo",
        "require(\"france1940.victory\").score = function() return { german = 99 } end\n",
    )
    .expect_err("refused");
    assert!(
        e.to_string().contains(
            "score_typo.lua:1: france1940.victory has no field 'score' (did you mean 'scores'?): \
             to add a new field of that name, use rawset(france1940.victory, \"score\", value)"
        ),
        "{e}"
    );
    // (a field the same but for case, however short: `combat.crt` for `combat.CRT`)
    let e = with_mod(
        "combat",
        "crt_case",
        "require(\"france1940.combat\").crt = {}\n",
    )
    .expect_err("refused");
    assert!(
        e.to_string()
            .contains("france1940.combat has no field 'crt' (did you mean 'CRT'?)"),
        "{e}"
    );
    let s = with_mod(
        "combat",
        "own_field",
        "local victory = require(\"france1940.victory\")\n\
         victory.bonus_for_paris = 10\n\
         rawset(victory, \"score\", 1)\n\
         victory.scores = victory.scores\n",
    );
    assert!(s.is_ok(), "{:?}", s.err());
}

/// A variant replacing `combat.multiplier` or `combat.odds` is followed by the attack listing
/// (and so by the bot, which reads its odds there) as by the `attack` command: the listing
/// worked them out with the module's own copies, so a variant's defence bonus changed the
/// attack's result but not what was offered. On the fixture three attacks are listed.
#[test]
fn f40_c_5_a_replaced_multiplier_or_odds_is_followed_by_the_attack_listing() {
    let mut s = session("combat");
    advance_to(&mut s, 1, 1);
    assert_eq!(
        legal_of(&mut s, "german", "attack"),
        vec![
            attack("0203", &["g4"]),
            attack("0302", &["g1", "g2", "g4"]),
            attack("0401", &["g1", "g3"])
        ]
    );
    for (name, text) in [
        (
            "fortress_everywhere",
            "require('france1940.combat').multiplier = function() return 100 end\n",
        ),
        (
            "no_odds",
            "require('france1940.combat').odds = function(attackers) \
             return { attack = 0, defense = 1, odds = nil, defenders = {} } end\n",
        ),
    ] {
        let mut s = with_mod("combat", name, text).unwrap();
        advance_to(&mut s, 1, 1);
        assert_eq!(legal_of(&mut s, "german", "attack"), vec![], "{name}");
    }
}

/// The bot works out the module's budget inline for all its units at once; a variant that
/// replaced `common.budget` is asked instead. Here a forced march triples every MA: the
/// German bot's first phase has moves past the unit's own MA (it planned with the module's budget,
/// and a weather variant's halved MA saw its planned moves refused and its lists asked again).
#[test]
fn f40_9_1_a_replaced_budget_is_followed_by_the_bot() {
    let mut s = france_with_mod(
        "forced_march",
        "require('france1940.common').budget = function(u) return (u.ma or 0) * 3 end\n",
    );
    // (the German bot's first movement phase, drops aside: each move's cost against its MA)
    let mut moves = Vec::new();
    for seed in 0..200 {
        let side = s.game.phasing_side().unwrap();
        let c = hexwar::bot::ask_lua_bot(&mut s.game, "france1940.ai", &side, seed).unwrap();
        if c.name() == "end_phase" {
            break;
        }
        let events = s.game.submit(Some(&side), &c).unwrap();
        if c.name() == "move" {
            for e in events {
                if let Event::UnitMoved { unit, cost, .. } = e {
                    let ma = s.game.state().units[&unit].ma;
                    moves.push((unit, cost, ma));
                }
            }
        }
    }
    assert!(!moves.is_empty());
    assert!(moves.iter().any(|(_, cost, ma)| cost > ma), "{moves:?}");
}

#[test]
fn f40_8_2_replaced_supply_sources_are_followed_by_the_bot() {
    // A variant that takes the German sources away (F40-8.2 as the variant reads it): no hex is
    // one where a German unit traces supply, so the bot, which keeps its units supplied, moves
    // none. Before the bot read supply.sources, it kept to the base game's sources and moved.
    let mut s = france_with_mod(
        "no_german_sources",
        r#"local supply = require("france1940.supply")
local base = supply.sources
supply.sources = function()
  local sets = {}
  for _, set in ipairs(base()) do
    if set.side == "german" then set = { side = "german", hexes = {} } end
    sets[#sets + 1] = set
  end
  return sets
end
"#,
    );
    assert_eq!(
        eval(
            &s,
            "local supply = require('france1940.supply')
             return { #supply.sources_for('german', 'german'), #supply.sources_for('allied', 'belgian') }"
        ),
        json!([0, 63])
    );
    let chosen = first_phase_choices(&mut s);
    assert!(!chosen.iter().any(|c| c == "move"), "{chosen:?}");
    let mut base = Session::start(Path::new("scenarios/france1940"), Some(1)).unwrap();
    assert!(first_phase_choices(&mut base).iter().any(|c| c == "move"));
}

/// The commands the France 1940 bot chooses in the game's first phase, by name.
fn first_phase_choices(s: &mut Session) -> Vec<String> {
    let mut chosen = Vec::new();
    for seed in 0..200 {
        let side = s.game.phasing_side().unwrap();
        let c = hexwar::bot::ask_lua_bot(&mut s.game, "france1940.ai", &side, seed).unwrap();
        if c.name() == "end_phase" {
            break;
        }
        chosen.push(c.name().to_string());
        s.game.submit(Some(&side), &c).unwrap();
    }
    chosen
}

/// A stacking limit a variant sets to another type than a number is refused as the game
/// starts, naming it (it failed at the first end of a phase, in restrictions.lua: "attempt to
/// compare number with string").
#[test]
fn f40_5_2_a_stacking_limit_that_is_no_number_is_refused_as_the_game_starts() {
    let err = with_mod(
        "stacking",
        "limit_text",
        "require('france1940.stacking').LIMIT = '6'\n",
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(
            "F40-5.2: stacking.LIMIT (a variant or mod sets it) is the string \"6\", not a number of division-equivalents (0 or more)"
        ),
        "{err}"
    );
}

//! A Diplomacy variant written the way docs/diplomacy.md ("Writing a variant") says, outside
//! the repository's own rules: `tests/fixtures/diplomacy_build_anywhere`, the "build anywhere"
//! house rule in one call, `require("diplomacy").variant{ build_sites = ... }`. The same
//! positions go through the standard scenario to show where the two differ.

mod common;

use std::path::Path;

use common::{hexwar, stderr, stdout};
use hexwar::engine::Command;
use hexwar::Session;
use serde_json::{json, Value};

const VARIANT: &str = "tests/fixtures/diplomacy_build_anywhere";
const STANDARD: &str = "scenarios/diplomacy";

/// `hexwar play SCENARIO --setup F --orders F --json` with the fixture's files, read back.
fn play(scenario: &str, setup: &str, orders: &str) -> Value {
    let setup = format!("{VARIANT}/{setup}");
    let orders = format!("{VARIANT}/{orders}");
    let out = hexwar(&[
        "play", scenario, "--setup", &setup, "--orders", &orders, "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("play --json prints JSON")
}

/// A build in a centre the power owns but is no home centre of its: the variant's whole point.
#[test]
fn build_anywhere_builds_in_an_owned_centre_the_standard_rules_refuse() {
    let variant = play(VARIANT, "winter_setup.toml", "winter_orders.toml");
    assert_eq!(
        variant[0]["results"],
        json!([{"power": "GERMANY", "order": "A HOL B", "unit": "A HOL", "flags": []}])
    );
    assert_eq!(
        variant[0]["units"],
        json!({"GERMANY": ["A BER", "A HOL", "A MUN", "F KIE"]})
    );
    let standard = play(STANDARD, "winter_setup.toml", "winter_orders.toml");
    assert_eq!(
        standard[0]["results"],
        json!([{"power": "GERMANY", "order": "A HOL B", "unit": "A HOL", "flags": ["void"]}])
    );
    assert_eq!(
        standard[0]["units"],
        json!({"GERMANY": ["A BER", "A MUN", "F KIE"]})
    );
}

/// The phase sequence asks the same hook: a winter where the only place to build is a captured
/// centre is played under the variant and skipped under the standard rules.
#[test]
fn build_anywhere_plays_the_winter_a_build_outside_the_home_centres_needs() {
    let variant = play(VARIANT, "fall_setup.toml", "fall_orders.toml");
    assert_eq!(variant[0]["next_phase"], json!("W1901A"));
    assert_eq!(
        variant[1]["results"],
        json!([{"power": "GERMANY", "order": "A DEN B", "unit": "A DEN", "flags": []}])
    );
    assert_eq!(
        variant[1]["units"],
        json!({"GERMANY": ["A BER", "A DEN", "A HOL", "A MUN", "F KIE"]})
    );
    let standard = play(STANDARD, "fall_setup.toml", "fall_orders.toml");
    assert_eq!(standard[0]["next_phase"], json!("S1902M"));
    assert_eq!(standard[1], json!({"phase": "W1901A", "skipped": true}));
}

/// Orders given for a phase the game skips are no error (the pinned contract), but a note on
/// stderr says they were not played: a designer testing a variant sees it did not apply.
#[test]
fn orders_for_a_skipped_phase_are_noted_on_stderr() {
    let out = hexwar(&[
        "play",
        STANDARD,
        "--setup",
        &format!("{VARIANT}/fall_setup.toml"),
        "--orders",
        &format!("{VARIANT}/fall_orders.toml"),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        format!(
            "note: {VARIANT}/fall_orders.toml:6: the game skipped phase W1901A (nothing to do), so its 1 order(s) were not played\n"
        )
    );
}

/// The bots' order menu lists the builds the variant allows, so bot games play by it too.
#[test]
fn build_anywhere_offers_the_bots_the_builds_it_allows() {
    let builds = |scenario: &str| -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut session = Session::start(&root.join(scenario), Some(1)).expect("starts");
        session
            .setup_file(&root.join(VARIANT).join("winter_setup.toml"))
            .expect("setup");
        menu(&mut session, "GERMANY", |o| o.ends_with(" B"))
    };
    assert_eq!(builds(VARIANT), ["A HOL B", "F HOL B"]);
    assert!(builds(STANDARD).is_empty(), "{:?}", builds(STANDARD));
}

/// The orders of `power`'s menu (the `order` commands of its legal list) that `keep` keeps,
/// sorted.
fn menu(session: &mut Session, power: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let legal = session.game.legal_commands(power).expect("legal");
    let mut orders: Vec<String> = legal
        .iter()
        .filter_map(|c| match c {
            Command::Custom { name, args } if name == "order" => args
                .get("order")
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        })
        .filter(|o| keep(o))
        .collect();
    orders.sort();
    orders
}

/// The bots' menu offers supports to move among a power's own units (into a province both
/// reach), so bot games see dislodgements, and a retreat variant plays differently from the
/// standard rules in a batch (before, no bot game dislodged a unit).
#[test]
fn the_bots_menu_offers_supports_to_move_among_a_powers_own_units() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut session = Session::start(&root.join(STANDARD), Some(1)).expect("starts");
    let brest = menu(&mut session, "FRANCE", |o| o.starts_with("F BRE S"));
    // (F BRE reaches MAO, ENG, PIC and GAS; A PAR reaches PIC and GAS, A MAR reaches GAS; no
    // French unit stands where a fleet in BRE could support it to hold)
    assert_eq!(
        brest,
        [
            "F BRE S A MAR - GAS",
            "F BRE S A PAR - GAS",
            "F BRE S A PAR - PIC",
        ]
    );
}

/// The resolver's `cuts_support` hook: "any attack cuts", where an attack from the province a
/// support is aimed at cuts it too. Under the standard rules Tyrolia's support stands (A TRI can
/// cut it only by dislodging it) and Trieste falls; under the variant the support is cut and
/// Venice bounces.
#[test]
fn any_attack_cuts_a_support_the_standard_rules_keep() {
    const CUTS: &str = "tests/fixtures/diplomacy_any_attack_cuts";
    let play = |scenario: &str| -> Value {
        let out = hexwar(&[
            "play",
            scenario,
            "--setup",
            &format!("{CUTS}/setup.toml"),
            "--orders",
            &format!("{CUTS}/orders.toml"),
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).expect("play --json prints JSON")
    };
    let variant = play(CUTS);
    assert_eq!(
        variant[0]["results"],
        json!([
            {"power": "AUSTRIA", "order": "A TRI - TYR", "unit": "A TRI", "flags": ["bounce"]},
            {"power": "ITALY", "order": "A TYR S A VEN - TRI", "unit": "A TYR", "flags": ["cut"]},
            {"power": "ITALY", "order": "A VEN - TRI", "unit": "A VEN", "flags": ["bounce"]}
        ])
    );
    assert_eq!(variant[0]["dislodged"], json!([]));
    let standard = play(STANDARD);
    assert_eq!(
        standard[0]["results"],
        json!([
            {"power": "AUSTRIA", "order": "A TRI - TYR", "unit": "A TRI", "flags": ["bounce", "dislodged"]},
            {"power": "ITALY", "order": "A TYR S A VEN - TRI", "unit": "A TYR", "flags": []},
            {"power": "ITALY", "order": "A VEN - TRI", "unit": "A VEN", "flags": []}
        ])
    );
    assert_eq!(
        standard[0]["dislodged"],
        json!([{"power": "AUSTRIA", "unit": "A TRI", "by": "VEN", "retreats": ["ALB", "BUD", "SER", "VIE"]}])
    );
}

/// The bots' menu lists each order once: the two armies of a Francqueville stack (R-g2) have
/// the same orders, which were listed twice.
#[test]
fn the_bots_menu_lists_a_stacks_orders_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("stack.toml");
    std::fs::write(
        &setup,
        "phase = \"S1901M\"\n[units]\nAUSTRIA = [\"A VIE\", \"A VIE\"]\nFRANCE = [\"A PAR\"]\n",
    )
    .unwrap();
    let mut session =
        Session::start(&root.join("scenarios/diplomacy-francqueville"), Some(1)).expect("starts");
    session.setup_file(&setup).expect("setup");
    let orders = menu(&mut session, "AUSTRIA", |_| true);
    let mut once = orders.clone();
    once.dedup();
    assert_eq!(orders, once);
    assert!(orders.contains(&"A VIE - BOH".to_string()), "{orders:?}");
    assert!(orders.contains(&"A VIE H".to_string()), "{orders:?}");
}

/// The fixture's scenario in a temporary folder, its variant module named `module` (a
/// `module.lua` the test writes there), the rest read from the repository.
fn variant_scenario(module: &str) -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = std::fs::read_to_string(root.join(VARIANT).join("scenario.toml"))
        .unwrap()
        .replace("../../../", &format!("{}/", root.display()))
        .replace("\"build_anywhere\"", &format!("\"{module}\""));
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    dir
}

/// A variant that names a rule the adjudicator never reads (`build_site` for `build_sites`)
/// used to play the standard rule without a word: refused while the rules load, with the
/// nearest name; a value of the wrong type too.
#[test]
fn a_misspelt_variant_rule_is_refused_with_the_nearest_name() {
    let dir = variant_scenario("build_anywhere");
    for (overrides, expected) in [
        (
            "{ build_site = function() return {} end }",
            "diplomacy variant: the rules have no 'build_site' (did you mean 'build_sites'?); a variant replaces one of: adjustments, after_movement, build_sites, cuts_support, has_retreats, movement, order_allowed, resolve_retreats, retreat_options, retreating_units, retreats, settle_retreats, stacks, unit_strength, winner",
        ),
        (
            "{ build_sites = true }",
            "diplomacy variant: 'build_sites' must be a function, not a boolean",
        ),
    ] {
        std::fs::write(
            dir.path().join("build_anywhere.lua"),
            format!("return require(\"diplomacy\").variant({overrides})\n"),
        )
        .unwrap();
        let Err(e) = Session::start(dir.path(), Some(1)) else {
            panic!("{overrides}: a misspelt variant loaded");
        };
        let message = e.to_string();
        assert!(message.contains(expected), "{message}");
    }
}

/// DIP-1's victory (the map's 18 centres) is a rule a variant replaces: here, five centres win.
/// France ends Fall 1901 holding Spain and Portugal, five centres: the variant's game ends
/// there with France the winner, the standard game goes on.
#[test]
fn dip_1_a_variant_replaces_the_victory_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = variant_scenario("five");
    std::fs::write(
        dir.path().join("five.lua"),
        "return require(\"diplomacy\").variant{ winner = function(rules, cm, centers)\n\
           for _, p in ipairs(cm.powers) do\n\
             if #(centers[p] or {}) >= 5 then return p end\n\
           end\n\
         end }\n",
    )
    .unwrap();
    let setup = dir.path().join("setup.toml");
    std::fs::write(
        &setup,
        "phase = \"F1901M\"\n[units]\nFRANCE = [\"A SPA\", \"F POR\"]\n[centers]\nFRANCE = [\"BRE\", \"MAR\", \"PAR\"]\n",
    )
    .unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(&orders, "[[phase]]\nphase = \"F1901M\"\n").unwrap();
    let play = |scenario: &Path| -> Value {
        let out = hexwar(&[
            "play",
            scenario.to_str().unwrap(),
            "--setup",
            setup.to_str().unwrap(),
            "--orders",
            orders.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).expect("play --json prints JSON")
    };
    let variant = play(dir.path());
    assert_eq!(
        variant[0]["centers"]["FRANCE"],
        json!(["BRE", "MAR", "PAR", "POR", "SPA"])
    );
    assert_eq!(
        variant[0]["game_over"],
        json!({"reason": "DIP: FRANCE holds 5 supply centres", "winner": "FRANCE"})
    );
    let standard = play(&root.join(STANDARD));
    assert_eq!(standard[0]["centers"], variant[0]["centers"]);
    assert_eq!(standard[0].get("game_over"), None);
}

/// Two variants listed one after the other are layered: each is made over the standard rules,
/// and what the first replaced (the build sites) is carried into the second's (the support
/// cut). The first used to be dropped without a word: the build was void.
#[test]
fn two_variants_listed_together_both_apply() {
    const BOTH: &str = "tests/fixtures/diplomacy_two_variants";
    let winter = play(BOTH, "winter_setup.toml", "winter_orders.toml");
    assert_eq!(
        winter[0]["results"],
        json!([{"power": "GERMANY", "order": "A HOL B", "unit": "A HOL", "flags": []}])
    );
    let out = hexwar(&[
        "play",
        BOTH,
        "--setup",
        "tests/fixtures/diplomacy_any_attack_cuts/setup.toml",
        "--orders",
        "tests/fixtures/diplomacy_any_attack_cuts/orders.toml",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spring: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        spring[0]["results"],
        json!([
            {"power": "AUSTRIA", "order": "A TRI - TYR", "unit": "A TRI", "flags": ["bounce"]},
            {"power": "ITALY", "order": "A TYR S A VEN - TRI", "unit": "A TYR", "flags": ["cut"]},
            {"power": "ITALY", "order": "A VEN - TRI", "unit": "A VEN", "flags": ["bounce"]}
        ])
    );
}

/// A `settle_retreats` that returns one list (the docs once said "the records kept") is an
/// error naming the hook and what it must return; it failed on `#gone` inside the adjudicator.
#[test]
fn a_settle_retreats_returning_one_list_is_named() {
    let err = spring_fails_under(
        "return require(\"diplomacy\").variant({ settle_retreats = function(rules, ctx, recs) \
         return recs end })\n",
    );
    assert!(
        err.contains(
            "diplomacy variant: settle_retreats must return two lists, the records kept for the \
             retreat phase and those disbanded at once (got a table and a nil)"
        ),
        "{err}"
    );
}

/// `hexwar play` of the any-attack-cuts fixture's spring (a supported attack on Trieste) with
/// the variant module replaced by `text`, which must stop it (exit 2): its stderr.
fn spring_fails_under(text: &str) -> String {
    let dir = variant_scenario("house");
    std::fs::write(dir.path().join("house.lua"), text).unwrap();
    let out = hexwar(&[
        "play",
        dir.path().to_str().unwrap(),
        "--setup",
        "tests/fixtures/diplomacy_any_attack_cuts/setup.toml",
        "--orders",
        "tests/fixtures/diplomacy_any_attack_cuts/orders.toml",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    stderr(&out)
}

/// Under a variant's own build sites a void build says what is wrong with it (here Belgium is
/// not Germany's); it said "BEL is not a home supply centre of GERMANY", which the variant
/// does not ask.
#[test]
fn a_void_build_under_a_variant_names_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("orders.toml");
    std::fs::write(
        &orders,
        "[[phase]]\nphase = \"W1901A\"\n[phase.orders]\nGERMANY = [\"A BEL B\", \"A RUH B\", \"A HOL B\"]\n",
    )
    .unwrap();
    let setup = format!("{VARIANT}/winter_setup.toml");
    let out = hexwar(&[
        "play",
        VARIANT,
        "--setup",
        &setup,
        "--orders",
        orders.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("  GERMANY  A BEL B                  void (GERMANY does not hold BEL)\n  GERMANY  A HOL B                  ok\n  GERMANY  A RUH B                  void (RUH is not a supply centre)\n"),
        "{}",
        stdout(&out)
    );
}

/// `hexwar play` of the build-anywhere fixture's winter (one build due, `A HOL B`) on the
/// scenario in `dir`, with `extra` arguments (`--json`).
fn play_winter(dir: &Path, extra: &[&str]) -> std::process::Output {
    let setup = format!("{VARIANT}/winter_setup.toml");
    let orders = format!("{VARIANT}/winter_orders.toml");
    let mut args = vec![
        "play",
        dir.to_str().unwrap(),
        "--setup",
        &setup,
        "--orders",
        &orders,
    ];
    args.extend(extra);
    hexwar(&args)
}

/// `play_winter` with the variant module replaced by `text`: the exit code and stderr.
fn winter_under(text: &str) -> (Option<i32>, String) {
    let dir = variant_scenario("house");
    std::fs::write(dir.path().join("house.lua"), text).unwrap();
    let out = play_winter(dir.path(), &[]);
    (out.status.code(), stderr(&out))
}

/// A `build_sites` that returns a list of provinces instead of a set used to play a game in
/// which nobody ever built (every build void, `check` silent): named with what it returned;
/// a province the map lacks too.
#[test]
fn a_build_sites_returning_a_list_or_no_province_is_named() {
    for (body, expected) in [
        (
            "return centers[power]",
            "diplomacy variant: build_sites(GERMANY) returned a list (BER, HOL, KIE, MUN); it must return a set of provinces, {BER = true}",
        ),
        (
            "return { HOL = true, ATLANTIS = true }",
            "diplomacy variant: build_sites(GERMANY) returned {ATLANTIS = true}; it must return a set of provinces of the map, each = true",
        ),
        (
            "return 'HOL'",
            "diplomacy variant: build_sites(GERMANY) returned a string; it must return a set of provinces, {PAR = true}",
        ),
    ] {
        let (code, err) = winter_under(&format!(
            "return require(\"diplomacy\").variant({{ build_sites = function(rules, cm, power, centers) {body} end }})\n"
        ));
        assert_eq!(code, Some(2), "{body}: {err}");
        assert!(err.contains(expected), "{body}: {err}");
    }
}

/// DIP-1 replaced: a variant's `winner` may say why the game ended (its second value), and a
/// winner that is not a power of the map is named, not a failure inside the host
/// (`attempt to concatenate a nil value`).
#[test]
fn dip_1_a_variant_winner_gives_its_reason_and_a_wrong_one_is_named() {
    let winner = |body: &str| {
        format!(
            "return require(\"diplomacy\").variant({{ winner = function(rules, cm, centers) {body} end }})\n"
        )
    };
    let dir = variant_scenario("house");
    std::fs::write(
        dir.path().join("house.lua"),
        winner("if #(centers.GERMANY or {}) >= 4 then return 'GERMANY', 'HOUSE-1: Germany holds four centres' end"),
    )
    .unwrap();
    let out = play_winter(dir.path(), &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        phases[0]["game_over"],
        json!({"reason": "HOUSE-1: Germany holds four centres", "winner": "GERMANY"})
    );
    for (body, expected) in [
        (
            "return 'NARNIA'",
            "diplomacy variant: winner returned string NARNIA, not a power of the map (AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY) or nil",
        ),
        (
            "return nil, 'nobody'",
            "diplomacy variant: winner returned the reason string nobody with no winner; a reason is a string, given after a winner",
        ),
    ] {
        let (code, err) = winter_under(&winner(body));
        assert_eq!(code, Some(2), "{body}: {err}");
        assert!(err.contains(expected), "{body}: {err}");
    }
}

/// A later variant that sets a rule back to the standard function gets the standard rule: it
/// used to get the earlier variant's (layering carried every rule the later one "left
/// standard"). Build anywhere, then standard builds: Holland is no home centre of Germany.
#[test]
fn a_later_variant_may_set_a_rule_back_to_the_standard_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario = std::fs::read_to_string(root.join(VARIANT).join("scenario.toml"))
        .unwrap()
        .replace("../../../", &format!("{}/", root.display()))
        .replace("\"build_anywhere\"", "\"build_anywhere\", \"home_builds\"")
        .replace(
            "rule_roots = [",
            &format!(
                "rule_roots = [\"{}\", \".\", ",
                root.join(VARIANT).display()
            ),
        );
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    std::fs::write(
        dir.path().join("home_builds.lua"),
        "local standard = require(\"diplomacy.adjudicate\").rules\n\
         return require(\"diplomacy\").variant({ build_sites = standard.build_sites })\n",
    )
    .unwrap();
    let out = play_winter(dir.path(), &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        phases[0]["results"][0]["flags"],
        json!(["void"]),
        "{phases}"
    );
}

/// `hexwar play --json` of one spring phase of the build-anywhere fixture's scenario with its
/// variant module replaced by `text`: the phase's results.
fn spring_under(text: &str, units: &str, orders: &str) -> Value {
    let dir = variant_scenario("house");
    std::fs::write(dir.path().join("house.lua"), text).unwrap();
    let setup = dir.path().join("setup.toml");
    std::fs::write(&setup, format!("phase = \"S1901M\"\n[units]\n{units}")).unwrap();
    let order_file = dir.path().join("orders.toml");
    std::fs::write(
        &order_file,
        format!("[[phase]]\nphase = \"S1901M\"\n[phase.orders]\n{orders}"),
    )
    .unwrap();
    let out = hexwar(&[
        "play",
        dir.path().to_str().unwrap(),
        "--setup",
        setup.to_str().unwrap(),
        "--orders",
        order_file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    phases[0]["results"].clone()
}

/// A fortress house rule: a unit holding its own power's home centre holds with 2. What a
/// unit brings before its supports has a hook, `unit_strength`, so the variant is these lines,
/// not a copy of the resolver. Germany's supported attack on Paris dislodges the French army
/// under the standard rules and bounces under the variant; an attack (not a hold) keeps 1.
#[test]
fn unit_strength_makes_a_fortress_variant_in_a_few_lines() {
    const FORTRESS: &str =
        "return require(\"diplomacy\").variant({ unit_strength = function(rules, ctx, i, role)\n\
        local u = ctx.U[i]\n\
        if role == \"hold\" and ctx.cm.prov[u.prov].home == u.power then return 2 end\n\
      end })\n";
    const UNITS: &str = "FRANCE = [\"A PAR\"]\nGERMANY = [\"A BUR\", \"A PIC\"]\n";
    const ORDERS: &str = "GERMANY = [\"A BUR - PAR\", \"A PIC S A BUR - PAR\"]\n";
    let standard = spring_under("return require(\"diplomacy\").variant({})\n", UNITS, ORDERS);
    assert_eq!(
        standard,
        json!([
            {"power": "FRANCE", "order": "A PAR H", "unit": "A PAR", "flags": ["dislodged"]},
            {"power": "GERMANY", "order": "A BUR - PAR", "unit": "A BUR", "flags": []},
            {"power": "GERMANY", "order": "A PIC S A BUR - PAR", "unit": "A PIC", "flags": []}
        ])
    );
    let fortress = spring_under(FORTRESS, UNITS, ORDERS);
    assert_eq!(
        fortress,
        json!([
            {"power": "FRANCE", "order": "A PAR H", "unit": "A PAR", "flags": []},
            {"power": "GERMANY", "order": "A BUR - PAR", "unit": "A BUR", "flags": ["bounce"]},
            {"power": "GERMANY", "order": "A PIC S A BUR - PAR", "unit": "A PIC", "flags": []}
        ])
    );
    // (a region that is no home centre is no fortress: Picardy falls to two as before)
    let attack = spring_under(
        FORTRESS,
        "FRANCE = [\"A PAR\", \"F BRE\"]\nGERMANY = [\"A PIC\"]\n",
        "FRANCE = [\"A PAR - PIC\", \"F BRE S A PAR - PIC\"]\n",
    );
    assert_eq!(
        attack,
        json!([
            {"power": "FRANCE", "order": "A PAR - PIC", "unit": "A PAR", "flags": []},
            {"power": "FRANCE", "order": "F BRE S A PAR - PIC", "unit": "F BRE", "flags": []},
            {"power": "GERMANY", "order": "A PIC H", "unit": "A PIC", "flags": ["dislodged"]}
        ])
    );
}

/// A `unit_strength` answer that is no strength stops the game naming the hook, the unit and
/// the value.
#[test]
fn a_unit_strength_that_is_no_number_is_named() {
    let err = spring_fails_under(
        "return require(\"diplomacy\").variant({ unit_strength = function() return -1 end })\n",
    );
    assert!(
        err.contains("diplomacy variant: unit_strength(AUSTRIA A TRI, attack) returned number -1; it must return a strength, a number 0 or more (or nil for 1)"),
        "{err}"
    );
}

/// A `cuts_support` that answers no boolean (a forgotten `return`, which left every support
/// uncut) stops the game naming the hook, the move and the support.
#[test]
fn a_cuts_support_that_answers_no_boolean_is_named() {
    let err = spring_fails_under(
        "return require(\"diplomacy\").variant({ cuts_support = function(rules, ctx, j, i) \
         local cut = ctx.U[j].power ~= ctx.U[i].power end })\n",
    );
    assert!(
        err.contains(
            "diplomacy variant: cuts_support(A TRI, A TYR) returned nil nil; it must return true \
             (the move cuts the support) or false"
        ),
        "{err}"
    );
}

const NO_CONVOY: &str = "tests/fixtures/diplomacy_no_convoy";

/// A variant's `order_allowed` voids the orders it forbids: under "no convoys" England's convoy
/// and the army's move by convoy are void and nothing moves; the standard rules carry the army
/// to Norway. The text output gives the variant's reasons.
#[test]
fn order_allowed_voids_a_convoy_the_standard_rules_carry() {
    let play = |scenario: &str, json: bool| -> std::process::Output {
        let mut args = vec![
            "play",
            scenario,
            "--setup",
            "tests/fixtures/diplomacy_no_convoy/setup.toml",
            "--orders",
            "tests/fixtures/diplomacy_no_convoy/orders.toml",
        ];
        if json {
            args.push("--json");
        }
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        out
    };
    let phase = |scenario: &str| -> Value {
        let all: Value = serde_json::from_str(&stdout(&play(scenario, true))).unwrap();
        json!([all[0]["results"], all[0]["units"]])
    };
    assert_eq!(
        phase(NO_CONVOY),
        json!([
            [
                {"power": "ENGLAND", "order": "A YOR - NWY VIA", "unit": "A YOR", "flags": ["void"]},
                {"power": "ENGLAND", "order": "F NTH C A YOR - NWY", "unit": "F NTH", "flags": ["void"]}
            ],
            {"ENGLAND": ["A YOR", "F NTH"]}
        ])
    );
    assert_eq!(
        phase(STANDARD),
        json!([
            [
                {"power": "ENGLAND", "order": "A YOR - NWY VIA", "unit": "A YOR", "flags": []},
                {"power": "ENGLAND", "order": "F NTH C A YOR - NWY", "unit": "F NTH", "flags": []}
            ],
            {"ENGLAND": ["A NWY", "F NTH"]}
        ])
    );
    let text = stdout(&play(NO_CONVOY, false));
    assert!(
        text.starts_with(
            "S1901M:\n  ENGLAND  A YOR - NWY VIA          void (no army moves by convoy in this variant)\n  \
             ENGLAND  F NTH C A YOR - NWY      void (fleets do not convoy in this variant)\n"
        ),
        "{text}"
    );
}

/// The bots follow `order_allowed` too: the convoys they make up themselves (the menu lists
/// none) are left out, so England's island army is not carried under "no convoys".
#[test]
fn order_allowed_keeps_the_bots_from_the_orders_it_forbids() {
    let orders = |scenario: &str| -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut session = Session::start(&root.join(scenario), Some(1)).expect("starts");
        session
            .setup_text(&hexwar::board::SourceText::new(
                "setup.toml",
                "phase = \"S1901M\"\n[units]\nENGLAND = [\"A LON\", \"F NTH\"]\nFRANCE = [\"A PAR\"]\n",
            ))
            .expect("setup");
        common::diplomacy_bot_orders(&mut session, "ENGLAND", 0)
    };
    assert_eq!(orders(STANDARD), ["F NTH C A LON - BEL", "A LON - BEL VIA"]);
    // (the army has no centre to walk to: it holds, the fleet takes Belgium)
    assert_eq!(orders(NO_CONVOY), ["F NTH - BEL"]);
}

/// `order_allowed` is asked in every phase: a retreat it forbids is void (the unit is
/// disbanded), and so is a build; the standard rules let both stand. `check_order` gives the
/// variant's reason.
#[test]
fn order_allowed_is_asked_of_retreats_and_builds_too() {
    let dir = variant_scenario("no_albania");
    std::fs::write(
        dir.path().join("no_albania.lua"),
        "return require(\"diplomacy\").variant({ order_allowed = function(rules, cm, position, power, o)\n\
         \x20 if o.kind == \"R\" and o.dest == \"ALB\" then return false, \"no retreat to Albania\" end\n\
         \x20 if o.kind == \"B\" and o.utype == \"F\" then return false, \"no fleet is built\" end\n\
         end })\n",
    )
    .unwrap();
    let variant = dir.path().to_str().unwrap().to_string();
    let files = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| -> String {
        let path = files.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let setup = write(
        "setup.toml",
        "phase = \"S1901M\"\n[units]\nITALY = [\"A VEN\", \"A TYR\"]\nAUSTRIA = [\"A TRI\"]\n",
    );
    let orders = write(
        "orders.toml",
        "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nITALY = [\"A VEN - TRI\", \"A TYR S A VEN - TRI\"]\n\n\
         [[phase]]\nphase = \"S1901R\"\n[phase.orders]\nAUSTRIA = [\"A TRI R ALB\"]\n",
    );
    let winter = write(
        "winter.toml",
        "phase = \"W1901A\"\n[units]\nGERMANY = [\"A BER\", \"A MUN\"]\n[centers]\nGERMANY = [\"BER\", \"KIE\", \"MUN\"]\n",
    );
    let builds = write(
        "builds.toml",
        "[[phase]]\nphase = \"W1901A\"\n[phase.orders]\nGERMANY = [\"F KIE B\"]\n",
    );
    let play = |scenario: &str, setup: &str, orders: &str| -> Value {
        let out = hexwar(&[
            "play", scenario, "--setup", setup, "--orders", orders, "--json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let retreat = |scenario: &str| play(scenario, &setup, &orders)[1]["results"].clone();
    assert_eq!(
        retreat(&variant),
        json!([{"power": "AUSTRIA", "order": "A TRI R ALB", "unit": "A TRI", "flags": ["void", "disband"]}])
    );
    assert_eq!(
        retreat(STANDARD),
        json!([{"power": "AUSTRIA", "order": "A TRI R ALB", "unit": "A TRI", "flags": []}])
    );
    let build = |scenario: &str| play(scenario, &winter, &builds)[0]["results"].clone();
    assert_eq!(
        build(&variant),
        json!([{"power": "GERMANY", "order": "F KIE B", "unit": "F KIE", "flags": ["void"]}])
    );
    assert_eq!(
        build(STANDARD),
        json!([{"power": "GERMANY", "order": "F KIE B", "unit": "F KIE", "flags": []}])
    );
    let mut session = Session::start(dir.path(), Some(1)).expect("starts");
    session.setup_file(Path::new(&winter)).expect("setup");
    let check = session
        .game
        .query(
            "check_order",
            &json!({"power": "GERMANY", "order": "F KIE B"}),
        )
        .unwrap()
        .unwrap();
    assert_eq!(
        check,
        json!({"order": "F KIE B", "unit": "F KIE", "void": true, "reason": "no fleet is built"})
    );
    // A retreat written with a dash is a retreat to the hook too (it read as a move and stood);
    // an order for a unit the power lacks keeps the standard reason.
    let retreat_setup = write(
        "retreat.toml",
        "phase = \"S1901R\"\n[units]\nTURKEY = [\"A BUL\"]\nAUSTRIA = [\"A BUD\"]\n\
         [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\nretreats = [\"ALB\", \"GRE\", \"TRI\"]\n",
    );
    let retreats = write(
        "retreats.toml",
        "[[phase]]\nphase = \"S1901R\"\n[phase.orders]\nAUSTRIA = [\"A SER - ALB\", \"A BUD R ALB\"]\n",
    );
    let out = hexwar(&[
        "play",
        &variant,
        "--setup",
        &retreat_setup,
        "--orders",
        &retreats,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "S1901R:\n  AUSTRIA  A BUD R ALB              void (AUSTRIA has no dislodged army in BUD)\n  \
             AUSTRIA  A SER - ALB              void, disband (no retreat to Albania)\n"
        ),
        "{}",
        stdout(&out)
    );
}

/// A variant layered after Francqueville that wraps `adjustments` over
/// `require("diplomacy").rules_in_force()` keeps Francqueville's own adjustments (which carry
/// R-g3's record of units that arrived by retreat through the winter); wrapped over the standard
/// rule (`adjudicate.rules`), it dropped them without a word and the stack was never broken up.
#[test]
fn dip_4_g_a_variant_wrapping_the_rule_in_force_keeps_an_earlier_variants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let scenario =
        std::fs::read_to_string(root.join("scenarios/diplomacy-francqueville/scenario.toml"))
            .unwrap()
            .replace(
                "map = \"../diplomacy/map.toml\"",
                &format!(
                    "map = \"{}/scenarios/diplomacy/map.toml\"\nrule_roots = [\"{}/rules\", \".\"]",
                    root.display(),
                    root.display()
                ),
            )
            .replace(
                "rules = [\"diplomacy\", \"diplomacy/variants/francqueville\"]",
                "rules = [\"diplomacy\", \"diplomacy/variants/francqueville\", \"winter_wrap\"]",
            );
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    std::fs::write(
        dir.path().join("winter_wrap.lua"),
        "local below = require(\"diplomacy\").rules_in_force().adjustments\n\
         local function adjustments(rules, cm, position, orders)\n\
         \x20 return below(rules, cm, position, orders)\n\
         end\n\
         return require(\"diplomacy\").variant({ adjustments = adjustments })\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("setup.toml"),
        "phase = \"F1901M\"\n[units]\nGERMANY = [\"A RUH\", \"F KIE\"]\nFRANCE = [\"A BUR\", \"A BEL\"]\n",
    )
    .unwrap();
    // (A RUH, dislodged, retreats onto its own fleet in KIE, R-g3; a build in BER; the stack
    // lasts until the end of the next movement phase, where the unit that arrived is disbanded)
    std::fs::write(
        dir.path().join("orders.toml"),
        "[[phase]]\nphase = \"F1901M\"\n[phase.orders]\nGERMANY = [\"A RUH H\", \"F KIE H\"]\n\
         FRANCE = [\"A BUR - RUH\", \"A BEL S A BUR - RUH\"]\n\
         [[phase]]\nphase = \"F1901R\"\n[phase.orders]\nGERMANY = [\"A RUH R KIE\"]\n\
         [[phase]]\nphase = \"W1901A\"\n[phase.orders]\nGERMANY = [\"A BER B\"]\n\
         [[phase]]\nphase = \"S1902M\"\n[phase.orders]\nGERMANY = [\"F KIE H\", \"A KIE H\", \"A BER H\"]\n",
    )
    .unwrap();
    let d = dir.path();
    let out = hexwar(&[
        "play",
        d.to_str().unwrap(),
        "--setup",
        d.join("setup.toml").to_str().unwrap(),
        "--orders",
        d.join("orders.toml").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let phases: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let spring = &phases[3];
    assert_eq!(spring["phase"], json!("S1902M"), "{phases}");
    assert_eq!(
        spring["units"]["GERMANY"],
        json!(["A BER", "F KIE"]),
        "{spring}"
    );
    let kie_army = spring["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["order"] == json!("A KIE H"))
        .unwrap();
    assert_eq!(kie_army["flags"], json!(["disband"]), "{spring}");
}

//! The greedy Diplomacy bot (rules/diplomacy/ai.lua, every power's bot in the Diplomacy
//! scenarios): one order an answer from the rules' menu, scored against the steps to the supply
//! centres the power does not hold, until the menu is empty.

use std::path::Path;

use hexwar::board::SourceText;
use hexwar::engine::Command;
use hexwar::Session;
use serde_json::{json, Value};

mod common;

use common::{diplomacy_bot_orders as orders_of, hexwar, stderr, stdout};

/// The standard game at `setup` (a `--setup` text).
fn at(setup: &str) -> Session {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, Some(1)).unwrap();
    session
        .setup_text(&SourceText::new("setup.toml", setup))
        .unwrap();
    session
}

/// A free centre next to a unit is taken, and the power's other unit that reaches it supports
/// the move instead of going elsewhere (a support scores the centre too).
#[test]
fn it_takes_a_free_centre_and_supports_its_own_move_into_it() {
    let mut s =
        at("phase = \"S1901M\"\n[units]\nFRANCE = [\"A PIC\", \"A BUR\"]\nGERMANY = [\"A MUN\"]\n");
    assert_eq!(
        orders_of(&mut s, "FRANCE", 0),
        ["A BUR - BEL", "A PIC S A BUR - BEL"]
    );
    // (another seed breaks the tie between the two moves the other way)
    let mut s =
        at("phase = \"S1901M\"\n[units]\nFRANCE = [\"A PIC\", \"A BUR\"]\nGERMANY = [\"A MUN\"]\n");
    assert_eq!(
        orders_of(&mut s, "FRANCE", 1),
        ["A PIC - BEL", "A BUR S A PIC - BEL"]
    );
}

/// Two of the power's units never go for one province (they would bounce): the second takes
/// the next best step.
#[test]
fn two_units_do_not_go_for_one_province() {
    let mut s = at("phase = \"S1901M\"\n[units]\nRUSSIA = [\"A UKR\", \"A GAL\"]\n");
    let orders = orders_of(&mut s, "RUSSIA", 0);
    assert_eq!(orders.len(), 2, "{orders:?}");
    let dest = |o: &str| o.split(" - ").nth(1).map(str::to_string);
    assert_ne!(dest(&orders[0]), dest(&orders[1]), "{orders:?}");
    assert_eq!(orders[0], "A GAL - BUD");
    assert_eq!(orders[1], "A UKR - RUM");
}

/// A dislodged unit retreats into a centre the power does not hold when it may, and disbands
/// only when it has nowhere to go; in winter a power builds in its open home centres, a fleet
/// while it has fewer fleets than half its armies.
#[test]
fn it_retreats_toward_centres_and_builds_at_home() {
    let mut s = at("phase = \"S1901R\"\n[units]\nTURKEY = [\"A ARM\"]\n\
         [[dislodged]]\npower = \"AUSTRIA\"\nunit = \"A SER\"\nby = \"BUL\"\nretreats = [\"ALB\", \"GRE\", \"TRI\"]\n");
    assert_eq!(orders_of(&mut s, "AUSTRIA", 0), ["A SER R GRE"]);
    let mut s = at(
        "phase = \"W1901A\"\n[units]\nITALY = [\"A VEN\"]\n[centers]\nITALY = [\"VEN\", \"ROM\", \"NAP\"]\n",
    );
    // (no fleet for one army: a fleet first, then an army, the first build counted)
    let builds = orders_of(&mut s, "ITALY", 0);
    assert_eq!(builds, ["F NAP B", "A ROM B"]);
}

/// Every power of a whole game is played by it: the games differ by seed, each is the same
/// again with its seed, and no order it gives is refused (the run warns of none).
#[test]
fn whole_games_are_played_by_it_without_a_refusal() {
    let run = |seed: &str| {
        let out = hexwar(&["run", "scenarios/diplomacy", "--seed", seed, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stderr(&out), "", "no refusal warned of");
        let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(summary["events"].get("CommandRefused"), None, "{summary}");
        summary["outcome"]["scores"].clone()
    };
    let (a, b, again) = (run("1"), run("2"), run("1"));
    assert_eq!(a, again);
    assert_ne!(a, b);
    let total: f64 = a
        .as_object()
        .unwrap()
        .values()
        .filter_map(Value::as_f64)
        .sum();
    assert!(
        total >= 30.0,
        "the neutral centres are taken by year 10: {a}"
    );
}

/// A move onto one of the power's own units that does not leave would bounce for certain: the
/// bot gives none (nor a support for one), and backs one move once. Here Greece is a centre to
/// take with a Turkish army standing on it.
#[test]
fn it_moves_onto_its_own_unit_only_when_that_unit_leaves() {
    let mut s = at(
        "phase = \"S1901M\"\n[units]\nTURKEY = [\"A SER\", \"A GRE\", \"F AEG\"]\nAUSTRIA = [\"A VIE\"]\n",
    );
    let orders = orders_of(&mut s, "TURKEY", 0);
    let moving: Vec<&str> = orders
        .iter()
        .filter(|o| o.contains(" - ") && !o.contains(" S "))
        .map(|o| o.split(" - ").next().unwrap())
        .collect();
    for o in &orders {
        if let Some((unit, dest)) = o.split_once(" - ") {
            let dest = &dest[..3];
            let onto = ["A SER", "A GRE", "F AEG"]
                .iter()
                .find(|u| u.ends_with(dest) && !unit.ends_with(dest));
            if let Some(own) = onto {
                assert!(
                    moving.contains(own),
                    "{o} onto {own}, which stays: {orders:?}"
                );
            }
        }
    }
    // (the army leaves Greece for Bulgaria, backed once from Serbia; the fleet takes its place)
    assert_eq!(
        orders,
        ["A GRE - BUL", "A SER S A GRE - BUL", "F AEG - GRE"]
    );
}

/// An army that cannot walk to a centre is carried: the power's fleet in a sea next to it
/// convoys it to a free centre on that sea (the convoy first, then the army's move), and the
/// two orders succeed together. England's armies used to stay at home all game.
#[test]
fn an_island_army_is_convoyed_to_a_free_centre() {
    let mut s = at(
        "phase = \"S1901M\"\n[units]\nENGLAND = [\"A LON\", \"F NTH\"]\n\
                    FRANCE = [\"A PAR\"]\n",
    );
    let orders = orders_of(&mut s, "ENGLAND", 0);
    assert_eq!(orders, ["F NTH C A LON - BEL", "A LON - BEL VIA"]);
    s.game.submit(Some("ENGLAND"), &Command::EndPhase).unwrap();
    let units = &s.game.state().vars["position"]["units"]["ENGLAND"];
    assert_eq!(units, &json!(["A BEL", "F NTH"]));
    // Another seed picks another of the equally near centres on the North Sea.
    let mut s = at(
        "phase = \"S1901M\"\n[units]\nENGLAND = [\"A LON\", \"F NTH\"]\n\
                    FRANCE = [\"A PAR\"]\n",
    );
    let other = orders_of(&mut s, "ENGLAND", 1);
    assert_eq!(other.len(), 2, "{other:?}");
    assert!(other[0].starts_with("F NTH C A LON - "), "{other:?}");
    assert_ne!(other, orders);
    // An army with a centre to walk to is not carried.
    let mut s = at(
        "phase = \"S1901M\"\n[units]\nENGLAND = [\"A YOR\", \"F NTH\"]\n\
                    FRANCE = [\"A PAR\"]\n[centers]\nENGLAND = [\"LON\", \"LVP\"]\n\
                    FRANCE = [\"PAR\"]\n",
    );
    let walk = orders_of(&mut s, "ENGLAND", 0);
    assert_eq!(walk[0], "A YOR - EDI", "{walk:?}");
}

/// An army with no centre in reach (England's armies on their island, every British centre
/// held, no fleet) holds: a move onto its own unit that stays used to beat holding, since it
/// scored a flat -20 and a hold there the steps to nowhere (-99).
#[test]
fn an_army_with_nothing_in_reach_does_not_move_onto_its_own_unit() {
    let mut s = at(
        "phase = \"S1901M\"\n[units]\nENGLAND = [\"A EDI\", \"A LVP\"]\n\
         FRANCE = [\"A PAR\"]\n[centers]\nENGLAND = [\"EDI\", \"LVP\", \"LON\"]\n",
    );
    assert_eq!(orders_of(&mut s, "ENGLAND", 0), Vec::<String>::new());
}

/// A move an enemy unit may contest (into a province one stands in or next to) is held back at
/// one answer in four, by two bits of the seed above the ties': the unit takes its best
/// order that no enemy may contest. Two powers went for one centre, or into each other's
/// province, every year of a game otherwise.
#[test]
fn a_contested_move_is_held_back_by_a_bit_of_the_seed() {
    let setup = "phase = \"S1901M\"\n[units]\nFRANCE = [\"A BUR\"]\nGERMANY = [\"A RUH\"]\n";
    // (Belgium is a free centre, and the German army in the Ruhr stands next to it)
    assert_eq!(orders_of(&mut at(setup), "FRANCE", 0), ["A BUR - BEL"]);
    assert_eq!(
        orders_of(&mut at(setup), "FRANCE", 2 << 16),
        ["A BUR - BEL"]
    );
    // (held back, the army holds: Picardy, its best other order, is one step from Belgium, as
    // Burgundy is, and the hold comes first in the menu)
    assert_eq!(orders_of(&mut at(setup), "FRANCE", 1 << 16), ["A BUR H"]);
    // An uncontested move is not held back.
    let free = "phase = \"S1901M\"\n[units]\nFRANCE = [\"A BUR\"]\nGERMANY = [\"A BER\"]\n";
    assert_eq!(orders_of(&mut at(free), "FRANCE", 1 << 16), ["A BUR - BEL"]);
}

/// Every supply centre of the standard map but Munich, for a setup where Munich is the only
/// centre France does not hold.
const ALL_BUT_MUNICH: &str = "\"ANK\", \"BEL\", \"BER\", \"BRE\", \"BUD\", \"BUL\", \"CON\", \
    \"DEN\", \"EDI\", \"GRE\", \"HOL\", \"KIE\", \"LON\", \"LVP\", \"MAR\", \"MOS\", \"NAP\", \
    \"NWY\", \"PAR\", \"POR\", \"ROM\", \"RUM\", \"SER\", \"SEV\", \"SMY\", \"SPA\", \"STP\", \
    \"SWE\", \"TRI\", \"TUN\", \"VEN\", \"VIE\", \"WAR\"";

/// A move into a province an enemy unit holds bounces without support: the bot makes one only
/// when another of its units not yet ordered could support it (and then supports it), else it
/// counts the move 12 down, not 6. Without the support, games bounced such moves year after
/// year (60 to 90 a game).
#[test]
fn an_attack_on_a_held_province_waits_for_a_unit_that_can_support_it() {
    let alone = format!(
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"A BUR\"]\nGERMANY = [\"A MUN\"]\n\
         [centers]\nFRANCE = [{ALL_BUT_MUNICH}]\n"
    );
    let orders = orders_of(&mut at(&alone), "FRANCE", 0);
    assert!(!orders.contains(&"A BUR - MUN".to_string()), "{orders:?}");
    let backed = format!(
        "phase = \"S1901M\"\n[units]\nFRANCE = [\"A BUR\", \"A RUH\"]\nGERMANY = [\"A MUN\"]\n\
         [centers]\nFRANCE = [{ALL_BUT_MUNICH}]\n"
    );
    assert_eq!(
        orders_of(&mut at(&backed), "FRANCE", 0),
        ["A BUR - MUN", "A RUH S A BUR - MUN"]
    );
}

/// An embedder driving `bot::play` with no sides meets Diplomacy's simultaneous step as a
/// host call's error naming the phase (the step was played as side '' and refused), and the
/// game is left at its start.
#[test]
fn play_with_no_sides_names_the_simultaneous_phase_it_cannot_play() {
    use hexwar::bot::{play, RandomBot, RunLimit, SideBots};
    use hexwar::engine::GameError;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/diplomacy");
    let mut session = Session::start(&path, Some(1)).unwrap();
    let mut bot = SideBots::new(
        RandomBot::new(session.bot_dice),
        session.scenario.bots.clone(),
    );
    let before = session.game.state().clone();
    match play(&mut session.game, &mut bot, &[], RunLimit::End) {
        Err(GameError::Rules(e)) => assert_eq!(
            e.message,
            "bot::play: phase 'spring movement' of turn 1 has no phasing side and no sides were \
             given to play it"
        ),
        other => panic!("expected a rules error, got {other:?}"),
    }
    assert_eq!(session.game.state(), &before);
}

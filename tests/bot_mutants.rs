//! The bot drivers (`hexwar::bot`) as an embedder sees them: what a run reports and shows its
//! observer, where it stops, and what a bot's listing gives. Written for the survivors of a
//! cargo-mutants run on `src/bot`: each test pins a behaviour no other test did.

use std::collections::BTreeMap;

use hexwar::bot::{
    play_keeping_report, Bot, LegalCommands, PlayOptions, RandomBot, RunLimit, RunReport, SidesDone,
};
use hexwar::engine::{
    Command, CommandFilter, Dice, Event, EventLimits, Game, GameError, GameState, Outcome, Refusal,
    Resolution, RulesError, Ruleset, Sequence, Step,
};
use serde_json::json;

/// `name` with its `n`, as the toy rules list them.
fn numbered(name: &str, n: u64) -> Command {
    let mut args = serde_json::Map::new();
    args.insert("n".into(), json!(n));
    Command::Custom {
        name: name.into(),
        args,
    }
}

fn take(n: u64) -> Command {
    numbered("take", n)
}

/// Toy rules: each side may `take` 1 to 3 (noted in a variable), or give a command the rules
/// `refuse`; `end_phase` is listed and taken unless `end_refused`. `listed`, when set, is
/// what they list instead.
struct Toy {
    sequence: Sequence,
    sides: Vec<String>,
    end_refused: bool,
    listed: Option<Vec<Command>>,
}

impl Ruleset for Toy {
    fn sequence(&self) -> &Sequence {
        &self.sequence
    }
    fn sides(&self) -> &[String] {
        &self.sides
    }
    fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
        if let Some(listed) = &self.listed {
            return Ok(listed.clone());
        }
        Ok(vec![
            take(1),
            take(2),
            take(3),
            numbered("refuse", 1),
            Command::EndPhase,
        ])
    }
    fn resolve(
        &mut self,
        state: &GameState,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Resolution, RulesError> {
        Ok(match command {
            Command::EndPhase if self.end_refused => Err(Refusal::new("TOY-1", "not yet")),
            Command::EndPhase => Ok(Vec::new()),
            Command::Custom { name, args } if name == "take" => Ok(vec![Event::VarSet {
                key: format!("{}-{}", side.unwrap_or("host"), state.vars.len()),
                value: json!(args["n"]).into(),
            }]),
            _ => Err(Refusal::new("TOY-2", "refused")),
        })
    }
    fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
        Ok(Outcome {
            winner: None,
            scores: BTreeMap::new(),
            reason: "over".into(),
        })
    }
}

/// Toy rules of `sides`, one step per turn (`phasing` side's, or simultaneous when None).
fn toy_rules(sides: &[&str], phasing: Option<&str>, end_refused: bool) -> Toy {
    Toy {
        sequence: Sequence {
            steps: vec![Step {
                side: phasing.map(str::to_string),
                phase: "orders".into(),
            }],
            special: BTreeMap::new(),
        },
        sides: sides.iter().map(|s| s.to_string()).collect(),
        end_refused,
        listed: None,
    }
}

/// A started game of `rules`, `turns` turns.
fn started(rules: Toy, turns: u32) -> Game {
    let mut game = Game::new(
        GameState::new("toy", 1),
        Box::new(rules),
        turns,
        EventLimits::default(),
    );
    game.start(1).expect("the toy game starts");
    game
}

/// A started toy game (see [`toy_rules`]) of `turns` turns.
fn toy(sides: &[&str], phasing: Option<&str>, turns: u32, end_refused: bool) -> Game {
    started(toy_rules(sides, phasing, end_refused), turns)
}

/// A bot that gives each side's commands from a script, in order, then ends the phase; it
/// notes every side it was asked for and every take-back.
#[derive(Default)]
struct Scripted {
    script: BTreeMap<String, Vec<Command>>,
    asked: Vec<String>,
    taken_back: u32,
}

impl Scripted {
    fn new(script: &[(&str, Vec<Command>)]) -> Self {
        Scripted {
            script: script
                .iter()
                .map(|(side, commands)| (side.to_string(), commands.clone()))
                .collect(),
            ..Scripted::default()
        }
    }
}

impl Bot for Scripted {
    fn choose(&mut self, _: &mut Game, legal: &mut LegalCommands) -> Result<Command, RulesError> {
        self.asked.push(legal.side().to_string());
        let queue = self.script.entry(legal.side().to_string()).or_default();
        Ok(if queue.is_empty() {
            Command::EndPhase
        } else {
            queue.remove(0)
        })
    }
    fn take_back(&mut self) {
        self.taken_back += 1;
    }
}

/// What an observer saw: (side, command, accepted) per command.
type Seen = Vec<(String, Command, bool)>;

/// A run to the game's end (or an error): its result, its report, what the observer saw and
/// the count of legal commands it was told with each.
struct Ran {
    result: Result<(), GameError>,
    report: RunReport,
    seen: Seen,
    legal: Vec<Option<usize>>,
}

fn run(game: &mut Game, bot: &mut dyn Bot, sides: &[&str], options: PlayOptions<'_>) -> Ran {
    let sides: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
    let mut report = RunReport::default();
    let mut seen = Seen::new();
    let mut legal = Vec::new();
    let result = play_keeping_report(
        game,
        bot,
        &sides,
        RunLimit::End,
        options,
        &mut |_, played| {
            seen.push((
                played.side.to_string(),
                played.command.clone(),
                played.accepted,
            ));
            legal.push(played.legal);
        },
        &mut report,
    );
    Ran {
        result,
        report,
        seen,
        legal,
    }
}

fn seen(side: &str, command: Command, accepted: bool) -> (String, Command, bool) {
    (side.to_string(), command, accepted)
}

/// In a simultaneous step the run counts each side's commands and the phase's end, and shows
/// them to the observer in the scenario's order of sides, the end under the first side.
#[test]
fn a_simultaneous_step_counts_every_sides_commands_and_the_phases_end() {
    let mut game = toy(&["a", "b"], None, 1, false);
    let mut bot = Scripted::new(&[("a", vec![take(1), take(2)]), ("b", vec![take(3)])]);
    let ran = run(&mut game, &mut bot, &["a", "b"], PlayOptions::default());
    ran.result.expect("the toy game plays");
    assert!(game.is_over());
    assert_eq!(
        ran.seen,
        vec![
            seen("a", take(1), true),
            seen("a", take(2), true),
            seen("b", take(3), true),
            seen("a", Command::EndPhase, true),
        ]
    );
    assert_eq!((ran.report.commands, ran.report.refused), (4, 0));
    assert_eq!(bot.asked, ["a", "a", "a", "b", "b"]);
}

/// A refused command in a simultaneous step is counted, and ends that side's part of the
/// step: its bot is not asked again, the next side is.
#[test]
fn a_refused_command_in_a_simultaneous_step_is_counted_and_ends_that_sides_part() {
    let mut game = toy(&["a", "b"], None, 1, false);
    let mut bot = Scripted::new(&[
        ("a", vec![numbered("refuse", 1), take(1)]),
        ("b", vec![take(2)]),
    ]);
    let ran = run(&mut game, &mut bot, &["a", "b"], PlayOptions::default());
    ran.result.expect("the toy game plays");
    assert_eq!(
        ran.seen,
        vec![
            seen("a", numbered("refuse", 1), false),
            seen("b", take(2), true),
            seen("a", Command::EndPhase, true),
        ]
    );
    assert_eq!((ran.report.commands, ran.report.refused), (3, 1));
    assert_eq!(bot.asked, ["a", "b", "b"]);
}

/// A bot's own `end_phase` that the rules refuse stops the run with the refusal: it is not
/// counted as a refused order replaced by ending the phase (that would be the same refused
/// command again), the observer sees nothing, and the bot takes its decision back.
#[test]
fn a_refused_end_phase_stops_the_run_uncounted_and_unobserved() {
    let mut game = toy(&["a"], Some("a"), 1, true);
    let mut bot = Scripted::default();
    let ran = run(&mut game, &mut bot, &["a"], PlayOptions::default());
    match ran.result {
        Err(GameError::Refused(r)) => {
            assert_eq!((r.rule.as_str(), r.reason.as_str()), ("TOY-1", "not yet"))
        }
        other => panic!("expected the refusal, got {other:?}"),
    }
    assert_eq!((ran.report.commands, ran.report.refused), (1, 0));
    assert_eq!(ran.seen, Seen::new());
    assert_eq!(bot.taken_back, 1);
}

/// `LegalCommands::matching` gives the legal commands a filter matches, in the rules' order,
/// before the whole list is known (from the rules' partial listing) and after (from the list).
#[test]
fn matching_gives_the_filtered_legal_commands_before_and_after_the_whole_list() {
    let mut game = toy(&["a"], Some("a"), 1, false);
    let mut legal = LegalCommands::new("a");
    let takes = vec![take(1), take(2), take(3)];
    let filter = CommandFilter::command("take");
    assert_eq!(legal.matching(&mut game, &filter).unwrap(), takes);
    assert_eq!(legal.count(), None, "matching does not list everything");
    assert_eq!(legal.all(&mut game).unwrap().len(), 5);
    assert_eq!(legal.matching(&mut game, &filter).unwrap(), takes);
    assert_eq!(
        legal
            .matching(&mut game, &CommandFilter::command("end_phase"))
            .unwrap(),
        vec![Command::EndPhase]
    );
}

/// A person's side in a one-side game whose step is simultaneous: the run stops for it, as the
/// run of a game of several sides does, instead of letting the bot play it.
#[test]
fn a_run_stops_for_the_persons_side_in_a_one_side_simultaneous_step() {
    let mut game = toy(&["a"], None, 1, false);
    let mut bot = Scripted::new(&[("a", vec![take(1)])]);
    let options = PlayOptions {
        stop_for_side: Some("a"),
        ..PlayOptions::default()
    };
    let ran = run(&mut game, &mut bot, &["a"], options);
    ran.result.expect("the toy game plays");
    assert_eq!(ran.report.waiting_for.as_deref(), Some("a"));
    assert_eq!(ran.seen, Seen::new());
    assert_eq!(bot.asked, Vec::<String>::new());
}

/// The observer is told how many commands were legal when the bot chose: with `count_legal`
/// for every command, the phase's end of a simultaneous step too; without it only when the
/// bot listed them all (the random bot does), never for a bot that did not.
#[test]
fn the_observer_is_told_the_legal_count_when_it_is_known() {
    let script = [("a", vec![take(1)]), ("b", vec![take(2)])];
    let counted = PlayOptions {
        count_legal: true,
        ..PlayOptions::default()
    };
    let ran = run(
        &mut toy(&["a", "b"], None, 1, false),
        &mut Scripted::new(&script),
        &["a", "b"],
        counted,
    );
    assert_eq!(ran.legal, vec![Some(5); 3]);
    let ran = run(
        &mut toy(&["a", "b"], None, 1, false),
        &mut Scripted::new(&script),
        &["a", "b"],
        PlayOptions::default(),
    );
    assert_eq!(ran.legal, vec![None; 3]);
    // (a one-side game's step without a phasing side is that side's, played as its own phase)
    for phasing in [Some("a"), None] {
        let ran = run(
            &mut toy(&["a"], phasing, 2, false),
            &mut RandomBot::new(Dice::new(3)),
            &["a"],
            PlayOptions::default(),
        );
        ran.result.expect("the toy game plays");
        assert!(ran.seen.len() > 2, "{phasing:?}: {:?}", ran.seen);
        assert_eq!(ran.legal, vec![Some(5); ran.seen.len()], "{phasing:?}");
    }
}

/// The random bot facing nothing to do but end the phase (or nothing at all) ends it without
/// a roll of its dice and without counting it against its allowance: the rolls a save keeps
/// are those of real choices.
#[test]
fn the_random_bot_ends_a_phase_with_nothing_else_listed_without_rolling() {
    for listed in [vec![Command::EndPhase], Vec::new()] {
        let mut rules = toy_rules(&["a"], Some("a"), false);
        rules.listed = Some(listed.clone());
        let mut game = started(rules, 1);
        let mut bot = RandomBot::new(Dice::new(5));
        let choice = bot.choose(&mut game, &mut LegalCommands::new("a"));
        assert_eq!(choice.unwrap(), Command::EndPhase, "{listed:?}");
        assert_eq!(bot.dice, Dice::new(5), "{listed:?}");
        assert_eq!(bot.given_in_phase(), (1, 0, "a", 0), "{listed:?}");
    }
}

/// A run stopping for a person's side in a simultaneous step has the other sides give their
/// commands first and reports them as done (a save keeps them, so they are not asked again).
#[test]
fn a_run_waiting_for_a_person_in_a_simultaneous_step_reports_the_others_done() {
    let mut game = toy(&["a", "b", "c"], None, 1, false);
    let mut bot = Scripted::new(&[("a", vec![take(1)]), ("c", vec![take(2)])]);
    let options = PlayOptions {
        stop_for_side: Some("b"),
        ..PlayOptions::default()
    };
    let ran = run(&mut game, &mut bot, &["a", "b", "c"], options);
    ran.result.expect("the toy game plays");
    assert_eq!(ran.report.waiting_for.as_deref(), Some("b"));
    assert_eq!(
        ran.report.sides_done,
        Some(SidesDone {
            turn: 1,
            step: 0,
            sides: vec!["a".into(), "c".into()],
        })
    );
    assert_eq!(
        ran.seen,
        vec![seen("a", take(1), true), seen("c", take(2), true)]
    );
    assert_eq!(bot.asked, ["a", "a", "c", "c"]);
}

/// A simultaneous step in which the person's side may only end it is played through without
/// stopping for that side.
#[test]
fn a_run_passes_a_simultaneous_step_the_persons_side_may_only_end() {
    let mut rules = toy_rules(&["a", "b"], None, false);
    rules.listed = Some(vec![Command::EndPhase]);
    let mut game = started(rules, 1);
    let options = PlayOptions {
        stop_for_side: Some("b"),
        ..PlayOptions::default()
    };
    let ran = run(&mut game, &mut Scripted::default(), &["a", "b"], options);
    ran.result.expect("the toy game plays");
    assert!(game.is_over());
    assert_eq!(ran.report.waiting_for, None);
    assert_eq!(ran.seen, vec![seen("a", Command::EndPhase, true)]);
}

/// A person's side that the bots' list of sides leaves out (the scenario has it) is stopped
/// for in a simultaneous step as at its own phase, once the bots' sides have given theirs:
/// the phase was ended without it.
#[test]
fn a_run_stops_for_a_persons_side_the_bots_sides_leave_out() {
    let mut game = toy(&["a", "b", "c"], None, 1, false);
    let mut bot = Scripted::new(&[("a", vec![take(1)]), ("b", vec![take(2)])]);
    let options = PlayOptions {
        stop_for_side: Some("c"),
        ..PlayOptions::default()
    };
    let ran = run(&mut game, &mut bot, &["a", "b"], options);
    ran.result.expect("the toy game plays");
    assert_eq!(ran.report.waiting_for.as_deref(), Some("c"));
    assert_eq!(
        ran.report.sides_done,
        Some(SidesDone {
            turn: 1,
            step: 0,
            sides: vec!["a".into(), "b".into()],
        })
    );
    assert!(!game.is_over());
}

/// The random bot picks fairly among every legal command and ending the phase early, with
/// one roll of as many faces: the first choices of fresh bots in the toy's phase (four
/// commands and `end_phase`) for seeds 1 to 12 are these, each of the five among them.
#[test]
fn the_random_bot_picks_among_every_command_and_ending_the_phase() {
    let choices: Vec<Command> = (1..=12)
        .map(|seed| {
            let mut game = toy(&["a"], Some("a"), 1, false);
            let mut bot = RandomBot::new(Dice::new(seed));
            bot.choose(&mut game, &mut LegalCommands::new("a"))
                .expect("a choice")
        })
        .collect();
    let refuse = numbered("refuse", 1);
    assert_eq!(
        choices,
        vec![
            take(3),
            Command::EndPhase,
            refuse.clone(),
            refuse,
            take(2),
            take(3),
            take(1),
            take(1),
            take(1),
            take(3),
            take(2),
            take(1),
        ]
    );
}

/// The random bot's allowance of commands is per phase: with one command a phase it gives at
/// most one, then ends the phase, and has one again in the next phase (commands given in
/// each of three turns, for seeds 1 to 6; a 0 is an early end).
#[test]
fn the_random_bot_has_its_allowance_afresh_in_each_phase() {
    let counts: Vec<Vec<u32>> = (1..=6)
        .map(|seed| {
            let mut game = toy(&["a"], Some("a"), 3, false);
            let mut bot = RandomBot::new(Dice::new(seed));
            bot.max_per_phase = 1;
            let mut per_turn = Vec::new();
            while !game.is_over() {
                let mut given = 0;
                loop {
                    let choice = bot
                        .choose(&mut game, &mut LegalCommands::new("a"))
                        .expect("a choice");
                    // (the toy refuses `refuse`: the phase goes on, as a run's would not)
                    let _ = game.submit(Some("a"), &choice);
                    if choice == Command::EndPhase {
                        break;
                    }
                    given += 1;
                }
                per_turn.push(given);
            }
            per_turn
        })
        .collect();
    assert_eq!(
        counts,
        [
            [1, 1, 1],
            [0, 1, 1],
            [1, 1, 1],
            [1, 1, 0],
            [1, 1, 0],
            [1, 1, 1]
        ]
    );
}

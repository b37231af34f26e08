//! `Game`: a state, its rules and its log. Commands in, events out; a refused command or a
//! failing rule leaves the state exactly as it was.

use std::collections::VecDeque;

use super::apply::ApplyError;
use super::command::{Command, Refusal};
use super::event::Event;
use super::ruleset::{CommandFilter, RulesError, RulesErrorKind, Ruleset};
use super::state::GameState;
use super::undo::{apply_undoable, Journal};

/// Why a command did not go through. The state is unchanged in every case.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The rules refused the command (a game-level failure, exit code 1).
    #[error("refused: {0}")]
    Refused(Refusal),
    /// The rules failed (a script error or budget, or an event they made that cannot be
    /// applied; exit code 2).
    #[error("rules error: {0}")]
    Rules(RulesError),
}

// (by hand, not `#[from]`: that would also make the RulesError this error's `source()`, and a
// chain printed with its sources would say the message twice)
impl From<RulesError> for GameError {
    fn from(e: RulesError) -> Self {
        GameError::Rules(e)
    }
}

/// The setup keys the engine reads (`[[unit]]` and `[control]` are turned into events by the
/// session before; `[vars]` here, and kept from the rules' own setup).
const ENGINE_SETUP_KEYS: [&str; 5] = ["turn", "phase", "side", "control", "vars"];

/// A setup's `[vars]`, `name = value`: one `VarSet` each, in name order.
fn setup_vars(vars: &serde_json::Value) -> Result<Vec<Event>, String> {
    let serde_json::Value::Object(vars) = vars else {
        return Err("[vars] must be a table: name = value".into());
    };
    Ok(vars
        .iter()
        .map(|(key, value)| Event::VarSet {
            key: key.clone(),
            value: value.clone().into(),
        })
        .collect())
}

/// Bounds on event chains, so a handler that emits events forever is stopped.
#[derive(Debug, Clone, Copy)]
pub struct EventLimits {
    /// Longest chain of reactions (an event caused by an event caused by ...).
    pub max_depth: u32,
    /// Most events one command may produce.
    pub max_events: u32,
}

impl Default for EventLimits {
    fn default() -> Self {
        EventLimits {
            max_depth: 32,
            max_events: 10_000,
        }
    }
}

/// An item of the processing queue: an event (with its reaction depth), or "enter this step"
/// (resolved when reached, against the state as it is then). Almost every item is an event, so
/// boxing it to shrink the rare `Enter` would only add an allocation per event.
#[allow(clippy::large_enum_variant)]
enum Queued {
    /// An event, its reaction depth, and the place in the applied list of the event it reacts
    /// to (to name it when it cannot be applied).
    Event(Event, u32, Option<usize>),
    Enter(u32, u32),
}

/// A game in progress.
pub struct Game {
    state: GameState,
    rules: Box<dyn Ruleset>,
    turn_limit: u32,
    log: Vec<Event>,
    limits: EventLimits,
}

/// A summary, not the whole state (a France 1940 state is some 100 KiB): enough for a host's
/// own `#[derive(Debug)]` structs that hold a game.
impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("scenario", &self.state.scenario)
            .field("turn", &self.state.turn)
            .field("step", &self.state.step)
            .field("units", &self.state.units.len())
            .field("log", &self.log.len())
            .finish_non_exhaustive()
    }
}

impl Game {
    /// A game from a starting (or loaded) state.
    pub fn new(
        state: GameState,
        rules: Box<dyn Ruleset>,
        turn_limit: u32,
        limits: EventLimits,
    ) -> Self {
        let mut state = state;
        // From here on only this game changes the state (see `Revision`).
        state.revision.restart();
        Game {
            state,
            rules,
            turn_limit,
            log: Vec::new(),
            limits,
        }
    }

    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Puts `state`, a copy taken earlier (`game.state().clone()`), in place of the game's own,
    /// without loading the rules again: undo in memory, or an AI's look-ahead resetting one
    /// spare game (`Session::fork`) to each position it tries. The rules' caches see a state
    /// they do not know and read it afresh. The log is left as it is (it records what was
    /// played, undone commands too). A state of another scenario, or at a turn and step the
    /// sequence does not have, is refused (`HostCall`); one from outside the program goes
    /// through a save, whose reader checks the rest (units, places, sides).
    pub fn restore(&mut self, state: GameState) -> Result<(), RulesError> {
        let refuse = |why: String| {
            Err(RulesError::of_kind(
                super::RulesErrorKind::HostCall,
                format!("restore: {why}"),
            ))
        };
        if state.scenario != self.state.scenario {
            return refuse(format!(
                "the state is of scenario '{}', this game of '{}'",
                state.scenario, self.state.scenario
            ));
        }
        // (a made-up turn 500 was taken, and the next command failed in the rules, blamed on
        // the scripts: the turn and step are checked as a save's are)
        let over = state.outcome.is_some();
        if let Some(why) = super::Sequence::turn_problem(state.turn, self.turn_limit, over)
            .or_else(|| self.rules.sequence().step_problem(state.turn, state.step))
        {
            return refuse(why);
        }
        self.state = state;
        self.state.revision.restart();
        Ok(())
    }
    /// Every event applied since this `Game` was made.
    pub fn log(&self) -> &[Event] {
        &self.log
    }
    /// Hands over the events logged so far and empties the log (a long-running host or a
    /// benchmark writes them out instead of keeping them all in memory).
    pub fn take_log(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.log)
    }
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }
    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }
    /// What the rules' scripts printed since the last call (`print`, `hex.log`), drained: a
    /// host shows a mod's output with it (the rules keep at most 10 000 lines between calls).
    pub fn take_script_log(&mut self) -> Vec<String> {
        self.rules.take_script_log()
    }

    pub fn rules(&self) -> &dyn Ruleset {
        self.rules.as_ref()
    }

    pub fn rules_mut(&mut self) -> &mut dyn Ruleset {
        self.rules.as_mut()
    }

    /// The current step's side (None for simultaneous steps or a finished game).
    pub fn phasing_side(&self) -> Option<String> {
        if self.is_over() {
            return None;
        }
        self.rules
            .sequence()
            .step(self.state.turn, self.state.step)
            .and_then(|s| s.side.clone())
    }

    /// The current phase name.
    pub fn phase(&self) -> Option<String> {
        self.rules
            .sequence()
            .step(self.state.turn, self.state.step)
            .map(|s| s.phase.clone())
    }

    /// The current step's label: the rules' (`"S1901M"`) or the sequence's phase name.
    pub fn phase_label(&mut self) -> Result<Option<String>, RulesError> {
        let (turn, step) = (self.state.turn, self.state.step);
        self.label_of(turn, step)
    }

    /// Whether `label` names a step the game has passed (played or skipped), whatever its
    /// case: a file giving orders for it is late, not early.
    pub fn is_past_phase(&mut self, label: &str) -> Result<bool, RulesError> {
        let (now_turn, now_step) = (self.state.turn, self.state.step);
        for turn in 1..=now_turn {
            let steps = self.rules.sequence().steps_for(turn).len() as u32;
            let last = if turn == now_turn { now_step } else { steps };
            for step in 0..last {
                if self
                    .label_of(turn, step)?
                    .is_some_and(|l| l.eq_ignore_ascii_case(label))
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    fn label_of(&mut self, turn: u32, step: u32) -> Result<Option<String>, RulesError> {
        if let Some(label) = self.rules.phase_label(&self.state, turn, step)? {
            return Ok(Some(label));
        }
        Ok(self
            .rules
            .sequence()
            .step(turn, step)
            .map(|s| s.phase.clone()))
    }

    /// Where the game stands, for messages: `turn 2, movement (blue)`, with the step's label
    /// when the rules give one (`turn 1, S1901M`).
    pub fn position_text(&mut self) -> String {
        let turn = self.state.turn;
        let phase = self
            .phase_label()
            .ok()
            .flatten()
            .or_else(|| self.phase())
            .unwrap_or_else(|| "no phase".into());
        let step = self.rules.sequence().step(turn, self.state.step).cloned();
        match step.and_then(|s| s.side) {
            Some(side) => format!("turn {turn}, {phase} ({side})"),
            None => format!("turn {turn}, {phase}"),
        }
    }

    /// Starts the game: `GameStarted` and the first `PhaseStarted`. `seed` must be the one the
    /// state's dice were made with (`GameState::new(scenario, seed)`): `GameStarted` records it,
    /// and a log naming another seed would not replay the game it logs.
    pub fn start(&mut self, seed: u64) -> Result<Vec<Event>, GameError> {
        // (a second start moved a turn-3 board back to turn 1 and logged two GameStarted)
        if self.state.turn != 0 {
            return Err(GameError::Rules(RulesError::of_kind(
                RulesErrorKind::HostCall,
                format!(
                    "the game has started already (turn {}): a game starts once, from the \
                     state GameState::new makes",
                    self.state.turn
                ),
            )));
        }
        if seed != self.state.dice.seed {
            // (the calling program's mistake, not the rules')
            return Err(GameError::Rules(RulesError::of_kind(
                RulesErrorKind::HostCall,
                format!(
                "the game cannot start with seed {seed}: its state's dice were made with seed {} \
                 (GameState::new(scenario, seed) takes the game's seed)",
                    self.state.dice.seed
                ),
            )));
        }
        if self.rules.sequence().step(1, 0).is_none() {
            return Err(GameError::Rules(RulesError::new(
                "the rules declare no sequence of play (hex.rules.sequence)",
            )));
        }
        let events = vec![Queued::Event(
            Event::GameStarted {
                scenario: self.state.scenario.clone(),
                seed,
            },
            0,
            None,
        )];
        self.process(events, Some((1, 0)), "the game's start")
    }

    /// Overlays a position (`--setup`): the table's `turn`/`phase` move the game to that step
    /// (`phase` is a step label or phase name, searched in `turn` or in every turn); the rules'
    /// setup turns the rest into events. `extra` events (units the caller read itself) come
    /// first. Atomic: on any error the state is unchanged.
    pub fn setup(
        &mut self,
        table: &serde_json::Map<String, serde_json::Value>,
        extra: Vec<Event>,
    ) -> Result<Vec<Event>, GameError> {
        let refuse = |why: String| GameError::Refused(Refusal::new("setup", why));
        if !self.rules.reads_setup() {
            if let Some(key) = table
                .keys()
                .find(|k| *k != "unit" && !ENGINE_SETUP_KEYS.contains(&k.as_str()))
            {
                let near =
                    crate::spelling::nearest(key, ["unit"].into_iter().chain(ENGINE_SETUP_KEYS), 3)
                        .map(|near| format!("did you mean '{near}'? "))
                        .unwrap_or_default();
                return Err(refuse(format!(
                    "unknown key '{key}' ({near}these rules read no setup table of their own: \
                     the keys are turn, phase, side, [control], [vars] and [[unit]])"
                )));
            }
        }
        let turn = match table.get("turn") {
            None => None,
            Some(v) => match v.as_u64().and_then(|t| u32::try_from(t).ok()) {
                Some(t) if (1..=self.turn_limit).contains(&t) => Some(t),
                Some(t) => {
                    return Err(refuse(format!(
                        "turn {t} is not a turn of this scenario (turns 1..{})",
                        self.turn_limit
                    )))
                }
                None => return Err(refuse("'turn' must be a positive integer".into())),
            },
        };
        let side = match table.get("side") {
            None => None,
            Some(serde_json::Value::String(side)) => Some(side.as_str()),
            Some(_) => return Err(refuse("'side' must be a string".into())),
        };
        // (a misspelt side: named as such, with the nearest, not as a side without a phase)
        if let Some(side) = side {
            let sides = self.rules.sides();
            if !sides.is_empty() && !sides.iter().any(|s| s == side) {
                return Err(refuse(crate::spelling::unknown_side(side, sides)));
            }
        }
        let phase = match table.get("phase") {
            None => None,
            Some(serde_json::Value::String(phase)) => Some(phase.as_str()),
            Some(_) => return Err(refuse("'phase' must be a string".into())),
        };
        let found = match (phase, side, turn) {
            (None, None, _) => None,
            _ => Some(self.find_step(turn, phase, side)?),
        };
        // (rules that label their phases, as Diplomacy's `S1901M`, take a label too: the
        // current one is shown beside the names when the phase is not found)
        let label_now = match (phase, &found) {
            (Some(_), Some(None)) => self
                .rules
                .phase_label(&self.state, self.state.turn, self.state.step)
                .ok()
                .flatten(),
            _ => None,
        };
        let target = match (phase, side, turn) {
            (None, None, None) => None,
            (None, None, Some(t)) => Some((t, 0)),
            _ => Some(found.flatten().ok_or_else(|| {
                let mut phases = String::new();
                let what = match (phase, side) {
                    (Some(p), Some(s)) => format!("no phase '{p}' of side '{s}'"),
                    (Some(p), None) => {
                        // (the phases' names, in the order of play, and the nearest)
                        let sequence = self.rules.sequence();
                        let mut names: Vec<&str> = Vec::new();
                        for step in sequence.all_steps() {
                            if !names.contains(&step.phase.as_str()) {
                                names.push(&step.phase);
                            }
                        }
                        let labels = match &label_now {
                            Some(l) if !names.contains(&l.as_str()) => {
                                format!(", or a label such as '{l}'")
                            }
                            _ => String::new(),
                        };
                        phases = format!("phases: {}{labels}; ", names.join(", "));
                        let near = crate::spelling::nearest(p, names.iter().copied(), 3)
                            .map(|n| format!(": did you mean '{n}'?"))
                            .unwrap_or_default();
                        format!("phase '{p}' is not a phase of this scenario{near}")
                    }
                    (None, Some(s)) => format!("side '{s}' has no phase"),
                    (None, None) => String::new(),
                };
                let turns = match turn {
                    Some(t) => format!("turn {t}"),
                    None => format!("turns 1..{}", self.turn_limit),
                };
                refuse(format!("{what} ({phases}{turns})"))
            })?),
        };
        let mut events = extra;
        // `[vars]`: the rules' variables the position holds (the weather, a bridge's state),
        // set before the rules' own setup adds its events; the rules' setup does not see the key.
        let mut own = std::borrow::Cow::Borrowed(table);
        if let Some(vars) = table.get("vars") {
            events.extend(setup_vars(vars).map_err(refuse)?);
            own.to_mut().remove("vars");
        }
        match self.rules.setup(&self.state, &own)? {
            Ok(more) => {
                rules_made(&more, || "the setup".to_string())?;
                // (a variable the rules' setup writes from the setup's other keys, Diplomacy's
                // `position`: the setup's own `[vars]` value of it was overwritten unseen)
                if let Some(serde_json::Value::Object(vars)) = table.get("vars") {
                    let written = more.iter().find_map(|e| match e {
                        Event::VarSet { key, .. } if vars.contains_key(key) => Some(key),
                        _ => None,
                    });
                    if let Some(key) = written {
                        return Err(refuse(format!(
                            "[vars].{key}: the rules' setup writes '{key}' itself, from the \
                             setup's other keys: give the position as the rules read it"
                        )));
                    }
                }
                events.extend(more)
            }
            Err(refusal) => return Err(GameError::Refused(refusal)),
        }
        if let Some((turn, step)) = target {
            let side = self
                .rules
                .sequence()
                .step(turn, step)
                .and_then(|s| s.side.clone());
            let phase = self.label_of(turn, step)?.unwrap_or_default();
            events.push(Event::PhaseStarted {
                turn,
                step,
                side,
                phase,
            });
        }
        self.process(
            events
                .into_iter()
                .map(|e| Queued::Event(e, 0, None))
                .collect(),
            None,
            "the setup",
        )
    }

    /// The first step (in `turn`, or in every turn) whose phase name or label is `phase` and
    /// whose side is `side` (each only when given).
    fn find_step(
        &mut self,
        turn: Option<u32>,
        phase: Option<&str>,
        side: Option<&str>,
    ) -> Result<Option<(u32, u32)>, GameError> {
        let turns: Vec<u32> = match turn {
            Some(t) => vec![t],
            None => (1..=self.turn_limit).collect(),
        };
        for t in turns {
            for i in 0..self.rules.sequence().steps_for(t).len() as u32 {
                let Some(step) = self.rules.sequence().step(t, i).cloned() else {
                    continue;
                };
                if side.is_some_and(|s| step.side.as_deref() != Some(s)) {
                    continue;
                }
                let Some(phase) = phase else {
                    return Ok(Some((t, i)));
                };
                // (in any case, as orders files read phase labels: `s1901m`)
                if step.phase.eq_ignore_ascii_case(phase)
                    || self
                        .rules
                        .phase_label(&self.state, t, i)?
                        .is_some_and(|label| label.eq_ignore_ascii_case(phase))
                {
                    return Ok(Some((t, i)));
                }
            }
        }
        Ok(None)
    }

    /// Asks the rules a question about the current position (see [`Ruleset::query`]).
    pub fn query(
        &mut self,
        name: &str,
        arg: &serde_json::Value,
    ) -> Result<Option<serde_json::Value>, RulesError> {
        self.rules.query(&self.state, name, arg)
    }

    /// Commands the side may give now: none once the game is over, and none for a side whose
    /// phase it is not (`submit` would refuse every one of them).
    pub fn legal_commands(&mut self, side: &str) -> Result<Vec<Command>, RulesError> {
        if !self.may_command(side) {
            return Ok(Vec::new());
        }
        self.rules.legal_commands(&self.state, side)
    }

    /// Whether `side` may give a command now: the game goes on and the step is its own or
    /// simultaneous. A side the scenario lacks is left to the rules, which name the sides.
    fn may_command(&self, side: &str) -> bool {
        if self.is_over() || self.state.turn == 0 {
            return false;
        }
        let known = || self.rules.sides().iter().any(|s| s == side);
        self.phasing_side()
            .is_none_or(|phasing| phasing == side || !known())
    }

    /// The legal commands that `filter` matches (see [`Ruleset::legal_commands_matching`]).
    pub fn legal_commands_matching(
        &mut self,
        side: &str,
        filter: &CommandFilter,
    ) -> Result<Vec<Command>, RulesError> {
        if !self.may_command(side) {
            return Ok(Vec::new());
        }
        self.rules
            .legal_commands_matching(&self.state, side, filter)
    }

    /// Checks and carries out a command. On any error the state is unchanged; a refusal is
    /// recorded in the log as a `CommandRefused` event. `side`: who gives it; refused unless it
    /// is that side's phase. `None` in a one-side phase gives it for the phasing side; in a
    /// simultaneous phase (Diplomacy's) it is the host's own command. There, `EndPhase` from
    /// any side or from the host ends the phase for every side: a host waiting for every
    /// player's "done" keeps that count itself.
    pub fn submit(
        &mut self,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Vec<Event>, GameError> {
        // A command without a side in a phase that has one is that side's: the host acting for
        // the player (ending an absent player's phase). Without a phasing side (a simultaneous
        // phase) it stays the host's own.
        let phasing = match side {
            None => self.phasing_side(),
            Some(_) => None,
        };
        let side = side.or(phasing.as_deref());
        let result = self.try_submit(side, command);
        if let Err(GameError::Refused(r)) = &result {
            self.log.push(Event::CommandRefused {
                side: side.map(str::to_string),
                command: command.clone(),
                rule: r.rule.clone(),
                reason: r.reason.clone(),
            });
        }
        result
    }

    fn try_submit(
        &mut self,
        side: Option<&str>,
        command: &Command,
    ) -> Result<Vec<Event>, GameError> {
        if self.is_over() {
            return Err(GameError::Refused(Refusal::new(
                Refusal::NOT_NOW,
                "the game is over",
            )));
        }
        // (a game made by Game::new and never started took commands at turn 0, and an
        // end_phase there ended a game that had never begun)
        if self.state.turn == 0 {
            return Err(GameError::Refused(Refusal::new(
                Refusal::NOT_NOW,
                "the game has not started (Game::start starts it)",
            )));
        }
        if let Some(side) = side {
            let sides = self.rules.sides();
            if !sides.is_empty() && !sides.iter().any(|s| s == side) {
                return Err(GameError::Refused(Refusal::new(
                    Refusal::MALFORMED,
                    format!(
                        "the scenario has no side '{side}' (sides: {})",
                        sides.join(", ")
                    ),
                )));
            }
        }
        // (`Custom { name: "end_phase" }`, built by hand, is the engine's own command: the rules
        // alone would play the phase while the sequence stayed where it was)
        if let Command::Custom { name, args } = command {
            // (a client's arguments nested deeper than the rules' views go failed inside the
            // host, blamed on the scripts)
            if let Some(why) = super::command::too_deep(args) {
                return Err(GameError::Refused(Refusal::new(Refusal::MALFORMED, why)));
            }
            if name == "end_phase" {
                if let Some(extra) = args.keys().next() {
                    return Err(GameError::Refused(Refusal::new(
                        Refusal::MALFORMED,
                        format!("end_phase: unknown argument '{extra}' (it takes none)"),
                    )));
                }
                return self.try_submit(side, &Command::EndPhase);
            }
            // (likewise a hand-built `move` of the engine's kind, without a facing game's
            // `facing` or `units`: read as the engine reads a move, so a missing or malformed
            // path is refused here instead of failing inside the rules. An empty path goes to
            // rules that define `move`, a turn in place or no move; others refuse it as the
            // engine's move does below: read again, it came back here as `Custom` forever.)
            if name == "move" && !args.contains_key("facing") && !args.contains_key("units") {
                if !super::command::has_empty_path(args) {
                    let mut map = args.clone();
                    map.insert("command".into(), name.as_str().into());
                    let command = Command::try_from(map)
                        .map_err(|why| GameError::Refused(Refusal::new(Refusal::MALFORMED, why)))?;
                    return self.try_submit(side, &command);
                }
                if !self.rules.command_names().iter().any(|n| n == "move") {
                    return Err(no_path());
                }
            }
        }
        if let (Some(phasing), Some(side)) = (self.phasing_side(), side) {
            if phasing != side {
                let phase = self.phase().unwrap_or_default();
                return Err(GameError::Refused(Refusal::new(
                    Refusal::NOT_NOW,
                    format!("it is {phasing}'s {phase} phase, not {side}'s"),
                )));
            }
        }
        if let Command::Move { path, .. } = command {
            if path.is_empty() {
                return Err(no_path());
            }
        }
        let events = match self.rules.resolve(&self.state, side, command)? {
            Ok(events) => events,
            Err(refusal) => return Err(GameError::Refused(refusal)),
        };
        rules_made(&events, || format!("command '{}'", command.name()))?;
        let mut queue: Vec<Queued> = events
            .into_iter()
            .map(|e| Queued::Event(e, 0, None))
            .collect();
        let mut advance = None;
        if matches!(command, Command::EndPhase) {
            let (turn, step) = (self.state.turn, self.state.step);
            let current = self.rules.sequence().step(turn, step).cloned();
            // (named as its PhaseStarted named it: the label where the rules give one, "S1901M",
            // else the step's phase; a host pairs the two by it)
            let phase = self.label_of(turn, step)?.unwrap_or_default();
            queue.push(Queued::Event(
                Event::PhaseEnded {
                    turn,
                    step,
                    side: current.and_then(|c| c.side),
                    phase,
                },
                0,
                None,
            ));
            advance = Some(next_step(&*self.rules, turn, step));
        }
        self.process(queue, advance, &format!("command '{}'", command.name()))
    }

    /// The step after (turn, step), possibly past the last turn.
    /// What entering (turn, step) means, seen from `state`: the step starts, or the rules skip
    /// it (and the next one is considered), or the last turn is over and the game ends. The
    /// victory rule sees the state the last phase left, reactions included.
    fn enter(
        rules: &mut dyn Ruleset,
        turn_limit: u32,
        state: &GameState,
        turn: u32,
        step: u32,
    ) -> Result<(Event, Option<(u32, u32)>), GameError> {
        let next = match rules.sequence().step(turn, step).cloned() {
            Some(next) if turn <= turn_limit => next,
            _ => {
                let outcome = rules.victory(state)?;
                return Ok((
                    Event::GameEnded {
                        winner: outcome.winner,
                        scores: outcome.scores,
                        reason: outcome.reason,
                    },
                    None,
                ));
            }
        };
        let label = match rules.phase_label(state, turn, step)? {
            Some(label) => label,
            None => next.phase.clone(),
        };
        if rules.skip_step(state, turn, step)? {
            return Ok((
                Event::PhaseSkipped {
                    turn,
                    step,
                    side: next.side,
                    phase: label,
                },
                Some(next_step(rules, turn, step)),
            ));
        }
        Ok((
            Event::PhaseStarted {
                turn,
                step,
                side: next.side,
                phase: label,
            },
            None,
        ))
    }

    /// Applies events and the reactions they cause, atomically; then, when `advance` is given,
    /// enters that step once every reaction has been applied (so that skipping and victory see
    /// the finished phase).
    /// `origin` names what made the events (`command 'move'`), for the error of one that cannot
    /// be applied.
    fn process(
        &mut self,
        events: Vec<Queued>,
        advance: Option<(u32, u32)>,
        origin: &str,
    ) -> Result<Vec<Event>, GameError> {
        // Worked on the state itself; every change is journaled and rolled back on an error, so
        // a failed command leaves the state as it was (undo.rs).
        let mut journal = Journal::default();
        let mut applied = Vec::new();
        match self.process_journaled(events, advance, origin, &mut journal, &mut applied) {
            Ok(()) => {
                self.log.extend(applied.iter().cloned());
                Ok(applied)
            }
            Err(e) => {
                journal.roll_back(&mut self.state);
                self.state.revision.restart();
                Err(e)
            }
        }
    }

    fn process_journaled(
        &mut self,
        events: Vec<Queued>,
        advance: Option<(u32, u32)>,
        origin: &str,
        journal: &mut Journal,
        applied: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        let mut queue: VecDeque<Queued> = events.into_iter().collect();
        queue.extend(advance.map(|(t, s)| Queued::Enter(t, s)));
        // A GameEnded made while other events of the command wait (a sudden-death handler of
        // UnitEliminated, before the attacker's own UnitMoved) waits for them: the game ends on
        // the board they leave. They used to be dropped. The first such GameEnded is the one.
        let mut ending: Option<Queued> = None;
        loop {
            let item = match queue.front() {
                Some(Queued::Event(..)) => queue.pop_front(),
                _ => ending.take().or_else(|| queue.pop_front()),
            };
            let Some(item) = item else { break };
            let (event, depth, parent) = match item {
                Queued::Event(event @ Event::GameEnded { .. }, depth, parent)
                    if ending.is_some() || queue.iter().any(|q| matches!(q, Queued::Event(..))) =>
                {
                    if ending.is_none() {
                        ending = Some(Queued::Event(event, depth, parent));
                    }
                    continue;
                }
                Queued::Event(event, depth, parent) => (event, depth, parent),
                Queued::Enter(turn, step) => {
                    if self.state.outcome.is_some() {
                        continue;
                    }
                    let (event, then) =
                        Self::enter(&mut *self.rules, self.turn_limit, &self.state, turn, step)?;
                    if let Some((t, s)) = then {
                        queue.push_front(Queued::Enter(t, s));
                    }
                    (event, 0, None)
                }
            };
            if depth > self.limits.max_depth || applied.len() as u32 >= self.limits.max_events {
                // (a chain too deep is a loop of handlers answering each other; too many events
                // at a shallow depth is one handler answering with thousands: said apart)
                let why = if depth > self.limits.max_depth {
                    "a handler probably emits events forever (each event answered by another)"
                        .to_string()
                } else {
                    let maker = parent.and_then(|i| applied.get(i)).map_or_else(
                        || "the command or the sequence".to_string(),
                        |p| {
                            let handlers = self.rules.event_handlers(p.name());
                            if handlers.is_empty() {
                                format!("the handlers of {}", p.name())
                            } else {
                                format!("the handlers of {} ({})", p.name(), handlers.join(", "))
                            }
                        },
                    );
                    format!(
                        "the command's events, its handlers' included, passed the limit (the \
                         last made by {maker}): raise [limits] events_per_command, or emit fewer"
                    )
                };
                return Err(GameError::Rules(RulesError::of_kind(
                    RulesErrorKind::EventChain,
                    format!(
                        "event handlers went on too long (chain depth {} / {} events, limits {} / {}) at event {}: {why}",
                        depth,
                        applied.len(),
                        self.limits.max_depth,
                        self.limits.max_events,
                        event.name()
                    ),
                )));
            }
            // (the game is over: nothing more happens, another GameEnded included)
            if self.state.outcome.is_some() {
                continue;
            }
            if let Some(refusal) = self.rules.before_event(&self.state, &event)? {
                return Err(GameError::Refused(refusal));
            }
            // (a failed apply changes nothing, and the roll-back restarts the revision anyway)
            if let Err(e) = apply_undoable(&mut self.state, &event, journal) {
                let parent = parent.and_then(|i| applied.get(i));
                let handlers = parent
                    .map(|p| self.rules.event_handlers(p.name()))
                    .unwrap_or_default();
                return Err(unappliable(origin, parent, &handlers, e));
            }
            self.state.revision.applied(&event);
            let reactions = self.rules.after_event(&self.state, &event)?;
            if !reactions.is_empty() {
                rules_made(&reactions, || format!("the handlers of {}", event.name()))?;
            }
            applied.push(event);
            let parent = applied.len() - 1;
            for (i, reaction) in reactions.into_iter().enumerate() {
                queue.insert(i, Queued::Event(reaction, depth + 1, Some(parent)));
            }
        }
        Ok(())
    }
}

/// The engine's refusal of a move that enters no hex.
fn no_path() -> GameError {
    GameError::Refused(Refusal::new(Refusal::MALFORMED, Refusal::NO_PATH))
}

/// The events the rules made (`what`: a command, the handlers of an event, the setup), checked
/// before any is applied (event_fit.rs): a bad one is a rules error naming it.
fn rules_made(events: &[Event], what: impl FnOnce() -> String) -> Result<(), GameError> {
    super::event_fit::list_fit_for_rules(events)
        .map_err(|m| GameError::Rules(RulesError::new(format!("{} returned {m}", what()))))
}

/// The error of an event the rules made that cannot be applied (a unit that is not in play, ...):
/// a bug in the rules, named as a rules error with what made the event, so that a modding host
/// blames the scripts (`RulesErrorKind::Script`).
fn unappliable(
    origin: &str,
    parent: Option<&Event>,
    handlers: &[String],
    error: ApplyError,
) -> GameError {
    let by = match parent {
        Some(p) if handlers.is_empty() => {
            format!("an event handler of {} (after {origin})", p.name())
        }
        Some(p) => format!(
            "an event handler of {} ({}; after {origin})",
            p.name(),
            handlers.join(", ")
        ),
        None => origin.to_string(),
    };
    GameError::Rules(RulesError::new(format!(
        "{by} made an event that cannot be applied: {error}"
    )))
}

/// The step after (turn, step) in the rules' sequence of play.
fn next_step(rules: &dyn Ruleset, turn: u32, step: u32) -> (u32, u32) {
    if (step as usize) + 1 < rules.sequence().steps_for(turn).len() {
        (turn, step + 1)
    } else {
        (turn + 1, 0)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::{json, Map};

    use super::*;
    use crate::engine::{Outcome, Resolution, Sequence, Step};

    /// Two steps a turn, "move" and "retreat"; the retreat step is skipped unless the var
    /// `retreats` is set; labels are "T<turn><m|r>"; `end_phase` in "move" sets `moved`.
    struct Tiny {
        sequence: Sequence,
        /// An event `resolve` adds to its own (a test of what the engine accepts).
        extra: Option<Event>,
    }

    impl Ruleset for Tiny {
        fn sequence(&self) -> &Sequence {
            &self.sequence
        }
        fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
            Ok(vec![Command::EndPhase])
        }
        fn resolve(
            &mut self,
            state: &GameState,
            _: Option<&str>,
            _: &Command,
        ) -> Result<Resolution, RulesError> {
            let n = state
                .vars
                .get("moved")
                .and_then(|v| v.as_u64())
                .unwrap_or(0);
            let moved = Event::VarSet {
                key: "moved".into(),
                value: json!(n + 1).into(),
            };
            Ok(Ok([moved].into_iter().chain(self.extra.clone()).collect()))
        }
        fn victory(&mut self, state: &GameState) -> Result<Outcome, RulesError> {
            let n = state
                .vars
                .get("moved")
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0);
            Ok(Outcome {
                winner: None,
                scores: BTreeMap::from([("moves".to_string(), n)]),
                reason: "over".into(),
            })
        }
        fn skip_step(&mut self, state: &GameState, _: u32, step: u32) -> Result<bool, RulesError> {
            Ok(step == 1 && !state.vars.contains_key("retreats"))
        }
        fn phase_label(
            &mut self,
            _: &GameState,
            turn: u32,
            step: u32,
        ) -> Result<Option<String>, RulesError> {
            Ok(Some(format!(
                "T{turn}{}",
                if step == 0 { "m" } else { "r" }
            )))
        }
    }

    fn game(turns: u32) -> Game {
        let step = |p: &str| Step {
            side: None,
            phase: p.into(),
        };
        game_of(turns, vec![step("move"), step("retreat")])
    }

    fn game_of(turns: u32, steps: Vec<Step>) -> Game {
        let state = GameState::new("tiny", 1);
        let sequence = Sequence {
            steps,
            special: BTreeMap::new(),
        };
        Game::new(
            state,
            Box::new(Tiny {
                sequence,
                extra: None,
            }),
            turns,
            EventLimits::default(),
        )
    }

    /// `GameStarted` records the seed: one other than the dice's would log a game it did not
    /// play, so it is refused and the game stays unstarted.
    #[test]
    fn a_game_starts_only_with_the_seed_its_dice_were_made_with() {
        let mut g = game(2);
        let Err(GameError::Rules(e)) = g.start(7) else {
            panic!("expected a rules error")
        };
        assert_eq!(
            e.message,
            "the game cannot start with seed 7: its state's dice were made with seed 1 \
             (GameState::new(scenario, seed) takes the game's seed)"
        );
        assert_eq!(e.kind, RulesErrorKind::HostCall);
        assert_eq!(g.state.turn, 0);
        assert!(g.start(1).is_ok());
        // (once: a second start would put the board back at turn 1)
        let before = serde_json::to_string(&g.state).unwrap();
        let Err(GameError::Rules(e)) = g.start(1) else {
            panic!("expected a second start refused")
        };
        assert_eq!(
            e.message,
            "the game has started already (turn 1): a game starts once, from the state \
             GameState::new makes"
        );
        assert_eq!(e.kind, RulesErrorKind::HostCall);
        assert_eq!(serde_json::to_string(&g.state).unwrap(), before);
    }

    /// A game made and not started (or whose start failed) takes no command and lists none:
    /// an end_phase at turn 0 ended a game that had never begun.
    #[test]
    fn a_game_not_started_takes_no_command() {
        let mut g = game(2);
        assert_eq!(
            g.submit(None, &Command::EndPhase).unwrap_err().to_string(),
            "refused: sequence: the game has not started (Game::start starts it)"
        );
        assert_eq!(g.legal_commands("blue").unwrap(), Vec::<Command>::new());
        assert_eq!((g.state.turn, g.state.outcome.is_none()), (0, true));
        g.start(1).unwrap();
        assert!(g.submit(None, &Command::EndPhase).is_ok());
    }

    /// A client's command nested deeper than any rules read is the client's mistake, refused
    /// (one of 100 levels failed in the Lua host, a rules error blamed on the scripts).
    #[test]
    fn a_command_nested_too_deep_is_refused() {
        let mut g = game(2);
        g.start(1).unwrap();
        let nested = |levels: usize| {
            let mut v = json!("x");
            for _ in 1..levels {
                v = json!([v]);
            }
            let mut args = Map::new();
            args.insert("orders".into(), v);
            Command::Custom {
                name: "orders".into(),
                args,
            }
        };
        assert_eq!(
            g.submit(None, &nested(65)).unwrap_err().to_string(),
            "refused: command: the command's arguments nest more than 64 levels deep"
        );
        // (64 levels reach the rules, which here take any command)
        assert!(g.submit(None, &nested(64)).is_ok());
    }

    /// A Rust ruleset's events are checked as a script's are, the board aside: an event only
    /// the engine makes, a facing that is no direction, a number a save cannot hold. Each was
    /// applied (a `PhaseStarted` of turn 99 moved the game there); now the command fails, a
    /// rules error naming the event, and the state is as it was.
    #[test]
    fn a_rust_rulesets_events_are_checked_before_they_are_applied() {
        for (extra, why) in [
            (
                Event::PhaseStarted {
                    turn: 99,
                    step: 99,
                    side: None,
                    phase: "x".into(),
                },
                "event #2 (PhaseStarted): only the engine makes PhaseStarted events (phases \
                 follow the sequence and `end_phase`; dice come from hex.dice)",
            ),
            (
                Event::UnitFacingChanged {
                    unit: "u".into(),
                    facing: 200,
                    facing2: None,
                },
                "event #2 (UnitFacingChanged): facing 200 is not a direction: 0 to 5 (an edge, \
                 or a corner for a phalanx; TA-R1)",
            ),
            (
                Event::UnitChanged {
                    unit: "u".into(),
                    strength: Some(f64::NAN),
                    ma: None,
                    attrs: Map::new(),
                },
                "event #2 (UnitChanged): strength is NaN: a number must be finite to be saved",
            ),
        ] {
            let mut g = game(2);
            g.start(1).unwrap();
            let before = g.state.clone();
            let tiny = Tiny {
                sequence: g.rules.sequence().clone(),
                extra: Some(extra),
            };
            g.rules = Box::new(tiny);
            let Err(GameError::Rules(e)) = g.submit(None, &Command::EndPhase) else {
                panic!("{why}: the event was applied")
            };
            assert_eq!(e.message, format!("command 'end_phase' returned {why}"));
            assert_eq!(e.kind, RulesErrorKind::Script);
            assert_eq!(g.state, before);
        }
    }

    #[test]
    fn steps_with_nothing_to_do_are_skipped_and_victory_sees_the_last_phase() {
        let mut g = game(2);
        g.start(1).unwrap();
        let events = g.submit(None, &Command::EndPhase).unwrap();
        let names: Vec<String> = events
            .iter()
            .map(|e| match e {
                Event::PhaseSkipped { phase, .. } | Event::PhaseStarted { phase, .. } => {
                    format!("{} {phase}", e.name())
                }
                e => e.name().to_string(),
            })
            .collect();
        assert_eq!(
            names,
            [
                "VarSet",
                "PhaseEnded",
                "PhaseSkipped T1r",
                "PhaseStarted T2m"
            ]
        );
        assert_eq!(g.phase_label().unwrap().as_deref(), Some("T2m"));
        let events = g.submit(None, &Command::EndPhase).unwrap();
        assert!(
            matches!(events.last(), Some(Event::GameEnded { scores, .. }) if scores["moves"] == 2.0)
        );
    }

    #[test]
    fn setup_moves_to_a_labelled_phase_or_refuses() {
        let mut g = game(3);
        g.start(1).unwrap();
        let mut t = Map::new();
        t.insert("phase".into(), json!("T3r"));
        g.setup(&t, Vec::new()).unwrap();
        assert_eq!((g.state().turn, g.state().step), (3, 1));
        t.insert("phase".into(), json!("T9m"));
        let e = g.setup(&t, Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "refused: setup: phase 'T9m' is not a phase of this scenario (phases: move, \
             retreat, or a label such as 'T3r'; turns 1..3)"
        );
        // (a misspelt phase name: the nearest)
        t.insert("phase".into(), json!("retreet"));
        let e = g.setup(&t, Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "refused: setup: phase 'retreet' is not a phase of this scenario: did you mean \
             'retreat'? (phases: move, retreat, or a label such as 'T3r'; turns 1..3)"
        );
        // (a label or a phase name in any case, as orders files read them)
        t.insert("phase".into(), json!("t2R"));
        g.setup(&t, Vec::new()).unwrap();
        assert_eq!((g.state().turn, g.state().step), (2, 1));
        t.insert("phase".into(), json!("Retreat"));
        g.setup(&t, Vec::new()).unwrap();
        assert_eq!((g.state().turn, g.state().step), (1, 1));
    }

    /// A setup names a step by phase and side; a turn outside the scenario's, or a key nobody
    /// reads (a typo), is refused and changes nothing.
    #[test]
    fn setup_takes_a_side_and_refuses_turns_out_of_range_and_unread_keys() {
        let sided = |p: &str, side: &str| Step {
            side: Some(side.into()),
            phase: p.into(),
        };
        let mut g = game_of(
            3,
            vec![
                sided("move", "blue"),
                sided("fight", "blue"),
                sided("move", "red"),
            ],
        );
        g.start(1).unwrap();
        let setup = |g: &mut Game, table: serde_json::Value| {
            let table = table.as_object().cloned().unwrap_or_default();
            g.setup(&table, Vec::new())
                .map(|_| (g.state().turn, g.state().step))
                .map_err(|e| e.to_string())
        };
        assert_eq!(setup(&mut g, json!({"phase": "move"})), Ok((1, 0)));
        assert_eq!(
            setup(&mut g, json!({"turn": 2, "phase": "move", "side": "red"})),
            Ok((2, 2))
        );
        assert_eq!(setup(&mut g, json!({"turn": 3, "side": "red"})), Ok((3, 2)));
        let before = g.state().clone();
        for (table, message) in [
            (
                json!({"turn": 4}),
                "turn 4 is not a turn of this scenario (turns 1..3)",
            ),
            (
                json!({"turn": 0}),
                "turn 0 is not a turn of this scenario (turns 1..3)",
            ),
            (json!({"turn": -1}), "'turn' must be a positive integer"),
            (
                json!({"phase": "fight", "side": "red"}),
                "no phase 'fight' of side 'red' (turns 1..3)",
            ),
            (
                json!({"turn": 2, "side": "green"}),
                "side 'green' has no phase (turn 2)",
            ),
            (json!({"side": 3}), "'side' must be a string"),
            (
                json!({"phse": "move"}),
                "unknown key 'phse' (did you mean 'phase'? these rules read no setup table of \
                 their own: the keys are turn, phase, side, [control], [vars] and [[unit]])",
            ),
            (
                json!({"weather": "rain"}),
                "unknown key 'weather' (these rules read no setup table of their own: the keys \
                 are turn, phase, side, [control], [vars] and [[unit]])",
            ),
        ] {
            assert_eq!(
                setup(&mut g, table.clone()),
                Err(format!("refused: setup: {message}")),
                "{table}"
            );
            assert_eq!(g.state(), &before);
        }
    }

    /// One step a turn; a command makes the events `command` lists, and `react` answers each
    /// applied event. The handlers of `spawn` are named `h1`; no other event's are.
    struct Reacting {
        sequence: Sequence,
        command: Vec<Event>,
        react: fn(&GameState, &Event) -> Vec<Event>,
        /// What `command_names` answers.
        commands: Vec<String>,
    }

    impl Ruleset for Reacting {
        fn sequence(&self) -> &Sequence {
            &self.sequence
        }
        fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
            Ok(vec![])
        }
        fn resolve(
            &mut self,
            _: &GameState,
            _: Option<&str>,
            _: &Command,
        ) -> Result<Resolution, RulesError> {
            Ok(Ok(self.command.clone()))
        }
        fn after_event(
            &mut self,
            state: &GameState,
            event: &Event,
        ) -> Result<Vec<Event>, RulesError> {
            Ok((self.react)(state, event))
        }
        fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
            Ok(Outcome {
                winner: None,
                scores: BTreeMap::new(),
                reason: "over".into(),
            })
        }
        fn command_names(&self) -> Vec<String> {
            self.commands.clone()
        }
        fn event_handlers(&self, event: &str) -> Vec<String> {
            if event == "spawn" {
                vec!["h1".into()]
            } else {
                vec![]
            }
        }
    }

    fn var(key: &str, n: u64) -> Event {
        Event::VarSet {
            key: key.into(),
            value: json!(n).into(),
        }
    }

    fn custom(name: &str) -> Event {
        Event::Custom {
            name: name.into(),
            data: json!({}).into(),
        }
    }

    /// A started game of `Reacting` rules with these limits.
    fn reacting(
        command: Vec<Event>,
        react: fn(&GameState, &Event) -> Vec<Event>,
        limits: EventLimits,
    ) -> Game {
        let sequence = Sequence {
            steps: vec![Step {
                side: None,
                phase: "move".into(),
            }],
            special: BTreeMap::new(),
        };
        let rules = Reacting {
            sequence,
            command,
            react,
            commands: vec![],
        };
        let mut g = Game::new(GameState::new("tiny", 1), Box::new(rules), 2, limits);
        g.start(1).unwrap();
        g
    }

    fn go() -> Command {
        Command::Custom {
            name: "go".into(),
            args: Map::new(),
        }
    }

    /// Each `VarSet` of `n` is answered by the next, forever.
    fn count_up(_: &GameState, event: &Event) -> Vec<Event> {
        match event {
            Event::VarSet { key, value } if key == "n" => {
                vec![var("n", value.as_u64().unwrap_or(0) + 1)]
            }
            _ => vec![],
        }
    }

    fn rules_error(g: &mut Game) -> String {
        let before = g.state().clone();
        let Err(GameError::Rules(e)) = g.submit(None, &go()) else {
            panic!("expected a rules error")
        };
        assert_eq!(g.state(), &before);
        e.message
    }

    /// A `GameEnded` a handler makes while the command's other events wait is applied after
    /// them: the game ends on the board they leave.
    #[test]
    fn a_game_ended_by_a_handler_waits_for_the_commands_other_events() {
        fn sudden_death(_: &GameState, event: &Event) -> Vec<Event> {
            match event {
                Event::VarSet { key, .. } if key == "a" => vec![Event::GameEnded {
                    winner: Some("red".into()),
                    scores: BTreeMap::new(),
                    reason: "sudden death".into(),
                }],
                _ => vec![],
            }
        }
        let mut g = reacting(
            vec![var("a", 1), var("b", 2)],
            sudden_death,
            EventLimits::default(),
        );
        let events = g.submit(None, &go()).unwrap();
        let names: Vec<&str> = events.iter().map(Event::name).collect();
        assert_eq!(names, ["VarSet", "VarSet", "GameEnded"]);
        assert_eq!(g.state().vars.get("b").and_then(|v| v.as_u64()), Some(2));
        assert_eq!(
            g.state().outcome.as_ref().map(|o| o.reason.as_str()),
            Some("sudden death")
        );
    }

    /// A chain of reactions one deeper than the limit is stopped there, named as a handler
    /// that answers itself, and the state is as it was.
    #[test]
    fn a_chain_of_reactions_deeper_than_the_limit_is_a_rules_error() {
        let limits = EventLimits {
            max_depth: 3,
            max_events: 10_000,
        };
        let mut g = reacting(vec![var("n", 0)], count_up, limits);
        assert_eq!(
            rules_error(&mut g),
            "event handlers went on too long (chain depth 4 / 4 events, limits 3 / 10000) at \
             event VarSet: a handler probably emits events forever (each event answered by \
             another)"
        );
    }

    /// A chain exactly as deep as the limit goes through.
    #[test]
    fn a_chain_of_reactions_as_deep_as_the_limit_is_applied() {
        fn up_to_three(state: &GameState, event: &Event) -> Vec<Event> {
            match event {
                Event::VarSet { key, value } if key == "n" && value.as_u64() < Some(3) => {
                    count_up(state, event)
                }
                _ => vec![],
            }
        }
        let limits = EventLimits {
            max_depth: 3,
            max_events: 10_000,
        };
        let mut g = reacting(vec![var("n", 0)], up_to_three, limits);
        assert_eq!(g.submit(None, &go()).unwrap().len(), 4);
        assert_eq!(g.state().vars.get("n").and_then(|v| v.as_u64()), Some(3));
    }

    /// Too many events within the depth limit is said apart from a chain too deep (at the
    /// depth limit itself), naming the event whose handlers made the last one.
    #[test]
    fn too_many_events_at_the_depth_limit_name_the_handlers_that_made_them() {
        fn spawn_many(_: &GameState, event: &Event) -> Vec<Event> {
            match event {
                Event::Custom { name, .. } if name == "spawn" => {
                    (1..=5).map(|n| var("n", n)).collect()
                }
                _ => vec![],
            }
        }
        let limits = EventLimits {
            max_depth: 1,
            max_events: 3,
        };
        let mut g = reacting(vec![custom("spawn")], spawn_many, limits);
        assert_eq!(
            rules_error(&mut g),
            "event handlers went on too long (chain depth 1 / 3 events, limits 1 / 3) at event \
             VarSet: the command's events, its handlers' included, passed the limit (the last \
             made by the handlers of spawn (h1)): raise [limits] events_per_command, or emit \
             fewer"
        );
    }

    /// An event a handler makes that cannot be applied is a rules error naming the event it
    /// answered and that event's handlers.
    #[test]
    fn an_unappliable_reaction_names_the_event_and_the_handlers_it_answered() {
        fn ghost_moves(_: &GameState, event: &Event) -> Vec<Event> {
            match event {
                Event::Custom { name, .. } if name == "spawn" || name == "drift" => {
                    vec![Event::UnitMoved {
                        unit: "ghost".into(),
                        from: None,
                        to: "0101".into(),
                        path: vec!["0101".into()],
                        cost: 1.0,
                    }]
                }
                _ => vec![],
            }
        }
        let mut g = reacting(
            vec![var("n", 1), custom("spawn")],
            ghost_moves,
            EventLimits::default(),
        );
        assert_eq!(
            rules_error(&mut g),
            "an event handler of spawn (h1; after command 'go') made an event that cannot be \
             applied: cannot apply UnitMoved: no unit 'ghost' in play"
        );
        let mut g = reacting(
            vec![var("n", 1), custom("drift")],
            ghost_moves,
            EventLimits::default(),
        );
        assert_eq!(
            rules_error(&mut g),
            "an event handler of drift (after command 'go') made an event that cannot be \
             applied: cannot apply UnitMoved: no unit 'ghost' in play"
        );
    }

    /// A handler's events are checked as a command's are, before any is applied.
    #[test]
    fn a_handlers_events_are_checked_before_they_are_applied() {
        fn phase_maker(_: &GameState, event: &Event) -> Vec<Event> {
            match event {
                Event::Custom { name, .. } if name == "spawn" => vec![
                    var("n", 1),
                    Event::PhaseStarted {
                        turn: 9,
                        step: 0,
                        side: None,
                        phase: "x".into(),
                    },
                ],
                _ => vec![],
            }
        }
        let mut g = reacting(vec![custom("spawn")], phase_maker, EventLimits::default());
        assert_eq!(
            rules_error(&mut g),
            "the handlers of spawn returned event #2 (PhaseStarted): only the engine makes \
             PhaseStarted events (phases follow the sequence and `end_phase`; dice come from \
             hex.dice)"
        );
    }

    /// A hand-built `move` with an empty path goes to rules that define `move` (a turn in
    /// place); rules without one refuse it as the engine's own move.
    #[test]
    fn a_custom_move_with_an_empty_path_goes_only_to_rules_that_define_move() {
        fn no_reaction(_: &GameState, _: &Event) -> Vec<Event> {
            vec![]
        }
        let empty_move = Command::Custom {
            name: "move".into(),
            args: json!({"unit": "a1", "path": []})
                .as_object()
                .cloned()
                .unwrap(),
        };
        for (commands, expected) in [
            (vec!["move".to_string()], Ok(vec![var("turned", 1)])),
            (
                vec!["attack".to_string()],
                Err("refused: command: a move needs a path of at least one hex".to_string()),
            ),
        ] {
            let mut g = reacting(vec![var("turned", 1)], no_reaction, EventLimits::default());
            let rules = Reacting {
                sequence: g.rules.sequence().clone(),
                command: vec![var("turned", 1)],
                react: no_reaction,
                commands: commands.clone(),
            };
            g.rules = Box::new(rules);
            assert_eq!(
                g.submit(None, &empty_move).map_err(|e| e.to_string()),
                expected,
                "{commands:?}"
            );
        }
    }

    /// Rules that know their sides: blue's and red's `move`, then a simultaneous `talk`. They
    /// label a turn's first step `opening` and every other by its phase name (as a label
    /// function returning the phase it is given); they answer the query `echo` with its
    /// argument, print a line for each command, and their setup reads `position` into the
    /// variable `position` (and refuses a table that still holds `vars`).
    struct Sided {
        sequence: Sequence,
        sides: Vec<String>,
        printed: Vec<String>,
    }

    impl Ruleset for Sided {
        fn sequence(&self) -> &Sequence {
            &self.sequence
        }
        fn legal_commands(&mut self, _: &GameState, _: &str) -> Result<Vec<Command>, RulesError> {
            Ok(vec![Command::EndPhase, go()])
        }
        fn resolve(
            &mut self,
            _: &GameState,
            side: Option<&str>,
            command: &Command,
        ) -> Result<Resolution, RulesError> {
            self.printed
                .push(format!("{} by {}", command.name(), side.unwrap_or("host")));
            Ok(Ok(vec![]))
        }
        fn victory(&mut self, _: &GameState) -> Result<Outcome, RulesError> {
            Ok(Outcome {
                winner: Some("red".into()),
                scores: BTreeMap::new(),
                reason: "over".into(),
            })
        }
        fn query(
            &mut self,
            _: &GameState,
            name: &str,
            arg: &serde_json::Value,
        ) -> Result<Option<serde_json::Value>, RulesError> {
            Ok((name == "echo").then(|| arg.clone()))
        }
        fn phase_label(
            &mut self,
            _: &GameState,
            turn: u32,
            step: u32,
        ) -> Result<Option<String>, RulesError> {
            Ok(match step {
                0 => Some("opening".into()),
                _ => self.sequence.step(turn, step).map(|s| s.phase.clone()),
            })
        }
        fn setup(
            &mut self,
            _: &GameState,
            table: &Map<String, serde_json::Value>,
        ) -> Result<Resolution, RulesError> {
            if table.contains_key("vars") {
                return Ok(Err(Refusal::new("setup", "the rules' setup saw [vars]")));
            }
            Ok(Ok(table
                .get("position")
                .map(|p| Event::VarSet {
                    key: "position".into(),
                    value: p.clone().into(),
                })
                .into_iter()
                .collect()))
        }
        fn sides(&self) -> &[String] {
            &self.sides
        }
        fn take_script_log(&mut self) -> Vec<String> {
            std::mem::take(&mut self.printed)
        }
        fn reads_setup(&self) -> bool {
            true
        }
    }

    /// A started game of `Sided` rules, `turns` turns long.
    fn sided(turns: u32) -> Game {
        let step = |side: Option<&str>, phase: &str| Step {
            side: side.map(str::to_string),
            phase: phase.into(),
        };
        let rules = Sided {
            sequence: Sequence {
                steps: vec![
                    step(Some("blue"), "move"),
                    step(Some("red"), "move"),
                    step(None, "talk"),
                ],
                special: BTreeMap::new(),
            },
            sides: vec!["blue".into(), "red".into()],
            printed: vec![],
        };
        let mut g = Game::new(
            GameState::new("sided", 1),
            Box::new(rules),
            turns,
            EventLimits::default(),
        );
        g.start(1).unwrap();
        g
    }

    /// Where the game stands, as a host shows it: the phasing side, the phase, the label (the
    /// rules', else the phase name) and the position text, step by step to the end.
    #[test]
    fn the_phase_side_and_label_follow_the_sequence_to_the_end() {
        let mut g = sided(1);
        let mut seen = Vec::new();
        // (three steps, then the game is over: a bounded loop, so a game that never ends
        // fails here instead of hanging)
        for _ in 0..3 {
            assert!(!g.is_over());
            seen.push((
                g.phasing_side(),
                g.phase(),
                g.phase_label().unwrap(),
                g.position_text(),
            ));
            g.submit(None, &Command::EndPhase).unwrap();
        }
        let s = |v: &str| Some(v.to_string());
        assert_eq!(
            seen,
            [
                (
                    s("blue"),
                    s("move"),
                    s("opening"),
                    "turn 1, opening (blue)".into()
                ),
                (s("red"), s("move"), s("move"), "turn 1, move (red)".into()),
                (None, s("talk"), s("talk"), "turn 1, talk".into()),
            ]
        );
        // (a finished game has no phasing side: nobody is to move)
        assert_eq!((g.phasing_side(), g.is_over()), (None, true));
        // (without a label, the position names the phase: Tiny labels every step)
        let mut g = game_of(
            2,
            vec![Step {
                side: Some("blue".into()),
                phase: "move".into(),
            }],
        );
        g.start(1).unwrap();
        assert_eq!(g.position_text(), "turn 1, T1m (blue)");
    }

    /// Commands are listed for the phasing side only (and for every side in a simultaneous
    /// phase); a side the rules do not name is left to the rules; nobody has any once the
    /// game is over. `legal_commands_matching` answers alike, filtered.
    #[test]
    fn legal_commands_are_listed_for_the_side_whose_phase_it_is() {
        let mut g = sided(1);
        let end_phase = CommandFilter::command("end_phase");
        let lists = |g: &mut Game| {
            ["blue", "red", "green"].map(|side| {
                (
                    g.legal_commands(side).unwrap(),
                    g.legal_commands_matching(side, &end_phase).unwrap(),
                )
            })
        };
        let all = || (vec![Command::EndPhase, go()], vec![Command::EndPhase]);
        let none = || (vec![], vec![]);
        assert_eq!(lists(&mut g), [all(), none(), all()], "blue's phase");
        g.submit(None, &Command::EndPhase).unwrap();
        assert_eq!(lists(&mut g), [none(), all(), all()], "red's phase");
        g.submit(None, &Command::EndPhase).unwrap();
        assert_eq!(lists(&mut g), [all(), all(), all()], "simultaneous");
        g.submit(None, &Command::EndPhase).unwrap();
        assert!(g.is_over());
        assert_eq!(lists(&mut g), [none(), none(), none()], "over");
    }

    /// A setup's `[vars]` set each variable, in name order, before the rules' own setup (which
    /// does not see the key); a setup of only `[vars]` leaves the game at its step. Not a
    /// table: refused.
    #[test]
    fn setup_vars_are_set_in_name_order_and_the_game_stays_at_its_step() {
        let mut g = game(3);
        g.start(1).unwrap();
        let table = json!({"vars": {"weather": "rain", "bridge": 2}});
        let events = g.setup(table.as_object().unwrap(), Vec::new()).unwrap();
        let set = |key: &str, value: serde_json::Value| Event::VarSet {
            key: key.into(),
            value: value.into(),
        };
        assert_eq!(
            events,
            [set("bridge", json!(2)), set("weather", json!("rain"))]
        );
        assert_eq!((g.state().turn, g.state().step), (1, 0));
        assert_eq!(
            g.state().vars.get("weather").map(|v| v.to_string()),
            Some("\"rain\"".into())
        );
        let before = g.state().clone();
        let table = json!({"vars": 3});
        assert_eq!(
            g.setup(table.as_object().unwrap(), Vec::new())
                .unwrap_err()
                .to_string(),
            "refused: setup: [vars] must be a table: name = value"
        );
        assert_eq!(g.state(), &before);
    }

    /// Rules whose setup reads keys of their own: a side the rules do not name is refused with
    /// the nearest; a `[vars]` value the rules' setup writes itself is refused (it would be
    /// overwritten unseen), other `[vars]` are kept beside it.
    #[test]
    fn a_setup_names_known_sides_and_gives_no_variable_the_rules_setup_writes() {
        let mut g = sided(2);
        let setup = |g: &mut Game, table: serde_json::Value| {
            let table = table.as_object().cloned().unwrap_or_default();
            g.setup(&table, Vec::new())
                .map(|_| (g.state().turn, g.state().step))
                .map_err(|e| e.to_string())
        };
        assert_eq!(setup(&mut g, json!({"turn": 2, "side": "red"})), Ok((2, 1)));
        assert_eq!(
            setup(&mut g, json!({"side": "bleu"})),
            Err(
                "refused: setup: unknown side 'bleu': did you mean 'blue'? (sides: blue, red)"
                    .into()
            )
        );
        assert_eq!(
            setup(
                &mut g,
                json!({"position": "opening", "vars": {"weather": "rain"}})
            ),
            Ok((2, 1))
        );
        let var = |g: &Game, key: &str| g.state().vars.get(key).map(|v| v.to_string());
        assert_eq!(
            (var(&g, "position"), var(&g, "weather")),
            (Some("\"opening\"".into()), Some("\"rain\"".into()))
        );
        assert_eq!(
            setup(
                &mut g,
                json!({"position": "late", "vars": {"position": "early"}})
            ),
            Err(
                "refused: setup: [vars].position: the rules' setup writes 'position' itself, \
                 from the setup's other keys: give the position as the rules read it"
                    .into()
            )
        );
        assert_eq!(var(&g, "position"), Some("\"opening\"".into()));
    }

    /// An unknown phase is refused with the phase names and, when the rules label the current
    /// step otherwise, its label as an example; a label that is a phase name is not repeated.
    #[test]
    fn an_unknown_phase_names_the_current_label_only_when_it_is_no_phase_name() {
        let mut g = sided(1);
        let refusal = |g: &mut Game| {
            let table = json!({"phase": "parley"});
            g.setup(table.as_object().unwrap(), Vec::new())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refusal(&mut g),
            "refused: setup: phase 'parley' is not a phase of this scenario (phases: move, \
             talk, or a label such as 'opening'; turns 1..1)"
        );
        g.submit(None, &Command::EndPhase).unwrap();
        assert_eq!(g.phase_label().unwrap().as_deref(), Some("move"));
        assert_eq!(
            refusal(&mut g),
            "refused: setup: phase 'parley' is not a phase of this scenario (phases: move, \
             talk; turns 1..1)"
        );
    }

    /// A step is past once the game has left it (played or skipped), named by its label in any
    /// case; the current step and those to come are not.
    #[test]
    fn a_phase_is_past_once_the_game_has_left_it() {
        let mut g = game(3);
        g.start(1).unwrap();
        assert!(!g.is_past_phase("T1m").unwrap());
        let table = json!({"phase": "T2r"});
        g.setup(table.as_object().unwrap(), Vec::new()).unwrap();
        let past = ["T1m", "t1R", "T2m", "T2r", "T3m", "move", "retreat"]
            .map(|label| (label, g.is_past_phase(label).unwrap()));
        assert_eq!(
            past,
            [
                ("T1m", true),
                ("t1R", true),
                ("T2m", true),
                ("T2r", false),
                ("T3m", false),
                ("move", false),
                ("retreat", false),
            ]
        );
    }

    /// What a host reads besides the state: the turn limit, the log (taken or not), the
    /// scripts' printed lines (drained), a query's answer, a short debug summary.
    #[test]
    fn a_game_hands_its_log_script_lines_queries_and_summary_to_the_host() {
        let mut g = sided(3);
        assert_eq!(g.turn_limit(), 3);
        let started = g.log().to_vec();
        assert_eq!(
            started.iter().map(Event::name).collect::<Vec<_>>(),
            ["GameStarted", "PhaseStarted"]
        );
        let ended = g.submit(None, &Command::EndPhase).unwrap();
        assert_eq!(g.log(), [started.clone(), ended.clone()].concat());
        assert_eq!(
            format!("{g:?}"),
            "Game { scenario: \"sided\", turn: 1, step: 1, units: 0, log: 4, .. }"
        );
        assert_eq!(g.take_log(), [started, ended].concat());
        assert_eq!(g.log(), []);
        g.submit(Some("red"), &go()).unwrap();
        assert_eq!(g.take_script_log(), ["end_phase by blue", "go by red"]);
        assert_eq!(g.take_script_log(), Vec::<String>::new());
        assert_eq!(
            g.query("echo", &json!([1, "a"])).unwrap(),
            Some(json!([1, "a"]))
        );
        assert_eq!(g.query("other", &json!(1)).unwrap(), None);
    }
}

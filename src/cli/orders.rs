//! Orders files for `hexwar play`, parsed apart from playing them so that a bad file is refused
//! before any game is loaded (and so the parser can be tested and fuzzed on its own).
//!
//! Two shapes: `[[order]]` tables, one command each (hex games), or `[[phase]]` tables with
//! every power's orders for one phase (simultaneous-orders games such as Diplomacy).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::board::LineIndex;
use crate::engine::Command;

/// A parsed orders file.
#[derive(Debug, Clone, PartialEq)]
pub enum OrdersFile {
    /// `[[order]]` tables in file order.
    Commands(Vec<SidedCommand>),
    /// `[[phase]]` tables in file order.
    Phases(Vec<PhaseOrders>),
}

/// One `[[order]]`: the command and the side giving it (the phasing side when absent), and the
/// line its table starts on, so that what happens to it later can name it.
#[derive(Debug, Clone, PartialEq)]
pub struct SidedCommand {
    pub side: Option<String>,
    pub command: Command,
    pub line: usize,
}

/// One `[[phase]]`: the phase label (`S1901M`) and each power's order lines.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseOrders {
    pub phase: String,
    pub orders: BTreeMap<String, Vec<String>>,
    /// Where its `[[phase]]` table starts (for messages).
    pub line: usize,
    /// The line naming each power of `orders`, so that a power the game lacks is named where it
    /// is written.
    pub power_lines: BTreeMap<String, usize>,
}

/// Why an orders file was refused; the message names the file and the line or order.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OrdersError {
    #[error("{path}:{line}: TOML: {message}", path = .path.display())]
    Toml {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// `index` counts from 1, as a reader counts `[[order]]` tables; `line` is where it starts.
    #[error("{path}:{line}: order #{index}: {message}", path = .path.display())]
    Order {
        path: PathBuf,
        line: usize,
        index: usize,
        message: String,
    },
    /// A file of another kind (a save, a scenario, a setup) given as the orders.
    #[error("{path}: this is {kind}, not an orders file ([[order]] tables, or [[phase]] tables for Diplomacy: docs/cli.md, play)", path = .path.display())]
    WrongKind { path: PathBuf, kind: &'static str },
    /// Something wrong inside a `[[phase]]` table; `line` is where the culprit is written.
    #[error("{path}:{line}: phase {phase}: {message}", path = .path.display())]
    Phase {
        path: PathBuf,
        line: usize,
        phase: String,
        message: String,
    },
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandTables {
    #[serde(default)]
    order: Vec<toml::Spanned<Map<String, Value>>>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseTables {
    phase: Vec<toml::Spanned<PhaseTable>>,
}

/// A `[[phase]]` table as written; the powers keep their place in the file.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseTable {
    phase: String,
    #[serde(default)]
    orders: BTreeMap<toml::Spanned<String>, Vec<String>>,
}

/// Parses an orders file's text; `path` is only used in error messages.
pub fn parse_orders(path: &Path, text: &str) -> Result<OrdersFile, OrdersError> {
    let index = LineIndex::new(text);
    let toml_error = |e: toml::de::Error| OrdersError::Toml {
        path: path.into(),
        line: index.line_of(crate::board::toml_offset(&e, text)),
        message: crate::board::toml_message(&e, text)
            .trim_start_matches("TOML: ")
            .to_string(),
    };
    // (an order's arguments go to the rules as they are, where a NaN became null)
    if let Some(e) =
        crate::board::datetime_error(text).or_else(|| crate::board::not_finite_error(text))
    {
        return Err(OrdersError::Toml {
            path: path.into(),
            line: index.line_of(e.offset),
            message: e.message,
        });
    }
    // (a save or a setup given here read as a TOML error, `invalid key-value pair`, or a setup's
    // `phase = "S1901M"` as `expected an array`)
    let wrong_kind = |kind: &'static str| OrdersError::WrongKind {
        path: path.into(),
        kind,
    };
    if let Some(kind) = crate::engine::json_file_kind(text) {
        return Err(wrong_kind(kind));
    }
    let table = toml::from_str::<toml::Table>(text).ok();
    if let Some(kind) = table
        .as_ref()
        .and_then(crate::engine::toml_file_kind)
        .filter(|k| *k != crate::engine::TomlKind::Orders)
    {
        return Err(wrong_kind(kind.describe()));
    }
    if table.is_some_and(|t| t.contains_key("phase")) {
        let file: PhaseTables = toml::from_str(text).map_err(toml_error)?;
        let phases = file
            .phase
            .into_iter()
            .map(|p| {
                let line = index.line_of(p.span().start);
                let table = p.into_inner();
                let mut orders = BTreeMap::new();
                let mut power_lines = BTreeMap::new();
                for (power, lines) in table.orders {
                    power_lines.insert(power.get_ref().clone(), index.line_of(power.span().start));
                    orders.insert(power.into_inner(), lines);
                }
                PhaseOrders {
                    // (spaces around a label are no part of it: "S1901M " is S1901M)
                    phase: table.phase.trim().to_string(),
                    orders,
                    line,
                    power_lines,
                }
            })
            .collect();
        return Ok(OrdersFile::Phases(phases));
    }
    let file: CommandTables = toml::from_str(text).map_err(|e| {
        let unknown = e.message().starts_with("unknown field");
        let mut err = toml_error(e);
        if let (true, OrdersError::Toml { message, .. }) = (unknown, &mut err) {
            message.push_str(
                " (an orders file holds [[order]] tables, or [[phase]] tables for Diplomacy)",
            );
        }
        err
    })?;
    let mut orders = Vec::with_capacity(file.order.len());
    for (i, order) in file.order.into_iter().enumerate() {
        let line = index.line_of(order.span().start);
        let mut order = order.into_inner();
        let refuse = |message: String| OrdersError::Order {
            path: path.into(),
            line,
            index: i + 1,
            message,
        };
        let side = match order.remove("side") {
            Some(Value::String(s)) => Some(s),
            None => None,
            Some(_) => return Err(refuse("'side' must be a string".into())),
        };
        let command = Command::try_from(order).map_err(refuse)?;
        orders.push(SidedCommand {
            side,
            command,
            line,
        });
    }
    Ok(OrdersFile::Commands(orders))
}

impl OrdersFile {
    /// Whether the file holds no order at all (an empty file, or one of comments).
    pub fn is_empty(&self) -> bool {
        match self {
            OrdersFile::Commands(c) => c.is_empty(),
            OrdersFile::Phases(p) => p.is_empty(),
        }
    }

    /// The first side (or power) the file names that the game does not have: an input error
    /// found before any order is played, rather than each order refused as "not X's phase".
    pub fn unknown_side(&self, path: &Path, sides: &[String]) -> Option<OrdersError> {
        let known = |side: &str| sides.iter().any(|s| s == side);
        match self {
            OrdersFile::Commands(orders) => orders.iter().enumerate().find_map(|(i, order)| {
                let side = order.side.as_deref().filter(|s| !known(s))?;
                Some(OrdersError::Order {
                    path: path.into(),
                    line: order.line,
                    index: i + 1,
                    message: crate::spelling::unknown_side(side, sides),
                })
            }),
            OrdersFile::Phases(phases) => phases.iter().find_map(|entry| {
                let line_of_power = |p: &String| entry.power_lines.get(p).copied();
                let power = entry
                    .orders
                    .keys()
                    .filter(|p| !known(p))
                    .min_by_key(|p| line_of_power(p))?;
                Some(OrdersError::Phase {
                    path: path.into(),
                    line: line_of_power(power).unwrap_or(entry.line),
                    phase: entry.phase.clone(),
                    message: format!(
                        "unknown power '{power}'{} (powers: {})",
                        super::side_hint(power, sides),
                        sides.join(", ")
                    ),
                })
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<OrdersFile, String> {
        parse_orders(Path::new("o.toml"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn order_tables_keep_their_side_and_order() {
        let file = parse(
            "[[order]]\nside = \"blue\"\ncommand = \"move\"\nunit = \"b1\"\nto = \"0304\"\n\
             [[order]]\ncommand = \"end_phase\"\n",
        );
        assert_eq!(
            file,
            Ok(OrdersFile::Commands(vec![
                SidedCommand {
                    side: Some("blue".into()),
                    command: Command::Move {
                        unit: "b1".into(),
                        path: vec!["0304".into()]
                    },
                    line: 1,
                },
                SidedCommand {
                    side: None,
                    command: Command::EndPhase,
                    line: 6,
                },
            ]))
        );
    }

    #[test]
    fn phase_tables_are_read_as_phases() {
        let file = parse("[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nFRANCE = [\"A PAR H\"]\n");
        let mut orders = BTreeMap::new();
        orders.insert("FRANCE".to_string(), vec!["A PAR H".to_string()]);
        let mut power_lines = BTreeMap::new();
        power_lines.insert("FRANCE".to_string(), 4);
        assert_eq!(
            file,
            Ok(OrdersFile::Phases(vec![PhaseOrders {
                phase: "S1901M".into(),
                orders,
                line: 1,
                power_lines,
            }]))
        );
    }

    #[test]
    fn a_side_the_game_lacks_is_named_with_the_sides_it_has() {
        let sides = ["blue".to_string(), "red".to_string()];
        let unknown = |text: &str| {
            parse_orders(Path::new("o.toml"), text)
                .map(|f| f.unknown_side(Path::new("o.toml"), &sides))
                .map(|e| e.map(|e| e.to_string()))
        };
        assert_eq!(
            unknown(
                "[[order]]\nside = \"blue\"\ncommand = \"end_phase\"\n\
                 [[order]]\ncommand = \"end_phase\"\n\
                 [[order]]\nside = \"purpel\"\ncommand = \"end_phase\"\n"
            ),
            Ok(Some(
                "o.toml:6: order #3: unknown side 'purpel' (sides: blue, red)".into()
            ))
        );
        assert_eq!(
            unknown(
                "[[phase]]\nphase = \"S1901M\"\n[phase.orders]\nblue = []\n\
                 [[phase]]\nphase = \"F1901M\"\n[phase.orders]\nred = []\nNARNIA = []\n"
            ),
            Ok(Some(
                "o.toml:9: phase F1901M: unknown power 'NARNIA' (powers: blue, red)".into()
            ))
        );
        assert_eq!(
            unknown("[[order]]\nside = \"red\"\ncommand = \"end_phase\"\n"),
            Ok(None)
        );
    }

    #[test]
    fn a_bad_order_is_named_by_its_number() {
        assert_eq!(
            parse("[[order]]\ncommand = \"end_phase\"\n[[order]]\nside = 3\ncommand = \"x\"\n"),
            Err("o.toml:3: order #2: 'side' must be a string".into())
        );
        assert_eq!(
            parse("[[order]]\ncommand = \"move\"\nunit = \"b1\"\n"),
            Err("o.toml:1: order #1: move: give 'path' (a list of hex labels or area locations) or 'to'".into())
        );
    }

    #[test]
    fn a_toml_error_names_its_line() {
        assert_eq!(
            parse("[[order]]\ncommand = \"end_phase\"\nunit = \n"),
            Err("o.toml:3: TOML: string values must be quoted, expected literal string".into())
        );
    }
}

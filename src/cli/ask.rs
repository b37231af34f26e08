//! `hexwar query`: any query the rules declare (`hex.rules.query(NAME, ...)`), asked from the
//! command line: France 1940's `combat_odds` and `attack_options`, Diplomacy's `check_order`,
//! a bot's choice (`bot`), without writing a Lua test or a Rust program.

use clap::Args;
use serde_json::Value;

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct QueryArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// The query's name, as the rules declare it (a wrong one lists those there are).
    pub name: String,
    /// Its argument as JSON (`'"b-inf-1"'`, `'{"power": "FRANCE", "order": "A PAR - BUR"}'`);
    /// text that is no JSON is the argument as a string (`b-inf-1`); none: null.
    pub arg: Option<String>,
    /// Print the answer on one line (it is JSON either way; without --json, indented).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &QueryArgs) -> i32 {
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let arg = match &args.arg {
        None => Value::Null,
        Some(text) => serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())),
    };
    let names = session.game.rules_mut().query_names();
    if !names.contains(&args.name) {
        let hint = crate::spelling::nearest(&args.name, names.iter().map(String::as_str), 3)
            .map(|n| format!(": did you mean '{n}'?"))
            .unwrap_or_default();
        let listed = if names.is_empty() {
            "these rules declare none".to_string()
        } else {
            format!("queries: {}", names.join(", "))
        };
        return fail(format!(
            "no query '{}' in these rules{hint} ({listed})",
            args.name
        ));
    }
    let answer = match session.game.query(&args.name, &arg) {
        Ok(Some(answer)) => answer,
        Ok(None) => Value::Null,
        Err(e) => return fail(e),
    };
    super::show_script_log(&mut session.game);
    let text = if args.json {
        answer.to_string()
    } else {
        serde_json::to_string_pretty(&answer).unwrap_or_else(|_| answer.to_string())
    };
    outln!("{text}");
    EXIT_OK
}

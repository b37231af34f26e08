//! A modding host in about fifty lines: load a scenario, add a mod written at runtime, list the
//! legal commands, apply one, follow the events through the game's log, save.
//!
//! `cargo run --example embed`

use std::error::Error;
use std::io::Write;
use std::path::Path;

use hexwar::engine::Command;
use hexwar::Session;

/// A player's mod: forests are harder going, and every move raises a custom event.
const MOD: &str = r#"
local terrain = hex.rules.get("movement").terrain
terrain.forest = terrain.forest + 1
hex.events.on("UnitMoved", function(ev)
  return hex.events.emit("ModSawMove", { unit = ev.unit, to = ev.to })
end)
"#;

/// The whole example; `main` prints to stdout, the tests to a buffer.
pub fn run(out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let dir = std::env::temp_dir().join("hexwar-embed-example");
    std::fs::create_dir_all(&dir)?;
    let mod_file = dir.join("heavy_forest.lua");
    std::fs::write(&mod_file, MOD)?;

    let mut session = Session::start_with_mods(Path::new("scenarios/demo"), Some(7), &[mod_file])?;
    let side = session.game.phasing_side().ok_or("no phasing side")?;
    let legal = session.game.legal_commands(&side)?;
    writeln!(out, "{side} has {} legal commands, e.g.:", legal.len())?;
    for command in legal.iter().take(3) {
        writeln!(out, "  {}", serde_json::to_string(command)?)?;
    }

    // "Subscribe" to events: read the log from where we left it after each command.
    let mut seen = session.game.log().len();
    let longest = legal
        .iter()
        .filter(|c| matches!(c, Command::Move { .. }))
        .max_by_key(|c| match c {
            Command::Move { path, .. } => path.len(),
            _ => 0,
        })
        .ok_or("no legal move")?;
    for command in [longest.clone(), Command::EndPhase] {
        session.game.submit(Some(&side), &command)?;
        writeln!(out, "> {}", serde_json::to_string(&command)?)?;
        for event in &session.game.log()[seen..] {
            writeln!(out, "  {}", serde_json::to_string(event)?)?;
        }
        seen = session.game.log().len();
    }

    let save = dir.join("game.json");
    session.to_save().write(&save)?;
    writeln!(
        out,
        "saved turn {} to {}",
        session.game.state().turn,
        save.display()
    )?;
    Ok(())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn Error>> {
    run(&mut std::io::stdout())
}

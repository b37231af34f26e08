//! `hexwar render SCENARIO [--setup FILE] [--overlay zoc|reach:UNIT|supply|control] -o map.svg`

use std::path::PathBuf;

use clap::Args;

use crate::render::{render as render_svg, Overlay};
use crate::session::Session;

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Scenario directory or file, or a save.
    pub scenario: PathBuf,
    /// A position to draw instead of the scenario's start (the `--setup` schema).
    #[arg(long)]
    pub setup: Option<PathBuf>,
    /// What to draw over the map: zoc, reach:UNIT, supply or control.
    #[arg(long)]
    pub overlay: Option<Overlay>,
    /// The SVG file to write (`-` for stdout).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

pub fn run(args: &RenderArgs) -> i32 {
    let path = &args.scenario;
    let is_save = path.is_file() && path.extension().is_some_and(|e| e == "json");
    let session = if is_save {
        Session::resume(path)
    } else {
        Session::start(path, None)
    };
    let mut session = match session {
        Ok(s) => s,
        Err(e) => return fail(super::session_message(&e)),
    };
    if let Some(setup) = &args.setup {
        if let Err(e) = session.setup_file(setup) {
            return fail(e);
        }
    }
    let svg = match render_svg(&mut session, args.overlay.as_ref()) {
        Ok(svg) => svg,
        Err(e) => return fail(e),
    };
    if args.output.as_os_str() == "-" {
        out!("{svg}");
    } else if let Err(e) = std::fs::write(&args.output, svg) {
        return fail(format!("{}: {e}", args.output.display()));
    }
    EXIT_OK
}

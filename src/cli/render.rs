//! `hexwar render SCENARIO [--setup FILE] [--overlay zoc|reach:UNIT|supply|control] -o map.svg`

use std::path::PathBuf;

use clap::Args;

use crate::render::{render as render_svg, Overlay};

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
    let mut session = match super::open_session(&args.scenario, None, args.setup.as_deref()) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
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

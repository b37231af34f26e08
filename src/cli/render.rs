//! `hexwar render SCENARIO [--setup FILE] [--overlay zoc|reach:UNIT|zone:NAME|supply|control] -o map.svg
//! [--json]`

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use serde_json::{json, Value};

use crate::render::{render_picture, Overlay, Picture};

use super::{fail, EXIT_OK};

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub position: super::position::PositionArgs,
    /// What to draw over the map: zoc, reach:UNIT, zone:NAME, supply or control.
    #[arg(long)]
    pub overlay: Option<Overlay>,
    /// The SVG file to write (`-` for stdout).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Print `{"file", "svg", "width", "height", "units"}` as JSON (the SVG text in `svg` with
    /// `-o -`).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &RenderArgs) -> i32 {
    if args.output.as_os_str() != "-" {
        // (the save drawn is no output's to write over: `-o game.json` lost it)
        if let Err(e) = super::output_paths::check(
            &[("-o", &args.output)],
            Some(&args.position.scenario),
            &args
                .position
                .setup
                .as_deref()
                .map(|s| ("--setup", s))
                .into_iter()
                .collect::<Vec<_>>(),
        ) {
            return fail(e);
        }
    }
    let mut session = match args.position.open() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let picture = match render_picture(&mut session, args.overlay.as_ref()) {
        Ok(picture) => picture,
        Err(e) => return fail(e),
    };
    let to_stdout = args.output.as_os_str() == "-";
    if !to_stdout {
        if let Err(e) = crate::output_file::write_bytes(&args.output, picture.svg.as_bytes()) {
            return fail(format!("{}: {e}", args.output.display()));
        }
    }
    if args.json {
        outln!(
            "{}",
            summary(&picture, (!to_stdout).then_some(&args.output))
        );
    } else if to_stdout {
        out!("{}", picture.svg);
    }
    EXIT_OK
}

/// What a program driving `render` needs: where the picture went (`file`, or the SVG text itself
/// in `svg` when it goes to stdout, so stdout stays one JSON value), its size to lay it out,
/// and how many units it shows. Every key is always present, in this order.
#[derive(Serialize)]
struct Summary<'a> {
    file: Option<String>,
    svg: Option<&'a str>,
    width: Value,
    height: Value,
    units: usize,
}

fn summary(picture: &Picture, file: Option<&PathBuf>) -> String {
    let summary = Summary {
        file: file.map(|f| f.display().to_string()),
        svg: file.is_none().then_some(picture.svg.as_str()),
        width: size(picture.width),
        height: size(picture.height),
        units: picture.units,
    };
    serde_json::to_string(&summary).unwrap_or_default()
}

/// A size as the SVG writes it: whole numbers without a fraction.
fn size(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

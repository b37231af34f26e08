//! `hexwar render`: a position as SVG. Hex maps with terrain, hexside and hex features, labels,
//! unit counters (NATO-style symbols) and an optional overlay; area boards as a schematic graph.
//! The output depends only on the scenario and the position: same input, same bytes.

mod area;
mod counter;
mod geometry;
mod hexmap;
mod overlay;
mod palette;
mod picture;
mod svg;

pub use overlay::Overlay;
pub use picture::Picture;

use crate::board::{Board, HexMap};
use crate::session::Session;

/// Why a picture could not be made (an overlay the rules cannot answer, a rules error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RenderError(pub String);

/// Renders the session's current position, with an optional overlay, as an SVG document.
pub fn render(session: &mut Session, overlay: Option<&Overlay>) -> Result<String, RenderError> {
    render_picture(session, overlay).map(|picture| picture.svg)
}

/// [`render`], with the picture's size and how many units it draws.
pub fn render_picture(
    session: &mut Session,
    overlay: Option<&Overlay>,
) -> Result<Picture, RenderError> {
    if overlay.is_some() && session.scenario.map.as_area().is_some() {
        return Err(RenderError(
            "overlays are drawn on hex maps only; this scenario has an area board".into(),
        ));
    }
    let data = match overlay {
        Some(o) => Some(overlay::compute(session, o)?),
        None => None,
    };
    let scenario = std::sync::Arc::clone(&session.scenario);
    let phase = match (
        session.game.phasing_side(),
        session.game.phase_label().ok().flatten(),
    ) {
        (Some(side), Some(phase)) => format!(", {side} {phase}"),
        (None, Some(phase)) => format!(", {phase}"),
        _ => String::new(),
    };
    let title = format!("{}{phase}", scenario.name);
    let vertex_kinds = session.game.rules_mut().vertex_facing_kinds();
    let state = session.game.state();
    match &scenario.map {
        Board::Hex(map) => Ok(hexmap::render(
            &*in_force(map, state)?,
            &title,
            &scenario.sides,
            state,
            data.as_ref(),
            &vertex_kinds,
        )),
        Board::Area(map) if map.regions().len() > area::MAX_LAID_OUT => Err(RenderError(format!(
            "the picture lays out at most {} regions; this map has {}",
            area::MAX_LAID_OUT,
            map.regions().len()
        ))),
        Board::Area(map) => Ok(area::render(map, &title, &scenario.sides, state)),
    }
}

/// The map as play left it: the scenario's, with the state's map changes (a bridge blown).
fn in_force<'m>(
    map: &'m HexMap,
    state: &crate::engine::GameState,
) -> Result<std::borrow::Cow<'m, HexMap>, RenderError> {
    if state.map_changes.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(map));
    }
    map.with_changes(&state.map_changes)
        .map(std::borrow::Cow::Owned)
        .map_err(RenderError)
}

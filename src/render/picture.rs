//! A rendered position: the SVG document and what a program placing or checking it needs to
//! know without parsing it (`hexwar render --json`).

/// An SVG picture of a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The SVG document.
    pub svg: String,
    /// Its size in SVG user units, as its `width` and `height` attributes say (one decimal).
    pub width: f64,
    pub height: f64,
    /// How many unit counters (or area-board unit markers) it draws.
    pub units: usize,
}

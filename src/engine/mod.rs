//! The game engine: state, commands, events, the sequence of play.

mod unit;

pub use unit::Unit;

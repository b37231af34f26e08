//! hexwar: a scripting-driven rules framework for board wargames.
pub mod board;
pub mod engine;
pub mod path;

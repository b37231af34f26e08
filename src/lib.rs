//! hexwar: a scripting-driven rules framework for board wargames.
pub mod board;
pub mod bot;
pub mod cli;
pub mod engine;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod session;

pub use session::{Session, SessionError};

//! hexwar: a scripting-driven rules framework for board wargames.
//!
//! The Rust core supplies the board ([`board`]: hex maps with hexsides; area graphs), the
//! movement and supply engine ([`path`]), the game state, commands, events and sequence of play
//! ([`engine`]), and a sandboxed Lua host ([`rules`]) in which each game's rules live. A
//! [`Session`] ties a scenario file, its rules and a game together: it is the embedding API.
//!
//! ```
//! use hexwar::engine::{Command, Event};
//! use hexwar::Session;
//!
//! // Load the demo scenario and its Lua rules, start a game with seed 7. (The path is read from
//! // the working directory, here the repository's; a program of its own gives an absolute
//! // path or one from its own configuration: docs/embedding.md, "Saves".)
//! let mut session = Session::start(std::path::Path::new("scenarios/demo"), Some(7))?;
//! let side = session.game.phasing_side().expect("the demo has a phasing side");
//! assert_eq!(side, "blue");
//!
//! // The rules list every legal command; a refused one leaves the state untouched.
//! let legal = session.game.legal_commands(&side)?;
//! let first_move = legal.iter().find(|c| matches!(c, Command::Move { .. })).expect("a move");
//! let events = session.game.submit(Some(&side), first_move)?;
//! assert!(events.iter().any(|e| matches!(e, Event::UnitMoved { .. })));
//!
//! // Everything that happened is in the log; the state can be saved and resumed.
//! let save = session.to_save();
//! assert_eq!(save.state.turn, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **A program depending on hexwar must copy one build setting** for games to replay the same
//! from one process to the next: the `CFLAGS` of this repository's `.cargo/config.toml`, which
//! fix Lua's string-hash seed (the order of `pairs`) and `table.sort`'s pivot. Without them the
//! shipped games still replay, but a mod that iterates string keys with `pairs` does not; assert
//! [`rules::lua_hash_seed_is_fixed`] in a test of your program (docs/embedding.md, "Determinism
//! needs one build setting").
pub mod batch;
pub mod board;
pub mod bot;
#[cfg(feature = "cli")]
pub mod cli;
pub mod digest;
pub mod engine;
pub mod luatest;
pub mod output_file;
pub mod path;
pub mod printable;
pub mod reach_answer;
pub mod render;
pub mod replay;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod session;
pub mod spelling;
pub mod supply_answer;

pub use session::{Session, SessionError};

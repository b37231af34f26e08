//! The board: a rectangular hex map addressed by printed labels, with terrain, hex features,
//! hexside features and named zones. Everything is stored in dense arrays indexed by
//! [`HexIndex`] so that searches never hash. Or an area board (a graph of named regions,
//! [`AreaMap`]); [`Board`] holds either.

mod any;
mod area;
mod area_file;
mod error;
mod grid;
mod grid_changes;
mod hexside;
mod label;
mod map_file;
mod source;
mod toml_text;

pub use any::{load_board, load_board_all, Board};
pub use area::{AreaMap, MoveClass, Power, Region};
pub use area_file::{load_area_map, parse_area_map, parse_area_map_all};
pub use error::MapError;
pub use grid::{HexIndex, HexMap, OffsetParity, Orientation};
pub use hexside::HexsideKey;
pub use label::LabelFormat;
pub use map_file::{load_map, parse_map, parse_map_all};
pub use source::{
    bom_stripped, line_of, read_bytes_capped, read_capped, read_named_capped, without_bom,
    LineIndex, NotUtf8, SourceText, MAX_SOURCE_BYTES,
};
pub(crate) use toml_text::with_nearest_field;
pub use toml_text::{
    datetime_error, in_json_words, in_lua_words, in_toml_words, not_finite_error, parse_toml,
    toml_message, toml_offset, TomlError,
};

//! The hex map parser (`src/board/map_file.rs`): any text gives a map or a located error.
#![no_main]

use hexwar::board::{parse_map, SourceText};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = hexwar_fuzz::text(data) else {
        return;
    };
    if let Ok(map) = parse_map(&SourceText::new("fuzz/map.toml", text)) {
        // Every hex's label reads back as that hex.
        for i in 0..map.len() {
            assert_eq!(map.parse_label(&map.label(i)), Some(i));
        }
    }
});

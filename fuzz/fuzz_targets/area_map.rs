//! The area map parser (`src/board/area_file.rs`): any text gives a map or a located error.
#![no_main]

use hexwar::board::{parse_area_map, MoveClass, SourceText};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = hexwar_fuzz::text(data) else {
        return;
    };
    if let Ok(map) = parse_area_map(&SourceText::new("fuzz/map.toml", text)) {
        // The queries the adjudicator relies on answer for every region.
        for r in map.regions() {
            for class in [MoveClass::Army, MoveClass::Fleet] {
                for n in map.neighbors(&r.id, class) {
                    assert!(map.adjacent(&r.id, n, class) || !map.is_location(n));
                }
            }
        }
        let _ = map.supply_centers();
    }
});

//! The fixture of the facing tests (`tests/facing.rs`, `tests/facing_core.rs`): small flat-topped
//! maps of clear hexes, units, and a compiled declaration with its board, asked for reaches and
//! move checks.
#![allow(dead_code)]

use std::collections::BTreeMap;

use hexwar::board::{parse_map, HexMap, SourceText};
use hexwar::engine::Unit;
use hexwar::path::{
    check_move, reach_facing, Facing, FacingBoard, FacingOptions, FacingReached, FacingRules,
};
use serde_json::json;

/// A map of clear hexes, `extra` TOML appended (a `[hexsides]` table).
pub fn grid_with(cols: usize, rows: usize, extra: &str) -> HexMap {
    let line = format!("\"{}\"", vec!["."; cols].join(" "));
    let g = vec![line; rows].join(", ");
    parse_map(&SourceText::new(
        "t.toml",
        format!("name = \"t\"\ncolumns = {cols}\nrows = {rows}\ngrid = [{g}]\n[legend]\n\".\" = \"clear\"\n{extra}"),
    ))
    .unwrap()
}

pub fn grid(cols: usize, rows: usize) -> HexMap {
    grid_with(cols, rows, "")
}

pub fn u(id: &str, side: &str, kind: &str, at: &str, ma: f64, facing: Option<u8>) -> Unit {
    serde_json::from_value(
        json!({ "id": id, "side": side, "type": kind, "at": at, "ma": ma, "facing": facing }),
    )
    .unwrap()
}

pub struct Fx {
    pub map: HexMap,
    pub rules: FacingRules,
    pub board: FacingBoard,
}

pub fn fx(map: HexMap, decl: serde_json::Value, units: &[Unit]) -> Fx {
    let rules = FacingRules::compile(&decl, &map).unwrap();
    let board = FacingBoard::build(&map, &rules, units).unwrap();
    Fx { map, rules, board }
}

impl Fx {
    pub fn group(&self, ids: &[&str]) -> Vec<usize> {
        ids.iter()
            .map(|i| self.board.unit_index(i).unwrap())
            .collect()
    }

    pub fn reach_opts(&self, ids: &[&str], opts: FacingOptions) -> Vec<FacingReached> {
        let g = self.group(ids);
        let budget = self.board.group_budget(&g);
        reach_facing(&self.map, &self.rules, &self.board, &g, budget, opts)
            .unwrap()
            .states()
            .to_vec()
    }

    /// `(hex, facing) -> cost`, facing in its text form.
    pub fn states(&self, ids: &[&str]) -> BTreeMap<(String, String), u32> {
        self.reach_opts(ids, FacingOptions::default())
            .into_iter()
            .map(|r| ((self.map.label(r.hex), r.facing.key()), r.cost))
            .collect()
    }

    /// For units whose end facing is free: hex -> cost (every facing of a hex at one cost).
    pub fn hexes(&self, ids: &[&str]) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for r in self.reach_opts(ids, FacingOptions::default()) {
            let c = *out.entry(self.map.label(r.hex)).or_insert(r.cost);
            assert_eq!(c, r.cost, "one cost per hex");
        }
        out
    }

    pub fn check(&self, ids: &[&str], path: &[&str], facing: Facing) -> Result<u32, String> {
        let g = self.group(ids);
        let budget = self.board.group_budget(&g);
        let path: Vec<_> = path
            .iter()
            .map(|l| self.map.parse_label(l).unwrap())
            .collect();
        check_move(
            &self.map,
            &self.rules,
            &self.board,
            &g,
            budget,
            &path,
            facing,
            FacingOptions::default(),
        )
        .unwrap()
        .map_err(|r| format!("{}: {}", r.clause, r.reason))
    }
}

pub fn hc(pairs: &[(&str, u32)]) -> BTreeMap<String, u32> {
    pairs.iter().map(|(h, c)| (h.to_string(), *c)).collect()
}

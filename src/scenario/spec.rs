//! The scenario file as written (serde). See `docs/formats.md`.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};
use toml::Spanned;

/// A scenario file before validation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The map file, relative to the scenario file.
    pub map: Spanned<String>,
    /// Rules modules, loaded in this order; later ones override or extend earlier ones.
    pub rules: Spanned<Vec<Spanned<String>>>,
    /// Folders that `require` may load from, relative to the scenario file (default `../../rules`).
    #[serde(default)]
    pub rule_roots: Option<Spanned<Vec<String>>>,
    /// Number of turns; the game ends after the last.
    pub turns: Spanned<u32>,
    /// The seed used when none is given on the command line.
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub limits: LimitsSpec,
    #[serde(rename = "side")]
    pub sides: Vec<SideSpec>,
    #[serde(default, rename = "unit")]
    pub units: Vec<Spanned<UnitSpec>>,
    /// Extra files of `[[unit]]` tables (orders of battle), relative to the scenario file.
    #[serde(default)]
    pub unit_files: Vec<Spanned<String>>,
    /// Initial control: side -> hex labels or `zone:NAME`.
    #[serde(default)]
    pub control: BTreeMap<String, Vec<Spanned<String>>>,
    /// Initial values of the rules' variables.
    #[serde(default)]
    pub vars: Map<String, Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// Lua instructions one call into the rules may run.
    pub instructions: Option<Spanned<u64>>,
    /// Memory the rules' Lua VM may use, in MiB.
    pub memory_mb: Option<Spanned<u64>>,
    /// Longest chain of events causing events.
    pub event_depth: Option<Spanned<u32>>,
    /// Most events one command may produce.
    pub events_per_command: Option<Spanned<u32>>,
    /// The wall-clock backstop of one call into the rules, in seconds.
    pub seconds: Option<Spanned<f64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    pub name: Spanned<String>,
    #[serde(default)]
    pub bot: Option<Spanned<String>>,
}

/// One unit as written in a scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub side: Spanned<String>,
    #[serde(default)]
    pub nation: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub size: String,
    /// Absent: 0. Spanned so a bad number is refused at its own line.
    #[serde(default)]
    pub ma: Option<Spanned<f64>>,
    #[serde(default)]
    pub strength: Option<Spanned<f64>>,
    /// Hex label or area; omitted for units that start off the map (reserves).
    #[serde(default)]
    pub at: Option<Spanned<String>>,
    /// An edge or corner direction, 0 to 5 (TA-R1); a larger number is refused where it is
    /// written, not read modulo 6 by the search and refused later by the rules.
    #[serde(default, deserialize_with = "direction_index")]
    pub facing: Option<u8>,
    #[serde(default)]
    pub status: Vec<String>,
    #[serde(default)]
    pub attrs: Map<String, Value>,
}

impl UnitSpec {
    /// The movement allowance as written, 0 when absent.
    pub fn ma_value(&self) -> f64 {
        self.ma.as_ref().map_or(0.0, |m| *m.get_ref())
    }

    /// The strength as written, 0 when absent.
    pub fn strength_value(&self) -> f64 {
        self.strength.as_ref().map_or(0.0, |s| *s.get_ref())
    }

    /// The unit this entry places, on `board` when it has loaded: an area region's alias read
    /// as the region (the game keeps the id). A scenario and a setup file place units alike.
    pub fn into_unit(self, board: Option<&crate::board::Board>) -> crate::engine::Unit {
        let (ma, strength) = (self.ma_value(), self.strength_value());
        let side = self.side.into_inner();
        crate::engine::Unit {
            id: self.id,
            nation: self.nation.unwrap_or_else(|| side.clone()),
            side,
            kind: self.kind,
            size: self.size,
            ma,
            strength,
            at: self.at.map(Spanned::into_inner).map(|at| {
                board
                    .and_then(|b| b.canonical_place(&at).map(|c| c.into_owned()))
                    .unwrap_or(at)
            }),
            facing: self.facing,
            status: self.status.into_iter().collect(),
            attrs: self.attrs,
        }
    }

    /// Checks the allowance and strength (`fit::unit_numbers`), each failure with the byte
    /// offset of the number it is about (`fallback` for a number left out).
    pub fn numbers_checked(&self, fallback: usize) -> Result<(), (usize, String)> {
        let at = |n: &Option<Spanned<f64>>| n.as_ref().map_or(fallback, |n| n.span().start);
        super::fit::movement_allowance(self.ma_value()).map_err(|e| (at(&self.ma), e))?;
        super::fit::strength_points(self.strength_value()).map_err(|e| (at(&self.strength), e))
    }
}

fn direction_index<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    let f = u8::deserialize(d)?;
    super::fit::direction(f.into(), "facing").map_err(serde::de::Error::custom)?;
    Ok(Some(f))
}

/// A file holding only `[[unit]]` tables.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFileSpec {
    #[serde(default, rename = "unit")]
    pub units: Vec<Spanned<UnitSpec>>,
}

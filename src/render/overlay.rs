//! Overlays: what is drawn over the board besides terrain and units. Each is computed from the
//! game as plain data (hex label -> sides, costs, ...) before anything is drawn.

use std::collections::BTreeMap;
use std::str::FromStr;

use serde_json::Value;

use super::RenderError;
use crate::rules::LuaRules;
use crate::session::Session;

/// Which overlay to draw (`--overlay zoc|reach:UNIT|supply|control`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// Hexes in an enemy zone of control, tinted by the side exerting it (`hex.path.zoc`).
    Zoc,
    /// The hexes a unit can reach, with their MP cost (the rules' `reach` query).
    Reach(String),
    /// Each unit's supply status (the rules' `supply` query).
    Supply,
    /// The hexes of a zone of the map (`[zones]`: a country, the map's edges), marked.
    Zone(String),
    /// Who controls each hex (`state.control`).
    Control,
}

impl FromStr for Overlay {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "zoc" => Ok(Overlay::Zoc),
            "supply" => Ok(Overlay::Supply),
            "control" => Ok(Overlay::Control),
            _ => match (s.strip_prefix("reach:"), s.strip_prefix("zone:")) {
                (Some(unit), _) if !unit.is_empty() => Ok(Overlay::Reach(unit.to_string())),
                (_, Some(zone)) if !zone.is_empty() => Ok(Overlay::Zone(zone.to_string())),
                _ => Err(format!(
                    "unknown overlay '{s}' (zoc, reach:UNIT, zone:NAME, supply or control)"
                )),
            },
        }
    }
}

/// An overlay computed for the current position.
#[derive(Debug, Default)]
pub struct OverlayData {
    /// A line for the legend.
    pub caption: String,
    /// Hexes tinted with the colours of these sides.
    pub tints: BTreeMap<String, Vec<String>>,
    /// Hexes tinted in the reach colour, with a text (the MP cost), and what the tint means
    /// in the legend.
    pub marks: BTreeMap<String, String>,
    pub marks_meaning: String,
    /// The unit the overlay is about (outlined).
    pub focus: Option<String>,
    /// Units marked supplied (true) or not (false).
    pub supply: BTreeMap<String, bool>,
}

/// Computes an overlay.
pub fn compute(session: &mut Session, overlay: &Overlay) -> Result<OverlayData, RenderError> {
    let mut data = OverlayData::default();
    match overlay {
        Overlay::Control => {
            data.caption = "overlay: control (tint: controlling side)".into();
            for (hex, side) in &session.game.state().control {
                data.tints.insert(hex.clone(), vec![side.clone()]);
            }
        }
        Overlay::Zoc => {
            data.caption = "overlay: zones of control (tint: side exerting ZOC)".into();
            // The game's rules VM is behind the Ruleset trait; a second VM of the same rules
            // answers hex.path.zoc over the same state.
            let mut rules =
                LuaRules::load(&session.scenario).map_err(|e| RenderError(e.errors.join("\n")))?;
            // (a facing game declares fronts, not a movement table's ZOC: said so, not as a
            // script error of an `eval` chunk)
            let code = r#"
              if hex.rules.get("movement") == nil then
                error("NO_MOVEMENT", 0)
              end
              local out = {}
              for _, label in ipairs(hex.map.hexes()) do
                local sides = hex.path.zoc(label)
                if sides and #sides > 0 then out[label] = sides end
              end
              return out
            "#;
            let answer = rules.eval(session.game.state(), code).map_err(|e| {
                RenderError(if e.message.contains("NO_MOVEMENT") {
                    "zoc overlay: this game's rules declare no movement table, whose zones of \
                     control the overlay draws (a facing game's fronts are not drawn; reach:UNIT \
                     shows where a unit may go)"
                        .into()
                } else {
                    format!("zoc overlay: {e}")
                })
            })?;
            if let Value::Object(map) = answer {
                for (hex, sides) in map {
                    let sides: Vec<String> = sides
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|s| s.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    data.tints.insert(hex, sides);
                }
            }
        }
        Overlay::Reach(unit) => {
            let map = session
                .reach_of(unit)
                .map_err(|e| RenderError(format!("reach overlay: {e}")))?;
            // (a facing game answers a cost per end facing, `{"0": 1, "3": 2}`: the least is
            // printed; the whole table was, as JSON text)
            let facings = map.values().any(Value::is_object);
            data.caption = format!(
                "overlay: reach of {unit} ({} hexes, {} printed)",
                map.len(),
                if facings {
                    "least cost over the end facings"
                } else {
                    "MP cost"
                }
            );
            for (hex, cost) in map {
                let least = match &cost {
                    Value::Object(per_facing) => per_facing
                        .values()
                        .filter_map(Value::as_f64)
                        .min_by(f64::total_cmp),
                    other => other.as_f64(),
                };
                let cost = match least {
                    Some(x) => super::svg::num(x),
                    None => cost.to_string(),
                };
                data.marks.insert(hex, cost);
            }
            data.focus = Some(unit.clone());
            data.marks_meaning = "reachable (MP)".into();
        }
        Overlay::Zone(zone) => {
            let map =
                session.scenario.map.as_hex().ok_or_else(|| {
                    RenderError("zone overlay: the board is not a hex map".into())
                })?;
            let hexes = map.zone_hexes(zone).ok_or_else(|| {
                let names = map.zone_names();
                let near = crate::spelling::nearest(zone, names.iter().map(String::as_str), 3)
                    .map(|n| format!("did you mean '{n}'? "))
                    .unwrap_or_default();
                RenderError(format!(
                    "zone overlay: the map has no zone '{zone}' ({near}zones: {})",
                    names.join(", ")
                ))
            })?;
            data.caption = format!("overlay: zone {zone} ({} hexes, marked)", hexes.len());
            data.marks_meaning = format!("zone {zone}");
            for h in hexes {
                data.marks.insert(map.label(h), String::new());
            }
        }
        Overlay::Supply => {
            let answer = session
                .game
                .query("supply", &Value::Null)
                .map_err(|e| RenderError(format!("supply overlay: {e}")))?;
            let Some(Value::Object(map)) = answer else {
                return Err(RenderError(
                    "supply overlay: the rules answer no supply query".into(),
                ));
            };
            let status = crate::supply_answer::supply_status(&map)
                .map_err(|e| RenderError(format!("supply overlay: {e}")))?;
            let isolated = status.values().filter(|s| !**s).count();
            data.caption = format!(
                "overlay: supply (green dot supplied, red cross isolated: {isolated} of {})",
                status.len()
            );
            data.supply.extend(status);
        }
    }
    Ok(data)
}

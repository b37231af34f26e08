//! `PhaseReport`: the result of one adjudicated phase of a simultaneous-orders game, as the rules
//! announce it in a `PhaseAdjudicated` custom event (rules/diplomacy/host.lua). Typed here so
//! that `hexwar play --json`, tests and embedding programs read one shape (docs/diplomacy.md).
//!
//! Lua cannot tell an empty list from an empty table, so an empty list may arrive as `{}`; the
//! lists below accept that and always print `[]`.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::engine::Event;

/// The custom event that carries a report.
pub const PHASE_ADJUDICATED: &str = "PhaseAdjudicated";

/// One phase: every order's result, the board after it, who must retreat, who was disbanded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseReport {
    pub phase: String,
    #[serde(deserialize_with = "list")]
    pub results: Vec<OrderResult>,
    /// The board after the phase, without units waiting to retreat.
    #[serde(deserialize_with = "lists")]
    pub units: BTreeMap<String, Vec<String>>,
    #[serde(deserialize_with = "list")]
    pub dislodged: Vec<Dislodged>,
    #[serde(deserialize_with = "list")]
    pub disbanded: Vec<String>,
    #[serde(deserialize_with = "lists")]
    pub centers: BTreeMap<String, Vec<String>>,
    pub next_phase: String,
}

/// One order and what became of it: `flags` is empty when it succeeded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderResult {
    pub power: String,
    pub order: String,
    pub unit: String,
    #[serde(deserialize_with = "list")]
    pub flags: Vec<String>,
}

/// A unit that must retreat (or was removed for want of a retreat: `retreats` empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dislodged {
    pub power: String,
    pub unit: String,
    #[serde(default)]
    pub by: String,
    #[serde(deserialize_with = "list")]
    pub retreats: Vec<String>,
}

impl PhaseReport {
    /// The reports among a batch of events, in order.
    pub fn from_events(events: &[Event]) -> Result<Vec<PhaseReport>, serde_json::Error> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Custom { name, data } if name == PHASE_ADJUDICATED => Some(data),
                _ => None,
            })
            .map(|data| PhaseReport::deserialize(&**data))
            .collect()
    }
}

/// A list that may have been written `{}` by Lua.
fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    match Value::deserialize(d)? {
        Value::Object(m) if m.is_empty() => Ok(Vec::new()),
        v => serde_json::from_value(v).map_err(serde::de::Error::custom),
    }
}

/// A map of lists whose lists may have been written `{}`.
fn lists<'de, D>(d: D) -> Result<BTreeMap<String, Vec<String>>, D::Error>
where
    D: Deserializer<'de>,
{
    let Value::Object(m) = Value::deserialize(d)? else {
        return Err(serde::de::Error::custom("expected a table POWER = [...]"));
    };
    m.into_iter()
        .map(|(k, v)| match v {
            Value::Object(o) if o.is_empty() => Ok((k, Vec::new())),
            v => serde_json::from_value(v)
                .map(|l| (k, l))
                .map_err(serde::de::Error::custom),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_tables_read_as_empty_lists() {
        let v = serde_json::json!({"phase": "S1901M", "results": [{"power": "FRANCE", "order": "A PAR H",
            "unit": "A PAR", "flags": {}}], "units": {"FRANCE": ["A PAR"], "ITALY": {}}, "dislodged": {},
            "disbanded": {}, "centers": {}, "next_phase": "F1901M"});
        let r = PhaseReport::deserialize(&v).unwrap();
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"phase":"S1901M","results":[{"power":"FRANCE","order":"A PAR H","unit":"A PAR","flags":[]}],"units":{"FRANCE":["A PAR"],"ITALY":[]},"dislodged":[],"disbanded":[],"centers":{},"next_phase":"F1901M"}"#
        );
    }

    fn report(phase: &str) -> Value {
        serde_json::json!({"phase": phase, "results": [], "units": {"FRANCE": ["A PAR"]},
            "dislodged": [], "disbanded": [], "centers": {"FRANCE": ["PAR"]}, "next_phase": "X"})
    }

    fn custom(name: &str, data: Value) -> Event {
        Event::Custom {
            name: name.into(),
            data: std::sync::Arc::new(data),
        }
    }

    /// Only `PhaseAdjudicated` events are reports, read in order; the engine's own events and
    /// other custom events (whatever their data) are passed over.
    #[test]
    fn reports_are_the_phase_adjudicated_events_in_order() {
        let events = [
            Event::PhaseEnded {
                turn: 1,
                step: 1,
                side: None,
                phase: "S1901M".into(),
            },
            custom("OrdersGiven", serde_json::json!({"FRANCE": 3})),
            custom(PHASE_ADJUDICATED, report("S1901M")),
            custom("phaseadjudicated", report("F1901M")),
            custom(PHASE_ADJUDICATED, report("S1902M")),
        ];
        let phases: Vec<String> = PhaseReport::from_events(&events)
            .unwrap()
            .into_iter()
            .map(|r| r.phase)
            .collect();
        assert_eq!(phases, ["S1901M", "S1902M"]);
        let r = &PhaseReport::from_events(&events[2..3]).unwrap()[0];
        assert_eq!(r.units["FRANCE"], ["A PAR"]);
        assert_eq!(r.centers["FRANCE"], ["PAR"]);
        assert!(PhaseReport::from_events(&events[..2]).unwrap().is_empty());
    }

    /// Only an EMPTY table stands for an empty list: a table with keys where a list belongs
    /// is an error, not an empty list (a rules mistake is not hidden).
    #[test]
    fn a_table_with_keys_is_not_a_list() {
        let mut v = report("S1901M");
        v["disbanded"] = serde_json::json!({"1": "A PAR"});
        let e = PhaseReport::deserialize(&v).unwrap_err().to_string();
        assert_eq!(e, "invalid type: map, expected a sequence");
        let mut v = report("S1901M");
        v["units"] = serde_json::json!({"FRANCE": {"1": "A PAR"}});
        let e = PhaseReport::deserialize(&v).unwrap_err().to_string();
        assert_eq!(e, "invalid type: map, expected a sequence");
        let mut v = report("S1901M");
        v["units"] = serde_json::json!(["A PAR"]);
        let e = PhaseReport::deserialize(&v).unwrap_err().to_string();
        assert_eq!(e, "expected a table POWER = [...]");
    }
}

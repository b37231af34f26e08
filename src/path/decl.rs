//! Reading a declaration (`serde_json::Value`, converted from a Lua table by the host):
//! shapes shared by every part — name lists, cost specs resolved per (side, class), unit
//! selectors — with errors that give the dotted path of the entry at fault.

use serde_json::{Map, Value};

use super::error::DeclarationError;
use super::mp::Mp;
use crate::board::HexMap;
use crate::engine::Unit;

/// A cost that forbids the step.
pub(crate) const PROHIBITED: u32 = u32::MAX;
/// The largest cost a designer may write, so that sums of a few costs never overflow.
const MAX_COST_MP: f64 = 4096.0;

pub(crate) fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn kind(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{s}\""),
        Value::Array(_) => "a list".into(),
        Value::Object(m) if m.is_empty() => "an empty table".into(),
        Value::Object(m) => format!(
            "a table with keys {}",
            m.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
        ),
    }
}

pub(crate) fn bad(at: &str, expected: &str, found: &Value) -> DeclarationError {
    DeclarationError::BadValue {
        at: at.to_string(),
        expected: expected.to_string(),
        found: kind(found),
    }
}

/// A table (JSON object) whose keys must all be in `allowed`. An empty Lua table arrives as an
/// empty list or an empty object, so both are accepted as "no keys".
pub(crate) fn table<'v>(
    v: &'v Value,
    at: &str,
    allowed: &[&str],
) -> Result<Option<&'v Map<String, Value>>, DeclarationError> {
    match v {
        Value::Object(m) => {
            if !allowed.is_empty() {
                for key in m.keys() {
                    if !allowed.contains(&key.as_str()) {
                        return Err(DeclarationError::UnknownKey {
                            at: at.to_string(),
                            key: key.clone(),
                            expected: allowed.join(", "),
                        });
                    }
                }
            }
            Ok(Some(m))
        }
        Value::Array(a) if a.is_empty() => Ok(None),
        other => Err(bad(at, "a table", other)),
    }
}

/// A list of strings (a single string is taken as a list of one).
pub(crate) fn names(v: &Value, at: &str) -> Result<Vec<String>, DeclarationError> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(bad(&format!("{at}[{}]", i + 1), "a name", other)),
            })
            .collect(),
        Value::Object(m) if m.is_empty() => Ok(Vec::new()),
        other => Err(bad(at, "a list of names", other)),
    }
}

pub(crate) fn boolean(
    v: Option<&Value>,
    at: &str,
    default: bool,
) -> Result<bool, DeclarationError> {
    match v {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(bad(at, "true or false", other)),
    }
}

/// A cost in MP: a non-negative multiple of 1/64, at most 4096.
pub(crate) fn mp(v: &Value, at: &str) -> Result<u32, DeclarationError> {
    let expected = "a cost in MP (a number from 0 to 4096, a multiple of 1/64)";
    let n = v.as_f64().ok_or_else(|| bad(at, expected, v))?;
    if n > MAX_COST_MP {
        return Err(bad(at, expected, v));
    }
    Mp::from_f64(n)
        .map(Mp::raw)
        .ok_or_else(|| bad(at, expected, v))
}

fn known(list: &[String]) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// Bitmask of hexside features named in a list (features this map lacks but the
/// declaration's `vocabulary` lists contribute nothing).
pub(crate) fn hexside_mask(
    map: &HexMap,
    vocab: &Vocabulary,
    v: &Value,
    at: &str,
) -> Result<u32, DeclarationError> {
    let mut mask = 0;
    for name in names(v, at)? {
        if let Some(bit) = hexside_feature(map, vocab, &name, at)? {
            mask |= 1u32 << bit;
        }
    }
    Ok(mask)
}

/// The bit of a hexside feature on this map; None when the map lacks it but the declaration's
/// `vocabulary.hexsides` lists it (a game's rules serve several maps); an error otherwise.
pub(crate) fn hexside_feature(
    map: &HexMap,
    vocab: &Vocabulary,
    name: &str,
    at: &str,
) -> Result<Option<usize>, DeclarationError> {
    match map.hexside_feature_id(name) {
        Some(id) => Ok(Some(id)),
        None if vocab.absent_hexsides.iter().any(|n| n == name) => Ok(None),
        None => Err(DeclarationError::UnknownHexsideFeature {
            at: at.to_string(),
            name: name.to_string(),
            known: known(map.hexside_feature_names()),
        }),
    }
}

/// The id of a zone on this map; None when the map lacks it but `vocabulary.zones` lists it.
pub(crate) fn zone(
    map: &HexMap,
    vocab: &Vocabulary,
    name: &str,
    at: &str,
) -> Result<Option<usize>, DeclarationError> {
    match map.zone_id(name) {
        Some(id) => Ok(Some(id)),
        None if vocab.absent_zones.iter().any(|n| n == name) => Ok(None),
        None => Err(DeclarationError::UnknownZone {
            at: at.to_string(),
            name: name.to_string(),
            known: known(map.zone_names()),
        }),
    }
}

/// The declared sides and movement classes, by which costs are selected.
#[derive(Debug, Clone)]
pub(crate) struct Vocabulary {
    pub sides: Vec<String>,
    pub classes: Vec<String>,
    /// Names the game knows that a given map may lack (`vocabulary` in the declaration).
    pub absent_terrain: Vec<String>,
    pub absent_hexsides: Vec<String>,
    pub absent_zones: Vec<String>,
}

impl Vocabulary {
    pub fn class(&self, name: &str, at: &str) -> Result<usize, DeclarationError> {
        self.classes
            .iter()
            .position(|s| s == name)
            .ok_or_else(|| DeclarationError::UnknownClass {
                at: at.to_string(),
                name: name.to_string(),
                known: known(&self.classes),
            })
    }

    /// Bitmask of classes named in a list.
    pub fn class_mask(&self, v: &Value, at: &str) -> Result<u32, DeclarationError> {
        let mut mask = 0;
        for name in names(v, at)? {
            mask |= 1u32 << self.class(&name, at)?;
        }
        Ok(mask)
    }
}

/// One resolved cost: fixed (possibly PROHIBITED), or conditional on other hexside features
/// being on the same hexside (`sea` for Germans: prohibited unless there is a `causeway`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    Fixed(u32),
    Unless {
        unless: u32,
        then: u32,
        otherwise: u32,
    },
}

/// Resolves a cost spec for one (side, class) pair. Spec shapes:
/// - a number (MP) or `"prohibited"`;
/// - `{ unless = {features...}, ["then" = cost (default 0)], ["else" = cost (default "prohibited")] }`
///   (hexsides only; `then` and `else` may be selector tables of costs);
/// - a selector table keyed by class names, side names and `default` (class keys win over side
///   keys), whose values are specs again.
pub(crate) fn resolve(
    spec: &Value,
    at: &str,
    vocab: &Vocabulary,
    side: usize,
    class: usize,
    map: Option<&HexMap>,
) -> Result<Option<Rule>, DeclarationError> {
    match spec {
        Value::String(s) if s == "prohibited" => Ok(Some(Rule::Fixed(PROHIBITED))),
        Value::Number(_) => Ok(Some(Rule::Fixed(mp(spec, at)?))),
        Value::Object(m) if m.contains_key("unless") => {
            let map = map.ok_or_else(|| {
                bad(
                    at,
                    "a cost or \"prohibited\" ('unless' applies to hexsides only)",
                    spec,
                )
            })?;
            table(spec, at, &["unless", "then", "else"])?;
            // (`then` and `else` are costs, or tables by class and side of costs: resolved for
            // this side and class, the leaf's default where they name neither)
            let leaf = |key: &str, default: u32| -> Result<u32, DeclarationError> {
                match m.get(key) {
                    None => Ok(default),
                    Some(Value::String(s)) if s == "prohibited" => Ok(PROHIBITED),
                    Some(v @ Value::Object(_)) => {
                        match resolve(v, &join(at, key), vocab, side, class, None)? {
                            Some(Rule::Fixed(cost)) => Ok(cost),
                            Some(Rule::Unless { .. }) => Err(bad(
                                &join(at, key),
                                "a cost, \"prohibited\" or a table of them by class and side",
                                v,
                            )),
                            None => Ok(default),
                        }
                    }
                    Some(v) => mp(v, &join(at, key)),
                }
            };
            Ok(Some(Rule::Unless {
                unless: hexside_mask(map, vocab, &m["unless"], &join(at, "unless"))?,
                then: leaf("then", 0)?,
                otherwise: leaf("else", PROHIBITED)?,
            }))
        }
        Value::Object(m) => {
            for key in m.keys() {
                if key != "default" && !vocab.classes.contains(key) && !vocab.sides.contains(key) {
                    let words = vocab.classes.iter().chain(vocab.sides.iter());
                    let near = crate::spelling::nearest(
                        key,
                        words.map(String::as_str).chain(["default"]),
                        4,
                    );
                    return Err(DeclarationError::UnknownSelector {
                        at: at.to_string(),
                        key: key.clone(),
                        hint: near.map_or(String::new(), |n| format!(" (did you mean '{n}'?)")),
                        sides: known(&vocab.sides),
                        classes: known(&vocab.classes),
                    });
                }
            }
            let pick = [&vocab.classes[class], &vocab.sides[side], "default"];
            for key in pick {
                if let Some(inner) = m.get(key) {
                    if let Some(rule) = resolve(inner, &join(at, key), vocab, side, class, map)? {
                        return Ok(Some(rule));
                    }
                }
            }
            Ok(None)
        }
        other => Err(bad(
            at,
            "a cost, \"prohibited\", or a table by class/side",
            other,
        )),
    }
}

/// Which units a policy means: any unit matching any listed status, size, type, nation, or
/// boolean attribute flag; with `match = "all"`, a unit matching every key listed (F40-11.3's
/// para *regiments*: `{ flags = {"para"}, size = {"III"}, match = "all" }`). `{}` matches none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitSelector {
    pub status: Vec<String>,
    pub sizes: Vec<String>,
    pub types: Vec<String>,
    pub nations: Vec<String>,
    pub flags: Vec<String>,
    /// Every listed key must match (else any one).
    pub all: bool,
}

impl UnitSelector {
    pub(crate) fn parse(v: Option<&Value>, at: &str) -> Result<UnitSelector, DeclarationError> {
        let Some(v) = v else {
            return Ok(UnitSelector::default());
        };
        let Some(m) = table(
            v,
            at,
            &["status", "size", "type", "nation", "flags", "match"],
        )?
        else {
            return Ok(UnitSelector::default());
        };
        let all = match m.get("match").map(|v| (v, v.as_str())) {
            None | Some((_, Some("any"))) => false,
            Some((_, Some("all"))) => true,
            Some((v, _)) => return Err(bad(&join(at, "match"), "\"any\" or \"all\"", v)),
        };
        let list = |key: &str| {
            m.get(key)
                .map(|v| names(v, &join(at, key)))
                .transpose()
                .map(Option::unwrap_or_default)
        };
        Ok(UnitSelector {
            status: list("status")?,
            sizes: list("size")?,
            types: list("type")?,
            nations: list("nation")?,
            flags: list("flags")?,
            all,
        })
    }

    pub fn matches(&self, unit: &Unit) -> bool {
        let status = || self.status.iter().any(|s| unit.has_status(s));
        let size = || self.sizes.contains(&unit.size);
        let kind = || self.types.contains(&unit.kind);
        let nation = || self.nations.contains(&unit.nation);
        let flag = || self.flags.iter().any(|f| unit.flag(f));
        if !self.all {
            return status() || size() || kind() || nation() || flag();
        }
        let listed = !(self.status.is_empty()
            && self.sizes.is_empty()
            && self.types.is_empty()
            && self.nations.is_empty()
            && self.flags.is_empty());
        listed
            && (self.status.is_empty() || status())
            && (self.sizes.is_empty() || size())
            && (self.types.is_empty() || kind())
            && (self.nations.is_empty() || nation())
            && (self.flags.is_empty() || flag())
    }
}

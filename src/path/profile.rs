//! The movement profile: what a game's rules declare about moving, compiled into dense tables
//! indexed by terrain id and hexside feature bit (DESIGN.md principles 1 and 2).
//!
//! Costs are looked up per *kind* = (side, movement class), so that a hexside can cost +1 to
//! one side and be prohibited to the other (F40-9.3: sea hexsides).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::decl::{self, join, Rule, UnitSelector, Vocabulary, PROHIBITED};
use super::error::{DeclarationError, PositionError};
use super::mp::Mp;
use super::{ClassId, SideId, MAX_SIDES};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

/// The extra cost of one hexside crossing for one kind: a fixed cost per feature bit, some
/// features prohibited outright, some conditional on other features of the same hexside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexsideCosts {
    fixed: [u32; 32],
    prohibited: u32,
    conditional: Vec<(u32, u32, u32, u32)>,
    conditional_mask: u32,
}

impl HexsideCosts {
    fn new() -> Self {
        HexsideCosts {
            fixed: [0; 32],
            prohibited: 0,
            conditional: Vec::new(),
            conditional_mask: 0,
        }
    }

    fn set(&mut self, bit: usize, rule: Rule) {
        match rule {
            Rule::Fixed(PROHIBITED) => self.prohibited |= 1 << bit,
            Rule::Fixed(cost) => self.fixed[bit] = cost,
            Rule::Unless {
                unless,
                then,
                otherwise,
            } => {
                self.conditional.push((1 << bit, unless, then, otherwise));
                self.conditional_mask |= 1 << bit;
            }
        }
    }

    /// Extra cost of crossing a hexside with these features, in raw 1/64 MP, or PROHIBITED.
    #[inline]
    pub(crate) fn eval(&self, mask: u32) -> u32 {
        if mask & self.prohibited != 0 {
            return PROHIBITED;
        }
        let mut cost = 0u32;
        let mut plain = mask & !self.conditional_mask;
        while plain != 0 {
            cost += self.fixed[plain.trailing_zeros() as usize];
            plain &= plain - 1;
        }
        if mask & self.conditional_mask != 0 {
            for &(bit, unless, then, otherwise) in &self.conditional {
                if mask & bit != 0 {
                    let c = if mask & unless != 0 { then } else { otherwise };
                    if c == PROHIBITED {
                        return PROHIBITED;
                    }
                    cost += c;
                }
            }
        }
        cost
    }

    /// Whether a hexside with these features may be crossed at all.
    pub fn allows(&self, mask: u32) -> bool {
        self.eval(mask) != PROHIBITED
    }

    /// One table per (side, class) kind from a `{ feature = cost spec }` declaration table.
    pub(crate) fn compile_all(
        v: Option<&Value>,
        at: &str,
        vocab: &Vocabulary,
        map: &HexMap,
    ) -> Result<Vec<HexsideCosts>, DeclarationError> {
        let mut out = vec![HexsideCosts::new(); vocab.sides.len() * vocab.classes.len()];
        let Some(v) = v else { return Ok(out) };
        let Some(entries) = decl::table(v, at, &[])? else {
            return Ok(out);
        };
        for (feature, spec) in entries {
            let here = join(at, feature);
            // A feature this map lacks is still checked, then has nothing to apply to.
            let bit = decl::hexside_feature(map, vocab, feature, &here)?;
            for side in 0..vocab.sides.len() {
                for class in 0..vocab.classes.len() {
                    let rule = decl::resolve(spec, &here, vocab, side, class, Some(map))?;
                    if let (Some(bit), Some(rule)) = (bit, rule) {
                        out[side * vocab.classes.len() + class].set(bit, rule);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// How a unit's movement class is found: its `attr` attribute if it names a class, else its
/// type in `by_type`, else `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ClassRule {
    attr: Option<String>,
    by_type: BTreeMap<String, ClassId>,
    default: Option<ClassId>,
}

/// The compiled movement rules of a game on one map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementProfile {
    pub(crate) vocab: Vocabulary,
    terrain_count: usize,
    /// `[kind * terrain_count + terrain]`, raw 1/64 MP or PROHIBITED.
    terrain_cost: Vec<u32>,
    hexsides: Vec<HexsideCosts>,
    class_rule: ClassRule,
    /// Extra cost to enter a hex holding a friendly unit with a status (F40-9.5).
    friendly_status_cost: Vec<(String, u32)>,
    /// Enemy hexes holding only such units may be entered (F40-11.3, R8).
    enterable_if_only: UnitSelector,
    /// Hexside features across which no unit may enter an enemy ZOC / enemy territory (F40-10.2).
    no_zoc_entry_across: u32,
    no_territory_entry_across: u32,
    /// The roads: hexside features whose crossing costs the road's cost instead of the terrain
    /// of the hex entered and the hexside's other costs (`roads`; 0 when none).
    road_mask: u32,
    /// `[kind][feature bit]`: the road cost, raw, or PROHIBITED where that kind does not use it.
    road_cost: Vec<[u32; 32]>,
}

/// The names a profile's ids stand for. The `vocabulary` lists of names a map may lack only
/// decide what compiling accepts, not what the compiled tables do, so they are not compared.
impl PartialEq for Vocabulary {
    fn eq(&self, other: &Self) -> bool {
        self.sides == other.sides && self.classes == other.classes
    }
}
impl Eq for Vocabulary {}

impl MovementProfile {
    /// Compiles the movement part of a declaration (keys `sides`, `classes`, `unit_class`,
    /// `terrain`, `hexsides`, `friendly_status_cost`, `enemy_hexes`, `no_entry_across`).
    pub fn compile(decl: &Value, map: &HexMap) -> Result<MovementProfile, DeclarationError> {
        let top =
            decl::table(decl, "", &[])?.ok_or_else(|| decl::bad("declaration", "a table", decl))?;
        let need = |key: &str| {
            top.get(key).ok_or_else(|| DeclarationError::Missing {
                at: "declaration".into(),
                key: key.into(),
            })
        };
        let sides = unique(decl::names(need("sides")?, "sides")?, "sides")?;
        let classes = unique(decl::names(need("classes")?, "classes")?, "classes")?;
        if sides.is_empty() || sides.len() > MAX_SIDES {
            return Err(DeclarationError::CountOutOfRange {
                at: "sides".into(),
                what: "sides".into(),
                max: MAX_SIDES,
                found: sides.len(),
            });
        }
        if classes.is_empty() || classes.len() > 32 {
            return Err(DeclarationError::CountOutOfRange {
                at: "classes".into(),
                what: "classes".into(),
                max: 32,
                found: classes.len(),
            });
        }
        let mut vocab = Vocabulary {
            sides,
            classes,
            absent_terrain: Vec::new(),
            absent_hexsides: Vec::new(),
            absent_zones: Vec::new(),
        };
        if let Some(v) = top.get("vocabulary") {
            if let Some(m) = decl::table(v, "vocabulary", &["terrain", "hexsides", "zones"])? {
                let list = |k: &str| {
                    m.get(k)
                        .map(|v| decl::names(v, &join("vocabulary", k)))
                        .transpose()
                        .map(Option::unwrap_or_default)
                };
                vocab.absent_terrain = list("terrain")?;
                vocab.absent_hexsides = list("hexsides")?;
                vocab.absent_zones = list("zones")?;
            }
        }
        // A map zone one or two letters off a vocabulary zone the map lacks is a misspelt map,
        // which would play another game without a word (`belgum` for `belgium` left Belgium
        // out of F40-16); names of five letters or more, so `uk` and `us` may both be zones.
        for name in &vocab.absent_zones {
            if map.zone_id(name).is_some() {
                continue;
            }
            let map_zones = map
                .zone_names()
                .iter()
                .filter(|z| z.len() >= 5 && !vocab.absent_zones.contains(z))
                .map(String::as_str);
            if let Some(near) = crate::spelling::nearest(name, map_zones, 5) {
                return Err(DeclarationError::MisnamedZone {
                    at: "vocabulary.zones".into(),
                    name: name.clone(),
                    near: near.to_string(),
                });
            }
        }
        // Hexside kinds are bits of a `u32`: a vocabulary naming more than the map leaves room
        // for is said now, not when play adds the 33rd kind.
        let hexside_kinds = map.hexside_feature_names().len()
            + vocab
                .absent_hexsides
                .iter()
                .filter(|name| !map.hexside_feature_names().contains(name))
                .count();
        if hexside_kinds > 32 {
            return Err(DeclarationError::TooManyHexsideKinds {
                on_map: map.hexside_feature_names().len(),
                total: hexside_kinds,
            });
        }
        let kinds = vocab.sides.len() * vocab.classes.len();

        // Terrain: every terrain of the map needs a cost for every kind.
        let terrain_count = map.terrain_names().len();
        let mut terrain_cost = vec![PROHIBITED; kinds * terrain_count];
        let terrain = decl::table(need("terrain")?, "terrain", &[])?
            .cloned()
            .unwrap_or_default();
        for name in terrain.keys() {
            if !map.terrain_names().contains(name) && !vocab.absent_terrain.contains(name) {
                let names = map.terrain_names().iter().map(String::as_str);
                return Err(DeclarationError::UnknownTerrain {
                    at: "terrain".into(),
                    name: name.clone(),
                    known: map.terrain_names().join(", "),
                    near: crate::spelling::nearest(name, names, 3).map(str::to_string),
                });
            }
        }
        // The map's terrain, then the vocabulary's terrain the map lacks: play may turn a hex
        // into it (a `HexChanged` event), so its costs are checked now, not at that event.
        let absent_terrain = vocab
            .absent_terrain
            .iter()
            .filter(|name| !map.terrain_names().contains(name));
        for (tid, tname) in map.terrain_names().iter().chain(absent_terrain).enumerate() {
            let on_map = tid < terrain_count;
            let spec = terrain.get(tname).ok_or_else(|| {
                if on_map {
                    DeclarationError::TerrainWithoutCost {
                        terrain: tname.clone(),
                    }
                } else {
                    DeclarationError::VocabularyTerrainWithoutCost {
                        terrain: tname.clone(),
                    }
                }
            })?;
            let at = join("terrain", tname);
            for side in 0..vocab.sides.len() {
                for class in 0..vocab.classes.len() {
                    let rule =
                        decl::resolve(spec, &at, &vocab, side, class, None)?.ok_or_else(|| {
                            DeclarationError::NoCostFor {
                                at: at.clone(),
                                side: vocab.sides[side].clone(),
                                class: vocab.classes[class].clone(),
                            }
                        })?;
                    let Rule::Fixed(cost) = rule else {
                        return Err(decl::bad(&at, "a cost", spec));
                    };
                    if on_map {
                        terrain_cost[(side * vocab.classes.len() + class) * terrain_count + tid] =
                            cost;
                    }
                }
            }
        }

        let hexsides = HexsideCosts::compile_all(top.get("hexsides"), "hexsides", &vocab, map)?;
        let class_rule = compile_class_rule(top.get("unit_class"), &vocab)?;

        let mut friendly_status_cost = Vec::new();
        if let Some(v) = top.get("friendly_status_cost") {
            if let Some(m) = decl::table(v, "friendly_status_cost", &[])? {
                for (status, cost) in m {
                    friendly_status_cost.push((
                        status.clone(),
                        decl::mp(cost, &join("friendly_status_cost", status))?,
                    ));
                }
            }
        }

        let mut enterable_if_only = UnitSelector::default();
        if let Some(v) = top.get("enemy_hexes") {
            if let Some(m) = decl::table(v, "enemy_hexes", &["enterable_if_only"])? {
                enterable_if_only = UnitSelector::parse(
                    m.get("enterable_if_only"),
                    "enemy_hexes.enterable_if_only",
                )?;
            }
        }

        let (mut no_zoc_entry_across, mut no_territory_entry_across) = (0, 0);
        if let Some(v) = top.get("no_entry_across") {
            if let Some(m) = decl::table(v, "no_entry_across", &[])? {
                for (feature, what) in m {
                    let at = join("no_entry_across", feature);
                    // A feature this map lacks is still checked (its list too), as in
                    // `hexsides`, then has no bit to bar.
                    let bit = decl::hexside_feature(map, &vocab, feature, &at)?
                        .map_or(0, |bit| 1u32 << bit);
                    for (i, item) in decl::names(what, &at)?.into_iter().enumerate() {
                        match item.as_str() {
                            "enemy_zoc" => no_zoc_entry_across |= bit,
                            "enemy_territory" => no_territory_entry_across |= bit,
                            _ => return Err(bad_entry_bar(&at, what, i, item)),
                        }
                    }
                }
            }
        }

        let (road_mask, road_cost) = compile_roads(top.get("roads"), &vocab, map)?;

        Ok(MovementProfile {
            vocab,
            terrain_count,
            terrain_cost,
            hexsides,
            class_rule,
            friendly_status_cost,
            enterable_if_only,
            no_zoc_entry_across,
            no_territory_entry_across,
            road_mask,
            road_cost,
        })
    }

    pub fn sides(&self) -> &[String] {
        &self.vocab.sides
    }
    pub fn classes(&self) -> &[String] {
        &self.vocab.classes
    }
    pub fn side_id(&self, name: &str) -> Option<SideId> {
        self.vocab
            .sides
            .iter()
            .position(|s| s == name)
            .map(|i| i as SideId)
    }
    pub fn class_id(&self, name: &str) -> Option<ClassId> {
        self.vocab.classes.iter().position(|s| s == name)
    }

    /// The side called `name`, or the message a script's call is refused with: `what` (the
    /// function), the nearest side and the sides there are.
    pub fn side_named(&self, name: &str, what: &str) -> Result<SideId, String> {
        self.side_id(name).ok_or_else(|| {
            format!(
                "{what}: {}",
                crate::spelling::unknown_side(name, self.sides())
            )
        })
    }

    /// The movement class called `name`, or the message naming the nearest and the classes.
    pub fn class_named(&self, name: &str, what: &str) -> Result<ClassId, String> {
        self.class_id(name).ok_or_else(|| {
            let why =
                crate::spelling::unknown_name("movement class", name, self.classes(), "classes");
            format!("{what}: {why}")
        })
    }

    /// The (side, class) kind index used by the cost tables.
    #[inline]
    pub(crate) fn kind(&self, side: SideId, class: ClassId) -> usize {
        side as usize * self.vocab.classes.len() + class
    }

    /// The side of a unit.
    pub fn side_of(&self, unit: &Unit) -> Result<SideId, PositionError> {
        self.side_id(&unit.side)
            .ok_or_else(|| PositionError::UnknownSide {
                unit: unit.id.clone(),
                side: unit.side.clone(),
                known: self.vocab.sides.join(", "),
            })
    }

    /// `unit_class.by_type` entries that look like misspellings of a unit type the scenario
    /// has (`armour` listed, `armor` units): (the listed type, the scenario's type). Those units
    /// get the default class, which plays another game without a word (`check` warns).
    pub fn misspelt_types<'a>(&self, types: &BTreeSet<&'a str>) -> Vec<(String, &'a str)> {
        let rule = &self.class_rule;
        if rule.default.is_none() {
            return Vec::new();
        }
        let unlisted: Vec<&str> = types
            .iter()
            .copied()
            .filter(|t| !rule.by_type.contains_key(*t))
            .collect();
        rule.by_type
            .keys()
            .filter(|listed| !types.contains(listed.as_str()))
            .filter_map(|listed| {
                crate::spelling::nearest(listed, unlisted.iter().copied(), 3)
                    .map(|near| (listed.clone(), near))
            })
            .collect()
    }

    /// The movement class of a unit (see `unit_class` in docs/movement.md).
    pub fn class_of(&self, unit: &Unit) -> Result<ClassId, PositionError> {
        let rule = &self.class_rule;
        let unknown = |class: &str| PositionError::UnknownClass {
            unit: unit.id.clone(),
            class: class.to_string(),
            known: self.vocab.classes.join(", "),
        };
        if let Some(attr) = rule.attr.as_deref() {
            match unit.attrs.get(attr) {
                Some(serde_json::Value::String(name)) => {
                    return self.class_id(name).ok_or_else(|| unknown(name))
                }
                None => {}
                Some(other) => {
                    return Err(PositionError::ClassNotAName {
                        unit: unit.id.clone(),
                        attr: attr.to_string(),
                        value: other.to_string(),
                        known: self.vocab.classes.join(", "),
                    })
                }
            }
        }
        if let Some(&class) = rule.by_type.get(&unit.kind) {
            return Ok(class);
        }
        rule.default.ok_or_else(|| {
            unknown(&format!(
                "(none: type '{}' is not in unit_class.by_type)",
                unit.kind
            ))
        })
    }

    /// MP to enter a hex of this terrain, raw, or PROHIBITED.
    #[inline]
    pub(crate) fn terrain_cost_raw(&self, kind: usize, terrain: u8) -> u32 {
        self.terrain_cost[kind * self.terrain_count + terrain as usize]
    }

    /// MP to enter a hex of this terrain, or None when prohibited.
    pub fn terrain_cost(&self, side: SideId, class: ClassId, terrain: u8) -> Option<Mp> {
        let raw = self.terrain_cost_raw(self.kind(side, class), terrain);
        (raw != PROHIBITED).then_some(Mp(raw))
    }

    /// Whether a unit of this kind may be in a hex at all (supply lines).
    #[inline]
    pub(crate) fn passable(&self, kind: usize, map: &HexMap, hex: HexIndex) -> bool {
        self.terrain_cost_raw(kind, map.terrain_id(hex)) != PROHIBITED
    }

    /// Whether some unit of `side`, of any movement class, may be in a hex (a rail route: the
    /// train carries the unit through terrain its own movement is barred from, F40-10.1 naming
    /// no terrain, but never into a hex no unit enters, such as sea).
    pub(crate) fn open_to_side(&self, side: SideId, map: &HexMap, hex: HexIndex) -> bool {
        let terrain = map.terrain_id(hex);
        (0..self.vocab.classes.len().max(1))
            .any(|class| self.terrain_cost_raw(self.kind(side, class), terrain) != PROHIBITED)
    }

    #[inline]
    pub(crate) fn hexside_costs(&self, kind: usize) -> &HexsideCosts {
        &self.hexsides[kind]
    }

    /// Extra MP of a hexside with these features, or None when prohibited.
    pub fn hexside_cost(&self, side: SideId, class: ClassId, mask: u32) -> Option<Mp> {
        let raw = self.hexsides[self.kind(side, class)].eval(mask);
        (raw != PROHIBITED).then_some(Mp(raw))
    }

    /// Extra raw MP a friend pays to enter the hex of this unit (F40-9.5), 0 when none.
    pub(crate) fn status_cost(&self, unit: &Unit) -> u32 {
        self.friendly_status_cost
            .iter()
            .filter(|(s, _)| unit.has_status(s))
            .map(|(_, c)| *c)
            .max()
            .unwrap_or(0)
    }

    /// Whether an enemy may enter a hex holding only units like this one (F40-11.3).
    pub(crate) fn enterable_by_enemy(&self, unit: &Unit) -> bool {
        self.enterable_if_only.matches(unit)
    }

    /// The terrain costs of one kind, indexed by terrain id.
    #[inline]
    pub(crate) fn terrain_costs(&self, kind: usize) -> &[u32] {
        &self.terrain_cost[kind * self.terrain_count..(kind + 1) * self.terrain_count]
    }

    /// Greatest common divisor of every cost in the tables (raw), 0 when all are 0: every path
    /// cost is a multiple of it, so the reach search can bucket costs by it.
    pub(crate) fn cost_gcd(&self) -> u32 {
        let mut g = 0;
        let mut add = |c: u32| {
            if c != PROHIBITED {
                g = gcd(g, c);
            }
        };
        self.terrain_cost.iter().for_each(|&c| add(c));
        for h in &self.hexsides {
            h.fixed.iter().for_each(|&c| add(c));
            for &(_, _, then, otherwise) in &h.conditional {
                add(then);
                add(otherwise);
            }
        }
        self.friendly_status_cost.iter().for_each(|&(_, c)| add(c));
        self.road_cost.iter().flatten().for_each(|&c| add(c));
        g
    }

    /// The hexside features that carry a road for some kind (0: the game has no roads).
    #[inline]
    pub(crate) fn road_mask(&self) -> u32 {
        self.road_mask
    }

    /// The road costs of one kind, by hexside feature bit (PROHIBITED: not a road for it).
    #[inline]
    pub(crate) fn road_costs(&self, kind: usize) -> &[u32; 32] {
        &self.road_cost[kind]
    }

    pub(crate) fn no_zoc_entry_across(&self) -> u32 {
        self.no_zoc_entry_across
    }
    pub(crate) fn no_territory_entry_across(&self) -> u32 {
        self.no_territory_entry_across
    }
}

/// The refusal of a word in a `no_entry_across` list other than the two it takes: names the
/// entry (`no_entry_across.sea[2]`, or the key for a lone word) and the word, with the one it
/// misspells if any.
fn bad_entry_bar(at: &str, list: &Value, index: usize, word: String) -> DeclarationError {
    const BARS: [&str; 2] = ["enemy_zoc", "enemy_territory"];
    let at = match list {
        Value::Array(_) => format!("{at}[{}]", index + 1),
        _ => at.to_string(),
    };
    let expected = match crate::spelling::nearest(&word, BARS, 4) {
        Some(near) => format!("\"enemy_zoc\" or \"enemy_territory\" (did you mean \"{near}\"?)"),
        None => "\"enemy_zoc\" or \"enemy_territory\"".to_string(),
    };
    decl::bad(&at, &expected, &Value::String(word))
}

/// `roads = { road = 0.5, track = { motorized = 1, default = "prohibited" } }`: for each kind,
/// what crossing a hexside with that feature costs when moving along it.
fn compile_roads(
    v: Option<&Value>,
    vocab: &Vocabulary,
    map: &HexMap,
) -> Result<(u32, Vec<[u32; 32]>), DeclarationError> {
    let kinds = vocab.sides.len() * vocab.classes.len();
    let mut costs = vec![[PROHIBITED; 32]; kinds];
    let mut mask = 0u32;
    let Some(v) = v else {
        return Ok((mask, costs));
    };
    let Some(entries) = decl::table(v, "roads", &[])? else {
        return Ok((mask, costs));
    };
    for (feature, spec) in entries {
        let at = join("roads", feature);
        let bit = decl::hexside_feature(map, vocab, feature, &at)?;
        for side in 0..vocab.sides.len() {
            for class in 0..vocab.classes.len() {
                let rule = decl::resolve(spec, &at, vocab, side, class, None)?;
                let cost = match rule {
                    None => continue,
                    Some(Rule::Fixed(cost)) => cost,
                    Some(_) => return Err(decl::bad(&at, "a cost", spec)),
                };
                if let Some(bit) = bit {
                    costs[side * vocab.classes.len() + class][bit] = cost;
                    if cost != PROHIBITED {
                        mask |= 1 << bit;
                    }
                }
            }
        }
    }
    Ok((mask, costs))
}

pub(crate) fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn unique(list: Vec<String>, at: &str) -> Result<Vec<String>, DeclarationError> {
    for (i, name) in list.iter().enumerate() {
        if list[..i].contains(name) {
            return Err(DeclarationError::Duplicate {
                at: at.into(),
                name: name.clone(),
            });
        }
    }
    Ok(list)
}

fn compile_class_rule(
    v: Option<&Value>,
    vocab: &Vocabulary,
) -> Result<ClassRule, DeclarationError> {
    let mut rule = ClassRule {
        attr: None,
        by_type: BTreeMap::new(),
        default: None,
    };
    let Some(v) = v else {
        rule.default = Some(0);
        return Ok(rule);
    };
    let Some(m) = decl::table(v, "unit_class", &["attr", "by_type", "default"])? else {
        return Ok(rule);
    };
    if let Some(a) = m.get("attr") {
        rule.attr = Some(
            a.as_str()
                .ok_or_else(|| decl::bad("unit_class.attr", "an attribute name", a))?
                .to_string(),
        );
    }
    if let Some(d) = m.get("default") {
        let name = d
            .as_str()
            .ok_or_else(|| decl::bad("unit_class.default", "a class name", d))?;
        rule.default = Some(vocab.class(name, "unit_class.default")?);
    }
    if let Some(bt) = m.get("by_type") {
        if let Some(bt) = decl::table(bt, "unit_class.by_type", &[])? {
            for (kind, class) in bt {
                let at = join("unit_class.by_type", kind);
                let name = class
                    .as_str()
                    .ok_or_else(|| decl::bad(&at, "a class name", class))?;
                rule.by_type.insert(kind.clone(), vocab.class(name, &at)?);
            }
        }
    }
    Ok(rule)
}

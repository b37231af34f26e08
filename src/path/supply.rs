//! Supply tracing (F40-8.1, 8.2, 6.5, R12): one multi-source search per (side, class, source
//! sets) group, answering every unit of the group from it.
//!
//! A hex carries a supply line for a kind of unit when it is friendly territory, passable to
//! the unit's class, and — for classes whose lines enemy ZOC blocks — not in enemy ZOC unless a
//! friendly unit holds it. Lines cross hexsides unless the `supply.hexsides` table prohibits
//! them for the side (lake always; sea for Germans unless there is a causeway). The unit's own
//! hex is exempt from all of this; a unit on a friendly source is supplied.

use std::collections::{BTreeMap, VecDeque};

use serde_json::Value;

use super::decl::{self, join, UnitSelector, Vocabulary};
use super::error::{DeclarationError, PositionError};
use super::occupancy::{check_len, Cell, Occupancy};
use super::profile::HexsideCosts;
use super::rules::PathRules;
use super::topology::OFF_MAP;
use super::{ClassId, SideId};
use crate::board::{HexIndex, HexMap};
use crate::engine::Unit;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyPolicy {
    /// Classes whose lines enemy ZOC blocks (F40-6.5: the non-motorized ones).
    pub zoc_blocks: u32,
    /// Whether a friendly unit in a hex lets the line through enemy ZOC (F40-6.5: yes).
    pub friendly_unit_negates_zoc: bool,
    /// Per (side, class) kind: the hexsides a line may not cross.
    hexsides: Vec<HexsideCosts>,
    /// Units that are always supplied (F40-R12: units of a still-neutral country).
    pub always_supplied: UnitSelector,
    /// Which hexes a line may run through, and which sources count.
    pub through: LineHexes,
}

/// The hexes a supply line may run through (`supply.through`), sources included: F40-8.1's
/// hexes the side controls, or, for a game that keeps no control or a rule of "a line free of
/// enemy units", hexes the enemy does not control or does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineHexes {
    /// `"controlled"` (the default): hexes the unit's side controls (F40-8.1).
    #[default]
    Controlled,
    /// `"not_enemy_controlled"`: hexes the side or nobody controls, with no other side's unit.
    NotEnemyControlled,
    /// `"no_enemy_unit"`: any hex without another side's unit, whoever controls it.
    NoEnemyUnit,
}

impl LineHexes {
    const NAMES: [(&'static str, LineHexes); 3] = [
        ("controlled", LineHexes::Controlled),
        ("not_enemy_controlled", LineHexes::NotEnemyControlled),
        ("no_enemy_unit", LineHexes::NoEnemyUnit),
    ];

    fn parse(v: Option<&Value>, at: &str) -> Result<LineHexes, DeclarationError> {
        let Some(v) = v else {
            return Ok(LineHexes::default());
        };
        let expected = "\"controlled\", \"not_enemy_controlled\" or \"no_enemy_unit\"";
        let Value::String(name) = v else {
            return Err(decl::bad(at, expected, v));
        };
        LineHexes::NAMES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, through)| *through)
            .ok_or_else(|| {
                let names = LineHexes::NAMES.iter().map(|(n, _)| *n);
                match crate::spelling::nearest(name, names, 4) {
                    Some(near) => {
                        decl::bad(at, &format!("{expected} (did you mean \"{near}\"?)"), v)
                    }
                    None => decl::bad(at, expected, v),
                }
            })
    }

    /// Whether a hex owned by `owner` and holding `cell` is open to the lines of `side`.
    /// (Asked of every hex a supply search meets: the default's one comparison first.)
    #[inline]
    fn open(self, side: SideId, owner: SideId, cell: Cell) -> bool {
        match self {
            LineHexes::Controlled => owner == side,
            LineHexes::NotEnemyControlled => {
                (owner == side || owner == super::NO_SIDE) && cell.present & !(1u8 << side) == 0
            }
            LineHexes::NoEnemyUnit => cell.present & !(1u8 << side) == 0,
        }
    }
}

impl SupplyPolicy {
    pub(crate) fn compile(
        v: Option<&Value>,
        vocab: &Vocabulary,
        map: &HexMap,
    ) -> Result<SupplyPolicy, DeclarationError> {
        let empty = serde_json::Map::new();
        let m = match v {
            Some(v) => decl::table(
                v,
                "supply",
                &[
                    "zoc_blocks",
                    "friendly_unit_negates_zoc",
                    "hexsides",
                    "always_supplied",
                    "through",
                ],
            )?
            .unwrap_or(&empty),
            None => &empty,
        };
        let at = |k: &str| join("supply", k);
        Ok(SupplyPolicy {
            zoc_blocks: m
                .get("zoc_blocks")
                .map(|v| vocab.class_mask(v, &at("zoc_blocks")))
                .transpose()?
                .unwrap_or(0),
            friendly_unit_negates_zoc: decl::boolean(
                m.get("friendly_unit_negates_zoc"),
                &at("friendly_unit_negates_zoc"),
                true,
            )?,
            hexsides: HexsideCosts::compile_all(m.get("hexsides"), &at("hexsides"), vocab, map)?,
            always_supplied: UnitSelector::parse(m.get("always_supplied"), &at("always_supplied"))?,
            through: LineHexes::parse(m.get("through"), &at("through"))?,
        })
    }
}

/// Supply sources for some units of a side: `nations` empty means every unit of the side.
/// The caller builds `hexes` from the map (edge zones, city features, zone filters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSet {
    pub side: SideId,
    pub nations: Vec<String>,
    pub hexes: Vec<HexIndex>,
}

impl SourceSet {
    fn serves(&self, side: SideId, unit: &Unit) -> bool {
        self.side == side && (self.nations.is_empty() || self.nations.contains(&unit.nation))
    }
}

/// The hexes from which a friendly source can be reached by a supply line, for one
/// (side, class) and one set of sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyField {
    side: SideId,
    class: ClassId,
    kind: usize,
    reached: Vec<bool>,
    /// Friendly sources, sorted.
    sources: Vec<HexIndex>,
}

impl SupplyField {
    /// Multi-source breadth-first search from the friendly, passable sources.
    pub fn trace(
        map: &HexMap,
        rules: &PathRules,
        occ: &Occupancy,
        owners: &[SideId],
        side: SideId,
        class: ClassId,
        sources: &[HexIndex],
    ) -> Result<SupplyField, PositionError> {
        check_len("owners", map.len() as usize, owners.len())?;
        check_len("occupancy", map.len() as usize, occ.len())?;
        let kind = rules.profile.kind(side, class);
        let policy = &rules.supply;
        let carries = |h: HexIndex| {
            carries_line(
                map,
                rules,
                side,
                class,
                kind,
                owners[h as usize],
                occ.cell(h),
                h,
            )
        };
        let mut reached = vec![false; map.len() as usize];
        let mut queue = VecDeque::new();
        let mut friendly_sources = Vec::new();
        for &s in sources {
            if s >= map.len() {
                return Err(PositionError::BadIndex {
                    what: "supply source".into(),
                    index: s,
                });
            }
            if policy.through.open(side, owners[s as usize], occ.cell(s)) {
                friendly_sources.push(s);
                if !reached[s as usize] && carries(s) {
                    reached[s as usize] = true;
                    queue.push_back(s);
                }
            }
        }
        friendly_sources.sort_unstable();
        friendly_sources.dedup();
        let crossings = &policy.hexsides[kind];
        while let Some(u) = queue.pop_front() {
            let masks = map.hexside_masks(u);
            for (d, v) in rules.topology.neighbors(u).into_iter().enumerate() {
                if v != OFF_MAP && !reached[v as usize] && crossings.allows(masks[d]) && carries(v)
                {
                    reached[v as usize] = true;
                    queue.push_back(v);
                }
            }
        }
        Ok(SupplyField {
            side,
            class,
            kind,
            reached,
            sources: friendly_sources,
        })
    }

    /// Whether this field, traced from `sources` on a position whose owners and occupancy
    /// cells were `before`, is also the field of the position `now` (owners, occupancy) that
    /// differs from it only in the hexes `changed`: it is when each of those hexes carries a
    /// line alike in both (the search spreads over the same hexes) and, if one of `sources`,
    /// is friendly in both or in neither (the same friendly sources).
    pub fn unchanged_by(
        &self,
        map: &HexMap,
        rules: &PathRules,
        sources: &[HexIndex],
        changed: &[HexIndex],
        before: (&[SideId], &[Cell]),
        now: (&[SideId], &Occupancy),
    ) -> bool {
        let (side, class, kind) = (self.side, self.class, self.kind);
        changed.iter().all(|&h| {
            let (Some(&owner0), Some(&cell0), Some(&owner1)) = (
                before.0.get(h as usize),
                before.1.get(h as usize),
                now.0.get(h as usize),
            ) else {
                return false;
            };
            let cell1 = now.1.cell(h);
            carries_line(map, rules, side, class, kind, owner0, cell0, h)
                == carries_line(map, rules, side, class, kind, owner1, cell1, h)
                && (!sources.contains(&h)
                    || rules.supply.through.open(side, owner0, cell0)
                        == rules.supply.through.open(side, owner1, cell1))
        })
    }

    /// Whether a hex carries a line to a source (not counting the own-hex exemption).
    pub fn carries(&self, hex: HexIndex) -> bool {
        self.reached.get(hex as usize).copied().unwrap_or(false)
    }

    /// Whether a unit of this field's side and class standing on `hex` is supplied: it stands
    /// on a friendly source, or a neighbour carries a line and the hexside between lets it
    /// through (its own hex is exempt from the line conditions, F40-R12).
    pub fn supplies(&self, map: &HexMap, rules: &PathRules, hex: HexIndex) -> bool {
        if self.sources.binary_search(&hex).is_ok() {
            return true;
        }
        let crossings = &rules.supply.hexsides[self.kind];
        let masks = map.hexside_masks(hex);
        rules
            .topology
            .neighbors(hex)
            .into_iter()
            .enumerate()
            .any(|(d, n)| n != OFF_MAP && self.carries(n) && crossings.allows(masks[d]))
    }

    pub fn side(&self) -> SideId {
        self.side
    }
}

/// Whether hex `h`, owned by `owner` and holding `cell`, carries a supply line for units of
/// `side` and `class` (`kind`: their profile kind): friendly, passable to them and, for a class
/// whose lines enemy ZOC blocks, out of enemy ZOC unless a friendly unit holds it.
#[allow(clippy::too_many_arguments)]
fn carries_line(
    map: &HexMap,
    rules: &PathRules,
    side: SideId,
    class: ClassId,
    kind: usize,
    owner: SideId,
    cell: Cell,
    h: HexIndex,
) -> bool {
    let policy = &rules.supply;
    if !policy.through.open(side, owner, cell) || !rules.profile.passable(kind, map, h) {
        return false;
    }
    if policy.zoc_blocks & (1 << class) != 0 {
        let me = 1u8 << side;
        if cell.zoc & !me != 0 && !(policy.friendly_unit_negates_zoc && cell.present & me != 0) {
            return false;
        }
    }
    true
}

/// Units sharing a search: side, class, and the source sets serving them.
type GroupKey = (SideId, ClassId, Vec<usize>);

/// Supply status of every unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyReport {
    /// Per unit in the order given; None for units off the map.
    pub supplied: Vec<Option<bool>>,
    /// How many searches were run (one per (side, class, source sets) group).
    pub searches: usize,
}

/// The units that share one supply search: their side and class, the source hexes of the sets
/// that serve them (in set order), and each member's index and hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyGroup {
    pub side: SideId,
    pub class: ClassId,
    pub sources: Vec<HexIndex>,
    pub members: Vec<(usize, HexIndex)>,
}

/// The first half of `trace_supply`: the units on the map grouped by (side, class, the source
/// sets that serve them), and the answer so far (`Some(true)` for the units the policy always
/// supplies, None for the rest). Apart so that a caller keeping fields from earlier searches
/// (the host's position cache) traces only the groups it has no field for.
pub fn supply_groups(
    rules: &PathRules,
    occ: &Occupancy,
    sources: &[SourceSet],
    units: &[Unit],
) -> (Vec<Option<bool>>, Vec<SupplyGroup>) {
    let mut supplied = vec![None; units.len()];
    let mut groups: BTreeMap<GroupKey, Vec<(usize, HexIndex)>> = BTreeMap::new();
    for (i, unit) in units.iter().enumerate() {
        let Some(placed) = occ.placed(i) else {
            continue;
        };
        if rules.supply.always_supplied.matches(unit) {
            supplied[i] = Some(true);
            continue;
        }
        let sets: Vec<usize> = sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.serves(placed.side, unit))
            .map(|(k, _)| k)
            .collect();
        groups
            .entry((placed.side, placed.class, sets))
            .or_default()
            .push((i, placed.hex));
    }
    let groups = groups
        .into_iter()
        .map(|((side, class, sets), members)| SupplyGroup {
            side,
            class,
            sources: sets
                .iter()
                .flat_map(|&k| sources[k].hexes.iter().copied())
                .collect(),
            members,
        })
        .collect();
    (supplied, groups)
}

/// Judges the supply of every unit (F40-8.1): groups units by (side, class, the source sets
/// that serve them) and runs one search per group.
pub fn trace_supply(
    map: &HexMap,
    rules: &PathRules,
    occ: &Occupancy,
    owners: &[SideId],
    sources: &[SourceSet],
    units: &[Unit],
) -> Result<SupplyReport, PositionError> {
    let (mut supplied, groups) = supply_groups(rules, occ, sources, units);
    let searches = groups.len();
    for group in groups {
        let field = SupplyField::trace(
            map,
            rules,
            occ,
            owners,
            group.side,
            group.class,
            &group.sources,
        )?;
        for (i, hex) in group.members {
            supplied[i] = Some(field.supplies(map, rules, hex));
        }
    }
    Ok(SupplyReport { supplied, searches })
}

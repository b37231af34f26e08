//! Area boards: a graph of named regions instead of a hex grid (Diplomacy and other area games).
//!
//! A region is a province (`"PAR"`); a *location* is a region or one of its coasts (`"STP/NC"`).
//! Armies and fleets have separate adjacency: armies move between regions, fleets between
//! locations (a fleet on a split coast moves along that coast's list only). Regions may be supply
//! centres and home centres of a power. The map is read once and never changes during a game, so
//! lookups go through a sorted index, never a hash map (DESIGN.md principle 6).

use std::borrow::Cow;
use std::collections::BTreeMap;

/// Which adjacency a query uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveClass {
    Army,
    Fleet,
}

impl MoveClass {
    /// `"army"` or `"fleet"` (as written in map files and Lua calls).
    pub fn parse(text: &str) -> Option<MoveClass> {
        match text {
            "army" => Some(MoveClass::Army),
            "fleet" => Some(MoveClass::Fleet),
            _ => None,
        }
    }
}

/// One region of an area board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Short name used everywhere (`"PAR"`).
    pub id: String,
    pub name: String,
    /// `land`, `sea`, `coast` or `impassable` (the rules decide what each allows).
    pub kind: String,
    pub supply_center: bool,
    /// The power whose home centre this is.
    pub home: Option<String>,
    /// Regions an army here can move to.
    pub army: Vec<String>,
    /// Locations a fleet here can move to (empty for split-coast regions: see `coasts`).
    pub fleet: Vec<String>,
    /// Split coasts: coast name -> locations a fleet on that coast can move to.
    pub coasts: BTreeMap<String, Vec<String>>,
    /// Other names of the region that setups and orders may use (`LIV` for `LVN`): read as
    /// the region's id, which is what the game keeps and reports.
    pub aliases: Vec<String>,
    /// The designer's own data for the region (`[region.attrs]`: a continent, a bonus, a
    /// terrain): the engine reads none of it; rules read it through `hex.map.region`.
    pub attrs: serde_json::Map<String, serde_json::Value>,
}

impl Region {
    /// The region's features: the names its `attrs` set to `true` (`town = true`), in name
    /// order - what `hex.map.features` answers on an area board, as a hex's features on a hex map.
    pub fn features(&self) -> impl Iterator<Item = &str> {
        self.attrs
            .iter()
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|(k, _)| k.as_str())
    }
}

/// A power (player) as the map declares it: home centres and the opening position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Power {
    pub name: String,
    pub adjective: String,
    pub home_centers: Vec<String>,
    /// Units at the start, written `"A PAR"`, `"F STP/SC"`.
    pub start_units: Vec<String>,
    pub start_centers: Vec<String>,
}

/// A validated area board: every adjacency names a location of the map and is symmetric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaMap {
    pub name: String,
    /// The first phase of a game on this map, when the map fixes it (`"S1901M"`).
    pub start_phase: Option<String>,
    /// Supply centres needed to win, when the map fixes it.
    pub victory_centers: Option<u32>,
    regions: Vec<Region>,
    index: BTreeMap<String, usize>,
    powers: Vec<Power>,
}

impl AreaMap {
    /// Builds the map from validated parts (see `area_file` for the checks).
    pub(crate) fn new(
        name: String,
        start_phase: Option<String>,
        victory_centers: Option<u32>,
        regions: Vec<Region>,
        powers: Vec<Power>,
    ) -> AreaMap {
        // (ids and aliases, which the file checks never collide)
        let index = regions
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                std::iter::once(r.id.clone())
                    .chain(r.aliases.iter().cloned())
                    .map(move |name| (name, i))
            })
            .collect();
        AreaMap {
            name,
            start_phase,
            victory_centers,
            regions,
            index,
            powers,
        }
    }

    /// Every region, in file order.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region named `id`, or one of its aliases.
    pub fn region(&self, id: &str) -> Option<&Region> {
        self.index.get(id).map(|&i| &self.regions[i])
    }

    pub fn powers(&self) -> &[Power] {
        &self.powers
    }

    /// The region of a location (`"STP/NC"` -> STP), if the location exists.
    pub fn region_of(&self, location: &str) -> Option<&Region> {
        match location.split_once('/') {
            Some((region, coast)) => self.region(region).filter(|r| r.coasts.contains_key(coast)),
            None => self.region(location),
        }
    }

    /// The location as the game keeps it: the region's id for an alias (`"LIV"` -> `"LVP"`),
    /// with its coast (`"STP/NC"`), or None if there is no such location.
    /// (Borrowed when the location is written as the game keeps it: the common case, checked
    /// for every place an event names.)
    pub fn canonical_location<'a>(&self, location: &'a str) -> Option<Cow<'a, str>> {
        let region = self.region_of(location)?;
        let (name, coast) = match location.split_once('/') {
            Some((name, coast)) => (name, Some(coast)),
            None => (location, None),
        };
        if name == region.id {
            return Some(Cow::Borrowed(location));
        }
        Some(Cow::Owned(match coast {
            Some(coast) => format!("{}/{coast}", region.id),
            None => region.id.clone(),
        }))
    }

    /// True for a region or a coast of a split-coast region.
    pub fn is_location(&self, location: &str) -> bool {
        self.region_of(location).is_some()
    }

    /// Where a unit of the class can move from `from` without help (a convoy, ...). Armies move
    /// between regions (a coast is read as its region); fleets from a location.
    pub fn neighbors(&self, from: &str, class: MoveClass) -> &[String] {
        match class {
            MoveClass::Army => {
                let region = from.split('/').next().unwrap_or(from);
                self.region(region)
                    .map(|r| r.army.as_slice())
                    .unwrap_or(&[])
            }
            MoveClass::Fleet => match from.split_once('/') {
                Some((region, coast)) => self
                    .region(region)
                    .and_then(|r| r.coasts.get(coast))
                    .map(Vec::as_slice)
                    .unwrap_or(&[]),
                None => self.region(from).map(|r| r.fleet.as_slice()).unwrap_or(&[]),
            },
        }
    }

    /// The fewest moves a unit of the class needs from location `a` to location `b` (0 when
    /// they are one), or None when no chain of moves joins them. (A fleet's moves go from the
    /// location it reaches: a bare `b` is reached on any of its coasts.)
    pub fn distance(&self, a: &str, b: &str, class: MoveClass) -> Option<usize> {
        let arrived = |loc: &str| {
            loc == b
                || (class == MoveClass::Fleet
                    && !b.contains('/')
                    && loc.split('/').next() == Some(b))
        };
        if arrived(a) {
            return Some(0);
        }
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::from([a]);
        let mut frontier: Vec<&str> = vec![a];
        let mut steps = 0;
        while !frontier.is_empty() {
            steps += 1;
            let mut next = Vec::new();
            for loc in frontier {
                for to in self.neighbors(loc, class) {
                    if arrived(to) {
                        return Some(steps);
                    }
                    if seen.insert(to.as_str()) {
                        next.push(to.as_str());
                    }
                }
            }
            frontier = next;
        }
        None
    }

    /// Can a unit of the class move from `a` to `b`? For fleets a bare region `b` matches any of
    /// its coasts.
    pub fn adjacent(&self, a: &str, b: &str, class: MoveClass) -> bool {
        let list = self.neighbors(a, class);
        match class {
            MoveClass::Army => {
                let b = b.split('/').next().unwrap_or(b);
                list.iter().any(|x| x == b)
            }
            MoveClass::Fleet => list
                .iter()
                .any(|x| x == b || (!b.contains('/') && x.split('/').next() == Some(b))),
        }
    }

    /// Supply-centre regions, sorted.
    pub fn supply_centers(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .regions
            .iter()
            .filter(|r| r.supply_center)
            .map(|r| r.id.as_str())
            .collect();
        out.sort_unstable();
        out
    }

    /// Home centres of a power, sorted.
    pub fn homes(&self, power: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .regions
            .iter()
            .filter(|r| r.home.as_deref() == Some(power))
            .map(|r| r.id.as_str())
            .collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> AreaMap {
        let region = |id: &str, army: &[&str], fleet: &[&str]| Region {
            id: id.into(),
            name: id.into(),
            kind: "coast".into(),
            supply_center: id == "AAA",
            home: (id == "AAA").then(|| "RED".to_string()),
            army: army.iter().map(|s| s.to_string()).collect(),
            fleet: fleet.iter().map(|s| s.to_string()).collect(),
            coasts: BTreeMap::new(),
            aliases: Vec::new(),
            attrs: serde_json::Map::new(),
        };
        let mut split = region("SPL", &["AAA"], &[]);
        split.coasts.insert("NC".into(), vec!["SEA".into()]);
        split.coasts.insert("SC".into(), vec!["AAA".into()]);
        let mut sea = region("SEA", &[], &["SPL/NC"]);
        sea.kind = "sea".into();
        AreaMap::new(
            "tiny".into(),
            None,
            None,
            vec![region("AAA", &["SPL"], &["SPL/SC"]), split, sea],
            Vec::new(),
        )
    }

    #[test]
    fn coasts_are_locations_and_fleets_follow_them() {
        let m = tiny();
        assert!(m.is_location("SPL/NC") && !m.is_location("SPL/EC") && !m.is_location("XXX"));
        assert!(m.adjacent("SEA", "SPL/NC", MoveClass::Fleet));
        assert!(
            m.adjacent("SEA", "SPL", MoveClass::Fleet),
            "a bare region matches a coast"
        );
        assert!(!m.adjacent("SEA", "SPL/SC", MoveClass::Fleet));
        assert!(m.adjacent("SPL/SC", "AAA", MoveClass::Fleet));
        assert!(!m.adjacent("SPL/NC", "AAA", MoveClass::Fleet));
        assert!(
            m.adjacent("SPL/NC", "AAA", MoveClass::Army),
            "armies ignore coasts"
        );
        assert_eq!(m.supply_centers(), vec!["AAA"]);
        assert_eq!(m.homes("RED"), vec!["AAA"]);
    }

    #[test]
    fn distance_counts_moves_along_the_class_adjacency() {
        let m = tiny();
        assert_eq!(m.distance("AAA", "AAA", MoveClass::Army), Some(0));
        assert_eq!(m.distance("AAA", "SPL", MoveClass::Army), Some(1));
        assert_eq!(m.distance("AAA", "SEA", MoveClass::Army), None);
        assert_eq!(m.distance("SEA", "SPL", MoveClass::Fleet), Some(1));
        assert_eq!(m.distance("AAA", "SPL/SC", MoveClass::Fleet), Some(1));
        // (the two coasts of SPL do not join: a fleet on the south coast never reaches SEA)
        assert_eq!(m.distance("AAA", "SEA", MoveClass::Fleet), None);
        assert_eq!(m.distance("SEA", "SPL/SC", MoveClass::Fleet), None);
    }

    /// `tiny` with an alias (`ALT` for AAA), designer attrs on AAA and one power.
    fn tiny_with_extras() -> AreaMap {
        let m = tiny();
        let mut regions = m.regions().to_vec();
        regions[0].aliases = vec!["ALT".into()];
        regions[1].aliases = vec!["SPX".into()];
        regions[0].attrs = serde_json::Map::from_iter([
            ("town".to_string(), serde_json::Value::Bool(true)),
            ("bonus".to_string(), serde_json::json!(3)),
            ("port".to_string(), serde_json::Value::Bool(false)),
            ("capital".to_string(), serde_json::Value::Bool(true)),
        ]);
        let red = Power {
            name: "RED".into(),
            adjective: "Red".into(),
            home_centers: vec!["AAA".into()],
            start_units: vec!["A AAA".into()],
            start_centers: vec!["AAA".into()],
        };
        AreaMap::new("extras".into(), None, None, regions, vec![red])
    }

    /// Only the two words of map files and Lua calls name a move class.
    #[test]
    fn move_classes_are_army_and_fleet_in_lower_case() {
        assert_eq!(MoveClass::parse("army"), Some(MoveClass::Army));
        assert_eq!(MoveClass::parse("fleet"), Some(MoveClass::Fleet));
        assert_eq!(MoveClass::parse("Army"), None);
        assert_eq!(MoveClass::parse(""), None);
    }

    /// A region's features are its attrs set to `true`, in name order; other values are not.
    #[test]
    fn a_regions_features_are_its_true_attrs_in_name_order() {
        let m = tiny_with_extras();
        let features: Vec<&str> = m.regions()[0].features().collect();
        assert_eq!(features, ["capital", "town"]);
        assert_eq!(m.regions()[1].features().count(), 0);
    }

    /// Regions come in file order, found by id or alias, and the map keeps its powers.
    #[test]
    fn regions_are_found_by_id_or_alias_and_powers_are_kept() {
        let m = tiny_with_extras();
        let ids: Vec<&str> = m.regions().iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["AAA", "SPL", "SEA"]);
        assert_eq!(m.region("SPL").map(|r| r.id.as_str()), Some("SPL"));
        assert_eq!(m.region("ALT").map(|r| r.id.as_str()), Some("AAA"));
        assert_eq!(m.region("XXX"), None);
        assert_eq!(m.region_of("SPX/NC").map(|r| r.id.as_str()), Some("SPL"));
        assert_eq!(m.region_of("SEA").map(|r| r.id.as_str()), Some("SEA"));
        assert_eq!(m.region_of("SPL/EC"), None);
        let powers: Vec<&str> = m.powers().iter().map(|p| p.name.as_str()).collect();
        assert_eq!(powers, ["RED"]);
        assert_eq!(m.powers()[0].start_units, ["A AAA"]);
    }

    /// An alias reads as the region's id (coast kept); the id itself comes back borrowed.
    #[test]
    fn a_location_is_kept_by_its_regions_id_and_borrowed_when_written_so() {
        let m = tiny_with_extras();
        assert!(matches!(
            m.canonical_location("AAA"),
            Some(Cow::Borrowed("AAA"))
        ));
        assert!(matches!(
            m.canonical_location("SPL/NC"),
            Some(Cow::Borrowed("SPL/NC"))
        ));
        assert_eq!(m.canonical_location("ALT").as_deref(), Some("AAA"));
        assert!(matches!(m.canonical_location("ALT"), Some(Cow::Owned(_))));
        assert_eq!(m.canonical_location("SPX/SC").as_deref(), Some("SPL/SC"));
        assert_eq!(m.canonical_location("SPX/EC"), None);
        assert_eq!(m.canonical_location("XXX"), None);
    }
}

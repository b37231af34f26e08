//! Errors of the path engine: a bad declaration (the designer's rules) and a bad position
//! (units the engine cannot place). Refusals of move orders are in `legality.rs`.

/// Something wrong in a movement declaration. `at` is the dotted path inside the declaration
/// (`terrain.marsh.motorized`), so the designer can find the entry in the Lua table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationError {
    /// `near`: the map's nearest terrain (`forrest` for `forest`), when one is close: the
    /// misspelling may be the map's legend as well as the declaration's.
    #[error(
        "{at}: unknown terrain '{name}' (this map has: {known}){}",
        near_terrain(near)
    )]
    UnknownTerrain {
        at: String,
        name: String,
        known: String,
        near: Option<String>,
    },
    #[error("{at}: unknown hexside feature '{name}' (this map has: {known})")]
    UnknownHexsideFeature {
        at: String,
        name: String,
        known: String,
    },
    #[error("{at}: this map has no zone '{name}' but has '{near}': a misspelling in the map? (the declaration's vocabulary lets a map lack '{name}', not misname it)")]
    MisnamedZone {
        at: String,
        name: String,
        near: String,
    },
    #[error("{at}: unknown zone '{name}' (this map has: {known})")]
    UnknownZone {
        at: String,
        name: String,
        known: String,
    },
    #[error("{at}: unknown movement class '{name}' (declared classes: {known})")]
    UnknownClass {
        at: String,
        name: String,
        known: String,
    },
    #[error("{at}: unknown side '{name}' (declared sides: {known})")]
    UnknownSide {
        at: String,
        name: String,
        known: String,
    },
    #[error("{at}: '{key}' is neither a side, a class nor 'default'{hint} (sides: {sides}; classes: {classes})")]
    UnknownSelector {
        at: String,
        key: String,
        /// ` (did you mean 'default'?)` for a near miss, else empty.
        hint: String,
        sides: String,
        classes: String,
    },
    #[error("{at}: unknown key '{key}' (expected one of: {expected})")]
    UnknownKey {
        at: String,
        key: String,
        expected: String,
    },
    #[error("{at}: missing '{key}'")]
    Missing { at: String, key: String },
    #[error("{at}: no cost given for side '{side}', class '{class}' (add it or a 'default')")]
    NoCostFor {
        at: String,
        side: String,
        class: String,
    },
    #[error("the map's terrain '{terrain}' has no entry in 'terrain'")]
    TerrainWithoutCost { terrain: String },
    /// A terrain only the vocabulary names: a hex may become it in play, and would then have
    /// no cost; said at load rather than at that event.
    #[error(
        "vocabulary.terrain: '{terrain}' (a terrain play may give a hex) has no entry in 'terrain'"
    )]
    VocabularyTerrainWithoutCost { terrain: String },
    #[error("vocabulary.hexsides: the map's {on_map} hexside features and the vocabulary's others make {total} kinds; at most 32")]
    TooManyHexsideKinds { on_map: usize, total: usize },
    #[error("{at}: expected {expected}, found {found}")]
    BadValue {
        at: String,
        expected: String,
        found: String,
    },
    #[error("{at}: '{name}' is declared twice")]
    Duplicate { at: String, name: String },
    /// An error in the declaration as one value of `costs_by_variable` changes it.
    #[error("{at} (the declaration with these costs): {inner}")]
    InVariant {
        at: String,
        inner: Box<DeclarationError>,
    },
    /// A list whose length is outside what the engine's ids can hold.
    #[error("{at}: between 1 and {max} {what} (found {found})")]
    CountOutOfRange {
        at: String,
        what: String,
        max: usize,
        found: usize,
    },
}

/// A position the engine cannot work with: units it cannot place or classify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("unit '{unit}': hex '{at}' is not on this map")]
    BadHex { unit: String, at: String },
    #[error("unit '{unit}': side '{side}' is not declared (declared sides: {known})")]
    UnknownSide {
        unit: String,
        side: String,
        known: String,
    },
    #[error("unit '{unit}': movement class '{class}' is not declared (declared classes: {known})")]
    UnknownClass {
        unit: String,
        class: String,
        known: String,
    },
    /// The class attribute holds something other than a class name (`class = 5`): the unit
    /// fell back to its class by type without a word.
    #[error("unit '{unit}': attrs.{attr} is {value}, not the name of a movement class (declared classes: {known})")]
    ClassNotAName {
        unit: String,
        attr: String,
        value: String,
        known: String,
    },
    #[error("unit '{unit}' is not on the map")]
    OffMap { unit: String },
    #[error("array of {found} entries given for a map of {expected} hexes ({what})")]
    WrongLength {
        what: String,
        expected: usize,
        found: usize,
    },
    #[error("hex index {index} is not on this map ({what})")]
    BadIndex { what: String, index: u32 },
    #[error("unit index {index} is not in this occupancy (it holds {count} units)")]
    NoSuchUnit { index: usize, count: usize },
}

/// The suffix of [`DeclarationError::UnknownTerrain`] naming a near terrain of the map.
fn near_terrain(near: &Option<String>) -> String {
    near.as_ref()
        .map(|n| format!("; the map has '{n}': a misspelling here or in the map's legend?"))
        .unwrap_or_default()
}

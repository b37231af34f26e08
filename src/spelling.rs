//! "Did you mean": the known name nearest a misspelt one, for the messages that refuse it.

/// The candidate within two one-letter edits of `name` (the nearest; the first of equals), or
/// None. Two letters swapped count as one edit (`sied` is one from `side`, two from `id`). Names shorter than `min_len` get no suggestion: `uk` is two edits from many names.
pub fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    min_len: usize,
) -> Option<&'a str> {
    if name.len() < min_len {
        return None;
    }
    nearest_within(name, candidates, 2)
}

/// The candidate within `most` edits of `name` (the nearest; the first of equals), or None.
fn nearest_within<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    most: usize,
) -> Option<&'a str> {
    // (a name more than `most` letters longer or shorter than a candidate is more than `most`
    // edits from it: skipped before the distance, which costs the product of the lengths, so
    // that a name of millions of letters is not compared at length with every candidate)
    let letters = name.chars().count();
    candidates
        .into_iter()
        .filter(|c| c.chars().count().abs_diff(letters) <= most)
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|&(edits, _)| edits <= most)
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, c)| c)
}

/// For a name a script asks about that the map may lack (a zone, a feature, a terrain): the
/// known name it misspells, or None when it is known or near none (a name far from every known
/// one reads as one this map has no hex of: France 1940's rules ask small test maps about
/// zones they leave out). Names under 4 letters are never taken for misspellings: a rules
/// module shared between maps asks about short names (`dam`, `oil`, `bog`) that a map lacks
/// while it has one a letter away (`dams`, `oils`, `fog`), and an error there would leave it no
/// way to ask.
pub fn misspelt<'a>(name: &str, known: &'a [String]) -> Option<&'a str> {
    if known.iter().any(|k| k == name) {
        return None;
    }
    nearest(name, known.iter().map(String::as_str), 4)
}

/// The one candidate that is `name` with two neighbouring letters swapped (`MRA` for `MAR`), or
/// None: the hint for names too short for [`nearest`] (three-letter region ids), where one edit
/// reaches many names but a swap of the same letters reaches few.
pub fn swapped<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut found = candidates.into_iter().filter(|c| {
        c.len() == name.len() && *c != name && strsim::osa_distance(name, c) == 1 && {
            let (mut a, mut b): (Vec<char>, Vec<char>) =
                (name.chars().collect(), c.chars().collect());
            a.sort_unstable();
            b.sort_unstable();
            a == b
        }
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The known name a misspelt one means: the one equal but for case (`france` -> `FRANCE`), else
/// the nearest within two edits, compared in upper case too (`FRANC` -> `FRANCE`).
pub fn nearest_any_case<'a>(name: &str, candidates: &'a [String]) -> Option<&'a str> {
    if let Some(same) = candidates.iter().find(|c| c.eq_ignore_ascii_case(name)) {
        return Some(same);
    }
    let upper = name.to_uppercase();
    let letters = name.chars().count();
    candidates
        .iter()
        .filter(|c| c.chars().count().abs_diff(letters) <= 2)
        .map(|c| {
            let edits =
                strsim::osa_distance(name, c).min(strsim::osa_distance(&upper, &c.to_uppercase()));
            (edits, c.as_str())
        })
        .filter(|&(edits, _)| edits <= 2)
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, c)| c)
}

/// `: did you mean 'FRANCE'?` for a side written in another case or misspelt
/// (`nearest_any_case`), else nothing: the hint of the messages refusing an unknown side.
pub fn side_hint(side: &str, sides: &[String]) -> String {
    nearest_any_case(side, sides)
        .map(|s| format!(": did you mean '{s}'?"))
        .unwrap_or_default()
}

/// `unknown zone 'blue_stup': did you mean 'blue_setup'? (this map has: blue_setup, ...)`: the
/// message refusing a name of kind `what` that `known` lacks, with the nearest and the list under
/// `listed` (`none` when empty).
pub fn unknown_name(what: &str, name: &str, known: &[String], listed: &str) -> String {
    let near = nearest(name, known.iter().map(String::as_str), 3)
        .map(|n| format!(": did you mean '{n}'?"))
        .unwrap_or_default();
    let all = if known.is_empty() {
        "none".to_string()
    } else {
        known.join(", ")
    };
    format!("unknown {what} '{name}'{near} ({listed}: {all})")
}

/// `unknown side 'france': did you mean 'FRANCE'? (sides: ENGLAND, FRANCE)`: the message
/// refusing a side the game lacks, wherever one is named (options, scenarios, setups, orders).
pub fn unknown_side(side: &str, sides: &[String]) -> String {
    format!(
        "unknown side '{side}'{} (sides: {})",
        side_hint(side, sides),
        sides.join(", ")
    )
}

/// What follows `no unit 'NAME' in play` in the commands that take a unit: the id of the unit
/// standing where NAME says (`0103`, `A NWY`, an alias, a split-coast province without its
/// coast: units are named by id), else the nearest id.
pub fn unit_hint(
    board: &crate::board::Board,
    units: &std::collections::BTreeMap<String, crate::engine::Unit>,
    name: &str,
) -> String {
    let written = name.split_whitespace().last().unwrap_or_default();
    let upper = written.to_uppercase();
    let place = board
        .canonical_place(written)
        .or_else(|| board.canonical_place(&upper))
        .map_or_else(|| written.to_string(), |p| p.into_owned());
    let province = |at: &str| at.split('/').next().unwrap_or(at).to_ascii_uppercase();
    let there = units.values().find(|u| {
        u.at.as_deref()
            .is_some_and(|at| at.eq_ignore_ascii_case(&place) || province(at) == province(&place))
    });
    match there {
        Some(u) => format!(
            " (units are named by id: the unit at {written} is '{}')",
            u.id
        ),
        // (in any case too: `B-INF-1` is `b-inf-1`)
        None => {
            let ids: Vec<String> = units.keys().cloned().collect();
            nearest_any_case(name, &ids)
                .map(|n| format!(" (did you mean '{n}'?)"))
                .unwrap_or_default()
        }
    }
}

/// `name` as a message quotes it: whole up to `most` letters, else its first `most` letters and
/// how long it is (a name of megabytes, a fuzzer's or a slip's, made a message of megabytes).
pub fn clipped(name: &str, most: usize) -> std::borrow::Cow<'_, str> {
    match name.char_indices().nth(most) {
        None => name.into(),
        Some((end, _)) => format!("{}… ({} bytes)", &name[..end], name.len()).into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_short_name_gets_the_one_name_of_its_letters_swapped() {
        let ids = ["MAR", "MAO", "ARM", "BUR", "BRU"];
        assert_eq!(swapped("MRA", ids), Some("MAR"));
        // (two names reached by one swap: none is told)
        assert_eq!(swapped("BRU", ["BUR", "RBU"]), None);
        assert_eq!(swapped("MAX", ids), None);
        assert_eq!(swapped("MAR", ids), None);
    }

    use super::*;

    #[test]
    fn a_name_in_another_case_or_near_one_in_any_case_is_found() {
        let sides = ["FRANCE".to_string(), "ENGLAND".to_string()];
        assert_eq!(nearest_any_case("france", &sides), Some("FRANCE"));
        assert_eq!(nearest_any_case("FRANC", &sides), Some("FRANCE"));
        assert_eq!(nearest_any_case("englnd", &sides), Some("ENGLAND"));
        assert_eq!(nearest_any_case("narnia", &sides), None);
    }

    /// A short name is never taken for a misspelling: `dam` on a map with `dams` is a name
    /// the map lacks, which a rules module shared between maps may ask about.
    #[test]
    fn a_name_under_four_letters_is_never_misspelt() {
        let known = ["city".to_string(), "dams".to_string(), "sea".to_string()];
        assert_eq!(misspelt("cty", &known), None);
        assert_eq!(misspelt("dam", &known), None);
        assert_eq!(misspelt("sae", &known), None);
        assert_eq!(misspelt("sea", &known), None);
        assert_eq!(misspelt("damss", &known), Some("dams"));
    }

    #[test]
    fn two_letters_swapped_are_one_edit() {
        assert_eq!(nearest("sied", ["id", "side"], 3), Some("side"));
        assert_eq!(
            nearest_any_case("FRNACE", &["ENGLAND".to_string(), "FRANCE".to_string()]),
            Some("FRANCE")
        );
    }

    #[test]
    fn the_nearest_name_within_two_edits_or_none() {
        let names = ["move", "attack", "end_phase"];
        assert_eq!(nearest("mvoe", names, 0), Some("move"));
        assert_eq!(nearest("atack", names, 0), Some("attack"));
        assert_eq!(nearest("teleport", names, 0), None);
        assert_eq!(nearest("mov", names, 4), None);
        // (the first of two equally near names)
        assert_eq!(nearest("cat", ["bat", "hat"], 0), Some("bat"));
    }
}

//! "Did you mean": the known name nearest a misspelt one, for the messages that refuse it.

/// The candidate within two one-letter edits of `name` (the nearest; the first of equals), or
/// None. Names shorter than `min_len` get no suggestion: `uk` is two edits from many names.
pub fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    min_len: usize,
) -> Option<&'a str> {
    if name.len() < min_len {
        return None;
    }
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|&(edits, _)| edits <= 2)
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

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

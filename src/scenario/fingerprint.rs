//! A scenario's fingerprint: what ties a save or a replay to the scenario it was played under.
//! It covers the files' content as read (each TOML file's tables and values), not their text, so
//! that a comment, a blank line or keys written in another order leave a save or a replay
//! valid; a changed value (a unit's strength, a turn limit) does not.
//!
//! It is worked out when first asked for (writing a save or a replay, resuming, verifying):
//! reading the files' content again costs about as much as loading them, which a one-shot
//! command (`status`, `reach`) would pay for nothing.

use std::sync::{Arc, OnceLock};

use sha2::{Digest, Sha256};

/// A scenario's files (scenario, map, unit files, in that order) and, once asked for, their
/// hashes. Clones share both.
#[derive(Clone, Debug, Default)]
pub struct Fingerprint {
    texts: Arc<Vec<String>>,
    /// (content, text)
    hashes: Arc<OnceLock<(String, String)>>,
}

impl Fingerprint {
    /// Adds one TOML file, given as its text (before the hashes are first asked for).
    pub(crate) fn add(&mut self, text: &str) {
        Arc::make_mut(&mut self.texts).push(text.to_string());
    }

    /// `sha256:` of the files' content: the tables and values read, so comments, spacing and
    /// key order do not count.
    pub fn hash(&self) -> &str {
        &self.hashes().0
    }

    /// `sha256:` of the files' text, which saves and replays recorded up to session 28.
    pub fn text_hash(&self) -> &str {
        &self.hashes().1
    }

    /// Whether a save or a replay that recorded `hash` was played under these files as they
    /// are now: by their content, or by their text as recorded up to session 28.
    pub fn recorded_by(&self, hash: &str) -> bool {
        hash == self.hash() || hash == self.text_hash()
    }

    fn hashes(&self) -> &(String, String) {
        self.hashes.get_or_init(|| {
            let mut content = Sha256::new();
            let mut text = Sha256::new();
            for file in self.texts.iter() {
                text.update(file.as_bytes());
                // (the files have been read as TOML already; one that somehow is not counts
                // by its text)
                let canonical = file
                    .parse::<toml::Table>()
                    .ok()
                    .and_then(|table| serde_json::to_string(&table).ok());
                content.update(canonical.as_deref().unwrap_or(file).as_bytes());
                // (a file ends where the next begins, whatever their content)
                content.update([0u8]);
            }
            (
                crate::digest::sha256_label(&content.finalize()),
                crate::digest::sha256_label(&text.finalize()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    fn hash(files: &[&str]) -> String {
        let mut f = Fingerprint::default();
        for text in files {
            f.add(text);
        }
        f.hash().to_string()
    }

    #[test]
    fn comments_spacing_and_key_order_leave_the_fingerprint_as_it_was() {
        let base = hash(&["id = \"x\"\nturns = 3\n[control]\nblue = [\"0101\"]\n"]);
        for edited in [
            "# a comment\nid = \"x\"\nturns = 3\n[control]\nblue = [\"0101\"]\n",
            "turns = 3   # three\nid = \"x\"\n\n[control]\nblue = [ \"0101\" ]\n",
            "id = \"x\"\r\nturns = 3\r\n[control]\r\nblue = [\"0101\"]\r\n",
        ] {
            assert_eq!(hash(&[edited]), base, "{edited}");
        }
    }

    #[test]
    fn a_changed_value_or_a_value_moved_to_another_file_changes_it() {
        let base = hash(&["turns = 3\n", "a = 1\n"]);
        assert_ne!(hash(&["turns = 4\n", "a = 1\n"]), base);
        assert_ne!(hash(&["turns = 3\na = 1\n", ""]), base);
    }

    #[test]
    fn the_text_hash_is_the_files_text_as_before() {
        let mut f = Fingerprint::default();
        f.add("turns = 3\n");
        f.add("a = 1\n");
        // (sha256 of "turns = 3\na = 1\n", as the scenario's hash was until session 29)
        assert_eq!(
            f.text_hash(),
            crate::digest::sha256_of(b"turns = 3\na = 1\n")
        );
    }
}

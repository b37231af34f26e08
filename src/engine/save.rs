//! Save files: versioned JSON with a checksum, written so that a crash never destroys the
//! previous save (write a temporary file, flush, rename).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::dice::Dice;
use super::state::GameState;

pub const SAVE_FORMAT: &str = "hexwar-save";
pub const SAVE_VERSION: u32 = 1;

/// What a save file holds. A field it does not know is refused, not skipped: a misspelt
/// `"mod"` resumed the game without its mod, under other rules, without a word.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Save {
    pub format: String,
    pub version: u32,
    /// The scenario file the game was loaded from, as given when the game started.
    pub scenario_path: PathBuf,
    /// Extra rules modules the game was started with (`Session::start_with_mods`), loaded
    /// again on resume; absent from saves of games without mods.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<PathBuf>,
    /// The bots the host chose for sides instead of the scenario's (`hexwar run --bot`): side ->
    /// module or `random`, chosen again on resume; absent when the scenario's bots play.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub bots: std::collections::BTreeMap<String, String>,
    /// The rules files the game ran under and their `sha256:` (the scenario's modules and the
    /// mods, as a replay records them), so a resumed game can tell that they changed; absent from
    /// saves written before they were recorded.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub rules: std::collections::BTreeMap<String, String>,
    /// The `sha256:` of the scenario file and its map as the game started from them
    /// (`Scenario::hash`), so a resumed game can tell that they changed (its turns, its units);
    /// absent from saves written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_hash: Option<String>,
    /// The seed the game was started with.
    pub seed: u64,
    /// The bots' own dice, so a resumed run makes the same choices.
    pub bot_dice: Dice,
    pub state: GameState,
    /// What the host keeps with the game (a multiplayer server's players who are done, its
    /// deadlines): any JSON, written and read back as it is and sealed with the rest; hexwar
    /// never reads it. Absent when the host keeps nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<serde_json::Value>,
    /// The sides that had given their commands in the current simultaneous step (Diplomacy's
    /// powers) when a run stopped inside it for another side (`hexwar run --until-side`): a
    /// resumed run does not ask their bots again, which drew the bots' dice anew and made the
    /// rest of the game differ from the uninterrupted one. Absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides_done: Vec<String>,
    /// `sha256:` over the hash of `state` (`GameState::hash`), `seed`, `bot_dice`, `host` and
    /// `sides_done`.
    pub checksum: String,
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("{path}: cannot read save: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: cannot write save: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a hexwar save: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// An event log or a file of game records given where a save was expected.
    #[error("{path}: this is {what}, not a save")]
    OtherFile { path: PathBuf, what: &'static str },
    /// A replay given where a save was expected (both are hexwar JSON files).
    #[error("{path}: this is a hexwar replay, not a save (verify it with `hexwar replay {path}`)")]
    Replay { path: PathBuf },
    #[error("{path}: save format '{found}' version {version} is not supported (this build reads '{SAVE_FORMAT}' version {SAVE_VERSION})")]
    Version {
        path: PathBuf,
        found: String,
        version: u32,
    },
    /// `expected` is what the content would be sealed with; the message leaves it out, since
    /// printing it made an edited save one paste away from reading as sound.
    #[error("{path}: save is corrupt: its checksum does not match its content (the file was edited or damaged)")]
    Checksum {
        path: PathBuf,
        found: String,
        expected: String,
    },
    /// [`Save::write`] refused a save its reader would refuse (a field changed after the save
    /// was sealed, a host value nested too deep): nothing was written.
    #[error("{path}: the save would not read back, so it was not written: {problem}")]
    WouldNotRead { path: PathBuf, problem: String },
}

/// The seal: `sha256:` over the state's hash, the seed and the bots' dice, so that an edit to
/// any of the three is found (the bots' dice decide the rest of a bot game; the seed is printed
/// and recorded). The scenario path, mods and rules hashes stay outside: a user may move a game's
/// files and edit those paths.
fn checksum(
    state: &GameState,
    seed: u64,
    bot_dice: &Dice,
    host: Option<&serde_json::Value>,
    sides_done: &[String],
) -> String {
    let mut sealed = format!(
        "{}\nseed {seed}\nbot_dice {} {}",
        state.hash(),
        bot_dice.seed,
        bot_dice.rolls
    );
    if let Some(host) = host {
        // (serde_json's maps keep their keys sorted: the same value, the same text)
        sealed.push_str("\nhost ");
        sealed.push_str(&host.to_string());
    }
    if !sides_done.is_empty() {
        sealed.push_str("\nsides_done ");
        sealed.push_str(&sides_done.join(","));
    }
    crate::digest::sha256_of(sealed.as_bytes())
}

impl Save {
    pub fn new(scenario_path: PathBuf, seed: u64, bot_dice: Dice, state: GameState) -> Self {
        let checksum = checksum(&state, seed, &bot_dice, None, &[]);
        Save {
            format: SAVE_FORMAT.into(),
            version: SAVE_VERSION,
            scenario_path,
            mods: Vec::new(),
            bots: Default::default(),
            rules: Default::default(),
            scenario_hash: None,
            seed,
            bot_dice,
            state,
            host: None,
            sides_done: Vec::new(),
            checksum,
        }
    }

    /// The same save, keeping `host` with the game (see [`Save::host`]), sealed.
    pub fn with_host(mut self, host: serde_json::Value) -> Self {
        self.host = Some(host);
        self.sealed()
    }

    /// The same save sealed again over its fields as they are now: a host that changed `state`,
    /// `seed`, `bot_dice`, `host` or `sides_done` in place (they are public) seals it before
    /// [`Save::write`], which refuses a save whose seal does not match.
    pub fn sealed(mut self) -> Self {
        self.checksum = checksum(
            &self.state,
            self.seed,
            &self.bot_dice,
            self.host.as_ref(),
            &self.sides_done,
        );
        self
    }

    /// The same save, recording the sides done in the current simultaneous step (see
    /// [`Save::sides_done`]).
    pub fn with_sides_done(mut self, sides: Vec<String>) -> Self {
        self.sides_done = sides;
        self.sealed()
    }

    /// The same save, recording the mods the game runs with (see [`Save::mods`]).
    pub fn with_mods(mut self, mods: Vec<PathBuf>) -> Self {
        self.mods = mods;
        self
    }

    /// The same save, recording the bots chosen for it (see [`Save::bots`]).
    pub fn with_bots(mut self, bots: std::collections::BTreeMap<String, String>) -> Self {
        self.bots = bots;
        self
    }

    /// The same save, recording its scenario's hash (see [`Save::scenario_hash`]).
    pub fn with_scenario_hash(mut self, hash: String) -> Self {
        self.scenario_hash = Some(hash);
        self
    }

    /// The same save, recording the rules files the game runs under (see [`Save::rules`]).
    pub fn with_rules(mut self, rules: std::collections::BTreeMap<String, String>) -> Self {
        self.rules = rules;
        self
    }

    /// The save's text. Empty if serde cannot write it (it writes every value hexwar keeps);
    /// [`Save::write`] reads its text back before writing and refuses what would not read.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parses and verifies a save's text.
    pub fn from_json(path: &Path, text: &str) -> Result<Save, SaveError> {
        // (an editor's byte-order mark is no part of the JSON)
        let text = crate::board::bom_stripped(text);
        #[derive(Deserialize)]
        struct Header {
            format: String,
            version: u32,
        }
        let parse_err = |e: serde_json::Error| SaveError::Parse {
            path: path.into(),
            line: e.line(),
            message: json_problem(&e),
        };
        if let Some(kind) = super::JsonLines::of(text) {
            return Err(SaveError::OtherFile {
                path: path.into(),
                what: kind.describe(),
            });
        }
        let header: Header = serde_json::from_str(text).map_err(parse_err)?;
        if header.format == "hexwar-replay" {
            return Err(SaveError::Replay { path: path.into() });
        }
        if header.format != SAVE_FORMAT || header.version != SAVE_VERSION {
            return Err(SaveError::Version {
                path: path.into(),
                found: header.format,
                version: header.version,
            });
        }
        super::refuse_duplicate_keys(text).map_err(parse_err)?;
        let save: Save = serde_json::from_str(text).map_err(parse_err)?;
        let expected = checksum(
            &save.state,
            save.seed,
            &save.bot_dice,
            save.host.as_ref(),
            &save.sides_done,
        );
        // (saves written before the seal covered the seed and the bots' dice carry the state's
        // hash alone: still read, with those two unchecked as before)
        if save.checksum != expected && save.checksum != save.state.hash() {
            return Err(SaveError::Checksum {
                path: path.into(),
                found: save.checksum,
                expected,
            });
        }
        Ok(save)
    }

    /// Reads and verifies a save file. Only a regular file is read (a save path naming a
    /// device such as `/dev/zero` would never end).
    pub fn read(path: &Path) -> Result<Save, SaveError> {
        let read_err = |source| SaveError::Read {
            path: path.into(),
            source,
        };
        let text = crate::board::read_capped(path, MAX_SAVE_BYTES).map_err(read_err)?;
        Save::from_json(path, &text)
    }

    /// Writes atomically ([`crate::output_file`]): a symbolic link is followed (the file it
    /// names is replaced, the link kept); a target that exists and is no regular file (a
    /// directory, a pipe, a device) is refused, since a save is a file to read back.
    pub fn write(&self, path: &Path) -> Result<(), SaveError> {
        let werr = |source| SaveError::Write {
            path: path.into(),
            source,
        };
        // (standard output, however it is named: `/dev/stdout` was refused where `-` was not)
        if let (false, Ok(m)) = (crate::output_file::is_stdout(path), std::fs::metadata(path)) {
            if !m.is_file() {
                return Err(werr(std::io::Error::other(
                    "not a regular file: a save is not written over it",
                )));
            }
        }
        let text = self.to_json();
        // (a save the reader would refuse is not written: it is read back as `read` would.
        // A host value nested past the 128 levels a JSON reader follows, or a number that is
        // not finite, written as null, were written and then could not be read)
        if let Err(e) = Save::from_json(path, &text) {
            let hint = if matches!(e, SaveError::Checksum { .. }) {
                " (a field changed after the save was sealed? `Save::sealed` seals it again)"
            } else {
                ""
            };
            return Err(SaveError::WouldNotRead {
                path: path.into(),
                problem: format!("{e}{hint}"),
            });
        }
        crate::output_file::write_with(path, |out| {
            out.write_all(text.as_bytes())?;
            out.write_all(b"\n")
        })
        .map_err(werr)
    }
}

/// The largest save or replay file read (256 MiB; a France 1940 save is about 100 KiB, its
/// replay 220 KiB): a device or a runaway file is refused, not read until memory runs out.
pub const MAX_SAVE_BYTES: u64 = 256 << 20;

/// A JSON error in words a user can act on: a cut-off file, a file that is not JSON, or JSON
/// that lacks what hexwar wrote (serde's own text in parentheses).
pub(crate) fn json_problem(e: &serde_json::Error) -> String {
    if e.is_eof() {
        format!("the file ends too early, is it truncated? ({e})")
    } else if e.is_syntax() {
        format!("not valid JSON ({e})")
    } else {
        // (`mod` for `mods`: the field meant, named before serde's list of them all)
        let text = crate::board::with_nearest_field(&e.to_string());
        crate::board::in_json_words(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> GameState {
        GameState {
            turn: 3,
            step: 1,
            dice: Dice { seed: 5, rolls: 9 },
            ..GameState::new("t", 5)
        }
    }

    /// A save an editor wrote back with a byte-order mark reads as the save it is (it was
    /// "not valid JSON (expected value at line 1 column 1)").
    #[test]
    fn a_save_with_a_byte_order_mark_reads() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let text = format!("\u{feff}{}", save.to_json());
        assert_eq!(Save::from_json(Path::new("s.json"), &text).unwrap(), save);
    }

    /// A value of the wrong kind in a save is named in the file's words (was `expected u32`,
    /// `expected u64`).
    #[test]
    fn a_wrong_number_in_a_save_is_named_in_json_words() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let mut json: serde_json::Value = serde_json::from_str(&save.to_json()).unwrap();
        json["seed"] = serde_json::json!(-1);
        let err = Save::from_json(Path::new("s.json"), &json.to_string()).unwrap_err();
        assert!(
            err.to_string()
                .contains("invalid value: integer `-1`, expected a whole number, not below 0"),
            "{err}"
        );
        json["seed"] = serde_json::json!(5);
        json["state"]["step"] = serde_json::json!(4294967296u64);
        let err = Save::from_json(Path::new("s.json"), &json.to_string()).unwrap_err();
        assert!(
            err.to_string().contains(
                "invalid value: integer `4294967296`, expected a whole number (0 to 4294967295)"
            ),
            "{err}"
        );
    }

    /// A unit written twice in a sealed save is refused, naming it: serde kept the second copy,
    /// so the first could be edited at will and the checksum, worked out from what was read,
    /// still matched.
    #[test]
    fn a_save_naming_a_unit_twice_is_refused() {
        let mut sealed = state();
        let unit: crate::engine::Unit = serde_json::from_value(serde_json::json!(
            {"id": "a1", "side": "red", "type": "infantry", "at": "0101"}
        ))
        .unwrap();
        sealed.units.insert("a1".into(), unit);
        let text = Save::new("scenarios/x".into(), 5, Dice::new(1), sealed).to_json();
        assert!(Save::from_json(Path::new("s.json"), &text).is_ok());
        let edited = text.replacen(
            "\"a1\": {",
            "\"a1\": {\"id\": \"a1\", \"side\": \"blue\", \"type\": \"tank\"},\n      \"a1\": {",
            1,
        );
        assert_ne!(edited, text);
        let err = Save::from_json(Path::new("s.json"), &edited).unwrap_err();
        let line = edited.lines().position(|l| l.contains("\"tank\"")).unwrap() + 2;
        assert_eq!(
            err.to_string(),
            format!(
                "s.json:{line}: not a hexwar save: the key \"a1\" is given twice in one object \
                 at line {line} column 10"
            )
        );
    }

    #[test]
    fn a_save_round_trips_through_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        save.write(&path).unwrap();
        assert_eq!(Save::read(&path).unwrap(), save);
        assert!(!dir.path().join("s.json.tmp").exists());
    }

    #[test]
    fn a_save_changed_in_place_is_not_written_until_sealed_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let mut save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        save.host = Some(serde_json::json!({"deadline": 3}));
        let e = save.write(&path).unwrap_err();
        assert!(matches!(e, SaveError::WouldNotRead { .. }), "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains("s.json: the save would not read back, so it was not written: ")
                && text.ends_with(
                    " (a field changed after the save was sealed? `Save::sealed` seals it again)"
                ),
            "{text}"
        );
        assert!(!path.exists());
        save.sealed().write(&path).unwrap();
        assert_eq!(
            Save::read(&path).unwrap().host,
            Some(serde_json::json!({"deadline": 3}))
        );
    }

    #[test]
    fn a_tampered_save_is_refused_by_its_checksum() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let text = save.to_json().replace("\"turn\": 3", "\"turn\": 4");
        let err = Save::from_json(Path::new("s.json"), &text).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("s.json: save is corrupt: its checksum does not match its content"),
            "{err}"
        );
    }

    /// The seed and the bots' dice are sealed too: an edit to either is found (a changed
    /// `bot_dice` played another game without a word).
    #[test]
    fn a_save_with_another_seed_or_bot_dice_is_refused_by_its_checksum() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(7), state());
        let text = save.to_json();
        assert!(Save::from_json(Path::new("s.json"), &text).is_ok());
        for (from, to) in [
            ("\"seed\": 5", "\"seed\": 6"),
            ("\"seed\": 7", "\"seed\": 999"),
        ] {
            assert!(text.contains(from), "{from}");
            let err =
                Save::from_json(Path::new("s.json"), &text.replacen(from, to, 1)).unwrap_err();
            assert!(matches!(err, SaveError::Checksum { .. }), "{from}: {err}");
        }
        let rolled = save.to_json().replace("\"rolls\": 0", "\"rolls\": 3");
        assert_ne!(rolled, text);
        assert!(matches!(
            Save::from_json(Path::new("s.json"), &rolled),
            Err(SaveError::Checksum { .. })
        ));
    }

    /// A host's own data is kept and sealed: read back as written; an edit to it is found.
    #[test]
    fn a_hosts_data_is_kept_and_sealed() {
        let done =
            serde_json::json!({"done": ["FRANCE", "ITALY"], "deadline": "2026-12-04T12:00Z"});
        let save =
            Save::new("scenarios/x".into(), 5, Dice::new(7), state()).with_host(done.clone());
        let text = save.to_json();
        let read = Save::from_json(Path::new("s.json"), &text).unwrap();
        assert_eq!(read.host, Some(done));
        assert_eq!(read, save);
        let edited = text.replace("\"ITALY\"", "\"RUSSIA\"");
        assert_ne!(edited, text);
        assert!(matches!(
            Save::from_json(Path::new("s.json"), &edited),
            Err(SaveError::Checksum { .. })
        ));
        // a save without host data reads as before
        assert_eq!(
            Save::from_json(
                Path::new("s.json"),
                &Save::new("x".into(), 5, Dice::new(7), state()).to_json()
            )
            .unwrap()
            .host,
            None
        );
    }

    /// Saves sealed before the seed and the bots' dice were (their checksum is the state's
    /// hash) are still read.
    #[test]
    fn a_save_sealed_the_old_way_is_read() {
        let mut save = Save::new("scenarios/x".into(), 5, Dice::new(7), state());
        save.checksum = save.state.hash();
        let read = Save::from_json(Path::new("s.json"), &save.to_json()).unwrap();
        assert_eq!(read, save);
    }

    #[test]
    fn a_truncated_save_is_refused_with_its_line() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let text = save.to_json();
        let err = Save::from_json(Path::new("s.json"), &text[..text.len() / 2]).unwrap_err();
        assert!(matches!(err, SaveError::Parse { .. }), "{err}");
        assert!(err.to_string().starts_with("s.json:"), "{err}");
        assert!(
            err.to_string().contains(
                ": not a hexwar save: the file ends too early, is it truncated? (EOF while parsing"
            ),
            "{err}"
        );
    }

    /// The sides done in a simultaneous step are sealed: an edit to them is found.
    #[test]
    fn a_save_with_edited_sides_done_is_refused_by_its_checksum() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(7), state())
            .with_sides_done(vec!["FRANCE".into()]);
        let text = save.to_json();
        assert_eq!(Save::from_json(Path::new("s.json"), &text).unwrap(), save);
        let edited = text.replace("\"FRANCE\"", "\"ITALY\"");
        assert_ne!(edited, text);
        assert!(matches!(
            Save::from_json(Path::new("s.json"), &edited),
            Err(SaveError::Checksum { .. })
        ));
    }

    /// A save of another format is refused even at this version (the version alone was not
    /// enough).
    #[test]
    fn another_format_at_this_version_is_refused() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let text = save
            .to_json()
            .replace("\"format\": \"hexwar-save\"", "\"format\": \"other-save\"");
        let err = Save::from_json(Path::new("s.json"), &text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.json: save format 'other-save' version 1 is not supported (this build reads 'hexwar-save' version 1)"
        );
    }

    /// A save is written over the previous save of the same name.
    #[test]
    fn a_save_replaces_an_earlier_save_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        Save::new("scenarios/x".into(), 5, Dice::new(1), state())
            .write(&path)
            .unwrap();
        let later = Save::new("scenarios/x".into(), 6, Dice::new(1), state());
        later.write(&path).unwrap();
        assert_eq!(Save::read(&path).unwrap(), later);
    }

    /// A save is not written over a directory; the error says why.
    #[test]
    fn a_save_is_not_written_over_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let err = save.write(dir.path()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: cannot write save: not a regular file: a save is not written over it",
                dir.path().display()
            )
        );
        assert!(dir.path().is_dir());
    }

    #[test]
    fn another_format_version_is_refused() {
        let save = Save::new("scenarios/x".into(), 5, Dice::new(1), state());
        let text = save.to_json().replace("\"version\": 1", "\"version\": 99");
        let err = Save::from_json(Path::new("s.json"), &text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "s.json: save format 'hexwar-save' version 99 is not supported (this build reads 'hexwar-save' version 1)"
        );
    }
}

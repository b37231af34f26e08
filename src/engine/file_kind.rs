//! The JSON-lines files hexwar writes (event logs, game records), told apart by their first
//! line, so that a command given one where it reads a save or a replay names the file's kind
//! instead of quoting serde (`missing field 'format'`).

/// A file of one JSON record a line that hexwar writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JsonLines {
    /// `hexwar run --log`'s events.
    EventLog,
    /// `hexwar run --games N --per-game`'s game records.
    GameRecords,
}

impl JsonLines {
    /// What `text` is, when its first non-empty line is one of hexwar's JSON-lines records.
    pub(crate) fn of(text: &str) -> Option<JsonLines> {
        let first = crate::board::bom_stripped(text)
            .lines()
            .find(|line| !line.trim().is_empty())?;
        let serde_json::Value::Object(record) = serde_json::from_str(first).ok()? else {
            return None;
        };
        if record.get("event").is_some_and(|e| e.is_string()) {
            Some(JsonLines::EventLog)
        } else if record.contains_key("base_seed") && record.contains_key("seed") {
            Some(JsonLines::GameRecords)
        } else {
            None
        }
    }

    /// The words a refusal uses, naming the option that writes such a file.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            JsonLines::EventLog => "a hexwar event log (the JSON lines `--log` writes)",
            JsonLines::GameRecords => {
                "a file of game records (the JSON lines `--per-game` writes; `hexwar stats \
                 merge` reads it)"
            }
        }
    }
}

/// What a JSON file hexwar writes is (a save, a replay, an event log, game records), from its
/// text, in the words a refusal uses; None for anything else.
pub(crate) fn json_file_kind(text: &str) -> Option<&'static str> {
    let body = crate::board::bom_stripped(text).trim_start();
    if !body.starts_with('{') {
        return None;
    }
    if let Some(lines) = JsonLines::of(text) {
        return Some(lines.describe());
    }
    #[derive(serde::Deserialize)]
    struct Header {
        format: String,
    }
    match serde_json::from_str::<Header>(body).ok()?.format.as_str() {
        super::save::SAVE_FORMAT => Some("a hexwar save"),
        crate::replay::REPLAY_FORMAT => Some("a hexwar replay"),
        _ => None,
    }
}

/// The TOML files hexwar reads, as their top-level keys tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TomlKind {
    Map,
    Scenario,
    Orders,
    /// A setup, or a scenario's unit file.
    Position,
}

impl TomlKind {
    /// The words a refusal uses.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            TomlKind::Map => "a map file",
            TomlKind::Scenario => "a scenario file",
            TomlKind::Orders => "an orders file ([[order]] or [[phase]] tables)",
            TomlKind::Position => "a position (a setup, or a scenario's unit file)",
        }
    }
}

/// What a TOML file of hexwar's is, from its top-level keys and their shapes; None when they
/// say none of them. A setup's own keys are the rules' to choose (`grid = "fine"`, `order =
/// ["blue", "red"]`), so only a key of its file's shape counts.
pub(crate) fn toml_file_kind(table: &toml::Table) -> Option<TomlKind> {
    let is = |k: &str, shape: fn(&toml::Value) -> bool| table.get(k).is_some_and(shape);
    let tables = |v: &toml::Value| {
        v.as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(toml::Value::is_table))
    };
    if (is("columns", toml::Value::is_integer) && is("rows", toml::Value::is_integer))
        || (table.get("kind").and_then(toml::Value::as_str) == Some("area") && is("region", tables))
    {
        Some(TomlKind::Map)
    } else if is("map", toml::Value::is_str)
        && is("rules", toml::Value::is_array)
        && is("side", tables)
    {
        Some(TomlKind::Scenario)
    } else if is("order", tables) || is("phase", tables) {
        Some(TomlKind::Orders)
    } else if is("unit", tables)
        || is("units", toml::Value::is_table)
        || is("phase", toml::Value::is_str)
    {
        Some(TomlKind::Position)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{json_file_kind, toml_file_kind, JsonLines, TomlKind};

    #[test]
    fn files_of_each_kind_are_named() {
        let table = |text: &str| text.parse::<toml::Table>().unwrap();
        assert_eq!(
            toml_file_kind(&table("columns = 3\nrows = 2\n")),
            Some(TomlKind::Map)
        );
        assert_eq!(
            toml_file_kind(&table(
                "id = \"x\"\nmap = \"m.toml\"\nrules = [\"x\"]\n[[side]]\nname = \"a\"\n"
            )),
            Some(TomlKind::Scenario)
        );
        // (a setup's own keys, which the rules read, are no file's shape)
        for setup in [
            "grid = \"fine\"\n",
            "order = [\"blue\", \"red\"]\n",
            "map = \"night\"\nrules = \"optional\"\n",
            "kind = \"x\"\nregion = \"y\"\n",
        ] {
            assert_eq!(toml_file_kind(&table(setup)), None, "{setup}");
        }
        assert_eq!(
            toml_file_kind(&table("[[order]]\ncommand = \"end_phase\"\n")),
            Some(TomlKind::Orders)
        );
        assert_eq!(
            toml_file_kind(&table(
                "phase = \"S1901M\"\n[units]\nFRANCE = [\"A PAR\"]\n"
            )),
            Some(TomlKind::Position)
        );
        assert_eq!(toml_file_kind(&table("turn = 2\n")), None);
        assert_eq!(
            json_file_kind("{\n  \"format\": \"hexwar-save\",\n  \"version\": 1\n}"),
            Some("a hexwar save")
        );
        assert_eq!(
            json_file_kind("{\"format\": \"hexwar-replay\"}"),
            Some("a hexwar replay")
        );
        assert_eq!(
            json_file_kind("{\"event\":\"GameStarted\",\"scenario\":\"demo\",\"seed\":1}\n"),
            Some(JsonLines::EventLog.describe())
        );
        assert_eq!(json_file_kind("[[order]]\n"), None);
    }

    #[test]
    fn an_event_log_and_game_records_are_told_apart_by_their_first_line() {
        let log = "\n{\"event\":\"GameStarted\",\"scenario\":\"demo\",\"seed\":1}\n{\"event\":\"PhaseStarted\"}\n";
        assert_eq!(JsonLines::of(log), Some(JsonLines::EventLog));
        let records = "{\"game\":0,\"seed\":5,\"base_seed\":1,\"turns\":8}\n";
        assert_eq!(JsonLines::of(records), Some(JsonLines::GameRecords));
        // (a save is one document over many lines: its first line is `{`)
        assert_eq!(JsonLines::of("{\n  \"format\": \"hexwar-save\"\n}"), None);
        assert_eq!(JsonLines::of("{\"event\": 3}"), None);
        assert_eq!(JsonLines::of(""), None);
    }
}

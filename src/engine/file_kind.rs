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
        let first = text
            .strip_prefix('\u{feff}')
            .unwrap_or(text)
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

#[cfg(test)]
mod tests {
    use super::JsonLines;

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

//! TOML text read into the files' specs, with errors a designer can act on: a duplicate key
//! named, an unknown key given the nearest known one, and every unknown key of a file listed
//! (serde stops at the first, so a file with three misspelt keys took three runs of `check`).

use serde::de::DeserializeOwned;

/// The most errors listed for one file: each is found by parsing the file again.
const MAX_ERRORS: usize = 32;

/// The longest value over several lines taken out to read on (in lines).
const MAX_ENTRY_LINES: usize = 500;

/// A TOML error at a byte offset of the text (0 when the parser names no place).
#[derive(Debug, Clone, PartialEq)]
pub struct TomlError {
    pub offset: usize,
    pub message: String,
}

/// The first date or time in a TOML text as an error, if any. No hexwar file takes one, and
/// serde reads one as a table of a private key (`{"$__toml_private_datetime": ...}`), which
/// reached the rules, the saves and messages. (A text that does not parse: None, and the
/// parse's own error is said.)
pub fn datetime_error(text: &str) -> Option<TomlError> {
    first_unreadable(text, true).map(|(offset, _)| TomlError {
        offset,
        message: "a date or time is no value hexwar reads: write it as a string (\"1940-05-10\")"
            .into(),
    })
}

/// The first float in a TOML text that is NaN or infinite, as an error, if any: for the files
/// whose tables go to the rules as they are (a setup's own keys, an order's arguments). JSON
/// has neither, so such a value became null, which a script saw as `userdata`. (The engine's
/// own fields, a unit's strength, are checked where they are read, naming the unit.)
pub fn not_finite_error(text: &str) -> Option<TomlError> {
    first_unreadable(text, false).map(|(offset, float)| TomlError {
        offset,
        message: format!(
            "{float} is no number hexwar reads (NaN and infinity cannot be saved): write a \
             finite number"
        ),
    })
}

/// Where the first date or time (`dates`), or else the first NaN or infinite float, stands,
/// with its text.
fn first_unreadable(text: &str, dates: bool) -> Option<(usize, String)> {
    use toml::de::{DeTable, DeValue};
    // (every date or time has a digit, then '-' or ':', then a digit, and NaN and infinity are
    // written `nan` and `inf`: a text without one is not parsed a second time; a large map is
    // a few million instructions to parse)
    let might = text.as_bytes().windows(3).any(|w| {
        if dates {
            w[0].is_ascii_digit() && matches!(w[1], b'-' | b':') && w[2].is_ascii_digit()
        } else {
            w == b"nan" || w == b"inf"
        }
    });
    if !might {
        return None;
    }
    let document = DeTable::parse(text).ok()?;
    let mut first: Option<(usize, String)> = None;
    let mut keep = |at: usize, what: String| {
        if first.as_ref().is_none_or(|(f, _)| at < *f) {
            first = Some((at, what));
        }
    };
    // (a walk with a stack of its own: a file may nest arrays thousands deep)
    let mut left: Vec<&toml::Spanned<DeValue>> = document.get_ref().values().collect();
    while let Some(value) = left.pop() {
        match value.get_ref() {
            DeValue::Datetime(d) if dates => keep(value.span().start, d.to_string()),
            DeValue::Float(float)
                if !dates && (float.as_str().contains("nan") || float.as_str().contains("inf")) =>
            {
                keep(value.span().start, float.as_str().to_string())
            }
            DeValue::Array(items) => left.extend(items.iter()),
            DeValue::Table(table) => left.extend(table.values()),
            _ => {}
        }
    }
    first
}

/// A `key = value` entry taken out of the text to read on past its error.
struct Removed {
    at: usize,
    key: String,
    /// The field an unknown key was said to mean (`turns` for `turn`).
    meant: Option<String>,
}

/// Reads `text` as a `T`. serde stops at a file's first error; here an error at a `key = value`
/// entry of its own (an unknown key, a value of the wrong type, a duplicate key; the value may
/// span lines) has the entry blanked out and the text read again, so each such error is listed
/// at its line. Taking an entry out changes nothing else but that its field is then missing: a
/// `missing field` of the same table naming the key, or the field an unknown key was said to
/// mean, is left out. A table header (`[sied]`), a key sharing its line (an inline table), a
/// syntax error or a missing field ends the list, as does a count of 32 errors (`MAX_ERRORS`, said so).
/// The errors come in the file's order (serde meets a table's keys in alphabetical order).
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, Vec<TomlError>> {
    if let Some(e) = datetime_error(text) {
        return Err(vec![e]);
    }
    let mut errors: Vec<TomlError> = Vec::new();
    let mut removed: Vec<Removed> = Vec::new();
    let mut current = std::borrow::Cow::Borrowed(text);
    loop {
        let e = match toml::from_str::<T>(&current) {
            Ok(value) if errors.is_empty() => return Ok(value),
            Ok(_) => return Err(in_file_order(errors)),
            Err(e) => e,
        };
        let offset = toml_offset(&e, &current);
        let message = toml_message(&e, &current);
        if let Some(field) = e
            .message()
            .strip_prefix("missing field `")
            .and_then(|f| f.strip_suffix('`'))
        {
            let table = table_extent(&current, e.span().unwrap_or(0..0));
            let echo = removed.iter().any(|r| {
                table.contains(&r.at) && (r.key == field || r.meant.as_deref() == Some(field))
            });
            if !echo {
                errors.push(TomlError { offset, message });
            }
            return Err(in_file_order(errors));
        }
        let unknown = e
            .message()
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next());
        // (an error with no place, one of the whole file, is no entry's: taking out the entry
        // where its offset falls listed it twice)
        let entry = e
            .span()
            .and_then(|_| entry_at(&current, offset))
            .filter(|(_, key)| unknown.is_none_or(|u| u == key));
        let meant = message
            .split_once("(did you mean `")
            .and_then(|(_, rest)| rest.split('`').next())
            .map(str::to_string);
        errors.push(TomlError { offset, message });
        let Some((range, key)) = entry else {
            return Err(in_file_order(errors));
        };
        if errors.len() >= MAX_ERRORS {
            errors.push(TomlError {
                offset: current.len(),
                message: format!(
                    "TOML: more errors may follow: the first {MAX_ERRORS} the reader met are listed"
                ),
            });
            return Err(in_file_order(errors));
        }
        removed.push(Removed {
            at: range.start,
            key,
            meant,
        });
        let mut next = current.into_owned();
        // (a space a byte, newlines kept: every later error keeps its offset and its line)
        let blank: String = next.as_bytes()[range.clone()]
            .iter()
            .map(|&b| if b == b'\n' { '\n' } else { ' ' })
            .collect();
        next.replace_range(range, &blank);
        current = std::borrow::Cow::Owned(next);
    }
}

/// The errors in the file's order.
fn in_file_order(mut errors: Vec<TomlError>) -> Vec<TomlError> {
    errors.sort_by_key(|e| e.offset);
    errors
}

/// Where the table a `missing field` error names lies: its header to the next header, the
/// top-level keys before the first header (an empty span at 0), or an inline table's span.
fn table_extent(text: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let next_header = |from: usize| {
        let mut at = from;
        for line in text.get(from..).unwrap_or_default().split_inclusive('\n') {
            if at > from && line.trim_start().starts_with('[') {
                return at;
            }
            at += line.len();
        }
        text.len()
    };
    if span.is_empty() && span.start == 0 {
        if text.trim_start().starts_with('[') {
            return 0..0;
        }
        return 0..next_header(0);
    }
    match text.get(span.start..) {
        Some(rest) if rest.starts_with('[') => span.start..next_header(span.start),
        _ => span,
    }
}

/// The `key = value` entry of `text` whose error is at `offset`, with its key: it starts the
/// line `offset` is on (no table header), and read alone (with the lines its value spans, up
/// to [`MAX_ENTRY_LINES`]) it is one key. The range ends before the last line's newline.
fn entry_at(text: &str, offset: usize) -> Option<(std::ops::Range<usize>, String)> {
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let first = text.get(start..)?.lines().next()?.trim_start();
    if first.starts_with('[') || first.starts_with('#') || first.is_empty() {
        return None;
    }
    let mut end = start;
    for line in text
        .get(start..)?
        .split_inclusive('\n')
        .take(MAX_ENTRY_LINES)
    {
        end += line.len();
        let entry = text.get(start..end)?;
        if let Ok(alone) = toml::from_str::<toml::Table>(entry) {
            let key = alone.keys().next()?.clone();
            let within = offset < end;
            return (alone.len() == 1 && within).then(|| {
                (
                    start..start + entry.trim_end_matches(['\n', '\r']).len(),
                    key,
                )
            });
        }
    }
    None
}

/// A TOML parse error's message as the files' errors give it (`TOML: ...`), naming the key of a
/// duplicate key (the parser says only "duplicate key"; its span covers the key in `text`).
/// Where a TOML error is: its span's start, or for an error the parser gives no place (the
/// nesting limit: `recursion limit`) the start of the line nested deepest, the likeliest cause
/// (most `[`, `{` and `.`: a header of 150 dotted keys, an array in arrays).
pub fn toml_offset(e: &toml::de::Error, text: &str) -> usize {
    if let Some(span) = e.span() {
        return span.start;
    }
    // (counted outside strings and comments: a description full of dots is no nesting)
    let nesting = |line: &str| {
        let (mut n, mut quote) = (0, None);
        for c in line.chars() {
            match (quote, c) {
                (None, '#') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '[' | '{' | '.') => n += 1,
                _ => {}
            }
        }
        n
    };
    let mut best = (0, 0);
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let n = nesting(line);
        if n > best.0 {
            best = (n, at);
        }
        at += line.len();
    }
    best.1
}

pub fn toml_message(e: &toml::de::Error, text: &str) -> String {
    let message = e.message();
    if message.trim() == "duplicate key" {
        if let Some(key) = e.span().and_then(|s| text.get(s)) {
            let key = key.trim();
            if !key.is_empty() && key.len() <= 80 && !key.contains('\n') {
                return format!("TOML: duplicate key `{key}`");
            }
        }
    }
    if e.span().is_none() && message.trim() == "recursion limit" {
        return "TOML: recursion limit: tables or values nested too deep to read".to_string();
    }
    format!(
        "TOML: {}",
        in_toml_words(&with_nearest_field(message.trim_end()))
    )
}

/// serde's Rust type names in "expected ..." said in TOML's words: `expected u32` read as a
/// leak of the program's insides to a designer who wrote `"10"` for a number.
pub fn in_toml_words(message: &str) -> String {
    in_words(
        message,
        &[
            ("expected a sequence", "expected an array"),
            ("expected a map", "expected a table"),
            ("expected struct ", "expected a table "),
        ],
    )
}

/// The same for a JSON file (a save, a replay, a game record): an array, an object.
pub fn in_json_words(message: &str) -> String {
    in_words(
        message,
        &[
            ("expected a sequence", "expected an array"),
            ("expected a map", "expected an object"),
            ("expected struct ", "expected an object "),
        ],
    )
}

/// The same for a value a Lua script handed over: a list, a table.
pub fn in_lua_words(message: &str) -> String {
    in_words(
        message,
        &[
            ("expected a sequence", "expected a list"),
            ("expected a map", "expected a table"),
            ("expected struct ", "expected a table "),
        ],
    )
}

/// serde's Rust words in `message` put as a file's reader says them: the numbers' ranges, and
/// the containers as `containers` names them.
fn in_words(message: &str, containers: &[(&str, &str)]) -> String {
    const WORDS: [(&str, &str); 11] = [
        ("expected u8", "expected a whole number (0 to 255)"),
        ("expected u16", "expected a whole number (0 to 65535)"),
        ("expected u32", "expected a whole number (0 to 4294967295)"),
        ("expected u64", "expected a whole number, not below 0"),
        ("expected usize", "expected a whole number, not below 0"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f32", "expected a number"),
        ("expected f64", "expected a number"),
        ("expected a boolean", "expected true or false"),
        ("expected a borrowed string", "expected a string"),
    ];
    let mut out = message.to_string();
    // (`expected struct Header with 2 elements`: a struct's Rust name and, for a list given in
    // its place, serde's count of its fields, neither of which the file's reader knows)
    if let Some(at) = out.find("expected struct ") {
        let plain = containers
            .iter()
            .find(|(rust, _)| *rust == "expected struct ")
            .map_or("expected an object", |(_, plain)| plain.trim_end());
        let name = at + "expected struct ".len();
        let mut end = out[name..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .map_or(out.len(), |i| name + i);
        if let Some(count) = out[end..]
            .strip_prefix(" with ")
            .and_then(|rest| rest.find(" elements"))
        {
            end += " with ".len() + count + " elements".len();
        }
        out.replace_range(at..end, plain);
        if let Some(rest) = out.strip_prefix("invalid length ") {
            if let Some((n, tail)) = rest.split_once(", ") {
                out = format!("found a list of {n} item(s), {tail}");
            }
        }
    }
    for &(rust, plain) in WORDS.iter().chain(containers) {
        // (a whole word only: `expected u32` but not `expected u320`)
        if let Some(at) = out.find(rust) {
            let end = at + rust.len();
            let whole = out[end..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_ascii_alphanumeric());
            if whole {
                out.replace_range(at..end, plain);
            }
        }
    }
    out
}

/// serde's "unknown field `seeed`, expected one of `id`, ..., `seed`" with the nearest field
/// named after the unknown one (`seeed` (did you mean `seed`?)): a long list hid the one meant.
pub(crate) fn with_nearest_field(message: &str) -> String {
    let parsed = message.strip_prefix("unknown field `").and_then(|rest| {
        let (field, expected) = rest.split_once('`')?;
        let known: Vec<&str> = expected
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|k| !k.is_empty())
            .collect();
        Some((field, known))
    });
    match parsed
        .and_then(|(field, known)| Some((field, crate::spelling::nearest(field, known, 3)?)))
    {
        Some((field, near)) => message.replacen(
            &format!("`{field}`"),
            &format!("`{field}` (did you mean `{near}`?)"),
            1,
        ),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde's struct words (`expected struct Header with 2 elements`, a save given `[]`) are
    /// put as the file's reader says them; the whole-word check had kept them as they were.
    #[test]
    fn a_struct_expected_is_an_object_or_a_table() {
        assert_eq!(
            in_json_words("invalid length 0, expected struct Header with 2 elements"),
            "found a list of 0 item(s), expected an object"
        );
        assert_eq!(
            in_json_words("invalid type: string \"x\", expected struct Header"),
            "invalid type: string \"x\", expected an object"
        );
        assert_eq!(
            in_lua_words("invalid type: integer `3`, expected struct UnitSpec"),
            "invalid type: integer `3`, expected a table"
        );

        // (serde_json's place after the struct's name stays)
        assert_eq!(
            in_json_words("invalid type: integer `3`, expected struct Header at line 1 column 1"),
            "invalid type: integer `3`, expected an object at line 1 column 1"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Spec {
        name: String,
        turns: u32,
        #[serde(default)]
        unit: Vec<UnitSpec>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct UnitSpec {
        id: String,
        side: String,
    }

    /// The line and message of each error, as the files' errors print them.
    fn errors_of(text: &str) -> Vec<(usize, String)> {
        parse_toml::<Spec>(text)
            .unwrap_err()
            .into_iter()
            .map(|e| (super::super::line_of(text, e.offset), e.message))
            .collect()
    }

    /// serde's Rust type names are said in TOML's words: `"10"` for a whole number, a
    /// string for a list, a list for a table.
    #[test]
    fn expected_types_are_said_in_tomls_words() {
        assert_eq!(
            errors_of("name = \"x\"\nturns = \"10\"\n"),
            vec![(
                2,
                "TOML: invalid type: string \"10\", expected a whole number (0 to 4294967295)"
                    .into()
            )]
        );
        assert_eq!(
            errors_of("name = \"x\"\nturns = 2\nunit = \"a\"\n"),
            vec![(
                3,
                "TOML: invalid type: string \"a\", expected an array".into()
            )]
        );
        assert_eq!(
            in_toml_words("invalid type: sequence, expected a map"),
            "invalid type: sequence, expected a table"
        );
        assert_eq!(in_toml_words("expected u320"), "expected u320");
    }

    #[test]
    fn every_unknown_key_alone_on_its_line_is_listed_at_its_line() {
        let text = "name = \"x\"\nturn = 2\nturns = 3\n\n[[unit]]\nid = \"a\"\nside = \"blue\"\nsidee = \"blue\"\n\n[[unit]]\nid = \"b\"\nside = \"red\"\ncolour = [1, 2]\n";
        assert_eq!(
            errors_of(text),
            vec![
                (2, "TOML: unknown field `turn` (did you mean `turns`?), expected one of `name`, `turns`, `unit`".to_string()),
                (8, "TOML: unknown field `sidee` (did you mean `side`?), expected `id` or `side`".to_string()),
                (13, "TOML: unknown field `colour`, expected `id` or `side`".to_string()),
            ]
        );
        // (the same with CRLF line ends)
        assert_eq!(errors_of(&text.replace('\n', "\r\n")), errors_of(text));
        // (an entry taken out that holds letters of several bytes leaves later offsets alone:
        // the next error is still found at the start of its own line)
        // (serde meets `apple` before `zeta`)
        let text = "name = \"x\"\nturns = 1\napple = \"Zürich Genève\"\nzeta = 1\n";
        let errors = errors_of(text);
        assert_eq!(
            errors.iter().map(|e| e.0).collect::<Vec<_>>(),
            [3, 4],
            "{errors:?}"
        );
        assert_eq!(
            parse_toml::<Spec>(text).unwrap_err()[1].offset,
            text.find("zeta").unwrap()
        );
    }

    /// serde meets a table's keys in alphabetical order and stops at the first error: an
    /// unknown key sorting after a value of the wrong type, or after a value over several
    /// lines, was never listed.
    #[test]
    fn errors_of_other_kinds_and_values_over_lines_do_not_end_the_list() {
        let text = "name = \"x\"\nturns = \"three\"\nzeta = 1\ncolours = [\n  1,\n]\nturn = 2\n";
        let errors = errors_of(text);
        let lines: Vec<usize> = errors.iter().map(|e| e.0).collect();
        assert_eq!(lines, [2, 3, 4, 7], "{errors:?}");
        let starts = [
            "TOML: invalid type: string \"three\"",
            "TOML: unknown field `zeta`",
            "TOML: unknown field `colours`",
            "TOML: unknown field `turn`",
        ];
        for (error, start) in errors.iter().zip(starts) {
            assert!(error.1.starts_with(start), "{errors:?}");
        }
    }

    /// A missing field is left out when an entry taken out of the same table caused it (a
    /// misspelt key said to mean it, a value of the wrong type), and listed otherwise.
    #[test]
    fn a_missing_field_is_left_out_only_when_an_entry_taken_out_of_its_table_caused_it() {
        // (the unit's side is misspelt, so it has none)
        let text = "name = \"x\"\nturns = 1\n[[unit]]\nid = \"a\"\nsied = \"blue\"\n";
        let errors = errors_of(text);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0]
                .1
                .starts_with("TOML: unknown field `sied` (did you mean `side`?)"),
            "{errors:?}"
        );
        // (a misspelt key in another table means a field this one lacks: both are listed)
        let text = "turns = 1\n[[unit]]\nid = \"a\"\nside = \"b\"\nnmae = \"x\"\n";
        let errors = errors_of(text);
        assert_eq!(
            errors.iter().map(|e| e.0).collect::<Vec<_>>(),
            [1, 5],
            "{errors:?}"
        );
        assert_eq!(errors[0].1, "TOML: missing field `name`");
        // (a value of the wrong type: its field is then missing, which is not said again)
        let errors = errors_of("name = 3\nturns = 1\n");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].1.contains("invalid type: integer `3`"),
            "{errors:?}"
        );
    }

    #[test]
    fn an_unknown_key_that_is_not_an_entry_of_its_own_ends_the_list() {
        // (in an inline table; a table header, whose keys blanked would join the table above)
        for (text, key) in [
            (
                "name = \"x\"\nturns = 1\nunit = [{ id = \"a\", side = \"b\", sied = \"b\" }]\n",
                "sied",
            ),
            ("name = \"x\"\nturns = 1\n[units]\nid = 1\n", "units"),
        ] {
            let errors = errors_of(text);
            assert_eq!(errors.len(), 1, "{text}: {errors:?}");
            assert!(
                errors[0]
                    .1
                    .starts_with(&format!("TOML: unknown field `{key}`")),
                "{errors:?}"
            );
        }
    }

    #[test]
    fn the_errors_listed_for_one_file_are_bounded_and_say_so() {
        let mut text = String::from("name = \"x\"\nturns = 1\n");
        for i in 0..100 {
            text.push_str(&format!("extra{i} = {i}\n"));
        }
        let errors = errors_of(&text);
        assert_eq!(errors.len(), MAX_ERRORS + 1);
        assert_eq!(
            errors[MAX_ERRORS].1,
            "TOML: more errors may follow: the first 32 the reader met are listed"
        );
    }

    #[test]
    fn a_file_without_errors_reads_as_serde_reads_it() {
        let spec: Spec = parse_toml("name = \"x\"\nturns = 4\n").unwrap();
        assert_eq!(
            (spec.name.as_str(), spec.turns, spec.unit.len()),
            ("x", 4, 0)
        );
    }

    #[test]
    fn an_unknown_field_is_given_the_nearest_known_one() {
        assert_eq!(
            with_nearest_field("unknown field `seeed`, expected one of `id`, `seed`, `side`"),
            "unknown field `seeed` (did you mean `seed`?), expected one of `id`, `seed`, `side`"
        );
        assert_eq!(
            with_nearest_field("unknown field `winer`, expected `winner` or `scores`"),
            "unknown field `winer` (did you mean `winner`?), expected `winner` or `scores`"
        );
        // (nothing near, or no field at all: the message as serde wrote it)
        for plain in [
            "unknown field `colour`, expected one of `id`, `seed`",
            "unknown field `x`, there are no fields",
            "invalid type: string \"a\", expected u32",
        ] {
            assert_eq!(with_nearest_field(plain), plain);
        }
    }

    /// A date or time is refused at the first in the file, wherever it stands: at the top, in
    /// an array in an array, in an inline table under a header.
    #[test]
    fn the_first_date_or_time_in_the_file_is_refused_wherever_it_stands() {
        let refused = |text: &str, first: &str| {
            assert_eq!(
                datetime_error(text),
                Some(TomlError {
                    offset: text.find(first).unwrap(),
                    message: "a date or time is no value hexwar reads: write it as a string \
                              (\"1940-05-10\")"
                        .into(),
                }),
                "{text}"
            );
        };
        refused("a = 1940-05-10\nb = 1941-06-22\n", "1940");
        refused("a = 1\nb = [[2, 1940-05-10]]\n", "1940");
        refused("[t]\nu = { when = 12:30:00 }\n", "12:30");
        // (a float before it is no date; a NaN is not one either)
        refused("a = 1.5\nb = nan\nc = 1940-05-10\n", "1940");
        assert_eq!(datetime_error("a = \"1940-05-10\"\nb = 1.5\n"), None);
    }

    /// NaN and infinity, with or without a sign, are refused at the first in the file; a date
    /// or a finite float before them is no such number.
    #[test]
    fn the_first_nan_or_infinity_in_the_file_is_refused_wherever_it_stands() {
        let refused = |text: &str, first: &str, said: &str| {
            assert_eq!(
                not_finite_error(text),
                Some(TomlError {
                    offset: text.find(first).unwrap(),
                    message: format!(
                        "{said} is no number hexwar reads (NaN and infinity cannot be saved): \
                         write a finite number"
                    ),
                }),
                "{text}"
            );
        };
        refused("a = nan\nb = inf\n", "nan", "nan");
        refused("a = 1.5\nb = [[-inf]]\n", "-inf", "-inf");
        refused("a = 1940-05-10\n[t]\nu = { v = +nan }\n", "+nan", "+nan");
        assert_eq!(not_finite_error("a = 1.5\nb = \"inf\"\n"), None);
    }

    /// A missing field is said beside an unknown key of its own table that means no such
    /// field, and beside an entry of another table that has its very name.
    #[test]
    fn a_missing_field_is_listed_beside_entries_taken_out_for_other_reasons() {
        assert_eq!(
            errors_of("name = \"x\"\nzzz = 1\n"),
            vec![
                (1, "TOML: missing field `turns`".to_string()),
                (
                    2,
                    "TOML: unknown field `zzz`, expected one of `name`, `turns`, `unit`"
                        .to_string()
                ),
            ]
        );
        assert_eq!(
            errors_of("turns = 1\n[[unit]]\nid = \"a\"\nside = \"b\"\nname = \"x\"\n"),
            vec![
                (1, "TOML: missing field `name`".to_string()),
                (
                    5,
                    "TOML: unknown field `name`, expected `id` or `side`".to_string()
                ),
            ]
        );
    }

    /// The table a missing field is looked for in: from a table header to the next, or an
    /// inline table's own braces, also when the file starts with the header.
    #[test]
    fn a_missing_field_is_matched_to_entries_of_its_own_table_only() {
        // (the unit's side misspelt under the file's first line: its missing side is not said)
        assert_eq!(
            errors_of("[[unit]]\nid = \"a\"\nsied = \"b\"\n"),
            vec![(
                3,
                "TOML: unknown field `sied` (did you mean `side`?), expected `id` or `side`"
                    .to_string()
            )]
        );
        // (a `side` taken out of the top after an inline unit lacking one: both are said)
        assert_eq!(
            errors_of("name = \"x\"\nturns = 1\nunit = [{ id = \"a\" }]\nside = 2\n"),
            vec![
                (3, "TOML: missing field `side`".to_string()),
                (
                    4,
                    "TOML: unknown field `side`, expected one of `name`, `turns`, `unit`"
                        .to_string()
                ),
            ]
        );
    }

    /// An offset past the last entry (at the end of a text with no last newline) names no
    /// entry: the error is not that entry's.
    #[test]
    fn an_offset_past_the_last_entry_names_no_entry() {
        assert_eq!(entry_at("a = 1", 4), Some((0..5, "a".to_string())));
        assert_eq!(entry_at("a = 1", 5), None);
    }

    /// A duplicate key is named when it is short enough to quote; a longer one is said as the
    /// parser says it (a key of megabytes made a message of megabytes).
    #[test]
    fn a_duplicate_key_is_named_only_when_short() {
        let short = "k".repeat(80);
        let text = format!("{short} = 1\n{short} = 2\n");
        assert_eq!(
            parse_toml::<toml::Table>(&text).unwrap_err(),
            vec![TomlError {
                offset: text.find('\n').unwrap() + 1,
                message: format!("TOML: duplicate key `{short}`"),
            }]
        );
        let long = "k".repeat(81);
        let text = format!("{long} = 1\n{long} = 2\n");
        assert_eq!(
            parse_toml::<toml::Table>(&text).unwrap_err(),
            vec![TomlError {
                offset: text.find('\n').unwrap() + 1,
                message: "TOML: duplicate key".into(),
            }]
        );
    }

    /// A file read whole into one value (`try_from` a table) that refuses it.
    #[derive(Debug, serde::Deserialize)]
    #[serde(try_from = "toml::Table")]
    struct Refused;

    impl TryFrom<toml::Table> for Refused {
        type Error = String;
        fn try_from(_: toml::Table) -> Result<Self, String> {
            Err("no file of this kind is read".into())
        }
    }

    /// An error of the whole file has no place: it is said once, in its own words (it was
    /// listed twice, the first entry taken out for it).
    #[test]
    fn an_error_of_the_whole_file_is_said_once_in_its_own_words() {
        assert_eq!(
            parse_toml::<Refused>("a = 1\n").unwrap_err(),
            vec![TomlError {
                offset: 0,
                message: "TOML: no file of this kind is read".into(),
            }]
        );
    }

    /// The nesting limit comes with no place: the line nested deepest is named (it was line 0
    /// in an orders file, 1 in a scenario).
    #[test]
    fn a_file_nested_too_deep_is_named_at_its_deepest_line() {
        let deep = format!(
            "name = \"x{}\" # {}\nturns = 1\n[{}]\nx = 1\n",
            ".".repeat(400),
            "[".repeat(400),
            vec!["a"; 150].join(".")
        );
        let errors = parse_toml::<toml::Table>(&deep).unwrap_err();
        assert_eq!(
            errors,
            vec![TomlError {
                offset: deep.find("\n[").unwrap() + 1,
                message: "TOML: recursion limit: tables or values nested too deep to read".into(),
            }]
        );
        // (an array in arrays: the parser names its place, on the second line)
        let arrays = format!("a = 1\nb = {}1{}\n", "[".repeat(200), "]".repeat(200));
        let errors = parse_toml::<toml::Table>(&arrays).unwrap_err();
        assert!((6..arrays.len()).contains(&errors[0].offset), "{errors:?}");
        assert_eq!(
            errors[0].message,
            "TOML: cannot recurse further; max recursion depth met"
        );

        // (dots after a closed string count)
        let keys = vec!["a"; 150].join(".");
        let quoted = format!("m = [[[[[1]]]]]\n[\"q\".{keys}]\nx = 1\n");
        let errors = parse_toml::<toml::Table>(&quoted).unwrap_err();
        assert_eq!(errors[0].offset, quoted.find("\n[").unwrap() + 1);
    }
}

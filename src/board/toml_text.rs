//! TOML text read into the files' specs, with errors a designer can act on: a duplicate key
//! named, an unknown key given the nearest known one, and every unknown key of a file listed
//! (serde stops at the first, so a file with three misspelt keys took three runs of `check`).

use serde::de::DeserializeOwned;

/// The most unknown keys listed for one file: each is found by parsing the file again.
const MAX_UNKNOWN_KEYS: usize = 32;

/// A TOML error at a byte offset of the text (0 when the parser names no place).
#[derive(Debug, Clone, PartialEq)]
pub struct TomlError {
    pub offset: usize,
    pub message: String,
}

/// Reads `text` as a `T`. When that fails on an unknown key that sits alone on its line
/// (`turn = 2`), the line is blanked and the text read again, so every such key is reported,
/// each at its own line, followed by the first error of another kind if there is one: removing a
/// key the format does not know changes nothing else, so that error is the file's own. The
/// errors come in the file's order. A key
/// that shares its line, a table header (`[sied]`) or a value over several lines stops the
/// search there, as serde would.
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, Vec<TomlError>> {
    let mut errors: Vec<TomlError> = Vec::new();
    let mut blanked: Option<String> = None;
    loop {
        let current = blanked.as_deref().unwrap_or(text);
        let e = match toml::from_str::<T>(current) {
            Ok(value) if errors.is_empty() => return Ok(value),
            Ok(_) => return Err(in_file_order(errors)),
            Err(e) => e,
        };
        let offset = e.span().map(|s| s.start).unwrap_or(0);
        errors.push(TomlError {
            offset,
            message: toml_message(&e, current),
        });
        let line = match unknown_key_line(&e, current) {
            Some(line) if errors.len() < MAX_UNKNOWN_KEYS => line,
            _ => return Err(in_file_order(errors)),
        };
        let mut next = current.to_string();
        next.replace_range(line.clone(), &" ".repeat(line.len()));
        blanked = Some(next);
    }
}

/// The errors in the file's order (serde meets a table's keys in its own), without a missing
/// field that an unknown key is already said to mean (`turn` (did you mean `turns`?) explains
/// the missing `turns`).
fn in_file_order(mut errors: Vec<TomlError>) -> Vec<TomlError> {
    let meant: Vec<String> = errors
        .iter()
        .filter_map(|e| {
            let rest = e.message.split_once("(did you mean `")?.1;
            Some(rest.split('`').next()?.to_string())
        })
        .collect();
    errors.retain(|e| {
        let missing = e
            .message
            .strip_prefix("TOML: missing field `")
            .and_then(|rest| rest.strip_suffix('`'));
        !missing.is_some_and(|field| meant.iter().any(|m| m == field))
    });
    errors.sort_by_key(|e| e.offset);
    errors
}

/// The byte range of the line (without its newline) that holds the unknown key of `e` and
/// nothing else: the key starts the line and the line alone is one `key = value`.
fn unknown_key_line(e: &toml::de::Error, text: &str) -> Option<std::ops::Range<usize>> {
    let field = e
        .message()
        .strip_prefix("unknown field `")?
        .split('`')
        .next()?;
    let start = e.span()?.start;
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text
        .get(start..)?
        .find('\n')
        .map_or(text.len(), |i| start + i);
    let line = text.get(line_start..line_end)?;
    let leading = line.len() - line.trim_start().len();
    if line_start + leading != start || line.trim_start().starts_with('[') {
        return None;
    }
    let alone: toml::Table = toml::from_str(line).ok()?;
    (alone.len() == 1 && alone.contains_key(field)).then_some(line_start..line_end)
}

/// A TOML parse error's message as the files' errors give it (`TOML: ...`), naming the key of a
/// duplicate key (the parser says only "duplicate key"; its span covers the key in `text`).
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
    format!("TOML: {}", with_nearest_field(message.trim_end()))
}

/// serde's "unknown field `seeed`, expected one of `id`, ..., `seed`" with the nearest field
/// named after the unknown one (`seeed` (did you mean `seed`?)): a long list hid the one meant.
fn with_nearest_field(message: &str) -> String {
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
    }

    #[test]
    fn an_error_of_another_kind_after_the_unknown_keys_is_listed_too() {
        let text = "name = \"x\"\nturns = \"three\"\ncolour = 2\n";
        let errors = errors_of(text);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].0, 2);
        assert!(
            errors[0].1.contains("invalid type: string \"three\""),
            "{errors:?}"
        );
        assert_eq!(errors[1].0, 3);
        assert!(
            errors[1].1.starts_with("TOML: unknown field `colour`"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_missing_field_a_misspelt_key_is_said_to_mean_is_left_out() {
        // (the unit's side is misspelt, so it has none; `id` is missing for want of any key)
        let text = "name = \"x\"\nturns = 1\n[[unit]]\nsied = \"blue\"\n";
        let errors = errors_of(text);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0], (3, "TOML: missing field `id`".to_string()));
        assert_eq!(errors[1].0, 4);
        assert!(
            errors[1]
                .1
                .starts_with("TOML: unknown field `sied` (did you mean `side`?)"),
            "{errors:?}"
        );
    }

    #[test]
    fn an_unknown_key_that_is_not_alone_on_its_line_ends_the_list() {
        // (in an inline table; a value over several lines, whose first line blanked would leave
        // a syntax error; a table header, whose keys blanked would join the table above)
        for (text, key) in [
            (
                "name = \"x\"\nturns = 1\nunit = [{ id = \"a\", side = \"b\", sied = \"b\" }]\n",
                "sied",
            ),
            ("name = \"x\"\nturns = 1\ncolours = [\n  1,\n]\n", "colours"),
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
    fn the_unknown_keys_listed_for_one_file_are_bounded() {
        let mut text = String::from("name = \"x\"\nturns = 1\n");
        for i in 0..100 {
            text.push_str(&format!("extra{i} = {i}\n"));
        }
        assert_eq!(errors_of(&text).len(), MAX_UNKNOWN_KEYS);
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
}

//! The rules' `supply` query answer (`{unit_id = true/false}`), read once for `hexwar supply`
//! and the renderer's supply overlay. An answer that is neither a boolean nor one of the words
//! the CLI prints is refused, naming the unit: read as "isolated", a designer's
//! `"supplied"`-by-another-spelling silently turned every unit isolated.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// Each unit's supply (true: supplied), in id order.
pub fn supply_status(answer: &Map<String, Value>) -> Result<BTreeMap<String, bool>, String> {
    answer
        .iter()
        .map(|(id, v)| {
            let supplied = match v {
                Value::Bool(b) => *b,
                Value::String(s) if s == "supplied" => true,
                Value::String(s) if s == "isolated" => false,
                other => {
                    return Err(format!(
                        "the rules' supply query answered {other} for unit '{id}' (expected true \
                         or false, or \"supplied\" or \"isolated\")"
                    ))
                }
            };
            Ok((id.clone(), supplied))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::supply_status;

    #[test]
    fn booleans_and_the_printed_words_are_read_anything_else_is_named() {
        let answer = |v: serde_json::Value| supply_status(v.as_object().expect("an object"));
        assert_eq!(
            answer(json!({"a": true, "b": false, "c": "supplied", "d": "isolated"})),
            Ok([
                ("a".to_string(), true),
                ("b".to_string(), false),
                ("c".to_string(), true),
                ("d".to_string(), false)
            ]
            .into())
        );
        assert_eq!(
            answer(json!({"a": true, "c": "whatever"})),
            Err(
                "the rules' supply query answered \"whatever\" for unit 'c' (expected true or \
                 false, or \"supplied\" or \"isolated\")"
                    .into()
            )
        );
        assert_eq!(
            answer(json!({"x": 1})),
            Err(
                "the rules' supply query answered 1 for unit 'x' (expected true or false, or \
                 \"supplied\" or \"isolated\")"
                    .into()
            )
        );
    }
}

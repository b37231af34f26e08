//! A JSON object that names a key twice is refused in a save or a replay. serde keeps the
//! last of the two, and a save's checksum is worked out from what was read: a unit written
//! twice, its first copy edited, read as the second without a word.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Walks the JSON text and fails at the first object holding a key twice, naming the key (the
/// error carries its line and column). Other faults are left to the real reader, which names
/// them in terms of what it expected.
pub(crate) fn refuse_duplicate_keys(text: &str) -> Result<(), serde_json::Error> {
    serde_json::from_str::<Checked>(text).map(|_| ())
}

/// Any JSON value whose objects each name a key at most once.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        reader.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Checked, A::Error> {
        while items.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Checked, A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = entries.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(de::Error::custom(format!(
                    "the key \"{key}\" is given twice in one object"
                )));
            }
            entries.next_value::<Checked>()?;
            seen.insert(key);
        }
        Ok(Checked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key twice in a nested object is named, with where the second one ends.
    #[test]
    fn a_key_given_twice_is_named_with_its_place() {
        let text = "{\"units\": {\n  \"a1\": {\"at\": \"0101\"},\n  \"a1\": {\"at\": \"0102\"}\n}}";
        let e = refuse_duplicate_keys(text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the key \"a1\" is given twice in one object at line 3 column 6"
        );
        assert_eq!(e.line(), 3);
    }

    /// The same key in two different objects, in arrays, and every kind of value pass.
    #[test]
    fn the_same_key_in_different_objects_passes() {
        let text =
            r#"{"a": {"x": 1}, "b": {"x": [1, 2.5, -3, null, true, "s", {"x": {}}]}, "x": []}"#;
        assert!(refuse_duplicate_keys(text).is_ok());
    }

    /// A key twice inside an object in an array is found too.
    #[test]
    fn a_key_twice_inside_an_array_is_found() {
        let e = refuse_duplicate_keys(r#"[{"x": 1}, {"y": 1, "y": 2}]"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the key \"y\" is given twice in one object at line 1 column 23"
        );
    }
}

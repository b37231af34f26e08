//! Lua has one empty table for both an empty list and an empty map: a script's `{}` reads as
//! whichever the host tried first. Map fields of events take an empty list too, so an event
//! holding both kinds empty (`status = {}, attrs = {}`) reads, whichever way `{}` was read.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{value::MapAccessDeserializer, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// `#[serde(deserialize_with = ...)]` for a map field: a map, or an empty list read as an
/// empty map. A list with items stays an error.
pub(crate) fn map_or_empty_list<'de, D, M>(deserializer: D) -> Result<M, D::Error>
where
    D: Deserializer<'de>,
    M: Deserialize<'de> + Default,
{
    struct MapOrEmptyList<M>(PhantomData<M>);

    impl<'de, M: Deserialize<'de> + Default> Visitor<'de> for MapOrEmptyList<M> {
        type Value = M;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a table of names to values")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<M, A::Error> {
            M::deserialize(MapAccessDeserializer::new(map))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<M, A::Error> {
            match seq.next_element::<serde::de::IgnoredAny>()? {
                None => Ok(M::default()),
                Some(_) => Err(serde::de::Error::invalid_type(
                    serde::de::Unexpected::Seq,
                    &self,
                )),
            }
        }
    }

    deserializer.deserialize_any(MapOrEmptyList(PhantomData))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Scored {
        #[serde(default, deserialize_with = "super::map_or_empty_list")]
        scores: BTreeMap<String, f64>,
    }

    #[test]
    fn an_empty_list_reads_as_an_empty_map_and_a_full_one_is_refused() {
        let read = |text: &str| serde_json::from_str::<Scored>(text).map_err(|e| e.to_string());
        assert_eq!(
            read(r#"{"scores": []}"#),
            Ok(Scored {
                scores: BTreeMap::new()
            })
        );
        assert_eq!(
            read(r#"{"scores": {"a": 1}}"#),
            Ok(Scored {
                scores: BTreeMap::from([("a".to_string(), 1.0)])
            })
        );
        assert_eq!(
            read(r#"{}"#),
            Ok(Scored {
                scores: BTreeMap::new()
            })
        );
        assert_eq!(
            read(r#"{"scores": [1]}"#),
            Err(
                "invalid type: sequence, expected a table of names to values at line 1 column 14"
                    .into()
            )
        );
    }
}

//! How many items a list a script hands the host holds (a `legal` listing, `hex.rules.sequence`'s
//! steps, a group of unit ids): its items 1 to n, or an error naming the first hole.
//!
//! Why: a nil in the middle of a list (`list[i] = ok and cmd or nil`, a constructor with a call
//! that gave nil) used to drop the items after it without a word, and not the same ones
//! everywhere: the host's listing and `hex.commands.legal` item by item stopped at the first nil,
//! while `hex.commands.legal`'s one-command copy went up to the border `#` found, holes included.
//! Events are checked the same way (`convert::list_shape`).

use mlua::{Table, Value};

/// The number of items of `list` (its positive integer keys, which must be 1 to n), or why it
/// is not a list of `what` ("commands"): the first index without an item. Other keys (`n = 3`)
/// are left unread, as before. One walk of the table in one protected call
/// (`Table::for_each`): the F40 bot's listings run to hundreds of commands.
pub(crate) fn list_length(list: &Table, what: &str) -> Result<usize, String> {
    let (mut count, mut last) = (0usize, 0i64);
    list.for_each::<Value, bool>(|key, _| {
        if let Value::Integer(i) = key {
            if i >= 1 {
                count += 1;
                last = last.max(i);
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    if usize::try_from(last).is_ok_and(|l| l == count) {
        return Ok(count);
    }
    // (the first index missing from 1..=last: `count` items stand below `last`, so one is)
    let gap = (1..=last)
        .find(|&i| list.raw_get::<Value>(i).is_ok_and(|v| v.is_nil()))
        .unwrap_or(last);
    Err(format!(
        "a list with nothing at #{gap} (its last item is #{last}): a nil in a list of {what} \
         would drop the {what} after it"
    ))
}

#[cfg(test)]
mod tests {
    use super::list_length;
    use mlua::{Lua, Table};

    fn table(lua: &Lua, code: &str) -> Table {
        lua.load(code).eval().unwrap()
    }

    #[test]
    fn a_sequence_gives_its_length_and_other_keys_are_left_unread() {
        let lua = Lua::new();
        assert_eq!(list_length(&table(&lua, "return {}"), "commands"), Ok(0));
        assert_eq!(
            list_length(&table(&lua, "return {1, 2, 3}"), "commands"),
            Ok(3)
        );
        assert_eq!(
            list_length(
                &table(&lua, "return {1, 2, n = 2, [0] = 5, [-1] = 4}"),
                "commands"
            ),
            Ok(2)
        );
        // (a sequence built item by item, part of it in the hash part)
        let grown = table(
            &lua,
            "local t = {} t[3] = 'c' t[1] = 'a' t[2] = 'b' return t",
        );
        assert_eq!(list_length(&grown, "commands"), Ok(3));
    }

    #[test]
    fn a_hole_is_named_at_its_first_index_whatever_the_border_says() {
        let lua = Lua::new();
        // (a constructor: `#` answers 4, the border past the hole)
        assert_eq!(
            list_length(&table(&lua, "return {1, nil, nil, 4}"), "commands"),
            Err(
                "a list with nothing at #2 (its last item is #4): a nil in a list of \
                 commands would drop the commands after it"
                    .into()
            )
        );
        // (keys set one by one: `#` answers 2, the border before the hole)
        let sparse = table(&lua, "local t = {} t[1] = 1 t[2] = 2 t[5] = 5 return t");
        assert_eq!(
            list_length(&sparse, "commands"),
            Err(
                "a list with nothing at #3 (its last item is #5): a nil in a list of \
                 commands would drop the commands after it"
                    .into()
            )
        );
        // (no first item at all)
        assert_eq!(
            list_length(&table(&lua, "return {[2] = 'b'}"), "steps"),
            Err(
                "a list with nothing at #1 (its last item is #2): a nil in a list of \
                 steps would drop the steps after it"
                    .into()
            )
        );
    }
}

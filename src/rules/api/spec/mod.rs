//! The documentation of the `hex.*` API, one file per namespace, read by the LuaLS generator
//! (`crate::rules::luals`). The generator walks the live `hex` table that `register_all` builds
//! and takes each function's signature from here: a registered function without a line here, or
//! a line for a function that is not registered, is an error (tests/luals.rs).
//!
//! Adding an API function is one line in its namespace's file:
//!
//! ```text
//! "terrain(label: string): string -- The terrain name of a hex.",
//! ```
//!
//! (one string, so rustfmt keeps it on one line). The signature is `name(param: type, optional?: type, ...: type): return, second_return`
//! in LuaLS type syntax (`string[]`, `table<string, number>`, `T?`, `A|B`, `fun(x: T): R`,
//! `hexwar.Unit`); no `: return` part means the function returns nothing. The view classes
//! (`hexwar.Unit`, events, ...) are in `views.rs`.

mod commands;
mod dice;
mod events;
mod map;
mod path;
mod rules;
mod state;
mod test_api;
mod top;
mod units;
mod views;

/// One function: `"signature -- one-line description"`.
pub(crate) type FunctionDoc = &'static str;

/// One field of a class: `"name: type -- description"` (`"name?: type"` when it may be nil;
/// the description may be left out).
pub(crate) type FieldDoc = &'static str;

/// A `hex.<name>` table and its functions.
pub(crate) struct NamespaceDoc {
    pub name: &'static str,
    pub doc: &'static str,
    pub functions: &'static [FunctionDoc],
}

/// A class of the tables the API hands out or takes (views, events, declarations).
pub(crate) struct ClassDoc {
    pub name: &'static str,
    /// The class it extends (`hexwar.Event` for each event), if any.
    pub parent: Option<&'static str>,
    pub doc: &'static str,
    pub fields: &'static [FieldDoc],
}

/// Every namespace, by name.
pub(crate) fn namespaces() -> Vec<&'static NamespaceDoc> {
    vec![
        &commands::SPEC,
        &dice::SPEC,
        &events::SPEC,
        &map::SPEC,
        &path::SPEC,
        &rules::SPEC,
        &state::SPEC,
        &units::SPEC,
    ]
}

/// Functions directly under `hex` (`hex.refuse`, `hex.log`).
pub(crate) fn top_functions() -> &'static [FunctionDoc] {
    top::FUNCTIONS
}

/// Values directly under `hex` that are not functions (`hex.api_version`).
pub(crate) fn top_fields() -> &'static [FieldDoc] {
    top::FIELDS
}

/// The view, event and declaration classes.
pub(crate) fn classes() -> &'static [ClassDoc] {
    views::CLASSES
}

/// The test API of `hexwar test`: the global `test`, the functions of `t`, and its classes.
pub(crate) fn test_api() -> (FunctionDoc, &'static [FunctionDoc], &'static [ClassDoc]) {
    (test_api::GLOBAL, test_api::FUNCTIONS, test_api::CLASSES)
}

/// Aliases (`---@alias name type`): named unions the signatures use.
pub(crate) fn aliases() -> &'static [(&'static str, &'static str, &'static str)] {
    views::ALIASES
}

/// The full name of an API function known by its own name (`distance` -> `hex.map.distance`),
/// for messages: None when no function or more than one namespace has that name (`get`).
pub(crate) fn qualified_name(short: &str) -> Option<String> {
    let name_of = |doc: &str| doc.split('(').next().unwrap_or(doc).to_string();
    let mut found = top_functions()
        .iter()
        .filter(|doc| name_of(doc) == short)
        .map(|_| format!("hex.{short}"))
        .chain(namespaces().into_iter().flat_map(|ns| {
            ns.functions
                .iter()
                .filter(|doc| name_of(doc) == short)
                .map(move |_| format!("hex.{}.{short}", ns.name))
        }));
    match (found.next(), found.next()) {
        (Some(name), None) => Some(name),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// Messages name a function with its namespace where only one namespace has it.
    #[test]
    fn qualified_name_is_given_only_when_one_namespace_has_the_function() {
        assert_eq!(
            super::qualified_name("distance").as_deref(),
            Some("hex.map.distance")
        );
        assert_eq!(
            super::qualified_name("refuse").as_deref(),
            Some("hex.refuse")
        );
        // (hex.units.get, hex.state.get, ...)
        assert_eq!(super::qualified_name("get"), None);
        assert_eq!(super::qualified_name("nothing_of_the_kind"), None);
    }
}

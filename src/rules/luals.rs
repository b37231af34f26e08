//! The LuaLS definition file of the `hex.*` API (`hexwar api --luals`, committed as
//! `types/hexwar.lua`): editors get completion and type checking in rules folders.
//!
//! The list of functions comes from the live `hex` table that `register_all` builds, walked in
//! sorted key order (deterministic output); each function's signature and description come from
//! `api/spec/`. A registered function without a spec line, or a spec line without a registered
//! function, is an error, so the definitions cannot drift from the API.

use mlua::{Lua, Table, Value};

use super::api::spec::{self, ClassDoc, FieldDoc, FunctionDoc, NamespaceDoc};

/// Why the definitions could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum LualsError {
    #[error("the hex API and its spec (src/rules/api/spec/) disagree:\n{}", .0.join("\n"))]
    Mismatch(Vec<String>),
    #[error("cannot build the hex API to list its functions: {0}")]
    Lua(#[from] mlua::Error),
}

/// The spec the generator reads (the real one, or a small one in tests).
pub(crate) struct ApiDocs<'a> {
    pub top_functions: &'a [FunctionDoc],
    pub top_fields: &'a [FieldDoc],
    pub namespaces: Vec<&'a NamespaceDoc>,
    pub classes: &'a [ClassDoc],
    pub aliases: &'a [(&'a str, &'a str, &'a str)],
}

impl ApiDocs<'static> {
    fn registered() -> Self {
        ApiDocs {
            top_functions: spec::top_functions(),
            top_fields: spec::top_fields(),
            namespaces: spec::namespaces(),
            classes: spec::classes(),
            aliases: spec::aliases(),
        }
    }
}

/// The definition file of the API this build registers, and of the test API of `hexwar test`.
pub fn luals_definitions() -> Result<String, LualsError> {
    let lua = Lua::new();
    let hex = super::api::build(&lua)?;
    let mut out = generate(&hex, &ApiDocs::registered())?;
    out.push_str(&test_api()?);
    let errors = undefined_types(&out);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(LualsError::Mismatch(errors))
    }
}

/// The test API section: the live `t` table of the test prelude, documented by `spec/test_api.rs`.
fn test_api() -> Result<String, LualsError> {
    test_api_of(include_str!("../luatest/prelude.lua"), spec::test_api())
}

/// The spec of the test API: the global `test`, the functions of `t`, and its classes.
type TestApiDocs = (FunctionDoc, &'static [FunctionDoc], &'static [ClassDoc]);

/// The test API section of `prelude` (a chunk returning its tests and `t`, and defining the
/// global), documented by `docs`: separate from `test_api` so a test can give a wrong spec.
fn test_api_of(prelude: &str, docs: TestApiDocs) -> Result<String, LualsError> {
    let lua = Lua::new();
    let (_tests, t): (Table, Table) = lua.load(prelude).set_name("=hexwar test API").eval()?;
    let (global, functions, classes) = docs;
    let file = spec_file("test_api");
    let mut errors = Vec::new();
    let mut out = String::from(
        "\n-- The test API of `hexwar test` (docs/testing.md), for `*_test.lua` files.\n",
    );
    for class in classes {
        class_lines(&mut out, class, &mut errors);
    }
    out.push_str(
        "\n---What each test function gets: start a game, give commands, compare.\n\
         ---@class hexwar.Test\n\
         local t = {}\n",
    );
    functions_of(
        &mut out,
        "t",
        &sorted_pairs(&t)?,
        functions,
        &file,
        &mut errors,
    );
    let (sig, doc) = split_doc(global);
    match parse_signature(sig) {
        Ok(sig)
            if matches!(
                lua.globals().raw_get::<Value>(sig.name)?,
                Value::Function(_)
            ) =>
        {
            function_stub(&mut out, sig.name, &sig, doc)
        }
        Ok(sig) => errors.push(format!(
            "{} is in {file} but the test prelude defines no such global",
            sig.name
        )),
        Err(e) => errors.push(format!("{file}: {e}")),
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(LualsError::Mismatch(errors))
    }
}

/// A parsed signature: `name(params): returns`.
#[derive(Debug, PartialEq)]
pub(super) struct Signature<'a> {
    pub name: &'a str,
    /// `(name, type)`; the name keeps its `?` when optional, `...` for varargs.
    pub params: Vec<(&'a str, &'a str)>,
    pub returns: Vec<&'a str>,
}

/// Splits at commas outside brackets.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' | '>' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        parts.push(last);
    }
    parts
}

/// Splits a spec line into its declaration and its description (`decl -- doc`).
pub(super) fn split_doc(line: &str) -> (&str, &str) {
    match line.split_once(" -- ") {
        Some((decl, doc)) => (decl.trim(), doc.trim()),
        None => (line.trim(), ""),
    }
}

/// `name: type` (or `name?: type`, `[string]: type`).
pub(super) fn split_typed(text: &str) -> Option<(&str, &str)> {
    let (name, ty) = text.split_once(':')?;
    let (name, ty) = (name.trim(), ty.trim());
    (!name.is_empty() && !ty.is_empty()).then_some((name, ty))
}

pub(super) fn parse_signature(sig: &str) -> Result<Signature<'_>, String> {
    let bad = |why: &str| format!("'{sig}': {why} (expected `name(param: type, ...): return`)");
    let open = sig.find('(').ok_or_else(|| bad("no '('"))?;
    let name = sig[..open].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad("the name must be a Lua identifier"));
    }
    let mut depth = 0i32;
    let mut close = None;
    for (i, c) in sig[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(|| bad("no matching ')'"))?;
    let params = split_top_level(&sig[open + 1..close])
        .into_iter()
        .map(|p| split_typed(p).ok_or_else(|| bad(&format!("parameter '{p}' has no type"))))
        .collect::<Result<Vec<_>, _>>()?;
    let rest = sig[close + 1..].trim();
    let returns = match rest.strip_prefix(':') {
        Some(r) if !r.trim().is_empty() => split_top_level(r),
        Some(_) => return Err(bad("nothing after ':'")),
        None if rest.is_empty() => Vec::new(),
        None => return Err(bad("text after ')' must be ': return'")),
    };
    Ok(Signature {
        name,
        params,
        returns,
    })
}

/// The table's keys and values, sorted by key (string keys only: the API has no others).
fn sorted_pairs(table: &Table) -> mlua::Result<Vec<(String, Value)>> {
    let mut pairs = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let key = match &k {
            Value::String(s) => s.to_str()?.to_string(),
            other => format!("[{}]", other.to_string()?),
        };
        pairs.push((key, v));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(pairs)
}

/// Where a namespace's spec lives, for the error messages.
fn spec_file(namespace: &str) -> String {
    format!("src/rules/api/spec/{namespace}.rs")
}

/// Appends `---` doc lines (none for an empty description).
fn doc_line(out: &mut String, doc: &str) {
    if !doc.is_empty() {
        out.push_str("---");
        out.push_str(doc);
        out.push('\n');
    }
}

fn field_line(out: &mut String, field: FieldDoc, errors: &mut Vec<String>, owner: &str) {
    let (decl, doc) = split_doc(field);
    match split_typed(decl) {
        Some((name, ty)) => {
            out.push_str(&format!("---@field {name} {ty}"));
            if !doc.is_empty() {
                out.push(' ');
                out.push_str(doc);
            }
            out.push('\n');
        }
        None => errors.push(format!(
            "{owner}: field '{decl}' has no type (expected `name: type -- description`)"
        )),
    }
}

/// Emits a class and its fields.
fn class_lines(out: &mut String, class: &ClassDoc, errors: &mut Vec<String>) {
    out.push('\n');
    doc_line(out, class.doc);
    match class.parent {
        Some(parent) => out.push_str(&format!("---@class {}: {parent}\n", class.name)),
        None => out.push_str(&format!("---@class {}\n", class.name)),
    }
    for field in class.fields {
        field_line(out, field, errors, class.name);
    }
}

/// Emits one function stub named `qualified` (`hex.map.terrain`, `test`).
fn function_stub(out: &mut String, qualified: &str, sig: &Signature, doc: &str) {
    out.push('\n');
    doc_line(out, doc);
    for (name, ty) in &sig.params {
        out.push_str(&format!("---@param {name} {ty}\n"));
    }
    for ty in &sig.returns {
        out.push_str(&format!("---@return {ty}\n"));
    }
    let names: Vec<&str> = sig
        .params
        .iter()
        .map(|(n, _)| n.trim_end_matches('?'))
        .collect();
    out.push_str(&format!("function {qualified}({}) end\n", names.join(", ")));
}

/// Documents the functions of one live table against their spec lines; records mismatches.
fn functions_of(
    out: &mut String,
    path: &str,
    live: &[(String, Value)],
    docs: &[FunctionDoc],
    file: &str,
    errors: &mut Vec<String>,
) {
    let mut parsed = Vec::new();
    for line in docs {
        let (sig, doc) = split_doc(line);
        match parse_signature(sig) {
            Ok(s) => {
                if parsed
                    .iter()
                    .any(|(p, _): &(Signature, &str)| p.name == s.name)
                {
                    errors.push(format!("{file}: {path}.{} is documented twice", s.name));
                } else {
                    parsed.push((s, doc));
                }
            }
            Err(e) => errors.push(format!("{file}: {e}")),
        }
    }
    for (key, value) in live {
        if !matches!(value, Value::Function(_)) {
            continue;
        }
        match parsed.iter().find(|(s, _)| s.name == key) {
            Some((sig, doc)) => function_stub(out, &format!("{path}.{key}"), sig, doc),
            None => errors.push(format!(
                "{path}.{key} is registered but has no spec: add a line for it to {file}"
            )),
        }
    }
    for (sig, _) in &parsed {
        let registered = live
            .iter()
            .any(|(k, v)| k == sig.name && matches!(v, Value::Function(_)));
        if !registered {
            errors.push(format!(
                "{path}.{} is in {file} but no such function is registered",
                sig.name
            ));
        }
    }
}

/// The `hexwar.Name` types the annotations use but no `---@class` or `---@alias` defines (a typo
/// in a spec line would otherwise only show up as an unknown type in the designer's editor).
fn undefined_types(text: &str) -> Vec<String> {
    let mut defined = std::collections::BTreeSet::new();
    for line in text.lines() {
        for tag in ["---@class ", "---@alias "] {
            if let Some(rest) = line.strip_prefix(tag) {
                let name = rest.split([':', ' ']).next().unwrap_or_default();
                defined.insert(name.to_string());
            }
        }
    }
    let mut missing = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| l.starts_with("---@")) {
        let mut rest = line;
        while let Some(i) = rest.find("hexwar.") {
            let tail = &rest[i..];
            let end = tail["hexwar.".len()..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(tail.len(), |e| e + "hexwar.".len());
            let name = &tail[..end];
            if !defined.contains(name) {
                missing.insert(name.to_string());
            }
            rest = &tail[end..];
        }
    }
    missing
        .into_iter()
        .map(|name| {
            format!("{name} is used by a spec line but defined nowhere: add it to src/rules/api/spec/views.rs")
        })
        .collect()
}

/// The definition file for the live `hex` table `hex`, documented by `docs`.
pub(crate) fn generate(hex: &Table, docs: &ApiDocs) -> Result<String, LualsError> {
    let mut errors = Vec::new();
    let mut out = String::from(
        "---@meta hexwar\n\
         -- The hexwar `hex.*` API for lua-language-server (docs/guide.md, \"Editor support\").\n\
         -- Generated by `hexwar api --luals` from the registered API and src/rules/api/spec/:\n\
         -- do not edit; regenerate with `cargo run -- api --luals > types/hexwar.lua`.\n",
    );
    for (name, ty, doc) in docs.aliases {
        out.push('\n');
        doc_line(&mut out, doc);
        out.push_str(&format!("---@alias {name} {ty}\n"));
    }
    for class in docs.classes {
        class_lines(&mut out, class, &mut errors);
    }

    let live = sorted_pairs(hex)?;
    let top_file = spec_file("top");
    out.push_str(
        "\n---The hexwar API, one read-only global table: rules read views and return events.\n\
         ---@class hexwar.hex\n",
    );
    for field in docs.top_fields {
        field_line(&mut out, field, &mut errors, &top_file);
    }
    out.push_str("hex = {}\n");
    for (key, value) in &live {
        let scalar = !matches!(value, Value::Function(_) | Value::Table(_));
        let documented = docs.top_fields.iter().any(|f| {
            split_typed(split_doc(f).0).is_some_and(|(n, _)| n.trim_end_matches('?') == key)
        });
        if scalar && !documented {
            errors.push(format!(
                "hex.{key} is registered but has no spec: add a field for it to {top_file}"
            ));
        }
    }
    for field in docs.top_fields {
        if let Some((name, _)) = split_typed(split_doc(field).0) {
            if !live.iter().any(|(k, _)| k == name.trim_end_matches('?')) {
                errors.push(format!(
                    "hex.{name} is in {top_file} but no such value is registered"
                ));
            }
        }
    }
    functions_of(
        &mut out,
        "hex",
        &live,
        docs.top_functions,
        &top_file,
        &mut errors,
    );

    for (key, value) in &live {
        let Value::Table(table) = value else { continue };
        let file = spec_file(key);
        let Some(ns) = docs.namespaces.iter().find(|n| n.name == key) else {
            errors.push(format!(
                "hex.{key} is registered but has no spec: add {file} and list it in src/rules/api/spec/mod.rs"
            ));
            continue;
        };
        out.push('\n');
        doc_line(&mut out, ns.doc);
        out.push_str(&format!("---@class hexwar.{key}\nhex.{key} = {{}}\n"));
        let members = sorted_pairs(table)?;
        for (member, v) in &members {
            if !matches!(v, Value::Function(_)) {
                errors.push(format!(
                    "hex.{key}.{member} is a {} (the generator documents functions only)",
                    v.type_name()
                ));
            }
        }
        functions_of(
            &mut out,
            &format!("hex.{key}"),
            &members,
            ns.functions,
            &file,
            &mut errors,
        );
    }
    for ns in &docs.namespaces {
        if !live
            .iter()
            .any(|(k, v)| k == ns.name && matches!(v, Value::Table(_)))
        {
            errors.push(format!(
                "hex.{} is in {} but no such namespace is registered",
                ns.name,
                spec_file(ns.name)
            ));
        }
    }
    errors.extend(undefined_types(&out));
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(LualsError::Mismatch(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of mismatches a generation refused with.
    fn mismatch(generated: Result<String, LualsError>) -> Vec<String> {
        match generated {
            Err(LualsError::Mismatch(errors)) => errors,
            other => panic!("expected a mismatch, got {other:?}"),
        }
    }

    #[test]
    fn a_signature_splits_into_typed_params_and_returns() {
        let sig = parse_signature(
            "on(name: string, handler: fun(ev: hexwar.Event, n: integer): hexwar.Event[]?, priority?: integer): table<string, number>, string?",
        )
        .unwrap();
        assert_eq!(
            sig,
            Signature {
                name: "on",
                params: vec![
                    ("name", "string"),
                    (
                        "handler",
                        "fun(ev: hexwar.Event, n: integer): hexwar.Event[]?"
                    ),
                    ("priority?", "integer"),
                ],
                returns: vec!["table<string, number>", "string?"],
            }
        );
        assert_eq!(parse_signature("log(...: any)").unwrap().returns.len(), 0);
    }

    #[test]
    fn a_malformed_signature_says_what_was_expected() {
        assert_eq!(
            parse_signature("roll(sides)").unwrap_err(),
            "'roll(sides)': parameter 'sides' has no type (expected `name(param: type, ...): return`)"
        );
        assert_eq!(
            parse_signature("roll(): ").unwrap_err(),
            "'roll(): ': nothing after ':' (expected `name(param: type, ...): return`)"
        );
        // (a parameter with an empty name or type, a nameless function, words after ')')
        for (sig, why) in [
            ("roll(sides:)", "parameter 'sides:' has no type"),
            ("roll(: integer)", "parameter ': integer' has no type"),
            ("(sides: integer)", "the name must be a Lua identifier"),
            ("roll() integer", "text after ')' must be ': return'"),
        ] {
            assert_eq!(
                parse_signature(sig).unwrap_err(),
                format!("'{sig}': {why} (expected `name(param: type, ...): return`)")
            );
        }
        assert_eq!(split_typed("sides?: integer"), Some(("sides?", "integer")));
        assert_eq!(split_typed(" : integer"), None);
        assert_eq!(split_typed("sides : "), None);
    }

    const DICE: NamespaceDoc = NamespaceDoc {
        name: "dice",
        doc: "Dice.",
        functions: &[
            "roll(sides?: integer): integer -- A roll.",
            "flip(): boolean -- Not registered.",
        ],
    };

    fn live_table(lua: &Lua) -> Table {
        let hex = lua.create_table().unwrap();
        let dice = lua.create_table().unwrap();
        let f = lua.create_function(|_, ()| Ok(())).unwrap();
        dice.raw_set("roll", f.clone()).unwrap();
        dice.raw_set("shuffle", f.clone()).unwrap();
        hex.raw_set("dice", dice).unwrap();
        hex.raw_set("refuse", f).unwrap();
        hex.raw_set("api_version", 1).unwrap();
        hex
    }

    #[test]
    fn missing_and_unregistered_specs_are_both_errors() {
        let lua = Lua::new();
        let docs = ApiDocs {
            top_functions: &[],
            top_fields: &["api_version: integer"],
            namespaces: vec![&DICE],
            classes: &[],
            aliases: &[],
        };
        let errors = mismatch(generate(&live_table(&lua), &docs));
        assert_eq!(
            errors,
            [
                "hex.refuse is registered but has no spec: add a line for it to src/rules/api/spec/top.rs",
                "hex.dice.shuffle is registered but has no spec: add a line for it to src/rules/api/spec/dice.rs",
                "hex.dice.flip is in src/rules/api/spec/dice.rs but no such function is registered",
            ]
        );
    }

    /// A field or a namespace in the spec that the live table lacks is named, even when the
    /// table holds other fields and namespaces.
    #[test]
    fn a_spec_field_or_namespace_nothing_registers_is_an_error() {
        let lua = Lua::new();
        const BOTH_DICE: NamespaceDoc = NamespaceDoc {
            name: "dice",
            doc: "Dice.",
            functions: &["roll(sides?: integer): integer", "shuffle()"],
        };
        const CARDS: NamespaceDoc = NamespaceDoc {
            name: "cards",
            doc: "Cards.",
            functions: &[],
        };
        let docs = ApiDocs {
            top_functions: &["refuse()"],
            top_fields: &["api_version: integer", "max_units?: integer"],
            namespaces: vec![&BOTH_DICE, &CARDS],
            classes: &[],
            aliases: &[],
        };
        let errors = mismatch(generate(&live_table(&lua), &docs));
        assert_eq!(
            errors,
            [
                "hex.max_units? is in src/rules/api/spec/top.rs but no such value is registered",
                "hex.cards is in src/rules/api/spec/cards.rs but no such namespace is registered",
            ]
        );
    }

    #[test]
    fn a_type_no_class_defines_is_an_error() {
        let text = "---@class hexwar.Unit\n---@param u hexwar.Unit\n---@return hexwar.Unti[]\n";
        assert_eq!(
            undefined_types(text),
            ["hexwar.Unti is used by a spec line but defined nowhere: add it to src/rules/api/spec/views.rs"]
        );
    }

    /// A prelude defining `test` and a `t` with one function.
    const SMALL_PRELUDE: &str = "function test(name, fn) end\nreturn {}, {fail = function() end}";
    const FAIL_ONLY: &[FunctionDoc] = &["fail(message: string) -- Fails the test."];

    #[test]
    fn a_test_global_the_prelude_does_not_define_is_an_error() {
        let errors = mismatch(test_api_of(
            SMALL_PRELUDE,
            ("tset(name: string)", FAIL_ONLY, &[]),
        ));
        assert_eq!(
            errors,
            ["tset is in src/rules/api/spec/test_api.rs but the test prelude defines no such global"]
        );
        // (a global that is there but no function is no better)
        let errors = mismatch(test_api_of(
            "test = 1\nreturn {}, {fail = function() end}",
            ("test(name: string)", FAIL_ONLY, &[]),
        ));
        assert_eq!(
            errors,
            ["test is in src/rules/api/spec/test_api.rs but the test prelude defines no such global"]
        );
    }

    #[test]
    fn the_test_global_and_the_functions_of_t_become_stubs() {
        let text = test_api_of(
            SMALL_PRELUDE,
            (
                "test(name: string, fn: fun(t: hexwar.Test)) -- Registers a test.",
                FAIL_ONLY,
                &[],
            ),
        )
        .unwrap();
        assert_eq!(
            text.split_once("local t = {}\n").unwrap().1,
            "\n---Fails the test.\n\
             ---@param message string\n\
             function t.fail(message) end\n\
             \n\
             ---Registers a test.\n\
             ---@param name string\n\
             ---@param fn fun(t: hexwar.Test)\n\
             function test(name, fn) end\n"
        );
    }

    #[test]
    fn a_documented_function_becomes_a_stub_with_its_types() {
        let lua = Lua::new();
        let hex = live_table(&lua);
        let dice: Table = hex.raw_get("dice").unwrap();
        dice.raw_set("shuffle", Value::Nil).unwrap();
        const ONLY_ROLL: NamespaceDoc = NamespaceDoc {
            name: "dice",
            doc: "Dice.",
            functions: &["roll(sides?: integer): integer -- A roll."],
        };
        let docs = ApiDocs {
            top_functions: &["refuse(rule: string, reason: string): hexwar.Refusal"],
            top_fields: &["api_version: integer -- The version."],
            namespaces: vec![&ONLY_ROLL],
            classes: &[ClassDoc {
                name: "hexwar.Refusal",
                parent: None,
                doc: "",
                fields: &[],
            }],
            aliases: &[],
        };
        let text = generate(&hex, &docs).unwrap();
        let body = text.split_once("---The hexwar API").unwrap().1;
        assert_eq!(
            body,
            ", one read-only global table: rules read views and return events.\n\
             ---@class hexwar.hex\n\
             ---@field api_version integer The version.\n\
             hex = {}\n\
             \n\
             ---@param rule string\n\
             ---@param reason string\n\
             ---@return hexwar.Refusal\n\
             function hex.refuse(rule, reason) end\n\
             \n\
             ---Dice.\n\
             ---@class hexwar.dice\n\
             hex.dice = {}\n\
             \n\
             ---A roll.\n\
             ---@param sides? integer\n\
             ---@return integer\n\
             function hex.dice.roll(sides) end\n"
        );
    }
}

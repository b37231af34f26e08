//! The Lua rules' did-you-mean (`rules/lib/spelling.lua`) names the same word as the engine's
//! (`hexwar::spelling::nearest`) for every misspelling of a name: one letter swapped, dropped,
//! doubled or changed, and two swaps, letters beyond ASCII included. A designer meets both (a setup key the engine refuses, a
//! field a rules module refuses), so they must not disagree.

use mlua::{Function, Lua, Table};

/// `nearest` of rules/lib/spelling.lua, loaded in a plain VM (it needs no `hex`).
fn lua_nearest(lua: &Lua) -> Function {
    let source = std::fs::read_to_string("rules/lib/spelling.lua").unwrap();
    let module: Table = lua.load(source).set_name("spelling.lua").eval().unwrap();
    module.get("nearest").unwrap()
}

/// Misspellings of `word`: each neighbouring pair swapped, each letter dropped, doubled or
/// changed to `x`, and each two disjoint swaps.
fn misspellings(word: &str) -> Vec<String> {
    let w: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let swap = |v: &mut Vec<char>, i: usize| v.swap(i, i + 1);
    for i in 0..w.len() {
        let mut dropped = w.clone();
        dropped.remove(i);
        let mut doubled = w.clone();
        doubled.insert(i, w[i]);
        let mut changed = w.clone();
        changed[i] = 'x';
        out.extend([dropped, doubled, changed].map(|v| v.into_iter().collect::<String>()));
        if i + 1 < w.len() {
            let mut once = w.clone();
            swap(&mut once, i);
            out.push(once.iter().collect());
            for j in i + 2..w.len().saturating_sub(1) {
                let mut twice = once.clone();
                swap(&mut twice, j);
                out.push(twice.into_iter().collect());
            }
        }
    }
    out
}

#[test]
fn lua_and_engine_did_you_mean_agree_on_every_misspelling() {
    let lua = Lua::new();
    let nearest = lua_nearest(&lua);
    // (names the rules check: setup keys, module fields, variant overrides, sides)
    let names = [
        "invaded",
        "phase",
        "side",
        "turn",
        "unit",
        "units",
        "id",
        "centers",
        "build_sites",
        "retreat_options",
        "cuts_support",
        "stacks",
        "german",
        "allied",
        "scores",
        "CRT",
        "phasé",
        "Zürich",
    ];
    let mut checked = 0;
    for word in names {
        for typo in misspellings(word) {
            let from_lua: Option<String> = nearest.call((typo.as_str(), names)).unwrap();
            let from_engine = hexwar::spelling::nearest(&typo, names, 0).map(str::to_string);
            assert_eq!(from_lua, from_engine, "nearest to '{typo}'");
            checked += 1;
        }
    }
    assert_eq!(checked, 659, "misspellings checked");
}

/// Two swapped letters are one edit, as in the engine: `hpsae` (two swaps) is `phase`, four
/// edits away without the swap rule; `sied` is `side` (one edit), not `id` (two).
#[test]
fn lua_did_you_mean_counts_a_swap_as_one_edit() {
    let lua = Lua::new();
    let nearest = lua_nearest(&lua);
    for (typo, names, expected) in [
        (
            "hpsae",
            vec!["invaded", "phase", "side", "turn"],
            Some("phase"),
        ),
        ("sied", vec!["id", "side"], Some("side")),
        ("tunr", vec!["turn"], Some("turn")),
        // (`é` is one letter, not two bytes)
        ("pahsé", vec!["phase"], Some("phase")),
        ("abcdef", vec!["fedcba"], None),
    ] {
        let got: Option<String> = nearest.call((typo, names)).unwrap();
        assert_eq!(got.as_deref(), expected, "{typo}");
    }
}

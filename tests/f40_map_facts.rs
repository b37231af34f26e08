//! The map facts the F40 rules read once and keep (rules/france1940/common.lua): on the France
//! 1940 map, the breadth-first walk `common.within` that gives the drop targets (F40-11.1)
//! reaches exactly the hexes `hex.map.distance` puts within range, from every city, every
//! corner and from several cities at once; the kept terrain and hexsides answer as the host does.

use std::path::Path;

use hexwar::Session;
use serde_json::{json, Value};

/// Runs `body` (Lua statements ending in `return ...`) as a query in a France 1940 game.
fn probe(body: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("probe.lua");
    std::fs::write(
        &file,
        format!(
            "local common = require(\"france1940.common\")\n\
             hex.rules.query(\"probe\", function()\n{body}\nend)\n"
        ),
    )
    .unwrap();
    let mut s =
        Session::start_with_mods(Path::new("scenarios/france1940"), Some(1), &[file]).unwrap();
    s.game.query("probe", &Value::Null).unwrap().unwrap()
}

/// Lua: `mismatches(centres, range)`, the hexes where the walk and the distance disagree. The
/// 174 centres of the first test: the four corners and the 170 city and town hexes.
const MISMATCHES: &str = r#"
  local hexes = hex.map.hexes()
  local function mismatches(centres, range)
    local got, bad = {}, {}
    for _, l in ipairs(common.within(centres, range)) do got[l] = true end
    for _, l in ipairs(hexes) do
      local near = false
      for _, c in ipairs(centres) do
        if hex.map.distance(l, c) <= range then near = true end
      end
      if near ~= (got[l] == true) then bad[#bad + 1] = l end
    end
    return bad
  end
"#;

#[test]
fn f40_11_1_the_walk_within_ten_hexes_of_each_city_matches_the_map_distance() {
    let answer = probe(&format!(
        "{MISMATCHES}
  local centres = {{ \"0101\", \"4001\", \"0132\", \"4032\" }}
  for _, c in ipairs(hexes) do
    if hex.map.terrain(c) == \"major_city\" or hex.map.has_feature(c, \"town\") then
      centres[#centres + 1] = c
    end
  end
  local bad = {{}}
  for _, c in ipairs(centres) do
    for _, l in ipairs(mismatches({{ c }}, 10)) do bad[#bad + 1] = c .. \"/\" .. l end
  end
  return {{ centres = #centres, bad = bad }}"
    ));
    // (an empty Lua table reads as an empty object)
    assert_eq!(answer, json!({"centres": 174, "bad": {}}));
}

#[test]
fn the_walk_from_several_hexes_is_the_union_of_their_ranges() {
    let answer = probe(&format!(
        "{MISMATCHES}
  return {{ a = mismatches({{ \"1511\", \"2020\", \"0132\" }}, 10),
           b = mismatches({{ \"0101\", \"4032\" }}, 0), c = #common.within({{ \"2020\" }}, 1) }}"
    ));
    assert_eq!(answer, json!({"a": {}, "b": {}, "c": 7}));
}

#[test]
fn kept_terrain_hexsides_and_features_answer_as_the_host() {
    let answer = probe(
        r#"
  local bad = {}
  for _, l in ipairs(hex.map.hexes()) do
    if common.terrain(l) ~= hex.map.terrain(l) then bad[#bad + 1] = "terrain " .. l end
    for _, f in ipairs({ "town", "port", "fortification", "maginot" }) do
      if common.has_feature(l, f) ~= hex.map.has_feature(l, f) then bad[#bad + 1] = f .. " " .. l end
    end
    for _, n in ipairs(hex.map.neighbors(l)) do
      local kept = table.concat(common.hexside(l, n), ",")
      if kept ~= table.concat(hex.map.hexside(l, n) or {}, ",") then bad[#bad + 1] = "hexside " .. l .. "/" .. n end
    end
  end
  return { bad = bad }"#,
    );
    assert_eq!(answer, json!({"bad": {}}));
}

//! Colours: terrain by name, sides by name or order, hexside and hex features by kind. Names are
//! matched by what they contain (`wooded_hills` is wooded, `major_city` is a city), so a new
//! game's terrain gets a sensible colour without configuration; unknown names get a colour
//! derived from the name (stable across runs).

/// The fill colour of a terrain.
pub fn terrain(name: &str) -> String {
    let n = name.to_ascii_lowercase();
    let table: &[(&str, &str)] = &[
        ("sea", "#9cc7e8"),
        ("ocean", "#9cc7e8"),
        ("lake", "#a9d3ef"),
        ("water", "#a9d3ef"),
        ("marsh", "#b5d6c3"),
        ("swamp", "#b5d6c3"),
        ("wooded", "#a7b86d"),
        ("mountain", "#b39b82"),
        ("hill", "#dcc58d"),
        ("forest", "#8dbb72"),
        ("wood", "#8dbb72"),
        ("jungle", "#6fa35b"),
        ("city", "#c9c3bb"),
        ("urban", "#c9c3bb"),
        ("town", "#d8d2c8"),
        ("desert", "#f0deaa"),
        ("sand", "#f0deaa"),
        ("rough", "#d1bd9a"),
        ("broken", "#d1bd9a"),
        ("clear", "#f4f0d8"),
        ("open", "#f4f0d8"),
        ("plain", "#f4f0d8"),
        ("grass", "#e6efc6"),
        ("impassable", "#7a7a7a"),
    ];
    for (key, colour) in table {
        if n.contains(key) {
            return (*colour).into();
        }
    }
    hashed(&n, 35, 80)
}

/// A side's colour: by name when it names a colour or a well-known army, else by its order.
pub fn side(name: &str, order: usize) -> String {
    let n = name.to_ascii_lowercase();
    let named: &[(&str, &str)] = &[
        ("blue", "#7fa7e0"),
        ("red", "#e38a7f"),
        ("green", "#8fcf8a"),
        ("yellow", "#ead46a"),
        ("black", "#8c8c8c"),
        ("white", "#f2f2f2"),
        ("german", "#9aa7a0"),
        ("allied", "#8fb4e6"),
        ("french", "#8fb4e6"),
        ("neutral", "#e9d98f"),
        ("austria", "#d9534f"),
        ("england", "#7b5bb6"),
        ("france", "#4aa3df"),
        ("germany", "#8c6d46"),
        ("italy", "#5cb85c"),
        // (white on the board, grey here: a white ring is a centre nobody holds)
        ("russia", "#a3a3b5"),
        ("turkey", "#f0c419"),
    ];
    for (key, colour) in named {
        if n == *key || n.contains(key) {
            return (*colour).into();
        }
    }
    const ORDER: [&str; 8] = [
        "#7fa7e0", "#e38a7f", "#8fcf8a", "#ead46a", "#c39bd3", "#f5b971", "#76d7c4", "#bbbbbb",
    ];
    ORDER[order % ORDER.len()].into()
}

/// How a border between bordered zones (countries) is stroked: (colour, width as a fraction of
/// the hex size, dash), dash-dot so it is not read as a hexside feature.
pub const BORDER: (&str, f64, &str) = ("#4a2a6a", 0.08, "8 3 2 3");

/// How a hexside feature is stroked: (colour, width as a fraction of the hex size, dash).
pub fn hexside(name: &str) -> (String, f64, Option<&'static str>) {
    let n = name.to_ascii_lowercase();
    let (colour, width, dash) = if n.contains("major_river") || n.contains("major river") {
        ("#1f5fbf", 0.16, None)
    } else if n.contains("river") || n.contains("stream") || n.contains("canal") {
        ("#2f78d8", 0.09, None)
    } else if n.contains("sea") || n.contains("coast") {
        ("#1b3f66", 0.06, None)
    } else if n.contains("lake") {
        ("#4f9bd6", 0.09, None)
    } else if is_connection(&n) {
        if n.contains("rail") {
            ("#2b2b2b", 0.06, Some("6 3"))
        } else {
            ("#9a6b3a", 0.08, None)
        }
    } else if n.contains("causeway") || n.contains("bridge") || n.contains("dike") {
        ("#6b4b2a", 0.14, Some("4 2"))
    } else if n.contains("wall") || n.contains("escarp") || n.contains("cliff") {
        ("#5a3b1c", 0.1, Some("2 2"))
    } else {
        // (a colour of its own, as an unknown terrain's: two unknown kinds, a ford and a wreck
        // blown in play, were drawn alike)
        return (hashed(&n, 60, 40), 0.07, Some("5 3"));
    };
    (colour.to_string(), width, dash)
}

/// Whether a hexside feature is a way across (a bridge, a causeway, a road): drawn over the
/// features that part the hexes.
pub fn crosses(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    is_connection(&n)
        || ["causeway", "bridge", "dike", "ford"]
            .iter()
            .any(|w| n.contains(w))
}

/// Whether a hexside feature joins the two hexes rather than parting them (a road, a railway, a
/// trail): drawn from centre to centre across the hexside, as a map shows a road, not along it.
pub fn is_connection(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    ["road", "rail", "trail", "track", "pike"]
        .iter()
        .any(|w| n.contains(w))
}

/// The fill of a hex feature's symbol, by its name: features drawn with one shape (every kind
/// of fortification a triangle, every other feature a diamond) told apart by colour, each the
/// same from one picture to the next. Fortifications keep to reds and browns.
pub fn feature_fill(name: &str, fortification: bool) -> String {
    if fortification {
        // (hues 350-29: red to brown)
        format!("hsl({},70%,32%)", (350 + hash_of(name) % 40) % 360)
    } else {
        hashed(name, 45, 42)
    }
}

/// FNV-1a of a name: the same colour for a name from one picture to the next.
fn hash_of(name: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// A colour derived from a name, for names the tables do not know.
fn hashed(name: &str, saturation: u32, lightness: u32) -> String {
    format!("hsl({},{saturation}%,{lightness}%)", hash_of(name) % 360)
}

#[cfg(test)]
mod tests {
    use super::{feature_fill, hexside};

    /// Four kinds of fortification drawn as triangles (France 1940's maginot, westwall,
    /// fortification, eben_emael) get four fills, all red or brown.
    #[test]
    fn features_of_one_shape_get_fills_of_their_own() {
        let fills: Vec<String> = ["maginot", "westwall", "fortification", "eben_emael"]
            .iter()
            .map(|n| feature_fill(n, true))
            .collect();
        let mut distinct = fills.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "{fills:?}");
        for f in &fills {
            let hue: u32 = f[4..f.find(',').unwrap()].parse().unwrap();
            assert!(!(30..350).contains(&hue), "{f}");
        }
        assert_ne!(
            feature_fill("intrinsic_strength", false),
            feature_fill("maastricht", false)
        );
        assert_eq!(feature_fill("maginot", true), fills[0]);
    }

    /// Hexside kinds the palette does not know are told apart by colour (a ford and a wreck
    /// blown in play), each the same from one picture to the next.
    #[test]
    fn unknown_hexside_kinds_get_colours_of_their_own() {
        let (ford, wreck) = (hexside("ford"), hexside("wreck"));
        assert_ne!(ford.0, wreck.0);
        assert_eq!(hexside("ford"), ford);
        assert_eq!(hexside("river").0, "#2f78d8");
    }
}

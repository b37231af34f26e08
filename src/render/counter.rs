//! Unit counters: a square in the side's colour with the unit's id along its top, a NATO-style
//! type symbol, the size marker above it (III, XX, XXX) and strength-movement below; a facing
//! arrow when the unit faces.

use super::svg::{escape, num, Svg};
use crate::engine::Unit;

/// Draws a counter of side length `c` centred on `at`.
pub fn draw(svg: &mut Svg, unit: &Unit, at: (f64, f64), c: f64, fill: &str) {
    let (x, y) = (at.0 - c / 2.0, at.1 - c / 2.0);
    svg.raw(&format!(
        "<g class=\"unit\"><title>{}</title>",
        escape(&unit.id)
    ));
    svg.rect(
        x,
        y,
        c,
        c,
        &format!(
            "fill=\"{fill}\" stroke=\"#202020\" stroke-width=\"{}\" rx=\"{}\"",
            num(c * 0.03),
            num(c * 0.06)
        ),
    );
    // The id, which orders name: squeezed to the counter's width when long.
    let id_size = c * 0.13;
    let room = c * 0.9;
    let squeeze = if unit.id.chars().count() as f64 * id_size * 0.55 > room {
        format!(
            " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
            num(room)
        )
    } else {
        String::new()
    };
    svg.text(
        at.0,
        y + c * 0.15,
        id_size,
        &unit.id,
        &format!("fill=\"#111111\"{squeeze}"),
    );
    // The NATO box.
    let (bw, bh) = (c * 0.56, c * 0.34);
    let (bx, by) = (at.0 - bw / 2.0, at.1 - c * 0.16);
    let stroke = format!(
        "fill=\"none\" stroke=\"#111111\" stroke-width=\"{}\"",
        num(c * 0.035)
    );
    svg.rect(bx, by, bw, bh, &stroke);
    symbol(svg, &unit.kind, (bx, by, bw, bh), &stroke);
    if !unit.size.is_empty() {
        svg.text(
            at.0,
            by - c * 0.04,
            c * 0.15,
            &unit.size,
            "font-weight=\"bold\" fill=\"#111111\"",
        );
    }
    svg.text(
        at.0,
        y + c * 0.93,
        c * 0.24,
        &format!("{}-{}", figure(unit.strength), figure(unit.ma)),
        "font-weight=\"bold\" fill=\"#111111\"",
    );
    svg.raw("</g>");
}

/// A whole number without decimals, else one decimal.
fn figure(x: f64) -> String {
    num(x)
}

/// The type symbol inside the box (x, y, w, h), chosen by words in the unit's type.
fn symbol(svg: &mut Svg, kind: &str, (x, y, w, h): (f64, f64, f64, f64), stroke: &str) {
    let k = kind.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| k.contains(w));
    let cross = |svg: &mut Svg| {
        svg.line((x, y), (x + w, y + h), stroke);
        svg.line((x, y + h), (x + w, y), stroke);
    };
    let oval = |svg: &mut Svg| svg.ellipse((x + w / 2.0, y + h / 2.0), w * 0.34, h * 0.3, stroke);
    let mut drawn = false;
    if has(&["armor", "armour", "panzer", "tank"]) {
        oval(svg);
        drawn = true;
    }
    if has(&["mech", "motor", "grenadier"]) {
        cross(svg);
        oval(svg);
        drawn = true;
    } else if has(&[
        "infantry", "foot", "rifle", "mountain", "para", "airborne", "marine",
    ]) {
        cross(svg);
        drawn = true;
    }
    if has(&["cavalry", "recon", "horse", "light"]) {
        svg.line((x, y + h), (x + w, y), stroke);
        drawn = true;
    }
    if has(&["artillery", "gun", "battery"]) {
        svg.circle(
            (x + w / 2.0, y + h / 2.0),
            h * 0.16,
            "fill=\"#111111\" stroke=\"none\"",
        );
        drawn = true;
    }
    if has(&["mountain"]) {
        let (cx, b) = (x + w / 2.0, y + h);
        svg.polygon(
            &[(cx - w * 0.14, b), (cx, b - h * 0.32), (cx + w * 0.14, b)],
            "fill=\"#111111\" stroke=\"none\"",
        );
    }
    if has(&["para", "airborne", "airlanding"]) {
        let (cx, top) = (x + w / 2.0, y + h * 0.12);
        svg.raw(&format!(
            "<path d=\"M {} {} Q {} {} {} {} Q {} {} {} {}\" {stroke}/>",
            num(cx - w * 0.2),
            num(top),
            num(cx - w * 0.1),
            num(top + h * 0.3),
            num(cx),
            num(top),
            num(cx + w * 0.1),
            num(top + h * 0.3),
            num(cx + w * 0.2),
            num(top)
        ));
    }
    if has(&["engineer", "pioneer"]) {
        let (cx, cy) = (x + w / 2.0, y + h / 2.0);
        let (a, b) = (w * 0.18, h * 0.18);
        svg.raw(&format!(
            "<polyline points=\"{},{} {},{} {},{} {},{}\" {stroke}/>",
            num(cx - a),
            num(cy + b),
            num(cx - a),
            num(cy - b),
            num(cx + a),
            num(cy - b),
            num(cx + a),
            num(cy + b)
        ));
        svg.line((cx, cy - b), (cx, cy + b), stroke);
        drawn = true;
    }
    if !drawn {
        // Unknown type: its first letters, e.g. HQ, FLT.
        let short: String = kind.chars().take(3).collect::<String>().to_uppercase();
        svg.text(
            x + w / 2.0,
            y + h * 0.78,
            h * 0.6,
            &short,
            "fill=\"#111111\"",
        );
    }
}

/// A facing arrow from `from` towards `to` (the centre of the faced neighbour).
pub fn facing_arrow(svg: &mut Svg, from: (f64, f64), to: (f64, f64), size: f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let tip = (from.0 + ux * size * 0.78, from.1 + uy * size * 0.78);
    let base = (from.0 + ux * size * 0.5, from.1 + uy * size * 0.5);
    let (px, py) = (-uy * size * 0.14, ux * size * 0.14);
    svg.polygon(
        &[tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
        "fill=\"#111111\" stroke=\"#ffffff\" stroke-width=\"1\"",
    );
}

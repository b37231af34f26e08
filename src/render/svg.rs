//! A tiny SVG writer: elements appended to a string, numbers printed with one decimal so the
//! output is the same bytes on every machine.

use std::fmt::Write;

use super::Picture;

/// An SVG document being written.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

/// A number rounded as the SVG text gives it.
fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A number as SVG text: one decimal, no `-0.0`.
pub fn num(x: f64) -> String {
    let r = one_decimal(x);
    if r == 0.0 {
        "0".into()
    } else if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Points as a `points` attribute value.
pub fn points(pts: &[(f64, f64)]) -> String {
    pts.iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            body: String::new(),
            width,
            height,
        }
    }

    /// Appends raw markup (already escaped).
    pub fn raw(&mut self, markup: &str) {
        self.body.push_str(markup);
        self.body.push('\n');
    }

    pub fn open_group(&mut self, id: &str, attrs: &str) {
        let _ = writeln!(self.body, "<g id=\"{}\"{attrs}>", escape(id));
    }

    pub fn close_group(&mut self) {
        self.body.push_str("</g>\n");
    }

    pub fn polygon(&mut self, pts: &[(f64, f64)], style: &str) {
        let _ = writeln!(self.body, "<polygon points=\"{}\" {style}/>", points(pts));
    }

    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &str) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1)
        );
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {style}/>",
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    pub fn circle(&mut self, c: (f64, f64), r: f64, style: &str) {
        let _ = writeln!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {style}/>",
            num(c.0),
            num(c.1),
            num(r)
        );
    }

    pub fn ellipse(&mut self, c: (f64, f64), rx: f64, ry: f64, style: &str) {
        let _ = writeln!(
            self.body,
            "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" {style}/>",
            num(c.0),
            num(c.1),
            num(rx),
            num(ry)
        );
    }

    /// Text centred on (x, y) (`text-anchor="middle"`), baseline at y.
    pub fn text(&mut self, x: f64, y: f64, size: f64, text: &str, style: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" {style}>{}</text>",
            num(x),
            num(y),
            num(size),
            escape(text)
        );
    }

    /// Text starting at (x, y).
    pub fn text_left(&mut self, x: f64, y: f64, size: f64, text: &str, style: &str) {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" {style}>{}</text>",
            num(x),
            num(y),
            num(size),
            escape(text)
        );
    }

    /// The finished document, a picture of `units` counters.
    pub fn finish(self, units: usize) -> Picture {
        let (w, h) = (num(self.width), num(self.height));
        let svg = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n{}</svg>\n",
            self.body
        );
        Picture {
            svg,
            width: one_decimal(self.width),
            height: one_decimal(self.height),
            units,
        }
    }
}

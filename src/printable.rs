//! Text a script or an input gave, made safe for a terminal: what `run`'s `script:` lines,
//! every `error:`/`warning:` line and `hexwar test`'s report print.

use std::borrow::Cow;

/// A script's line as the terminal should show it: control characters other than tab written as
/// escapes (`\x1b`), so a script cannot move the cursor, erase a line or fake the host's output.
pub fn printable(line: &str) -> Cow<'_, str> {
    if !line.chars().any(|c| c.is_control() && c != '\t') {
        return line.into();
    }
    line.chars()
        .map(|c| match c {
            '\t' => "\t".to_string(),
            c if c.is_control() && (c as u32) < 0x100 => format!("\\x{:02x}", c as u32),
            c if c.is_control() => format!("\\u{{{:x}}}", c as u32),
            c => c.to_string(),
        })
        .collect::<String>()
        .into()
}

/// A message of several lines, each as [`printable`] writes it (a rules error quotes a script's
/// own text, escapes and all).
pub fn printable_lines(text: &str) -> String {
    let lines: Vec<_> = text.split('\n').map(printable).collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    /// A script's output reaches the terminal as text: control characters are escaped (a script
    /// printed `\x1b[2K\r` to erase a line and write a fake `winner:` line).
    #[test]
    fn script_output_escapes_control_characters_but_keeps_tabs() {
        assert_eq!(super::printable("phase\tmovement\t1"), "phase\tmovement\t1");
        assert_eq!(
            super::printable("\u{1b}[2K\rwinner: blue\u{7f}\u{9b}"),
            "\\x1b[2K\\x0dwinner: blue\\x7f\\x9b"
        );
        assert_eq!(super::printable("\u{2028}x"), "\u{2028}x");
    }
}

//! Printed hex labels (`0312` = column 03, row 12), as on wargame maps.

use std::fmt::Write;

/// How labels are printed: columns and rows start at 1 and each takes `digits` digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelFormat {
    pub digits: usize,
}

impl LabelFormat {
    /// Two digits per coordinate (the classic `0312`), more when the map needs them.
    pub fn for_size(columns: u32, rows: u32) -> Self {
        let largest = columns.max(rows).max(1);
        let digits = largest.to_string().len().max(2);
        LabelFormat { digits }
    }

    /// Label of 0-based (column, row).
    pub fn format(&self, col: u32, row: u32) -> String {
        let mut s = String::with_capacity(self.digits * 2);
        // Writing to a String cannot fail.
        let _ = write!(s, "{:0w$}{:0w$}", col + 1, row + 1, w = self.digits);
        s
    }

    /// 0-based (column, row) of a label, or None when it is not a label of this format.
    pub fn parse(&self, label: &str) -> Option<(u32, u32)> {
        if label.len() != self.digits * 2 || !label.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let col: u32 = label[..self.digits].parse().ok()?;
        let row: u32 = label[self.digits..].parse().ok()?;
        if col == 0 || row == 0 {
            return None;
        }
        Some((col - 1, row - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_labels_round_trip() {
        let f = LabelFormat::for_size(12, 10);
        assert_eq!(f.format(2, 11), "0312");
        assert_eq!(f.parse("0312"), Some((2, 11)));
        assert_eq!(f.parse("312"), None);
        assert_eq!(f.parse("0012"), None);
        assert_eq!(f.parse("03a2"), None);
    }

    #[test]
    fn large_maps_use_more_digits() {
        let f = LabelFormat::for_size(1000, 1000);
        assert_eq!(f.format(0, 999), "00011000");
        assert_eq!(f.parse("00011000"), Some((0, 999)));
    }
}

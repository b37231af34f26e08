//! Movement points in exact fixed point.
//!
//! F40-R7: halvings compound with no rounding (second assault × isolated × neutral on turn 1), so
//! a budget of 5 MP may become 0.625 MP. Floats would make "is 0.625 enough for this step" depend
//! on rounding; instead every cost and budget is an integer count of 1/64 MP, which keeps six
//! successive halvings of a whole MA exact.

use std::fmt;

/// An amount of movement points, stored as a whole number of 1/64 MP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Mp(pub(crate) u32);

impl Mp {
    /// Fixed-point units per movement point.
    pub const SCALE: u32 = 64;
    pub const ZERO: Mp = Mp(0);
    /// Every amount is below this many movement points (`from_f64` keeps sums of two amounts
    /// within `u32`: the largest is 33554431.984375).
    pub const BELOW: u32 = (u32::MAX / 2 / Self::SCALE) + 1;

    /// Whole movement points.
    pub const fn whole(mp: u32) -> Mp {
        Mp(mp.saturating_mul(Self::SCALE))
    }

    /// From raw 1/64 units.
    pub const fn from_raw(raw: u32) -> Mp {
        Mp(raw)
    }

    pub const fn raw(self) -> u32 {
        self.0
    }

    /// An exact conversion: None when `mp` is negative, not finite, too large, or not a
    /// multiple of 1/64 (costs and allowances written by designers must be representable).
    pub fn from_f64(mp: f64) -> Option<Mp> {
        let raw = mp * f64::from(Self::SCALE);
        if !raw.is_finite() || raw < 0.0 || raw > f64::from(u32::MAX / 2) || raw.fract() != 0.0 {
            return None;
        }
        Some(Mp(raw as u32))
    }

    /// Half of this amount. Exact while the raw value is even; otherwise rounds down by 1/128 MP.
    pub const fn halved(self) -> Mp {
        Mp(self.0 / 2)
    }

    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / f64::from(Self::SCALE)
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f40_r7_halvings_compound_exactly() {
        let ma = Mp::whole(5);
        let budget = ma.halved().halved().halved();
        assert_eq!(budget.as_f64(), 0.625);
        assert_eq!(budget.halved().halved().halved().as_f64(), 0.078125);
        assert_eq!(Mp::from_f64(2.5), Some(Mp(160)));
        assert_eq!(Mp::from_f64(0.001), None);
        assert_eq!(Mp::from_f64(-1.0), None);
    }
}

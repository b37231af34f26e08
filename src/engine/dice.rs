//! The host's seeded dice (DESIGN.md principle 5: scripts never use `math.random`).
//!
//! The dice state is two integers, the seed and how many rolls were made, so a save restores it
//! exactly. Roll `n` is derived from the seed at position `n` of a ChaCha8 stream: no hidden state.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Seeded, counter-based dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    pub seed: u64,
    pub rolls: u64,
}

impl Dice {
    pub fn new(seed: u64) -> Self {
        Dice { seed, rolls: 0 }
    }

    /// The value of roll number `index` of a die with `sides` faces (1..=sides).
    pub fn value_at(seed: u64, index: u64, sides: u32) -> u32 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_word_pos(u128::from(index) * 2);
        let wide = u128::from(rng.next_u64()) * u128::from(sides.max(1));
        (wide >> 64) as u32 + 1
    }

    /// Rolls one die and advances the counter.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let value = Self::value_at(self.seed, self.rolls, sides);
        self.rolls = self.rolls.wrapping_add(1); // (a forged save may hold any count: wrap, never panic)
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_values_in_range() {
        let mut a = Dice::new(7);
        let mut b = Dice::new(7);
        let ra: Vec<u32> = (0..200).map(|_| a.roll(6)).collect();
        let rb: Vec<u32> = (0..200).map(|_| b.roll(6)).collect();
        assert_eq!(ra, rb);
        assert!(ra.iter().all(|v| (1..=6).contains(v)));
        for face in 1..=6 {
            assert!(ra.contains(&face), "face {face} never came up in 200 rolls");
        }
        assert_ne!(
            ra,
            (0..200).map(|_| Dice::new(8).roll(6)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_restored_counter_continues_the_same_sequence() {
        let mut a = Dice::new(3);
        a.roll(6);
        a.roll(6);
        let mut restored = Dice { seed: 3, rolls: 2 };
        assert_eq!(a.roll(10), restored.roll(10));
    }
}

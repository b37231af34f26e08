//! Two batches compared (`hexwar stats compare A B`): does variant B change a side's chances?
//! Per side, the two win rates and their difference with a 95% interval (Newcombe's method,
//! from the two Wilson intervals); where the batches played the same seeds (game i of each has
//! the same seed, as two variants run with one base seed do), the paired difference of the
//! side's score, game by game, with a 95% interval, and how many games kept their winner.
//! Pairing removes the luck of the dice both variants share, so it finds smaller effects.

use std::collections::BTreeMap;

use serde::Serialize;

use super::stats::{round4, sample_sd, wilson_unrounded};
use super::GameRecord;

/// One side in the two batches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideComparison {
    pub wins_a: u64,
    pub wins_b: u64,
    pub win_rate_a: f64,
    pub win_rate_b: f64,
    /// B's win rate minus A's.
    pub difference: f64,
    /// 95% interval of `difference` (Newcombe's hybrid score interval).
    pub difference_95: (f64, f64),
    /// The side's score, B minus A, over the games played with the same seed in both.
    pub paired_score: Option<PairedScore>,
}

/// A mean difference over paired games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedScore {
    pub mean_difference: f64,
    /// 95% interval (Student's t over the paired differences).
    pub difference_95: (f64, f64),
}

/// A figure the rules declare for each game (`hex.rules.query("figures", ...)`) in the two
/// batches: its means, and B minus A over the games with the same seed that both measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FigureComparison {
    /// Mean over the games of A that have the figure (None: none has).
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    pub paired: Option<PairedScore>,
}

/// Two batches side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub scenario_a: String,
    pub scenario_b: String,
    /// The bots each batch's host chose (`run --bot`); absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots_a: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots_b: BTreeMap<String, String>,
    /// The mods each batch's host added (`run --mod`); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods_a: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods_b: Vec<String>,
    pub games_a: u64,
    pub games_b: u64,
    /// Games played with the same seed in both batches.
    pub paired_games: u64,
    /// Of those, how many had the same winner (a draw counts as one).
    pub same_winner: u64,
    pub sides: BTreeMap<String, SideComparison>,
    /// Every figure either batch measured, by name.
    pub figures: BTreeMap<String, FigureComparison>,
}

impl Comparison {
    /// Compares batch `a` with batch `b` (each one batch's records) for `sides`.
    pub fn of(a: &[GameRecord], b: &[GameRecord], sides: &[String]) -> Comparison {
        let seeds_b: BTreeMap<(u64, u64), &GameRecord> =
            b.iter().map(|r| ((r.game, r.seed), r)).collect();
        let pairs: Vec<(&GameRecord, &GameRecord)> = a
            .iter()
            .filter_map(|r| seeds_b.get(&(r.game, r.seed)).map(|other| (r, *other)))
            .collect();
        let sides = sides
            .iter()
            .map(|side| {
                let wins = |records: &[GameRecord]| {
                    records
                        .iter()
                        .filter(|r| r.winner.as_deref() == Some(side))
                        .count() as u64
                };
                let (wins_a, wins_b) = (wins(a), wins(b));
                let (n_a, n_b) = (a.len() as u64, b.len() as u64);
                let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
                let (p_a, p_b) = (rate(wins_a, n_a), rate(wins_b, n_b));
                let (low_a, high_a) = wilson_unrounded(wins_a, n_a);
                let (low_b, high_b) = wilson_unrounded(wins_b, n_b);
                let d = p_b - p_a;
                let low = d - ((p_b - low_b).powi(2) + (high_a - p_a).powi(2)).sqrt();
                let high = d + ((high_b - p_b).powi(2) + (p_a - low_a).powi(2)).sqrt();
                let score = |r: &GameRecord| r.scores.get(side).copied().unwrap_or(0.0);
                let differences: Vec<f64> =
                    pairs.iter().map(|(x, y)| score(y) - score(x)).collect();
                let comparison = SideComparison {
                    wins_a,
                    wins_b,
                    win_rate_a: round4(p_a),
                    win_rate_b: round4(p_b),
                    difference: round4(d),
                    difference_95: (round4(low.max(-1.0)), round4(high.min(1.0))),
                    paired_score: paired(&differences),
                };
                (side.clone(), comparison)
            })
            .collect();
        let names: std::collections::BTreeSet<&String> =
            a.iter().chain(b).flat_map(|r| r.figures.keys()).collect();
        let figures = names
            .into_iter()
            .map(|name| {
                let mean = |records: &[GameRecord]| {
                    let values: Vec<f64> = records
                        .iter()
                        .filter_map(|r| r.figures.get(name))
                        .copied()
                        .collect();
                    (!values.is_empty()).then(|| {
                        round4(super::stats::mean(
                            values.iter().copied(),
                            values.len() as u64,
                        ))
                    })
                };
                let differences: Vec<f64> = pairs
                    .iter()
                    .filter_map(|(x, y)| Some(y.figures.get(name)? - x.figures.get(name)?))
                    .collect();
                let comparison = FigureComparison {
                    mean_a: mean(a),
                    mean_b: mean(b),
                    paired: paired(&differences),
                };
                (name.clone(), comparison)
            })
            .collect();
        Comparison {
            scenario_a: a.first().map(|r| r.scenario.clone()).unwrap_or_default(),
            scenario_b: b.first().map(|r| r.scenario.clone()).unwrap_or_default(),
            bots_a: a.first().map(|r| r.bots.clone()).unwrap_or_default(),
            bots_b: b.first().map(|r| r.bots.clone()).unwrap_or_default(),
            mods_a: a.first().map(|r| r.mods.clone()).unwrap_or_default(),
            mods_b: b.first().map(|r| r.mods.clone()).unwrap_or_default(),
            games_a: a.len() as u64,
            games_b: b.len() as u64,
            paired_games: pairs.len() as u64,
            same_winner: pairs.iter().filter(|(x, y)| x.winner == y.winner).count() as u64,
            sides,
            figures,
        }
    }

    pub fn to_text(&self) -> String {
        // (two decimals: the figures are kept to four, and rounding them again to one printed
        // 20.6% for 20.655%)
        let percent = |x: f64| format!("{:.2}%", x * 100.0);
        let points = |x: f64| format!("{:+.2}", x * 100.0);
        let with = |bots: &BTreeMap<String, String>, mods: &[String]| {
            super::stats::host_note(bots, mods)
                .map(|note| format!(", {note}"))
                .unwrap_or_default()
        };
        let mut out = format!(
            "A: {} ({} game{}{})  B: {} ({} game{}{})  paired by seed: {} game{}\n",
            self.scenario_a,
            self.games_a,
            plural(self.games_a),
            with(&self.bots_a, &self.mods_a),
            self.scenario_b,
            self.games_b,
            plural(self.games_b),
            with(&self.bots_b, &self.mods_b),
            self.paired_games,
            plural(self.paired_games)
        );
        for (side, c) in &self.sides {
            out.push_str(&format!(
                "{side:>10}: win rate A {}  B {}  B-A {} points, 95% CI [{}, {}]\n",
                percent(c.win_rate_a),
                percent(c.win_rate_b),
                points(c.difference),
                points(c.difference_95.0),
                points(c.difference_95.1),
            ));
            if let Some(p) = &c.paired_score {
                out.push_str(&format!(
                    "{:>10}  score B-A, paired: mean {:+.2}, 95% CI [{:+.2}, {:+.2}]\n",
                    "", p.mean_difference, p.difference_95.0, p.difference_95.1
                ));
            }
        }
        let mean = |m: Option<f64>| m.map_or("-".to_string(), |m| format!("{m}"));
        for (name, f) in &self.figures {
            out.push_str(&format!(
                "{name:>10}: mean A {}  B {}\n",
                mean(f.mean_a),
                mean(f.mean_b)
            ));
            if let Some(p) = &f.paired {
                out.push_str(&format!(
                    "{:>10}  B-A, paired: mean {:+.2}, 95% CI [{:+.2}, {:+.2}]\n",
                    "", p.mean_difference, p.difference_95.0, p.difference_95.1
                ));
            }
        }
        if self.paired_games > 0 {
            out.push_str(&format!(
                "same winner in {} of {} paired games\n",
                self.same_winner, self.paired_games
            ));
        }
        out
    }
}

/// Mean and 95% interval of paired differences; None under two pairs (no spread to measure).
fn paired(differences: &[f64]) -> Option<PairedScore> {
    let n = differences.len();
    if n < 2 {
        return None;
    }
    let mean = differences.iter().sum::<f64>() / n as f64;
    let half = t975(n - 1) * sample_sd(differences) / (n as f64).sqrt();
    Some(PairedScore {
        mean_difference: round4(mean),
        difference_95: (round4(mean - half), round4(mean + half)),
    })
}

/// Student's t at 97.5% (a two-sided 95% interval) for `df` degrees of freedom: a table to 30,
/// then the Cornish-Fisher expansion around the normal quantile (error under 0.001).
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if (1..=30).contains(&df) {
        return TABLE[df - 1];
    }
    let z = 1.959_963_984_540_054_f64;
    let v = df.max(1) as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

/// "s" unless `n` is 1 (`1 game`, `3 games`).
fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::batch::stats::record;

    /// Newcombe's interval for 10/20 against 15/20 (Wilson intervals [0.2993, 0.7007] and
    /// [0.5313, 0.8881]; the difference's bounds worked by hand from them), and the paired
    /// differences' t interval.
    #[test]
    fn win_rate_difference_and_paired_scores_have_their_intervals() {
        let a: Vec<GameRecord> = (0..20)
            .map(|i| {
                record(
                    i,
                    100 + i,
                    (i < 10).then_some("blue"),
                    &[("blue", i as f64)],
                )
            })
            .collect();
        let b: Vec<GameRecord> = (0..20)
            .map(|i| {
                record(
                    i,
                    100 + i,
                    (i < 15).then_some("blue"),
                    &[("blue", i as f64 + 1.0 + (i % 2) as f64)],
                )
            })
            .collect();
        let c = Comparison::of(&a, &b, &["blue".to_string()]);
        let blue = &c.sides["blue"];
        assert_eq!((blue.wins_a, blue.wins_b), (10, 15));
        assert_eq!(blue.difference, 0.25);
        assert_eq!(blue.difference_95, (-0.0468, 0.4936));
        // differences 1, 2, 1, 2, ...: mean 1.5, sd 0.5130, t(19) 2.093
        let paired = blue.paired_score.as_ref().unwrap();
        assert_eq!(paired.mean_difference, 1.5);
        assert_eq!(paired.difference_95, (1.2599, 1.7401));
        assert_eq!((c.paired_games, c.same_winner), (20, 15));
        let text = c.to_text();
        assert!(
            text.starts_with("A: x (20 games)  B: x (20 games)  paired by seed: 20 games\n"),
            "{text}"
        );
        assert!(
            text.ends_with("same winner in 15 of 20 paired games\n"),
            "{text}"
        );
    }

    #[test]
    fn t_quantiles_follow_the_table_and_the_normal_limit() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(30), 2.042);
        assert!((t975(40) - 2.021).abs() < 0.001, "{}", t975(40));
        assert!((t975(120) - 1.980).abs() < 0.001, "{}", t975(120));
        assert!((t975(100_000) - 1.960).abs() < 0.001);
        // (past the table, the expansion's own value, to its last terms)
        assert!((t975(40) - 2.021_034_8).abs() < 1e-7, "{}", t975(40));
        assert!((t975(120) - 1.979_928_9).abs() < 1e-7, "{}", t975(120));
    }

    /// The rules' figures are compared too: their means in each batch, and B minus A over
    /// the paired games that measured them in both (they were left out).
    #[test]
    fn figures_are_compared_by_mean_and_by_pair() {
        let with = |game: u64, figures: &[(&str, f64)]| {
            let mut r = record(game, 100 + game, None, &[]);
            r.figures = figures.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            r
        };
        let a = vec![
            with(0, &[("reach", 10.0)]),
            with(1, &[("reach", 20.0)]),
            with(2, &[("reach", 30.0), ("only_a", 1.0)]),
        ];
        let b = vec![
            with(0, &[("reach", 12.0)]),
            with(1, &[("reach", 23.0)]),
            with(2, &[]),
        ];
        let c = Comparison::of(&a, &b, &[]);
        assert_eq!(
            c.figures["reach"],
            FigureComparison {
                mean_a: Some(20.0),
                mean_b: Some(17.5),
                // differences 2 and 3: mean 2.5, sd 0.7071, t(1) 12.706
                paired: Some(PairedScore {
                    mean_difference: 2.5,
                    difference_95: (-3.853, 8.853)
                }),
            }
        );
        assert_eq!(
            c.figures["only_a"],
            FigureComparison {
                mean_a: Some(1.0),
                mean_b: None,
                paired: None
            }
        );
        assert!(c.to_text().contains(
            "     reach: mean A 20  B 17.5\n            B-A, paired: mean +2.50, 95% CI [-3.85, +8.85]\n"
        ));
        assert!(c.to_text().contains("    only_a: mean A 1  B -\n"));
    }

    /// Batches of other seeds pair no game: no paired score.
    #[test]
    fn batches_of_other_seeds_are_not_paired() {
        let a = vec![record(0, 1, Some("red"), &[]), record(1, 2, None, &[])];
        let b = vec![record(0, 7, Some("red"), &[]), record(1, 8, None, &[])];
        let c = Comparison::of(&a, &b, &["red".to_string()]);
        assert_eq!(c.paired_games, 0);
        assert_eq!(c.sides["red"].paired_score, None);
        // (one game a side: "game", and no line of paired winners)
        let c = Comparison::of(&a[..1], &b[..1], &["red".to_string()]);
        let text = c.to_text();
        assert!(
            text.starts_with("A: x (1 game)  B: x (1 game)  paired by seed: 0 games\n"),
            "{text}"
        );
        assert!(!text.contains("same winner"), "{text}");
    }
}

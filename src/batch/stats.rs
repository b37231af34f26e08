//! Aggregate statistics over game records: win rates with 95% confidence intervals (Wilson),
//! game length distribution, mean scores, mean per-game figures.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::GameRecord;

/// One side's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideStats {
    pub wins: u64,
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate.
    pub win_rate_95: (f64, f64),
    pub mean_score: f64,
    /// How the side's scores spread about that mean: two variants with one mean score may
    /// differ in how often a game is lopsided.
    pub score_spread: Spread,
}

/// The spread of a figure over the games: its sample standard deviation (0 for fewer than two
/// games), least and greatest value, each to four decimals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (each finite; none gives zeros).
    pub fn of(values: &[f64]) -> Spread {
        let min = values.iter().copied().reduce(f64::min).unwrap_or(0.0);
        let max = values.iter().copied().reduce(f64::max).unwrap_or(0.0);
        Spread {
            sd: round4(sample_sd(values)),
            min: round4(min),
            max: round4(max),
        }
    }
}

/// The sample standard deviation, finite for finite values: scores near f64's limit are
/// scaled down by the largest magnitude first, whose squares would overflow.
pub(crate) fn sample_sd(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let scale = values.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    let scaled: Vec<f64> = values.iter().map(|v| v / scale).collect();
    let n = scaled.len() as f64;
    let mean = scaled.iter().sum::<f64>() / n;
    let squares: f64 = scaled.iter().map(|v| (v - mean) * (v - mean)).sum();
    (squares / (n - 1.0)).sqrt() * scale
}

/// Statistics of a set of games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub scenario: String,
    pub base_seed: u64,
    pub games: u64,
    pub draws: u64,
    pub sides: BTreeMap<String, SideStats>,
    /// Turns played: min, quartiles, max, mean.
    pub length: Length,
    /// Per-game figures the rules declare: mean over the games that report each.
    pub figures: BTreeMap<String, f64>,
    /// Their spread over the same games.
    #[serde(default)]
    pub figure_spread: BTreeMap<String, Spread>,
    /// The bots the host chose instead of the scenario's (`run --bot`); absent when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bots_chosen: BTreeMap<String, String>,
    /// The mods the host added (`run --mod`); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mods: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub min: u32,
    pub q1: u32,
    pub median: u32,
    pub q3: u32,
    pub max: u32,
    pub mean: f64,
    /// The sample standard deviation of the turns played.
    #[serde(default)]
    pub sd: f64,
    /// Games per number of turns played.
    pub histogram: BTreeMap<u32, u64>,
}

/// `bots chosen: blue demo.ai; mods: mods/x.lua` for a batch played with the host's bots
/// (`run --bot`) or mods (`run --mod`), else None.
pub fn host_note(bots: &BTreeMap<String, String>, mods: &[String]) -> Option<String> {
    let mut parts = Vec::new();
    if !bots.is_empty() {
        let chosen: Vec<String> = bots.iter().map(|(s, m)| format!("{s} {m}")).collect();
        parts.push(format!("bots chosen: {}", chosen.join(", ")));
    }
    if !mods.is_empty() {
        parts.push(format!("mods: {}", mods.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Wilson score interval for `k` successes in `n` trials at 95%, to four decimals.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (low, high) = wilson_unrounded(k, n);
    (round4(low), round4(high))
}

/// [`wilson`] at full precision (Newcombe's interval of a difference is built from it).
pub(crate) fn wilson_unrounded(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Four decimals: figures print the same on every machine.
pub(crate) fn round4(x: f64) -> f64 {
    let scaled = x * 10_000.0;
    // (a number that large has no fraction left to round, and scaling it overflowed to inf)
    if scaled.is_finite() {
        scaled.round() / 10_000.0
    } else {
        x
    }
}

/// The mean of numbers that are each finite, finite itself: scores near f64's limit (a rules
/// score of 1e308 in two games) summed to inf, so the sum is then taken of each part.
pub(crate) fn mean(values: impl Iterator<Item = f64> + Clone, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let sum: f64 = values.clone().sum();
    if sum.is_finite() {
        sum / n as f64
    } else {
        values.map(|v| v / n as f64).sum()
    }
}

fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

impl Stats {
    /// Aggregates records (of one scenario and base seed) for the given sides.
    pub fn from_records(records: &[GameRecord], sides: &[String]) -> Stats {
        let n = records.len() as u64;
        let mut side_stats = BTreeMap::new();
        for side in sides {
            let wins = records
                .iter()
                .filter(|r| r.winner.as_deref() == Some(side.as_str()))
                .count() as u64;
            let scores: Vec<f64> = records
                .iter()
                .map(|r| r.scores.get(side).copied().unwrap_or(0.0))
                .collect();
            side_stats.insert(
                side.clone(),
                SideStats {
                    wins,
                    win_rate: if n == 0 {
                        0.0
                    } else {
                        round4(wins as f64 / n as f64)
                    },
                    win_rate_95: wilson(wins, n),
                    mean_score: round4(mean(scores.iter().copied(), n)),
                    score_spread: Spread::of(&scores),
                },
            );
        }
        let mut turns: Vec<u32> = records.iter().map(|r| r.turns).collect();
        turns.sort_unstable();
        let mut histogram = BTreeMap::new();
        for t in &turns {
            *histogram.entry(*t).or_insert(0) += 1;
        }
        let mut figure_values: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        for r in records {
            for (k, v) in &r.figures {
                figure_values.entry(k.as_str()).or_default().push(*v);
            }
        }
        Stats {
            scenario: records
                .first()
                .map(|r| r.scenario.clone())
                .unwrap_or_default(),
            base_seed: records.first().map(|r| r.base_seed).unwrap_or_default(),
            bots_chosen: records.first().map(|r| r.bots.clone()).unwrap_or_default(),
            mods: records.first().map(|r| r.mods.clone()).unwrap_or_default(),
            games: n,
            draws: records.iter().filter(|r| r.winner.is_none()).count() as u64,
            sides: side_stats,
            length: Length {
                min: turns.first().copied().unwrap_or(0),
                q1: quantile(&turns, 0.25),
                median: quantile(&turns, 0.5),
                q3: quantile(&turns, 0.75),
                max: turns.last().copied().unwrap_or(0),
                mean: if n == 0 {
                    0.0
                } else {
                    round4(turns.iter().map(|&t| f64::from(t)).sum::<f64>() / n as f64)
                },
                sd: round4(sample_sd(
                    &turns.iter().map(|&t| f64::from(t)).collect::<Vec<_>>(),
                )),
                histogram,
            },
            figures: figure_values
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        round4(mean(v.iter().copied(), v.len() as u64)),
                    )
                })
                .collect(),
            figure_spread: figure_values
                .iter()
                .map(|(k, v)| (k.to_string(), Spread::of(v)))
                .collect(),
        }
    }

    /// The statistics as text for a terminal.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "scenario: {}  base seed: {}  games: {}{}\n",
            self.scenario,
            self.base_seed,
            self.games,
            host_note(&self.bots_chosen, &self.mods)
                .map(|note| format!("  {note}"))
                .unwrap_or_default()
        );
        for (side, s) in &self.sides {
            out += &format!(
                // (two decimals, all the figures keep: rounded again to one, a bound of
                // 20.655% printed as 20.6%)
                "{side:>10}: wins {:>5}  win rate {:6.2}%  95% CI [{:6.2}%, {:6.2}%]  mean score {:.2} (sd {:.2}, min {}, max {})\n",
                s.wins,
                s.win_rate * 100.0,
                s.win_rate_95.0 * 100.0,
                s.win_rate_95.1 * 100.0,
                s.mean_score,
                s.score_spread.sd,
                s.score_spread.min,
                s.score_spread.max
            );
        }
        out += &format!("{:>10}: {}\n", "draws", self.draws);
        let l = &self.length;
        out += &format!(
            "game length (turns): min {} q1 {} median {} q3 {} max {} mean {:.2}\n",
            l.min, l.q1, l.median, l.q3, l.max, l.mean
        );
        for (k, v) in &self.figures {
            out += &format!("{k}: mean {v:.2}");
            if let Some(spread) = self.figure_spread.get(k) {
                out += &format!(
                    " (sd {:.2}, min {}, max {})",
                    spread.sd, spread.min, spread.max
                );
            }
            out += "\n";
        }
        out
    }

    /// The statistics as CSV: one row per side, then one row per figure.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("kind,name,wins,win_rate,ci_low,ci_high,mean,sd,min,max\n");
        let spread = |s: Option<&Spread>| {
            s.map(|s| format!("{},{},{}", s.sd, s.min, s.max))
                .unwrap_or_else(|| ",,".into())
        };
        for (side, s) in &self.sides {
            out += &format!(
                "side,{side},{},{},{},{},{},{}\n",
                s.wins,
                s.win_rate,
                s.win_rate_95.0,
                s.win_rate_95.1,
                s.mean_score,
                spread(Some(&s.score_spread))
            );
        }
        out += &format!("draws,,{},,,,,,,\n", self.draws);
        out += &format!(
            "length,turns,,,,,{},{},{},{}\n",
            self.length.mean, self.length.sd, self.length.min, self.length.max
        );
        for (k, v) in &self.figures {
            out += &format!("figure,{k},,,,,{v},{}\n", spread(self.figure_spread.get(k)));
        }
        out
    }
}

/// Game `game` of a batch of scenario `x` (the statistics' and comparisons' tests).
#[cfg(test)]
pub(crate) fn record(
    game: u64,
    seed: u64,
    winner: Option<&str>,
    scores: &[(&str, f64)],
) -> GameRecord {
    GameRecord {
        scenario: "x".into(),
        base_seed: 1,
        game,
        seed,
        winner: winner.map(str::to_string),
        turns: 1,
        scores: scores.iter().map(|(s, v)| (s.to_string(), *v)).collect(),
        commands: 1,
        figures: Default::default(),
        rules: String::new(),
        bots: Default::default(),
        mods: Vec::new(),
        refused: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `n` of a batch (its seed `n`), won by `winner`.
    fn game(n: u64, winner: Option<&str>) -> GameRecord {
        record(n, n, winner, &[])
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 wins out of 100: [0.4038, 0.5962]; 0 of 10: [0, 0.2775].
        assert_eq!(wilson(50, 100), (0.4038, 0.5962));
        assert_eq!(wilson(0, 10), (0.0, 0.2775));
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    /// The text prints the interval to the two decimals of a percentage its figures keep:
    /// rounded again to one, the lower bound of 1 win in 1 game (20.655%, kept as 0.2065)
    /// printed 20.6%, where the interval itself rounds to 20.7%.
    #[test]
    fn the_text_prints_the_kept_figures_without_rounding_them_again() {
        let stats = Stats::from_records(&[game(0, Some("red"))], &["red".to_string()]);
        assert_eq!(stats.sides["red"].win_rate_95, (0.2065, 1.0));
        assert!(
            stats.to_text().contains(
                "       red: wins     1  win rate 100.00%  95% CI [ 20.65%, 100.00%]  mean score 0.00 (sd 0.00, min 0, max 0)\n"
            ),
            "{}",
            stats.to_text()
        );
    }

    /// Scores and figures near f64's limit (a rules score of 1e308 in two games) made the
    /// batch's mean `inf`, which JSON cannot hold; each is a finite number now.
    #[test]
    fn means_of_huge_scores_stay_finite() {
        let record = |n: u64, score: f64| GameRecord {
            scores: [("blue".to_string(), score)].into(),
            figures: [("reach".to_string(), score)].into(),
            ..game(n, None)
        };
        let records = [record(0, 1e308), record(1, 1e308), record(2, -1e308)];
        let stats = Stats::from_records(&records, &["blue".to_string()]);
        let third = 1e308 / 3.0;
        assert_eq!(stats.sides["blue"].mean_score, third * 2.0 - third);
        assert_eq!(stats.figures["reach"], third * 2.0 - third);
        let small = [record(0, 1.25), record(1, 2.5)];
        let stats = Stats::from_records(&small, &["blue".to_string()]);
        assert_eq!(stats.sides["blue"].mean_score, 1.875);
        assert_eq!(round4(1.23456), 1.2346);
        assert_eq!(round4(1e306), 1e306);
    }

    /// Each side's scores, the figures and the game lengths carry their spread: the sample
    /// standard deviation, least and greatest, in the text, the JSON and the CSV.
    #[test]
    fn scores_figures_and_lengths_carry_their_spread() {
        let record = |n: u64, blue: f64, red: f64, turns: u32, reach: Option<f64>| GameRecord {
            scores: [("blue".to_string(), blue), ("red".to_string(), red)].into(),
            figures: reach
                .map(|r| ("reach".to_string(), r))
                .into_iter()
                .collect(),
            turns,
            ..game(n, Some("red"))
        };
        let records = [
            record(0, 2.0, 10.0, 8, Some(1.0)),
            record(1, 4.0, 10.0, 6, Some(4.0)),
            record(2, 9.0, 10.0, 7, None),
        ];
        let stats = Stats::from_records(&records, &["blue".to_string(), "red".to_string()]);
        // blue: mean 5, squares 9 + 1 + 16 over 2: sd sqrt(13) = 3.6056
        assert_eq!(
            stats.sides["blue"].score_spread,
            Spread {
                sd: 3.6056,
                min: 2.0,
                max: 9.0
            }
        );
        assert_eq!(
            stats.sides["red"].score_spread,
            Spread {
                sd: 0.0,
                min: 10.0,
                max: 10.0
            }
        );
        // (the figure over the two games that report it)
        assert_eq!(
            stats.figure_spread["reach"],
            Spread {
                sd: 2.1213,
                min: 1.0,
                max: 4.0
            }
        );
        assert_eq!(stats.length.sd, 1.0);
        let text = stats.to_text();
        assert!(
            text.contains("mean score 5.00 (sd 3.61, min 2, max 9)\n"),
            "{text}"
        );
        assert!(
            text.contains("reach: mean 2.50 (sd 2.12, min 1, max 4)\n"),
            "{text}"
        );
        assert_eq!(
            stats.to_csv(),
            "kind,name,wins,win_rate,ci_low,ci_high,mean,sd,min,max\n\
             side,blue,0,0,0,0.5615,5,3.6056,2,9\n\
             side,red,3,1,0.4385,1,10,0,10,10\n\
             draws,,0,,,,,,,\n\
             length,turns,,,,,7,1,6,8\n\
             figure,reach,,,,,2.5,2.1213,1,4\n"
        );
        let json = serde_json::to_value(&stats).unwrap();
        assert_eq!(
            json["sides"]["blue"]["score_spread"],
            serde_json::json!({"sd": 3.6056, "min": 2.0, "max": 9.0})
        );
        assert_eq!(json["length"]["sd"], serde_json::json!(1.0));
    }

    /// The game lengths: least, quartiles and median at position round((n - 1) q) of the
    /// sorted lengths (docs/cli.md), greatest, and a histogram counting each length; no games,
    /// all zero.
    #[test]
    fn game_lengths_give_their_quartiles_and_histogram() {
        let records: Vec<GameRecord> = [9, 3, 6, 2, 10, 3, 8, 5, 7]
            .into_iter()
            .enumerate()
            .map(|(n, turns)| GameRecord {
                turns,
                ..game(n as u64, None)
            })
            .collect();
        let length = Stats::from_records(&records, &[]).length;
        assert_eq!(
            (length.min, length.q1, length.median, length.q3, length.max),
            (2, 3, 6, 8, 10)
        );
        assert_eq!(
            length.histogram,
            BTreeMap::from([
                (2, 1),
                (3, 2),
                (5, 1),
                (6, 1),
                (7, 1),
                (8, 1),
                (9, 1),
                (10, 1)
            ])
        );
        let none = Stats::from_records(&[], &[]).length;
        assert_eq!(
            (none.min, none.q1, none.median, none.q3, none.max, none.mean),
            (0, 0, 0, 0, 0, 0.0)
        );
        assert!(none.histogram.is_empty());
    }

    /// The note of what the host chose: the bots, then the mods, each only when there are
    /// some, none at all without either.
    #[test]
    fn the_host_note_names_the_bots_and_mods_chosen() {
        let bots = BTreeMap::from([
            ("blue".to_string(), "demo.ai".to_string()),
            ("red".to_string(), "random".to_string()),
        ]);
        let mods = ["mods/rain.lua".to_string(), "mods/mud.lua".to_string()];
        assert_eq!(
            host_note(&bots, &mods).as_deref(),
            Some("bots chosen: blue demo.ai, red random; mods: mods/rain.lua, mods/mud.lua")
        );
        assert_eq!(
            host_note(&bots, &[]).as_deref(),
            Some("bots chosen: blue demo.ai, red random")
        );
        assert_eq!(
            host_note(&BTreeMap::new(), &mods[..1]).as_deref(),
            Some("mods: mods/rain.lua")
        );
        assert_eq!(host_note(&BTreeMap::new(), &[]), None);
    }

    /// One game has no spread; scores near f64's limit give a finite one.
    #[test]
    fn the_spread_of_one_game_is_zero_and_huge_scores_stay_finite() {
        assert_eq!(
            Spread::of(&[]),
            Spread {
                sd: 0.0,
                min: 0.0,
                max: 0.0
            }
        );
        assert_eq!(
            Spread::of(&[3.0]),
            Spread {
                sd: 0.0,
                min: 3.0,
                max: 3.0
            }
        );
        let huge = Spread::of(&[1e308, -1e308]);
        assert!(huge.sd.is_finite() && huge.sd > 1e308, "{huge:?}");
        assert_eq!((huge.min, huge.max), (-1e308, 1e308));
    }
}

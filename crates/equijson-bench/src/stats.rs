//! Summaries of timing samples: median, fastest, slowest.

/// Median, fastest and slowest of a set of samples (in whatever unit they were taken).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    /// The median (mean of the two middle samples for an even count).
    pub median: f64,
    /// The smallest sample.
    pub fastest: f64,
    /// The largest sample.
    pub slowest: f64,
}

impl Stats {
    /// The summary of `samples`, or `None` when there are none.
    #[must_use]
    pub fn of(samples: &[f64]) -> Option<Self> {
        let mut v = samples.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let (&fastest, &slowest) = (v.first()?, v.last()?);
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            f64::midpoint(v[n / 2 - 1], v[n / 2])
        };
        Some(Self {
            median,
            fastest,
            slowest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Stats;

    #[test]
    fn median_fastest_slowest() {
        assert_eq!(Stats::of(&[]), None);
        let s = Stats::of(&[3.0, 1.0, 2.0]).unwrap_or(Stats {
            median: 0.0,
            fastest: 0.0,
            slowest: 0.0,
        });
        assert_eq!((s.median, s.fastest, s.slowest), (2.0, 1.0, 3.0));
        let s = Stats::of(&[4.0, 1.0, 2.0, 3.0]).unwrap_or(Stats {
            median: 0.0,
            fastest: 0.0,
            slowest: 0.0,
        });
        assert!((s.median - 2.5).abs() < f64::EPSILON);
    }
}

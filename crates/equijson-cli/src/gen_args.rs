//! The generator arguments `props` and `pg roundtrip` share: equal arguments, equal cases and digest.

use clap::Args;

/// Which generated documents to check.
#[derive(Args, Debug, Clone)]
pub(crate) struct GenArgs {
    /// Seed (decimal or 0x-hex); default: from the clock, printed so the run can be repeated.
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    seed: Option<u64>,

    /// Number of cases.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub(crate) cases: u64,

    /// The DTO whose documents are generated (see `equijson dtos`); default `value`.
    #[arg(long, value_name = "NAME")]
    pub(crate) dto: Option<String>,

    /// Size parameter of the generator: bounds the length of arrays, objects and repeated
    /// DTO fields (0 to 32).
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = clap::value_parser!(u8).range(0..=32))]
    pub(crate) size: u8,
}

impl GenArgs {
    /// The seed given, else one from the clock (read once per call: call it once per run).
    pub(crate) fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(clock_seed)
    }
}

fn parse_seed(s: &str) -> Result<u64, String> {
    equijson_check::props::parse_seed(s)
        .ok_or_else(|| "not a 64-bit unsigned seed (decimal or 0x-hex)".to_owned())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() ^ u64::from(d.subsec_nanos()))
}

//! Deterministic mixing of seeds: the same numbers on every machine, for what is drawn from a
//! seed (`stress`'s cases, `mutants`' sample) and for fresh temporary names.

/// SplitMix64's finaliser: neighbouring inputs give unrelated outputs. Integer arithmetic only,
/// so the draws are the same on every machine.
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

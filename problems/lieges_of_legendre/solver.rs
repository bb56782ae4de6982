//! The fast solver: XOR of the closed-form g(a_i), proven in the module doc of
//! `lieges_of_legendre`. The small values come from the mex by hand:
//!
//! * even `k` (a split is worth 0): g(0) = 0, g(1) = mex{g(0)} = 1, g(2) = mex{g(1), 0} = 2.
//! * odd `k` (a split of `2x` is worth g(x)): g(0) = 0, g(1) = mex{0} = 1,
//!   g(2) = mex{g(1), g(1)} = 0, g(3) = mex{g(2)} = 1, g(4) = mex{g(3), g(2)} = 2.
//!
//! Streams the piles (no allocation), `O(log a)` per pile, no recursion.

use super::validator::{read_header, EXTENDED};
use crate::InputError;

/// g(pile) for splits into `k` piles.
pub fn grundy(pile: u64, k: u64) -> u8 {
    if k.is_multiple_of(2) {
        grundy_even_k(pile)
    } else {
        grundy_odd_k(pile)
    }
}

fn grundy_even_k(pile: u64) -> u8 {
    match pile {
        0..=2 => pile as u8,
        _ if pile.is_multiple_of(2) => 1,
        _ => 0,
    }
}

fn grundy_odd_k(pile: u64) -> u8 {
    // Walk down the halving chain while the rule for even x >= 6 applies, then climb back up: each
    // step maps the value v of x/2 to that of x, 2 if v = 1 and 1 otherwise.
    let mut x = pile;
    let mut steps = 0;
    while x >= 6 && x.is_multiple_of(2) {
        x /= 2;
        steps += 1;
    }
    let mut g = match x {
        1 | 3 => 1,
        4 => 2,
        _ => 0, // 0, 2 and every odd x >= 5
    };
    for _ in 0..steps {
        g = if g == 1 { 2 } else { 1 };
    }
    g
}

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut piles = read_header(input, EXTENDED)?;
    let k = piles.k;
    let mut total = 0;
    while let Some((size, _)) = piles.next_pile()? {
        total ^= grundy(size, k);
    }
    out.extend_from_slice(if total != 0 { b"Kevin\n" } else { b"Nicky\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, String> {
        let mut out = Vec::new();
        match solve(input.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn samples() {
        assert_eq!(run("2 1\n3 4\n").unwrap(), "Kevin\n");
        assert_eq!(run("1 2\n3\n").unwrap(), "Nicky\n");
    }

    #[test]
    fn small_values_by_hand() {
        let even: Vec<u8> = (0..10).map(|x| grundy(x, 2)).collect();
        assert_eq!(even, [0, 1, 2, 0, 1, 0, 1, 0, 1, 0]);
        // Odd k: 6 -> mex{g(5) = 0, g(3) = 1} = 2, 8 -> mex{0, g(4) = 2} = 1,
        // 10 -> mex{0, g(5) = 0} = 1, 12 -> mex{0, g(6) = 2} = 1, 16 -> mex{0, g(8) = 1} = 2.
        let odd: Vec<u8> = (0..17).map(|x| grundy(x, 1)).collect();
        assert_eq!(odd, [0, 1, 0, 1, 2, 0, 2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2]);
    }

    #[test]
    fn deep_halving_chains_alternate() {
        // 3 * 2^t: g(3) = 1, then 2, 1, 2, ... up the chain.
        for t in 1..60 {
            let expected = if t % 2 == 1 { 2 } else { 1 };
            assert_eq!(grundy(3 << t, 999_999_999), expected, "t = {t}");
        }
        // 2^t: g(4) = 2, g(8) = 1, g(16) = 2, ...
        assert_eq!(grundy(1 << 62, 1), 2);
        assert_eq!(grundy(1 << 63, 1), 1);
        assert_eq!(grundy(u64::MAX - 1, 1_000_000_000), 1);
    }

    #[test]
    fn extended_limits_are_accepted() {
        let input = "2 1000000000000000000\n1000000000000000000 999999999999999999\n";
        assert_eq!(run(input).unwrap(), "Kevin\n");
    }

    #[test]
    fn malformed_input_is_an_error_with_a_position() {
        assert_eq!(
            run("2 1\n3\n").unwrap_err(),
            "line 3, column 1: the input ends after 1 of the n = 2 pile sizes"
        );
        assert!(run("1 1\n3 3").unwrap_err().contains("unexpected `3`"));
        assert!(run("1 1\n3.5").unwrap_err().contains("found `3.5`"));
        assert!(run("0 1\n")
            .unwrap_err()
            .contains("pile count n 0 is below"));
        assert!(run("1 1\n1000000000000000001")
            .unwrap_err()
            .contains("above the limit"));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..3000 {
            let len = (state % 20) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    b"0123456789 \n\t-x\r\xff"[(state % 17) as usize]
                })
                .collect();
            let _ = solve(&bytes, &mut Vec::new());
        }
    }
}

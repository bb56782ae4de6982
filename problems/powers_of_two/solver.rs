//! The fast solver: Kiki loses exactly when `3` divides `n` (proof in the module doc of
//! `powers_of_two`). One division per `n`, no table, any `n` up to the extended limit.

use super::validator::{for_each_n, EXTENDED_MAX_N};
use crate::InputError;

/// g(n) = n mod 3, for any `n` (proof in the module doc of `powers_of_two`).
pub fn grundy(n: u64) -> u8 {
    (n % 3) as u8
}

/// The winner of a game that starts with `n` cards and Kiki to move.
pub fn winner(n: u64) -> &'static [u8] {
    if grundy(n) == 0 {
        b"Cici\n"
    } else {
        b"Kiki\n"
    }
}

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let start = out.len();
    let result = for_each_n(input, EXTENDED_MAX_N, |n, _| {
        out.extend_from_slice(winner(n))
    });
    if result.is_err() {
        // A malformed input yields no answers at all, not the answers before the bad token.
        out.truncate(start);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, String> {
        let mut out = Vec::new();
        match solve(input.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(e) => {
                assert!(out.is_empty(), "partial output on an error");
                Err(e.to_string())
            }
        }
    }

    #[test]
    fn sample() {
        assert_eq!(run("1\n3\n").unwrap(), "Kiki\nCici\n");
    }

    #[test]
    fn small_cases_by_hand() {
        // 2: take both. 4: take 4. 5: take 2, leaving 3. 6: every move (1, 2, 4) leaves 5, 4, 2,
        // each a win for the mover.
        assert_eq!(run("2 4 5 6").unwrap(), "Kiki\nKiki\nKiki\nCici\n");
    }

    #[test]
    fn huge_n_is_one_division() {
        assert_eq!(run("999999999999999999\n").unwrap(), "Cici\n");
        assert_eq!(run("1000000000000000000\n").unwrap(), "Kiki\n");
    }

    #[test]
    fn malformed_input_is_an_error_with_a_position() {
        assert!(run("").unwrap_err().contains("holds no n"));
        assert_eq!(
            run("3\n4\nfive\n").unwrap_err(),
            "line 3, column 1: expected n (a non-negative integer), found `five`"
        );
        assert!(run("1 0")
            .unwrap_err()
            .starts_with("line 1, column 3: n 0 is below"));
        assert!(run("99999999999999999999")
            .unwrap_err()
            .contains("too large"));
        assert!(run("1000000000000000001")
            .unwrap_err()
            .contains("above the limit"));
        assert!(run("7\n\0").unwrap_err().starts_with("line 2, column 1:"));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let len = (state % 24) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    b"0123456789 \n\t-x\r\xff"[(state % 17) as usize]
                })
                .collect();
            let mut out = Vec::new();
            let _ = solve(&bytes, &mut out);
        }
    }
}

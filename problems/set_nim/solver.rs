//! XOR of the heaps' Grundy values, from a table of the subtraction game up to the largest heap,
//! or from its period when the largest heap is above the direct-table bound.

use super::validator::{EXTENDED_MAX_HEAP, MAX_COUNT, MAX_TAKE};
use crate::support::{no_period_message, read_takes, SubtractionValues, DIRECT_TABLE_LIMIT};
use crate::{InputError, Scanner};

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    let k = scanner.usize_in("k", 1..=MAX_COUNT)?;
    // Duplicate takes are tolerated: the table builder ignores them.
    let moves = read_takes(&mut scanner, k, MAX_TAKE)?;
    let n = scanner.usize_in("n", 1..=MAX_COUNT)?;
    let mut heaps = Vec::with_capacity(n);
    let mut first_huge = None;
    for _ in 0..n {
        let offset = scanner.next_token_offset();
        let heap = scanner.u64_in("heap size", 1..=EXTENDED_MAX_HEAP)?;
        if heap > DIRECT_TABLE_LIMIT && first_huge.is_none() {
            first_huge = Some((offset, heap));
        }
        heaps.push(heap);
    }
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let Some(values) = SubtractionValues::for_heaps(&moves, largest) else {
        let (offset, heap) = first_huge.unwrap_or((0, largest));
        return Err(scanner.error_at(offset, no_period_message(heap)));
    };
    scanner.expect_end()?;
    let xor = heaps.iter().fold(0, |acc, &h| acc ^ values.at(h));
    out.extend_from_slice(if xor != 0 { b"Yes\n" } else { b"No\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, InputError> {
        let mut out = Vec::new();
        solve(input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn brute(input: &str) -> String {
        let mut out = Vec::new();
        super::super::brute::solve(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn input(moves: &[u64], heaps: &[u64]) -> String {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "{}\n{}\n{}\n{}\n",
            moves.len(),
            list(moves),
            heaps.len(),
            list(heaps)
        )
    }

    #[test]
    fn sample() {
        assert_eq!(run("2\n2 5\n3\n2 4 7\n").unwrap(), "Yes\n");
    }

    #[test]
    fn agrees_with_the_brute_force_for_every_set_over_one_to_six() {
        // Single heaps test g(h) != 0; pairs test g(a) == g(b), which pins the table down.
        for mask in 1u32..64 {
            let moves: Vec<u64> = (1..=6).filter(|&s| mask >> (s - 1) & 1 == 1).collect();
            for a in 1..=60 {
                let case = input(&moves, &[a]);
                assert_eq!(run(&case).unwrap(), brute(&case), "{case}");
                for b in a..=60 {
                    let case = input(&moves, &[a, b]);
                    assert_eq!(run(&case).unwrap(), brute(&case), "{case}");
                }
            }
        }
    }

    #[test]
    fn the_period_path_agrees_with_the_brute_force_just_above_the_table() {
        let mut state = 7u64;
        let mut next = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % modulus
        };
        for _ in 0..6 {
            let moves: Vec<u64> = (0..1 + next(4)).map(|_| 1 + next(30)).collect();
            let mut distinct = moves.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let heaps: Vec<u64> = (0..3)
                .map(|_| DIRECT_TABLE_LIMIT + 1 + next(1 << 20))
                .collect();
            let case = input(&distinct, &heaps);
            assert_eq!(run(&case).unwrap(), brute(&case), "{case}");
        }
    }

    #[test]
    fn huge_heaps_by_hand() {
        // {1}: g(h) = h mod 2. {2}: g(h) = (h / 2) mod 2. {1, 3, 4}: g repeats 0 1 0 1 2 3 2, and
        // 10^18 = 1 (mod 7), 10^18 - 1 = 0 (mod 7).
        let e18 = 1_000_000_000_000_000_000u64;
        assert_eq!(run(&input(&[1], &[e18])).unwrap(), "No\n");
        assert_eq!(run(&input(&[1], &[e18 - 1])).unwrap(), "Yes\n");
        assert_eq!(run(&input(&[2], &[e18])).unwrap(), "No\n");
        assert_eq!(run(&input(&[2], &[e18 - 2])).unwrap(), "Yes\n");
        assert_eq!(run(&input(&[4, 1, 3], &[e18, 1])).unwrap(), "No\n");
        assert_eq!(run(&input(&[4, 1, 3], &[e18 - 1])).unwrap(), "No\n");
        // Duplicates change nothing.
        assert_eq!(run(&input(&[4, 1, 3, 3, 1], &[e18 - 3])).unwrap(), "Yes\n");
    }

    #[test]
    fn malformed_input_names_line_and_column() {
        let takes = crate::test_support::takes_without_a_period_in_reach();
        let hopeless = input(&takes, &[3, 2_000_000, 4_000_000]);
        let cases = [
            (
                "2\n2 5\n3\n2 4",
                4,
                4,
                "expected heap size (a non-negative integer), found end of input",
            ),
            ("2\n2 x\n", 2, 3, "found `x`"),
            ("0\n", 1, 1, "k 0 is below the minimum 1"),
            ("1\n10001\n", 2, 1, "take 10001 is above the limit 10000"),
            ("1\n1\n101\n", 3, 1, "n 101 is above the limit 100"),
            ("1\n1\n1\n0\n", 4, 1, "heap size 0 is below the minimum 1"),
            (
                "1\n1\n1\n1000000000000000001\n",
                4,
                1,
                "above the limit 1000000000000000000",
            ),
            (
                "1\n1\n1\n5 6\n",
                4,
                3,
                "unexpected `6` after the end of the input",
            ),
            (
                hopeless.as_str(),
                4,
                3,
                "heap size 2000000 is above 1048576",
            ),
        ];
        for (input, line, column, message) in cases {
            let err = run(input).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{input:?}: {err}");
            assert!(err.message.contains(message), "{input:?}: {err}");
        }
    }
}

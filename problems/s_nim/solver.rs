//! Per test case: read every position, build one table of g up to the largest heap (or find the
//! period when that heap is above the direct-table bound), then XOR each position's values.

use super::validator::{EXTENDED_MAX_HEAP, MAX_COUNT, MAX_TAKE};
use crate::support::{no_period_message, read_takes, SubtractionValues, DIRECT_TABLE_LIMIT};
use crate::{InputError, Scanner};

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    // All heaps of a test case back to back, and how many belong to each position.
    let mut heaps = Vec::new();
    let mut lengths = Vec::new();
    // Lenient: an input that ends at a test-case boundary without the `0` is accepted.
    while !scanner.at_end() {
        let k = scanner.u64_in("k", 0..=MAX_COUNT)?;
        if k == 0 {
            return scanner.expect_end();
        }
        let moves = read_takes(&mut scanner, k as usize, MAX_TAKE)?;
        let m = scanner.u64_in("m", 1..=MAX_COUNT)?;
        heaps.clear();
        lengths.clear();
        let mut first_huge = None;
        for _ in 0..m {
            let l = scanner.u64_in("l", 1..=MAX_COUNT)?;
            for _ in 0..l {
                let offset = scanner.next_token_offset();
                let heap = scanner.u64_in("heap size", 0..=EXTENDED_MAX_HEAP)?;
                if heap > DIRECT_TABLE_LIMIT && first_huge.is_none() {
                    first_huge = Some((offset, heap));
                }
                heaps.push(heap);
            }
            lengths.push(l as usize);
        }
        let largest = heaps.iter().copied().max().unwrap_or(0);
        let Some(values) = SubtractionValues::for_heaps(&moves, largest) else {
            let (offset, heap) = first_huge.unwrap_or((0, largest));
            return Err(scanner.error_at(offset, no_period_message(heap)));
        };
        let mut rest = heaps.as_slice();
        for &l in &lengths {
            let (position, tail) = rest.split_at(l);
            rest = tail;
            let xor = position.iter().fold(0, |acc, &h| acc ^ values.at(h));
            out.push(if xor != 0 { b'W' } else { b'L' });
        }
        out.push(b'\n');
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str =
        "2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";

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

    /// Test cases of `moves` holding `positions`, at most 100 positions each, then `0`.
    fn input(moves: &[u64], positions: &[Vec<u64>]) -> String {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let mut text = String::new();
        for chunk in positions.chunks(100) {
            text += &format!("{} {}\n{}\n", moves.len(), list(moves), chunk.len());
            for heaps in chunk {
                text += &format!("{} {}\n", heaps.len(), list(heaps));
            }
        }
        text + "0\n"
    }

    #[test]
    fn sample() {
        assert_eq!(run(SAMPLE).unwrap(), "LWW\nWWL\n");
    }

    #[test]
    fn agrees_with_the_brute_force_for_every_set_over_one_to_six() {
        // Single heaps test g(h) != 0; pairs test g(a) == g(b), which pins the table down.
        let mut positions: Vec<Vec<u64>> = (0..=60).map(|a| vec![a]).collect();
        for a in 0..=60 {
            positions.extend((a..=60).map(|b| vec![a, b]));
        }
        let mut text = String::new();
        for mask in 1u32..64 {
            let mut moves: Vec<u64> = (1..=6)
                .rev()
                .filter(|&s| mask >> (s - 1) & 1 == 1)
                .collect();
            // Unsorted, and from time to time with a repeated take.
            if mask % 3 == 0 {
                moves.push(moves[0]);
            }
            text += input(&moves, &positions).strip_suffix("0\n").unwrap();
        }
        text += "0\n";
        let expected = brute(&text);
        assert_eq!(expected.lines().count(), 63 * 20);
        assert_eq!(run(&text).unwrap(), expected);
    }

    #[test]
    fn the_period_path_agrees_with_the_brute_force_just_above_the_table() {
        let mut state = 11u64;
        let mut next = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % modulus
        };
        let mut text = String::new();
        for _ in 0..5 {
            let moves: Vec<u64> = (0..1 + next(5)).map(|_| 1 + next(40)).collect();
            let positions: Vec<Vec<u64>> = (0..4)
                .map(|_| vec![DIRECT_TABLE_LIMIT + next(1 << 20), next(100)])
                .collect();
            text += input(&moves, &positions).strip_suffix("0\n").unwrap();
        }
        text += "0\n";
        assert_eq!(run(&text).unwrap(), brute(&text));
    }

    #[test]
    fn huge_heaps_by_hand() {
        // {1}: g(h) = h mod 2. {2, 5}: g repeats 0 0 1 1 0 2 1 with period 7, and
        // 10^18 = 1 (mod 7), so g(10^18 - 3) = g(5) = 2 and g(10^18 - 1) = g(0) = 0.
        let e18 = 1_000_000_000_000_000_000u64;
        let case = input(&[1], &[vec![e18], vec![e18 - 1], vec![e18, 0, e18 - 1]]);
        assert_eq!(run(&case).unwrap(), "LWW\n");
        let case = input(
            &[5, 2, 5],
            &[vec![e18 - 3, 5], vec![e18 - 1], vec![e18 - 3, 2]],
        );
        assert_eq!(run(&case).unwrap(), "LLW\n");
    }

    #[test]
    fn many_large_test_cases() {
        // 400 test cases of 100 takes and 100 positions of heaps up to 10^4: one table each.
        let moves: Vec<u64> = (1..=100).map(|i| i * 97 % 10_000 + 1).collect();
        let positions: Vec<Vec<u64>> = (0..100).map(|p| vec![10_000 - p, p * 37]).collect();
        let one = input(&moves, &positions);
        let text = one.strip_suffix("0\n").unwrap().repeat(400) + "0\n";
        let answers = run(&text).unwrap();
        assert_eq!(answers.lines().count(), 400);
        assert!(answers
            .lines()
            .all(|line| line == answers.lines().next().unwrap()));
        assert_eq!(answers.lines().next().unwrap(), brute(&one).trim_end());
    }

    #[test]
    fn the_terminator_rules() {
        // Lenient: no `0` after a complete test case; strict: nothing after the `0`.
        assert_eq!(run("1 1\n1\n2 1 1\n").unwrap(), "L\n");
        assert_eq!(run("").unwrap(), "");
        assert_eq!(run("0").unwrap(), "");
        let err = run("1 1\n1\n1 1\n0\n7\n").unwrap_err();
        assert_eq!((err.line, err.column), (5, 1));
        assert!(err.message.contains("after the end of the input"), "{err}");
    }

    #[test]
    fn malformed_input_names_line_and_column() {
        let takes = crate::test_support::takes_without_a_period_in_reach();
        let hopeless = input(&takes, &[vec![3], vec![2, 2_000_000, 4_000_000]]);
        let cases = [
            (
                "2 2 5\n3\n2 5 12\n3 2 4",
                4,
                6,
                "expected heap size (a non-negative integer), found end of input",
            ),
            (
                "2 2 5\n",
                2,
                1,
                "expected m (a non-negative integer), found end of input",
            ),
            ("2 2 5\n1\n1 x\n0\n", 3, 3, "found `x`"),
            ("101 1\n", 1, 1, "k 101 is above the limit 100"),
            ("1 0\n", 1, 3, "take 0 is below the minimum 1"),
            ("1 1\n0\n", 2, 1, "m 0 is below the minimum 1"),
            ("1 1\n1\n101\n", 3, 1, "l 101 is above the limit 100"),
            (
                "1 1\n1\n1 1000000000000000001\n",
                3,
                3,
                "above the limit 1000000000000000000",
            ),
            (
                hopeless.as_str(),
                4,
                5,
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

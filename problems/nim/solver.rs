//! Bouton: XOR the heap sizes of each line; the player to move loses exactly when it is 0.

use crate::{InputError, Scanner};

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let mut scanner = Scanner::new(input);
    // `at_end` skips blank lines; `token_on_line` keeps each position to its own line.
    while !scanner.at_end() {
        let mut xor = 0u64;
        while scanner.token_on_line() {
            xor ^= scanner.u64("heap size")?;
        }
        out.extend_from_slice(if xor == 0 { b"lose\n" } else { b"win\n" });
    }
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

    #[test]
    fn sample() {
        assert_eq!(run("1 2 3\n").unwrap(), "lose\n");
    }

    #[test]
    fn agrees_with_the_brute_force_on_every_position_of_up_to_three_heaps_of_twelve() {
        let mut input = String::new();
        for a in 0..=12 {
            input += &format!("{a}\n");
            for b in 0..=12 {
                input += &format!("{a} {b}\n");
                for c in 0..=12 {
                    input += &format!("{a}\t{b}  {c}\n");
                }
            }
        }
        let mut expected = Vec::new();
        super::super::brute::solve(input.as_bytes(), &mut expected).unwrap();
        assert_eq!(run(&input).unwrap(), String::from_utf8(expected).unwrap());
        assert_eq!(
            run(&input).unwrap().lines().count(),
            13 + 13 * 13 + 13 * 13 * 13
        );
    }

    #[test]
    fn blank_lines_carry_no_position_and_huge_heaps_are_fine() {
        // By hand: equal heaps cancel; a single non-empty heap is a win.
        let input = "\n  \r\n18446744073709551615 18446744073709551615\r\n\n7\n0\n";
        assert_eq!(run(input).unwrap(), "lose\nwin\nlose\n");
        assert_eq!(run("").unwrap(), "");
        assert_eq!(run("5 5").unwrap(), "lose\n");
    }

    #[test]
    fn malformed_input_names_line_and_column() {
        let cases = [
            (
                "1 2\n3 x\n",
                2,
                3,
                "expected heap size (a non-negative integer), found `x`",
            ),
            ("1 -2\n", 1, 3, "found `-2`"),
            ("4\n\n1 2a 3\n", 3, 3, "found `2a`"),
            (
                "0 18446744073709551616\n",
                1,
                3,
                "heap size `18446744073709551616` is too large",
            ),
            ("1,2\n", 1, 1, "found `1,2`"),
        ];
        for (input, line, column, message) in cases {
            let err = run(input).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{input:?}: {err}");
            assert!(err.message.contains(message), "{input:?}: {err}");
        }
    }
}

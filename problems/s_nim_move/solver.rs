//! One table of g up to the largest heap; per position, the XOR of its values and, when that is
//! not 0, the move of the constructive proof in `mod.rs` ([`winning_move`]): the first heap
//! holding the highest bit of the XOR, and the first take that reaches the value that cancels it. O(max heap * |S|) for
//! the table, O(l + |S|) per position.

use super::validator::{parse, Repeats};
use crate::support::winning_move;
use crate::{sg, InputError};
use std::io::Write;

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let instance = parse(input, Repeats::Allowed)?;
    let largest = instance.positions.iter().flatten().copied().max();
    let table = sg::subtraction_table(&instance.moves, largest.unwrap_or(0) as usize);
    for heaps in &instance.positions {
        match winning_move(&table, &instance.moves, heaps) {
            Some((heap, take)) => writeln!(out, "{} {take}", heap + 1),
            None => writeln!(out, "lose"),
        }
        .expect("writing to a Vec cannot fail");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, InputError> {
        crate::test_support::run_to_string(solve, input)
    }

    #[test]
    fn sample_by_hand() {
        // S = {2, 5}: g = 0 0 1 1 0 2 1 0 0 1 1 0 2 for h = 0..12. `5 12`: 2 XOR 2 = 0, lose.
        // `2 4 7`: 1 XOR 0 XOR 0 = 1; heap 1 (value 1) goes to value 0 by taking 2.
        // `2 3 7 12`: 1 XOR 1 XOR 0 XOR 2 = 2; heap 4 (12, value 2) goes to 7 (value 0).
        let output = run("2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n").unwrap();
        assert_eq!(output, "lose\n1 2\n4 5\n");
    }

    #[test]
    fn takes_above_every_heap_and_empty_heaps_lose() {
        assert_eq!(run("1 7\n2\n3 0 6 6\n1 0\n").unwrap(), "lose\nlose\n");
        assert_eq!(run("2 7 1\n1\n3 0 6 7\n").unwrap(), "3 7\n");
        // A repeated take is the same move: the solver accepts it.
        assert_eq!(run("3 1 1 1\n1\n2 1 0\n").unwrap(), "1 1\n");
    }

    #[test]
    fn malformed_input_names_line_and_column() {
        let err = run("2 2 5\n1\n2 5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3, column 4: expected heap size (a non-negative integer), found end of input"
        );
        let err = run("1 1\n1\n1 10001\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 3));
    }
}

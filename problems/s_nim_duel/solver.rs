//! The answer file: `first` when the starting position's Grundy values XOR to something other
//! than 0 (the player to move wins), else `second`. One table up to the largest heap.

use super::validator::parse;
use crate::{sg, InputError};

pub fn solve(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    let instance = parse(input, false)?;
    let largest = instance.heaps.iter().copied().max().unwrap_or(0);
    let table = sg::subtraction_table(&instance.moves, largest as usize);
    let xor = sg::xor_sum(instance.heaps.iter().map(|&h| u64::from(table[h as usize])));
    out.extend_from_slice(if xor != 0 { b"first\n" } else { b"second\n" });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, InputError> {
        crate::test_support::run_to_string(solve, input)
    }

    #[test]
    fn by_hand() {
        // S = {2, 5}: g = 0 0 1 1 0 2 1 0 ... `4 7`: 0 XOR 0, the second player wins.
        assert_eq!(run("2 2 5\n2 4 7\n").unwrap(), "second\n");
        assert_eq!(run("2 2 5\n3 2 4 7\n3\n").unwrap(), "first\n");
        assert_eq!(run("1 3\n1 0\n").unwrap(), "second\n");
        let err = run("1 3\n1 1001\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
    }
}

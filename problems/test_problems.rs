//! Deliberately broken solvers, compiled only with the `test-problems` feature (which the runner's
//! test builds turn on), so the runner's failure paths can be driven through the real binary.

use crate::{Constraints, InputError, Problem, Scanner};

fn no_generator(_seed: u64, _scale: u64) -> Vec<u8> {
    b"1\n".to_vec()
}

fn any_input(_input: &mut dyn std::io::BufRead, _limits: Constraints) -> Result<(), InputError> {
    Ok(())
}

fn no_shrink(_input: &[u8]) -> Vec<Vec<u8>> {
    Vec::new()
}

fn echo(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    out.extend_from_slice(input);
    Ok(())
}

/// Panics on every input that holds the word `panic`, echoes the rest.
pub static PANICS: Problem = Problem {
    id: "test-panic",
    title: "Test: panics on demand",
    statement: "Echoes its input; panics when the input contains `panic`.",
    solve: |input, out| {
        if input.windows(5).any(|w| w == b"panic") {
            panic!("the input asked for a panic");
        }
        echo(input, out)
    },
    brute: echo,
    generate: no_generator,
    validate: any_input,
    shrink: no_shrink,
    check: None,
    interact: None,
};

/// Loops forever on every input that holds the word `loop`, echoes the rest.
pub static LOOPS: Problem = Problem {
    id: "test-loop",
    title: "Test: loops on demand",
    statement: "Echoes its input; never returns when the input contains `loop`.",
    solve: |input, out| {
        if input.windows(4).any(|w| w == b"loop") {
            loop {
                std::thread::park();
            }
        }
        echo(input, out)
    },
    brute: echo,
    generate: no_generator,
    validate: any_input,
    shrink: no_shrink,
    check: None,
    interact: None,
};

/// A wrong Nim solver (it ignores every heap after the second), to be caught by stress testing.
pub static WRONG_NIM: Problem = Problem {
    id: "test-wrong-nim",
    solve: |input, out| {
        let mut scanner = Scanner::new(input);
        while !scanner.at_end() {
            let mut xor = 0;
            let mut count = 0;
            while scanner.token_on_line() {
                let heap = scanner.u64("heap size")?;
                if count < 2 {
                    xor ^= heap;
                }
                count += 1;
            }
            out.extend_from_slice(if xor == 0 { b"lose\n" } else { b"win\n" });
        }
        Ok(())
    },
    ..crate::nim::PROBLEM
};

//! Placeholder until the problem module lands.
use crate::{Constraints, InputError, Problem};

fn todo_solve(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    todo!()
}

pub static PROBLEM: Problem = Problem {
    id: "set-nim",
    title: "set-nim",
    statement: "",
    solve: todo_solve,
    brute: todo_solve,
    generate: |_, _| Vec::new(),
    validate: |_, _: Constraints| Ok(()),
    shrink: |_| Vec::new(),
};

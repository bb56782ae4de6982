use std::sync::atomic::AtomicBool;

use super::*;
use crate::running::pool::PoolOptions;

#[test]
fn a_wrong_solver_is_caught_and_shrunk_in_process() {
    fn wrong(input: &[u8], out: &mut Vec<u8>) -> Result<(), grundy_problems::InputError> {
        // Right on one heap, wrong as soon as a line holds three.
        let heaps = input.split(|&b| b == b' ').count();
        (grundy_problems::find("nim").unwrap().solve)(input, out)?;
        if heaps >= 3 {
            out.clear();
            out.extend_from_slice(b"?\n");
        }
        Ok(())
    }
    let problem = grundy_problems::find("nim").unwrap();
    let problem: &'static Problem = Box::leak(Box::new(Problem {
        solve: wrong,
        ..*problem
    }));
    let tester = Arc::new(Tester {
        problem,
        subject: Subject::BuiltIn,
        settings: Settings::default(),
    });
    assert!(matches!(
        tester.try_input(b"1 2\n").unwrap(),
        Outcome::Agree
    ));
    let Outcome::Disagree(trial) = tester.try_input(b"5 6 7 8\n1\n").unwrap() else {
        panic!("four heaps must fail");
    };
    let options = PoolOptions {
        jobs: 2,
        fail_fast: true,
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let shrunk = shrinking::shrink(
        problem,
        (b"5 6 7 8\n1\n".to_vec(), *trial),
        shrinking::BUDGET,
        Arc::new(move |c: &[u8]| match tester.try_input(c)? {
            Outcome::Disagree(trial) => Ok(Some(*trial)),
            _ => Ok(None),
        }),
        &options,
        |_, _| {},
    )
    .unwrap();
    assert_eq!(shrunk.input, b"0 0 0\n");
    assert!(shrunk.steps > 0 && !shrunk.cut_short);
    assert_eq!(shrunk.trial.output, b"?\n");
    assert_eq!(shrunk.trial.expected, b"lose\n");
}

#[test]
fn an_invalid_generated_input_or_a_failing_brute_force_is_not_the_solvers_fault() {
    fn refuses(input: &[u8], _: &mut Vec<u8>) -> Result<(), grundy_problems::InputError> {
        Err(grundy_problems::InputError::at(input, 0, "out of reach"))
    }
    let nim = grundy_problems::find("nim").unwrap();
    let problem: &'static Problem = Box::leak(Box::new(Problem {
        brute: refuses,
        ..*nim
    }));
    let tester = Tester {
        problem,
        subject: Subject::BuiltIn,
        settings: Settings::default(),
    };
    let Outcome::Broken(reason) = tester.try_input(b"1 x\n").unwrap() else {
        panic!("`x` is no heap size");
    };
    let reason = reason.to_string();
    assert!(reason.contains("validator rejects"), "{reason}");
    let Outcome::Broken(reason) = tester.try_input(b"1 2\n").unwrap() else {
        panic!("the brute force refuses everything");
    };
    let reason = reason.to_string();
    assert!(
        reason.contains("brute force of nim rejected its input: line 1, column 1: out of reach"),
        "{reason}"
    );
}

//! The checker: any winning move is right, so an output is judged from the rules, never by
//! comparing it with the answer file. It builds its own table of g by an explicit mex over the
//! takes (the brute forces' rules-only table, never the solver's) and, line by line, checks `lose`
//! against a position of XOR 0 and a move for legality and for leaving a position of XOR 0. The
//! answer file goes through the same judgement first: if it is not right, the problem's data is at
//! fault (a judge error), not the program.

use super::validator::{parse, Instance, Repeats};
use crate::support::{grundy_by_mex, shown, tokens};
use crate::Decision;

pub fn check(input: &[u8], answer: &[u8], output: &[u8]) -> Decision {
    let instance = match parse(input, Repeats::Refused) {
        Ok(instance) => instance,
        Err(error) => return Decision::JudgeError(format!("the input is malformed: {error}")),
    };
    let judge = Judge::new(&instance);
    if let Err(problem) = judge.verify(answer) {
        return Decision::JudgeError(format!("the answer file is not a right answer: {problem}"));
    }
    match judge.verify(output) {
        Ok(()) => Decision::Accept,
        Err(problem) => Decision::Reject(problem.to_string()),
    }
}

/// The first fault of an output (or of the answer file), located as a judge's message shows it.
#[derive(Debug, thiserror::Error)]
enum Fault {
    #[error("the output ends after {lines} lines; {expected} are expected, one per position")]
    Short { lines: usize, expected: usize },
    /// A line at fault as a whole.
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    /// One token of a line at fault.
    #[error("line {line}, column {column}: {reason}")]
    Token {
        line: usize,
        column: usize,
        reason: String,
    },
}

struct Judge<'a> {
    instance: &'a Instance,
    /// g(0..=largest heap), from the rules.
    table: Vec<u32>,
}

impl<'a> Judge<'a> {
    fn new(instance: &'a Instance) -> Self {
        let largest = instance.positions.iter().flatten().copied().max();
        let table = grundy_by_mex(&instance.moves, largest.unwrap_or(0) as usize);
        Judge { instance, table }
    }

    fn xor(&self, heaps: &[u64]) -> u32 {
        heaps.iter().fold(0, |acc, &h| acc ^ self.table[h as usize])
    }

    /// `Ok` when `text` holds one right line per position and nothing after them but whitespace;
    /// else the first fault, located by line (and column where a token is at fault).
    fn verify(&self, text: &[u8]) -> Result<(), Fault> {
        let positions = &self.instance.positions;
        let mut lines = text.split(|&b| b == b'\n').peekable();
        for (index, heaps) in positions.iter().enumerate() {
            // The empty piece after a final newline (or of an empty output) is no line.
            let line = match lines.next() {
                Some(line) if !(line.is_empty() && lines.peek().is_none()) => line,
                _ => {
                    return Err(Fault::Short {
                        lines: index,
                        expected: positions.len(),
                    })
                }
            };
            self.verify_line(index + 1, line.strip_suffix(b"\r").unwrap_or(line), heaps)?;
        }
        for (extra, line) in lines.enumerate() {
            if let Some(token) = tokens(line).next() {
                return Err(Fault::Token {
                    line: positions.len() + extra + 1,
                    column: token.0,
                    reason: format!(
                        "unexpected `{}` after the {} answers",
                        shown(token.1),
                        positions.len()
                    ),
                });
            }
        }
        Ok(())
    }

    fn verify_line(&self, number: usize, line: &[u8], heaps: &[u64]) -> Result<(), Fault> {
        let found: Vec<(usize, &[u8])> = tokens(line).take(3).collect();
        let xor = self.xor(heaps);
        let at_line = |reason: String| Fault::Line {
            line: number,
            reason,
        };
        let at_token = |column: usize, reason: String| Fault::Token {
            line: number,
            column,
            reason,
        };
        match found.as_slice() {
            [(_, b"lose")] if xor == 0 => Ok(()),
            [(_, b"lose")] => Err(at_line(format!(
                "`lose`, but position {number} is a win for the player to move (the XOR of its \
                 Grundy values is {xor}); a winning move: `{}`",
                self.some_winning_move(heaps)
            ))),
            [(heap_column, heap), (take_column, take)] => {
                let heap = number_at(number, *heap_column, heap, "a heap number")?;
                let take = number_at(number, *take_column, take, "a take")?;
                let Some(size) = heap
                    .checked_sub(1)
                    .and_then(|i| heaps.get(usize::try_from(i).ok()?))
                    .copied()
                else {
                    return Err(at_token(
                        *heap_column,
                        format!(
                            "there is no heap {heap}: position {number} has heaps 1 to {}",
                            heaps.len()
                        ),
                    ));
                };
                if !self.instance.moves.contains(&take) {
                    return Err(at_token(
                        *take_column,
                        format!("{take} is not an allowed take (not in S)"),
                    ));
                }
                if take > size {
                    return Err(at_token(
                        *take_column,
                        format!("cannot take {take} from heap {heap}, which holds {size}"),
                    ));
                }
                if xor == 0 {
                    return Err(at_line(format!(
                        "position {number} is lost for the player to move (the XOR of its Grundy \
                         values is 0), so the answer is `lose`, not a move"
                    )));
                }
                let after = xor ^ self.table[size as usize] ^ self.table[(size - take) as usize];
                if after == 0 {
                    Ok(())
                } else {
                    Err(at_line(format!(
                        "taking {take} from heap {heap} leaves a position the opponent wins (the \
                         XOR of its Grundy values is {after}); a winning move: `{}`",
                        self.some_winning_move(heaps)
                    )))
                }
            }
            [] => Err(at_line(format!(
                "empty; expected `lose` or a move `i s` for position {number}"
            ))),
            [(column, token), ..] => Err(at_token(
                *column,
                format!(
                    "expected `lose` or a move `i s`, found `{}`{}",
                    shown(token),
                    if found.len() > 2 { " and more" } else { "" }
                ),
            )),
        }
    }

    /// A winning move from a winning position, for messages.
    fn some_winning_move(&self, heaps: &[u64]) -> String {
        let xor = self.xor(heaps);
        for (index, &heap) in heaps.iter().enumerate() {
            for &take in self.instance.moves.iter().filter(|&&s| s <= heap) {
                let value = |h: u64| self.table[h as usize];
                if xor ^ value(heap) ^ value(heap - take) == 0 {
                    return format!("{} {take}", index + 1);
                }
            }
        }
        "none".to_string()
    }
}

/// A token read as a positive decimal number, or the fault.
fn number_at(line: usize, column: usize, token: &[u8], what: &str) -> Result<u64, Fault> {
    let parsed = std::str::from_utf8(token)
        .ok()
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<u64>().ok());
    parsed.ok_or_else(|| Fault::Token {
        line,
        column,
        reason: format!(
            "expected {what} (a positive integer), found `{}`",
            shown(token)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::{distinct, join, rng};
    use rand::RngExt;

    fn input(moves: &[u64], positions: &[Vec<u64>]) -> Vec<u8> {
        let mut text = format!("{} {}\n{}\n", moves.len(), join(moves), positions.len());
        for heaps in positions {
            text += &format!("{} {}\n", heaps.len(), join(heaps));
        }
        text.into_bytes()
    }

    fn brute(input: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        super::super::brute::solve(input, &mut out).unwrap();
        out
    }

    fn reject(input: &[u8], output: &str) -> String {
        match check(input, &brute(input), output.as_bytes()) {
            Decision::Reject(message) => message,
            other => panic!("{output:?}: {other:?}"),
        }
    }

    #[test]
    fn accepts_exactly_the_moves_that_leave_a_lost_position() {
        let mut rng = rng(41);
        let (mut accepted, mut rejected) = (0, 0);
        for _ in 0..25 {
            let k = rng.random_range(1..=4u64);
            let moves = distinct(&mut rng, k as usize, 1, 8);
            let wins = crate::test_support::wins_by_search(&moves, 14);
            for _ in 0..40 {
                let heaps: Vec<u64> = (0..3).map(|_| rng.random_range(0..=14u64)).collect();
                let case = input(&moves, std::slice::from_ref(&heaps));
                let answer = brute(&case);
                let at = |h: &[u64]| wins[h[0] as usize][h[1] as usize][h[2] as usize];
                let judged = |output: String| check(&case, &answer, output.as_bytes());
                let lose = judged("lose\n".to_string());
                assert_eq!(lose == Decision::Accept, !at(&heaps), "{case:?}");
                for i in 0..3 {
                    for take in 1..=9u64 {
                        let decision = judged(format!("{} {take}\n", i + 1));
                        let legal = moves.contains(&take) && take <= heaps[i];
                        let mut after = heaps.clone();
                        let right = legal && {
                            after[i] -= take;
                            !at(&after)
                        };
                        if right {
                            assert_eq!(decision, Decision::Accept, "{case:?}: {} {take}", i + 1);
                            accepted += 1;
                        } else {
                            assert!(matches!(decision, Decision::Reject(_)), "{case:?}");
                            rejected += 1;
                        }
                    }
                }
                for wrong in ["0 1", "4 1", "1 0", "-1 2", "1", "lose 1", "1 2 3", ""] {
                    assert!(
                        matches!(judged(format!("{wrong}\n")), Decision::Reject(_)),
                        "{wrong:?}"
                    );
                }
            }
        }
        assert!(
            accepted > 200 && rejected > 2000,
            "{accepted} accepted, {rejected} rejected"
        );
    }

    #[test]
    fn the_solvers_answers_pass_and_so_does_any_layout_of_them() {
        let case = input(&[2, 5], &[vec![5, 12], vec![2, 4, 7], vec![2, 3, 7, 12]]);
        for output in [
            "lose\n1 2\n3 2\n",
            "lose\n2 2\n4 5",
            "lose\r\n3 5\r\n3 2\r\n",
            "  lose \n1\t2\n 3  2 \n\n\n",
        ] {
            assert_eq!(
                check(&case, &brute(&case), output.as_bytes()),
                Decision::Accept,
                "{output:?}"
            );
        }
    }

    #[test]
    fn each_fault_is_named_with_its_line() {
        let case = input(&[2, 5], &[vec![5, 12], vec![2, 4, 7], vec![2, 3, 7, 12]]);
        let cases = [
            ("", "the output ends after 0 lines; 3 are expected, one per position"),
            ("lose\n1 2\n", "the output ends after 2 lines; 3 are expected, one per position"),
            ("lose\n1 2\n3 2\n4 5\n", "line 4, column 1: unexpected `4` after the 3 answers"),
            ("lose\n\n3 2\n", "line 2: empty; expected `lose` or a move `i s` for position 2"),
            ("1 3\n", "line 1, column 3: 3 is not an allowed take (not in S)"),
            ("1 5\n", "line 1: position 1 is lost for the player to move (the XOR of its Grundy values is 0), so the answer is `lose`, not a move"),
            ("lose\nlose\n", "line 2: `lose`, but position 2 is a win for the player to move (the XOR of its Grundy values is 1); a winning move: `1 2`"),
            ("lose\n4 2\n", "line 2, column 1: there is no heap 4: position 2 has heaps 1 to 3"),
            ("lose\n0 2\n", "line 2, column 1: there is no heap 0: position 2 has heaps 1 to 3"),
            ("lose\n1 5\n", "line 2, column 3: cannot take 5 from heap 1, which holds 2"),
            ("lose\n3 5\n4 2\n", "line 3: taking 2 from heap 4 leaves a position the opponent wins (the XOR of its Grundy values is 1); a winning move: `3 2`"),
            ("lose\n 1 x\n", "line 2, column 4: expected a take (a positive integer), found `x`"),
            ("lose\n99999999999999999999 2\n", "line 2, column 1: expected a heap number (a positive integer), found `99999999999999999999`"),
            ("lose\nwin\n", "line 2, column 1: expected `lose` or a move `i s`, found `win`"),
            ("lose\n1 2 3\n", "line 2, column 1: expected `lose` or a move `i s`, found `1` and more"),
            ("\u{feff}lose\n", "line 1, column 1: expected `lose` or a move `i s`, found `\u{feff}lose`"),
        ];
        for (output, expected) in cases {
            assert_eq!(reject(&case, output), expected, "{output:?}");
        }
        // Bytes that are not text at all are garbage like any other.
        let garbage = check(&case, &brute(&case), b"\xff\xfe 1\n");
        assert!(
            matches!(garbage, Decision::Reject(m) if m.starts_with("line 1, column 1: expected"))
        );
    }

    /// The shipped fixtures (the runner cannot judge through this checker yet): each expected file
    /// is the brute force's output and passes the checker, and so does the solver's output.
    #[test]
    fn the_shipped_fixtures_pass_the_checker() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/s-nim-move");
        let mut checked = 0;
        for input_path in crate::test_support::fixture_inputs(root.as_ref()) {
            let case = std::fs::read(&input_path).unwrap();
            let answer = std::fs::read(input_path.with_extension("out")).unwrap();
            let shown = input_path.display();
            assert_eq!(answer, brute(&case), "{shown}");
            let mut fast = Vec::new();
            super::super::solver::solve(&case, &mut fast).unwrap();
            assert_eq!(check(&case, &answer, &fast), Decision::Accept, "{shown}");
            checked += 1;
        }
        assert!(checked >= 19, "{checked}");
    }

    #[test]
    fn unusable_inputs_and_answer_files_are_the_judges_fault() {
        let case = input(&[2, 5], &[vec![2, 4, 7]]);
        let judge_error = |input: &[u8], answer: &[u8]| match check(input, answer, b"1 2\n") {
            Decision::JudgeError(message) => message,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            judge_error(b"2 2 2\n1\n1 4\n", b"1 2\n"),
            "the input is malformed: line 1, column 5: take 2 appears twice in S (first at line 1, \
             column 3); the takes must be distinct"
        );
        assert!(judge_error(b"2 2 5\n1\n", b"1 2\n").starts_with("the input is malformed: line 3"));
        assert_eq!(
            judge_error(&case, b"lose\n"),
            "the answer file is not a right answer: line 1: `lose`, but position 1 is a win for \
             the player to move (the XOR of its Grundy values is 1); a winning move: `1 2`"
        );
        assert!(judge_error(&case, b"").contains("ends after 0 lines"));
    }
}

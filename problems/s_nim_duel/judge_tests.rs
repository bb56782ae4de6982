use super::super::{generator, player, solver};
use super::*;
use crate::support::grundy_by_mex;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::Duration;

/// One end of an in-memory exchange. It keeps what it read and wrote, in order.
struct End {
    to: Sender<Vec<u8>>,
    from: Receiver<Vec<u8>>,
    transcript: Vec<(bool, Vec<u8>)>,
}

impl Link for End {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        // A guard against a hung test, not a measurement: a correct side answers at once.
        let line = self.from.recv_timeout(Duration::from_secs(20)).ok()?;
        self.transcript.push((false, line.clone()));
        Some(line)
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        self.transcript.push((true, line.to_vec()));
        self.to.send(line.to_vec()).is_ok()
    }
}

fn pair() -> (End, End) {
    let (a_to, b_from) = channel();
    let (b_to, a_from) = channel();
    let end = |to, from| End {
        to,
        from,
        transcript: Vec::new(),
    };
    (end(a_to, a_from), end(b_to, b_from))
}

/// The judge against `program` on one case, each on its own thread; the decision and what
/// the program read and wrote.
fn duel(
    input: &[u8],
    program: impl FnOnce(&mut dyn Link) + Send + 'static,
) -> (Decision, Vec<(bool, Vec<u8>)>) {
    let mut answer = Vec::new();
    solver::solve(input, &mut answer).unwrap();
    let (mut judge_end, mut program_end) = pair();
    let thread = std::thread::spawn(move || {
        program(&mut program_end);
        program_end.transcript
    });
    let decision = judge(input, &answer, &mut judge_end);
    drop(judge_end);
    (decision, thread.join().unwrap())
}

/// Replays a transcript (as the program saw it) with the brute force's table: every judge
/// move is legal, and from a winning position it leads to a losing one. Returns whether the
/// program was ever to move on a losing position (XOR 0): then it must have lost, since the
/// judge wins from every position the program can leave it.
fn replay(input: &[u8], transcript: &[(bool, Vec<u8>)]) -> bool {
    let instance = parse(input, true).unwrap();
    let largest = instance.heaps.iter().copied().max().unwrap_or(0);
    let table = grundy_by_mex(&instance.moves, largest as usize);
    let xor = |heaps: &[u64]| heaps.iter().fold(0, |acc, &h| acc ^ table[h as usize]);
    let mut heaps = instance.heaps.clone();
    let mut program_stood_on_a_loss = false;
    let (mut side_chosen, mut judge_to_move) = (false, false);
    for (written, line) in transcript.iter().skip(2) {
        let text = String::from_utf8_lossy(line);
        if !side_chosen {
            side_chosen = true;
            judge_to_move = text.trim() == "second";
            continue;
        }
        let Ok((heap, take)) = read_move(line) else {
            break;
        };
        if *written {
            assert!(!judge_to_move, "the program moved out of turn");
            program_stood_on_a_loss |= xor(&heaps) == 0;
            if heap == 0 || take > heaps[heap as usize - 1] || !instance.moves.contains(&take) {
                break;
            }
        } else {
            assert!(judge_to_move, "the judge moved out of turn");
            let before = xor(&heaps);
            if (heap, take) == (0, 0) {
                assert!(
                    heaps.iter().all(|&h| instance.moves.iter().all(|&s| s > h)),
                    "the judge gave up with a legal move left: {heaps:?}"
                );
                break;
            }
            let size = heaps[heap as usize - 1];
            assert!(
                instance.moves.contains(&take) && take <= size,
                "illegal judge move"
            );
            if before != 0 {
                let after = before ^ table[size as usize] ^ table[(size - take) as usize];
                assert_eq!(
                    after, 0,
                    "the judge missed a win: {heaps:?}, move {heap} {take}"
                );
            }
        }
        heaps[heap as usize - 1] -= take;
        judge_to_move = !judge_to_move;
    }
    program_stood_on_a_loss
}

fn cases() -> Vec<Vec<u8>> {
    let mut inputs = vec![b"2 2 5\n3 2 4 7\n".to_vec(), b"1 7\n2 3 6\n".to_vec()];
    for scale in [1, 2, 3, 5, 10, 30, 100, 1000] {
        inputs.extend((0..25).map(|seed| generator::generate(seed, scale)));
    }
    inputs
}

#[test]
fn the_statements_sample_game() {
    let (decision, transcript) = duel(b"2 2 5\n3 2 4 7\n3\n", |link| player::play(link).unwrap());
    assert_eq!(decision, Decision::Accept);
    let shown: Vec<String> = transcript
        .iter()
        .map(|(written, line)| {
            format!(
                "{} {}",
                if *written { '<' } else { '>' },
                String::from_utf8_lossy(line)
            )
        })
        .collect();
    let statement = include_str!("statement.md");
    let game = statement.split("```").nth(3).unwrap().trim();
    assert_eq!(shown.join("\n"), game);
}

/// The shipped fixtures (the runner cannot judge through this judge yet): each answer file is
/// the brute force's, and the built-in player wins every case.
#[test]
fn the_built_in_player_wins_every_shipped_case() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/s-nim-duel");
    let mut played = 0;
    for input_path in crate::test_support::fixture_inputs(root.as_ref()) {
        let case = std::fs::read(&input_path).unwrap();
        let answer = std::fs::read(input_path.with_extension("out")).unwrap();
        let mut slow = Vec::new();
        super::super::brute::solve(&case, &mut slow).unwrap();
        assert_eq!(answer, slow, "{}", input_path.display());
        let (decision, transcript) = duel(&case, |link| player::play(link).unwrap());
        assert_eq!(decision, Decision::Accept, "{}", input_path.display());
        assert!(!replay(&case, &transcript));
        played += 1;
    }
    assert!(played >= 15, "{played}");
}

#[test]
fn the_built_in_player_always_wins() {
    for input in cases() {
        let (decision, transcript) = duel(&input, |link| player::play(link).unwrap());
        assert_eq!(
            decision,
            Decision::Accept,
            "{:?}",
            String::from_utf8_lossy(&input)
        );
        assert!(!replay(&input, &transcript));
    }
}

/// Plays legal moves at random from `seed`; chooses `first`, or a random side.
fn weak_player(seed: u64, always_first: bool) -> impl FnOnce(&mut dyn Link) + Send {
    move |link: &mut dyn Link| {
        let mut random = rng(seed);
        let mut text = link.read_line().unwrap();
        text.push(b'\n');
        text.extend(link.read_line().unwrap());
        let instance = parse(&text, true).unwrap();
        let mut game = Game::new(instance.moves, instance.heaps);
        let first = always_first || random.random_bool(0.5);
        link.write_line(if first { b"first" } else { b"second" });
        let mut my_turn = first;
        loop {
            if my_turn {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    link.write_line(b"0 0");
                    return;
                }
                let (index, take) = legal[random.random_range(0..legal.len() as u64) as usize];
                game.play(index, take);
                link.write_line(format!("{} {take}", index + 1).as_bytes());
            } else {
                let Some(line) = link.read_line() else { return };
                let (heap, take) = read_move(&line).unwrap();
                if heap == 0 {
                    return;
                }
                game.play(heap as usize - 1, take);
            }
            my_turn = !my_turn;
        }
    }
}

#[test]
fn a_weak_player_loses_whenever_the_judge_can_win() {
    let (mut lost, mut won) = (0, 0);
    for (n, input) in cases().into_iter().enumerate() {
        for always_first in [true, false] {
            let (decision, transcript) = duel(&input, weak_player(n as u64, always_first));
            if replay(&input, &transcript) {
                assert!(matches!(decision, Decision::Reject(_)), "{decision:?}");
                lost += 1;
            } else {
                assert_eq!(decision, Decision::Accept);
                won += 1;
            }
        }
    }
    assert!(lost > 200 && won > 10, "{lost} lost, {won} won");
}

#[test]
fn the_judges_random_moves_follow_the_seed() {
    // The program takes `second` on a start the judge, moving first, loses from, and stops
    // after reading the judge's opening, which is therefore a random move from the seed.
    let opening = |seed: &str| {
        let input = format!("3 1 2 3\n3 5 6 7\n{seed}");
        let (_, transcript) = duel(input.as_bytes(), |link| {
            link.read_line();
            link.read_line();
            link.write_line(b"second");
            link.read_line();
        });
        transcript[3].1.clone()
    };
    // {1, 2, 3}: g(h) = h mod 4, and 1 XOR 2 XOR 3 = 0, so the judge, first, must move at random.
    let openings: Vec<Vec<u8>> = (0..12).map(|seed| opening(&seed.to_string())).collect();
    assert_eq!(
        openings[..3],
        (0..3)
            .map(|seed| opening(&seed.to_string()))
            .collect::<Vec<_>>()
    );
    assert!(
        openings.iter().any(|o| o != &openings[0]),
        "the seed changes nothing"
    );
    assert_eq!(opening(""), opening(&DEFAULT_SEED.to_string()));
}

/// Reads the game, then runs `script`: lines to send (None: go silent by ending).
fn scripted(lines: &'static [&'static [u8]]) -> impl FnOnce(&mut dyn Link) + Send {
    move |link: &mut dyn Link| {
        link.read_line();
        link.read_line();
        for line in lines {
            link.write_line(line);
            if *line != b"first" && *line != b"second" {
                link.read_line();
            }
        }
    }
}

#[test]
fn wrong_programs_are_rejected_with_clear_messages() {
    // S = {2, 5}, heaps 2 4 7: values 1 0 0, XOR 1, `first` wins (e.g. with `1 2`).
    let input = b"2 2 5\n3 2 4 7\n";
    let cases: &[(&[&[u8]], &str)] = &[
        (&[], "the program sent no side (it ended, closed its output or ran out of time); expected `first` or `second`"),
        (&[b"third"], "the program's side: expected `first` or `second`, found `third`"),
        (&[b"first second"], "the program's side: expected `first` or `second`, found `first second`"),
        (&[b"first"], "move 1: the program sent no move (it ended, closed its output or ran out of time); the heaps: [2, 4, 7]"),
        (&[b"first", b"1 3"], "move 1: illegal move `1 3`: 3 is not an allowed take (S = {2 5}); the heaps: [2, 4, 7]"),
        (&[b"first", b"1 5"], "move 1: illegal move `1 5`: heap 1 holds only 2, fewer than 5; the heaps: [2, 4, 7]"),
        (&[b"first", b"4 2"], "move 1: illegal move `4 2`: there is no heap 4 (heaps 1 to 3); the heaps: [2, 4, 7]"),
        (&[b"first", b"0 0"], "move 1: the program resigned (`0 0`) with legal moves left; the heaps: [2, 4, 7]"),
        (&[b"first", b"1 2 3"], "move 1: expected a move `i s` (two integers), found `1 2 3`"),
        (&[b"first", b"\xff\xfe"], "move 1: expected a move `i s` (two integers), found `\u{fffd}\u{fffd}`"),
    ];
    for &(lines, expected) in cases {
        let (decision, _) = duel(input, scripted(lines));
        assert_eq!(
            decision,
            Decision::Reject(expected.to_string()),
            "{lines:?}"
        );
    }
    // On the losing side the judge wins; a program left without a move that resigns is told so.
    let (decision, _) = duel(b"1 1\n1 1\n", scripted(&[b"second", b"0 0"]));
    assert_eq!(
        decision,
        Decision::Reject(
            "move 2: the program resigned (`0 0`): it has no legal move, so it lost; the heaps: [0]"
                .to_string()
        )
    );
}

#[test]
fn unusable_data_is_the_judges_fault_and_no_bytes_make_it_panic() {
    let mut quiet = pair().0;
    let judged = |input: &[u8], answer: &[u8], link: &mut End| judge(input, answer, link);
    assert!(matches!(
        judged(b"2 2 2\n1 4\n", b"first\n", &mut quiet),
        Decision::JudgeError(m) if m.starts_with("the input is malformed: line 1, column 5: take 2 appears twice")
    ));
    assert_eq!(
        judged(b"2 2 5\n3 2 4 7\n", b"second\n", &mut quiet),
        Decision::JudgeError(
            "the answer file should hold `first`, the side that wins this game; it holds `second`"
                .to_string()
        )
    );
    // Random bytes from the program, at every step: always a decision, never a panic.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let lines: Vec<Vec<u8>> = (0..next() % 6)
            .map(|_| {
                let len = next() % 8;
                (0..len)
                    .map(|_| b"012 3first\xff\r\t-"[(next() % 14) as usize])
                    .collect()
            })
            .collect();
        let (decision, _) = duel(b"2 1 2\n2 3 5\n", move |link| {
            for line in &lines {
                link.write_line(line);
            }
        });
        assert!(
            matches!(decision, Decision::Accept | Decision::Reject(_)),
            "{decision:?}"
        );
    }
}

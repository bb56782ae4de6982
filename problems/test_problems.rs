//! Deliberately broken solvers, compiled only with the `test-problems` feature (which the runner's
//! test builds turn on), so the runner's failure paths can be driven through the real binary.

use crate::{Constraints, Decision, InputError, Interaction, Link, PlayError, Problem, Scanner};

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

/// A checker problem: print any divisor `d` of `n` with `1 < d <= n`. The solver prints the
/// smallest, the brute force `n` itself: both right, and different.
pub static DIVISOR: Problem = Problem {
    id: "test-divisor",
    title: "Test: any divisor",
    statement: "Input `n >= 2`; print any divisor `d` of `n` with `1 < d <= n`.",
    solve: |input, out| {
        let n = Scanner::new(input).u64_in("n", 2..=u64::MAX)?;
        let smallest = (2..).take_while(|d| d * d <= n).find(|d| n % d == 0);
        out.extend_from_slice(format!("{}\n", smallest.unwrap_or(n)).as_bytes());
        Ok(())
    },
    brute: |input, out| {
        let n = Scanner::new(input).u64_in("n", 2..=u64::MAX)?;
        out.extend_from_slice(format!("{n}\n").as_bytes());
        Ok(())
    },
    generate: no_generator,
    validate: any_input,
    shrink: no_shrink,
    check: Some(|input, _answer, output| {
        let number = |bytes: &[u8]| std::str::from_utf8(bytes).ok()?.trim().parse::<u64>().ok();
        let Some(n) = number(input) else {
            return Decision::JudgeError("the input holds no number".into());
        };
        match number(output) {
            Some(d) if d > 1 && d <= n && n % d == 0 => Decision::Accept,
            Some(d) => Decision::Reject(format!("{d} is not a divisor of {n} above 1")),
            None => Decision::Reject("expected one number".into()),
        }
    }),
    interact: None,
};

/// An interactive problem whose input picks how each side behaves, so the runner's rules for
/// interactive verdicts can be driven through the real binary. The input is `x mode`: the judge
/// hides `x` in 1..=100 and tells the player `mode`; the player then guesses by halving (`play`),
/// never answers (`silent`), guesses wrong (`wrong`), panics (`crash`), stops at once (`quit`),
/// or guesses wrong and panics once told (`late-crash`). Modes `judge-panic` and `judge-error`
/// make the judge fail instead. A guess is answered `<`, `>` or `=`; seven wrong guesses lose.
pub static GUESS: Problem = Problem {
    id: "test-guess",
    title: "Test: guess the number",
    statement: "Guess the judge's number in 1..=100; it answers <, > or =.",
    solve: |_, out| {
        out.extend_from_slice(b"guessed\n");
        Ok(())
    },
    brute: |_, out| {
        out.extend_from_slice(b"guessed\n");
        Ok(())
    },
    generate: no_generator,
    validate: any_input,
    shrink: no_shrink,
    check: None,
    interact: Some(Interaction {
        judge: guess_judge,
        play: guess_player,
    }),
};

fn guess_judge(input: &[u8], _answer: &[u8], program: &mut dyn Link) -> Decision {
    let text = String::from_utf8_lossy(input);
    let mut words = text.split_whitespace();
    let (Some(Ok(secret)), Some(mode)) = (words.next().map(str::parse::<u64>), words.next()) else {
        return Decision::JudgeError("the input must be `x mode`".into());
    };
    match mode {
        "judge-panic" => panic!("the judge was asked to panic"),
        "judge-error" => return Decision::JudgeError("the judge was asked to fail".into()),
        _ => {}
    }
    if !program.write_line(mode.as_bytes()) {
        return Decision::Reject("the program stopped reading".into());
    }
    for _ in 0..7 {
        let Some(line) = program.read_line() else {
            return Decision::Reject("the program stopped before guessing right".into());
        };
        let Some(guess) = std::str::from_utf8(&line)
            .ok()
            .and_then(|l| l.trim().parse::<u64>().ok())
        else {
            return Decision::Reject(format!("`{}` is no guess", String::from_utf8_lossy(&line)));
        };
        let reply: &[u8] = match guess.cmp(&secret) {
            std::cmp::Ordering::Less => b"<",
            std::cmp::Ordering::Greater => b">",
            std::cmp::Ordering::Equal => b"=",
        };
        program.write_line(reply);
        if guess == secret {
            return Decision::Accept;
        }
    }
    Decision::Reject("seven guesses, none right".into())
}

fn guess_player(judge: &mut dyn Link) -> Result<(), PlayError> {
    let mode = judge.read_line().ok_or(PlayError::Silent("mode"))?;
    let (mut low, mut high) = (1u64, 100u64);
    loop {
        let guess = match &mode[..] {
            b"silent" => {
                while judge.read_line().is_some() {}
                return Ok(());
            }
            b"crash" => panic!("the player was asked to crash"),
            b"quit" => return Ok(()),
            b"wrong" | b"late-crash" => 0,
            _ => (low + high) / 2,
        };
        judge.write_line(guess.to_string().as_bytes());
        match judge.read_line().as_deref() {
            Some(b"<") => low = guess + 1,
            Some(b">") => high = guess.saturating_sub(1),
            Some(b"=") => return Ok(()),
            _ if mode == b"late-crash" => panic!("the player crashes after losing"),
            _ => return Ok(()),
        }
    }
}

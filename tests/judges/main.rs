//! One program that plays every outside role grundy's tests need: a checker or interactor in the
//! Kattis or testlib protocol, or a player of an interactive problem, each well behaved or
//! misbehaving on demand. The role is the first argument, part of the command the protocols'
//! files follow:
//!
//! ```text
//! grundy-test-judge ROLE INPUT ANSWER FEEDBACK_DIR/ < OUTPUT      Kattis checker
//! grundy-test-judge ROLE INPUT OUTPUT ANSWER                      testlib checker
//! grundy-test-judge ROLE INPUT ANSWER FEEDBACK_DIR/               Kattis interactor
//! grundy-test-judge ROLE INPUT OUTPUT_FILE ANSWER                 testlib interactor
//! grundy-test-judge ROLE                                          a player
//! ```
//!
//! The interactive game is the one of grundy's `test-guess` problem: the input is `x mode`, the
//! judge sends `mode`, the player guesses numbers in 1..=100 and is told `<`, `>` or `=`; seven
//! wrong guesses lose.

use std::io::{BufRead, BufWriter, Read, Write};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let role = args.first().cloned().unwrap_or_default();
    let files = args.get(1..).unwrap_or_default();
    let file = |index: usize| files.get(index).cloned().unwrap_or_default();
    // The input a judge is given must be there: a judge that passed a path the checker cannot
    // open would otherwise go unnoticed by checkers that ignore the input.
    if role.starts_with("kattis-") || role.starts_with("testlib-") {
        if let Err(error) = std::fs::metadata(file(0)) {
            eprintln!(
                "grundy-test-judge: cannot open the input `{}`: {error}",
                file(0)
            );
            std::process::exit(98);
        }
    }
    let code = match role.as_str() {
        "kattis-compare" => kattis_compare(&file(1), &file(2), None),
        "kattis-team" => kattis_compare(&file(1), &file(2), Some("look at line 1")),
        "testlib-compare" => testlib_compare(&file(1), &file(2)),
        "testlib-pe" => say(2, "wrong output format: spaces"),
        "testlib-fail" => say(3, "FAIL: the answer file is broken"),
        "testlib-points" => say(7, "points 0.5"),
        "crash" => std::process::abort(),
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(1));
        },
        "write-forever" => loop {
            println!("y");
        },
        role if role.starts_with("exit-") => role[5..].parse().unwrap_or(99),
        "kattis-interact" => interact(&file(0), Ending::Kattis(file(2))),
        "testlib-interact" => interact(&file(0), Ending::Testlib(file(1))),
        "interact-hang" => {
            // Talks correctly, then never exits.
            let code = interact(&file(0), Ending::Kattis(file(2)));
            let _ = code;
            loop {
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        "interact-crash" => {
            let mut out = std::io::stdout();
            let _ = writeln!(out, "play");
            let _ = out.flush();
            std::process::abort()
        }
        "interact-reject-at-once" => 43,
        player if player.starts_with("player-") => play(&player[7..]),
        _ => {
            eprintln!("grundy-test-judge: unknown role `{role}`");
            99
        }
    };
    std::process::exit(code);
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn tokens(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// Kattis: compares the output on stdin with the answer file, token by token.
fn kattis_compare(answer: &str, feedback: &str, team: Option<&str>) -> i32 {
    let mut output = String::new();
    let _ = std::io::stdin().read_to_string(&mut output);
    if tokens(&output) == tokens(&read(answer)) {
        return 42;
    }
    let feedback = std::path::Path::new(feedback);
    let _ = std::fs::write(
        feedback.join("judgemessage.txt"),
        format!(
            "expected {:?}, got {:?}\n",
            read(answer).trim(),
            output.trim()
        ),
    );
    if let Some(team) = team {
        let _ = std::fs::write(feedback.join("teammessage.txt"), team);
    }
    43
}

/// testlib: compares the output file with the answer file.
fn testlib_compare(output: &str, answer: &str) -> i32 {
    if tokens(&read(output)) == tokens(&read(answer)) {
        say(0, "ok the tokens match")
    } else {
        say(1, "wrong answer the tokens differ")
    }
}

fn say(code: i32, message: &str) -> i32 {
    eprintln!("{message}");
    code
}

/// How an interactor reports its verdict.
enum Ending {
    /// Exit 42/43, with the reason in `feedback_dir/judgemessage.txt`.
    Kattis(String),
    /// Exit 0/1, with the exchange's result written to the output file.
    Testlib(String),
}

/// The guessing game's judge, over stdin/stdout.
fn interact(input: &str, ending: Ending) -> i32 {
    let input = read(input);
    let mut words = input.split_whitespace();
    let secret: u64 = words.next().and_then(|w| w.parse().ok()).unwrap_or(50);
    let mode = words.next().unwrap_or("play").to_string();
    let mut out = std::io::stdout();
    let mut lines = std::io::stdin().lock().lines();
    let _ = writeln!(out, "{mode}");
    let _ = out.flush();
    let mut verdict = Err("seven guesses, none right".to_string());
    for _ in 0..7 {
        let Some(Ok(line)) = lines.next() else {
            verdict = Err("the program stopped before guessing right".into());
            break;
        };
        let Ok(guess) = line.trim().parse::<u64>() else {
            verdict = Err(format!("`{line}` is no guess"));
            break;
        };
        let reply = match guess.cmp(&secret) {
            std::cmp::Ordering::Less => "<",
            std::cmp::Ordering::Greater => ">",
            std::cmp::Ordering::Equal => "=",
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
        if guess == secret {
            verdict = Ok(());
            break;
        }
    }
    match (ending, verdict) {
        (Ending::Kattis(_), Ok(())) => 42,
        (Ending::Kattis(feedback), Err(why)) => {
            let path = std::path::Path::new(&feedback).join("judgemessage.txt");
            let _ = std::fs::write(path, why);
            43
        }
        (Ending::Testlib(output), Ok(())) => {
            let _ = std::fs::write(output, "guessed\n");
            say(0, "ok guessed")
        }
        (Ending::Testlib(output), Err(why)) => {
            let _ = std::fs::write(output, "lost\n");
            say(1, &format!("wrong answer {why}"))
        }
    }
}

/// A player of the guessing game: `good` halves the range; `silent` never answers; `noflush`
/// guesses right but never flushes; `wait` reads forever; `crash` aborts; `quit` exits at once;
/// `garbage` answers nonsense; `late-crash` guesses wrong and aborts once told it lost.
fn play(how: &str) -> i32 {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let Some(Ok(_mode)) = lines.next() else {
        return 0;
    };
    let mut out: Box<dyn Write> = match how {
        "noflush" => Box::new(BufWriter::with_capacity(1 << 16, std::io::stdout())),
        _ => Box::new(std::io::stdout()),
    };
    match how {
        "silent" | "wait" => loop {
            std::thread::sleep(Duration::from_secs(1));
        },
        "crash" => std::process::abort(),
        "quit" => return 0,
        "garbage" => {
            let _ = writeln!(out, "hello?");
            let _ = out.flush();
            return 0;
        }
        _ => {}
    }
    let (mut low, mut high) = (1u64, 100u64);
    loop {
        let guess = if how == "late-crash" {
            0
        } else {
            (low + high) / 2
        };
        let _ = writeln!(out, "{guess}");
        if how != "noflush" {
            let _ = out.flush();
        }
        match lines.next() {
            Some(Ok(reply)) if reply == "<" => low = guess + 1,
            Some(Ok(reply)) if reply == ">" => high = guess.saturating_sub(1),
            Some(Ok(reply)) if reply == "=" => return 0,
            _ if how == "late-crash" => std::process::abort(),
            _ => return 0,
        }
    }
}

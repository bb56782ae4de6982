use super::*;
use crate::running::in_process::install_panic_hook;
use grundy_problems::{Decision, PlayError};

const LIMIT: Duration = Duration::from_secs(5);

fn run(judge: fn(&[u8], &[u8], &mut dyn Link) -> Decision, play: PlayFn) -> InteractiveRun {
    pair(Interaction { judge, play }, b"", b"", LIMIT)
}

type PlayFn = fn(&mut dyn Link) -> Result<(), PlayError>;

/// Sends 1..=5 and wants each back doubled.
fn doubling_judge(_: &[u8], _: &[u8], program: &mut dyn Link) -> Decision {
    for n in 1..=5u32 {
        if !program.write_line(n.to_string().as_bytes()) {
            return Decision::Reject("stopped reading".into());
        }
        match program.read_line() {
            Some(line) if line == (2 * n).to_string().as_bytes() => {}
            other => return Decision::Reject(format!("{n}: {other:?}")),
        }
    }
    Decision::Accept
}

fn doubler(judge: &mut dyn Link) -> Result<(), PlayError> {
    while let Some(line) = judge.read_line() {
        let n: u32 = String::from_utf8(line).unwrap().parse().unwrap();
        if !judge.write_line((2 * n).to_string().as_bytes()) {
            return Err(PlayError::Deaf((2 * n).to_string()));
        }
    }
    Ok(())
}

#[test]
fn a_whole_exchange_on_one_thread_and_again_on_the_kept_stack() {
    for _ in 0..3 {
        let run = run(doubling_judge, doubler);
        assert!(matches!(run.judge, Judgement::Accepted), "{:?}", run.judge);
        assert_eq!(run.program.failure, None);
        assert!(!run.program_silent_past_limit);
        let ended = run.program_ended.expect("the player ended");
        // The player reads the end of the exchange only once the judge has decided.
        assert!(ended >= run.judge_ended);
        assert!(run.transcript.render().ends_with("> 5\n< 10\n"));
    }
}

#[test]
fn a_line_written_after_the_judge_decided_is_not_read() {
    fn one_question(_: &[u8], _: &[u8], program: &mut dyn Link) -> Decision {
        program.write_line(b"2");
        match program.read_line() {
            Some(line) if line == b"4" => Decision::Accept,
            other => Decision::Reject(format!("{other:?}")),
        }
    }
    fn talks_on(judge: &mut dyn Link) -> Result<(), PlayError> {
        judge.read_line();
        assert!(judge.write_line(b"4"), "the judge read this line");
        match judge.write_line(b"more") {
            true => panic!("a write nobody reads succeeded"),
            false => Ok(()),
        }
    }
    let run = run(one_question, talks_on);
    assert!(matches!(run.judge, Judgement::Accepted), "{:?}", run.judge);
    assert_eq!(run.program.failure, None);
}

fn reads_once(_: &[u8], _: &[u8], program: &mut dyn Link) -> Decision {
    match program.read_line() {
        Some(line) => Decision::Reject(format!("got {line:?}")),
        None => Decision::Reject("nothing".into()),
    }
}

#[test]
fn both_sides_waiting_is_silence_seen_at_once() {
    fn waits(judge: &mut dyn Link) -> Result<(), PlayError> {
        match judge.read_line() {
            None => Err(PlayError::Silent("question")),
            Some(_) => Ok(()),
        }
    }
    let run = run(reads_once, waits);
    assert!(run.program_silent_past_limit);
    assert!(matches!(&run.judge, Judgement::WrongAnswer(m) if m == "nothing"));
    // It did not wait for the time limit.
    assert!(run.program.wall < LIMIT);
    assert_eq!(
        run.program.failure,
        Some(Failure::GaveUp("the judge sent no question".into()))
    );
}

#[test]
fn a_line_after_the_time_limit_is_silence() {
    fn slow(judge: &mut dyn Link) -> Result<(), PlayError> {
        thread::sleep(Duration::from_millis(80));
        judge.write_line(b"late");
        Ok(())
    }
    let interaction = Interaction {
        judge: reads_once,
        play: slow,
    };
    let run = pair(interaction, b"", b"", Duration::from_millis(20));
    assert!(run.program_silent_past_limit);
    assert!(matches!(&run.judge, Judgement::WrongAnswer(m) if m == "nothing"));
}

#[test]
fn a_player_panic_and_then_a_judge_panic_both_keep_their_location() {
    fn panicking_judge(_: &[u8], _: &[u8], program: &mut dyn Link) -> Decision {
        assert_eq!(program.read_line(), None);
        panic!("the judge gives up too")
    }
    fn panicking_player(_: &mut dyn Link) -> Result<(), PlayError> {
        panic!("the player gives up")
    }
    install_panic_hook();
    let run = run(panicking_judge, panicking_player);
    let Some(Failure::Panicked(player)) = &run.program.failure else {
        panic!("{:?}", run.program.failure)
    };
    assert!(player.contains("the player gives up"), "{player}");
    assert!(player.contains("memory_tests.rs"), "{player}");
    // The player's panic, caught inside the judge's call, left panics captured for the judge.
    let Judgement::JudgeError(judge) = &run.judge else {
        panic!("{:?}", run.judge)
    };
    assert!(judge.contains("the judge gives up too"), "{judge}");
    assert!(judge.contains("memory_tests.rs"), "{judge}");
    assert!(run.program_ended.unwrap() <= run.judge_ended);
}

#[test]
fn a_player_that_never_stops_after_the_judge_decided_is_given_up() {
    fn endless(judge: &mut dyn Link) -> Result<(), PlayError> {
        loop {
            judge.write_line(b"again");
            judge.read_line();
        }
    }
    let interaction = Interaction {
        judge: reads_once,
        play: endless,
    };
    let run = pair(interaction, b"", b"", Duration::from_millis(20));
    assert!(matches!(&run.judge, Judgement::WrongAnswer(m) if m.starts_with("got")));
    assert_eq!(run.program_ended, None);
    assert_eq!(run.program.failure, Some(Failure::TimeLimit(Clock::Wall)));
    assert!(run.program.wall >= Duration::from_millis(20) + PLAYER_GRACE);
}

#[test]
fn without_a_watch_a_player_that_never_yields_is_abandoned() {
    fn stuck(_: &mut dyn Link) -> Result<(), PlayError> {
        loop {
            thread::park();
        }
    }
    let interaction = Interaction {
        judge: reads_once,
        play: stuck,
    };
    let limit = Duration::from_millis(20);
    let run = built_in_pair(interaction, b"", b"", limit, limit, None);
    assert!(run.program_silent_past_limit);
    assert_eq!(run.program.failure, Some(Failure::TimeLimit(Clock::Wall)));
    assert!(run.program.wall >= 2 * limit + PLAYER_GRACE);
}

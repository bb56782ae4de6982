//! kill_all_running (the runner's Ctrl-C) ends runs in other threads at once. A separate test
//! binary: after it, every run in the process is killed.

mod common;

use std::time::{Duration, Instant};

use common::*;
use grundy_sandbox::kill_all_running;

#[test]
fn kill_all_running_stops_every_run() {
    let started = Instant::now();
    let mark = marker("interrupt");
    let runs: Vec<_> = (0..3)
        .map(|_| {
            let mark = mark.clone();
            std::thread::spawn(move || {
                run(
                    &sh(&format!("sleep 30 # {mark}")),
                    &input(b""),
                    &limits(20_000, 256, 64),
                )
                .unwrap()
            })
        })
        .collect();
    // Every run started (its program is running), however busy the machine: a run killed
    // while its box is still being made fails to start instead.
    while processes_with(&mark).len() < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the runs never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed_at = Instant::now();
    kill_all_running();
    for r in runs {
        let o = r.join().unwrap();
        assert!(
            matches!(o.end, grundy_sandbox::End::Signaled { .. }),
            "{o:?}"
        );
    }
    assert!(killed_at.elapsed() < Duration::from_secs(5));
    assert!(processes_with(&mark).is_empty());
}

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
    std::thread::sleep(Duration::from_millis(300));
    kill_all_running();
    for r in runs {
        let o = r.join().unwrap();
        assert!(
            matches!(o.end, grundy_sandbox::End::Signaled { .. }),
            "{o:?}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(processes_with(&mark).is_empty());
}

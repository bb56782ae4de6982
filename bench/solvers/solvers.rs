//! Solver throughput on each problem's maximum-size input (see `data::max_input`), next to the
//! practical limit: a pass that only parses the same bytes' integers with the same scanner.
//! `cargo bench -p grundy-problems --bench solvers`; criterion prints both as MiB/s, and the
//! ratio solve / parse-only is how much the game itself costs on top of reading the input.

#[path = "data.rs"]
mod data;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn solvers(c: &mut Criterion) {
    for id in data::PROBLEMS {
        let problem = grundy_problems::find(id).expect("a built-in problem");
        let input = data::max_input(id);
        let mut group = c.benchmark_group(id);
        group.throughput(Throughput::Bytes(input.len() as u64));
        // Set-nim's largest input is under 1 KB and takes microseconds; the others take tens of
        // milliseconds, where a few seconds of samples are plenty.
        if input.len() > 1 << 20 {
            group
                .sample_size(20)
                .measurement_time(Duration::from_secs(4));
        }
        let mut output = Vec::new();
        group.bench_function("solve", |b| {
            b.iter(|| {
                output.clear();
                (problem.solve)(black_box(&input), &mut output).expect("a valid input");
                black_box(&output);
            })
        });
        group.bench_function("parse-only", |b| {
            b.iter(|| black_box(data::parse_only(black_box(&input))))
        });
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);

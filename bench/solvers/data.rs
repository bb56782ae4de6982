//! Benchmark inputs, made on the spot from a seed: the maximum-size input of each problem, inputs
//! of a chosen size for synthetic suites, and a parse-only pass over any input. Shared by the
//! criterion benches (`benches/solvers.rs`) and the `bench-data` example that writes the suites
//! `bench/run` judges; nothing here is committed as data.
//!
//! The generator is a plain SplitMix64, so the same seed gives the same bytes on every machine and
//! with every version of `rand`.

#![allow(dead_code)] // each including target uses a different part

use grundy_problems::Scanner;

/// The problems, in registry order.
pub const PROBLEMS: [&str; 5] = [
    "lieges-of-legendre",
    "nim",
    "powers-of-two",
    "s-nim",
    "set-nim",
];

const E18: u64 = 1_000_000_000_000_000_000;

/// SplitMix64: small, fast, and fully determined by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `low..=high` (the tiny modulo bias does not matter for benchmarks).
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        match (high - low).checked_add(1) {
            Some(span) => low + self.next() % span,
            None => self.next(),
        }
    }

    /// A value with `digits` decimal digits (1..=18), at least `low`.
    pub fn with_digits(&mut self, digits: u32, low: u64) -> u64 {
        let top = 10u64.pow(digits) - 1;
        let bottom = if digits == 1 {
            0
        } else {
            10u64.pow(digits - 1)
        };
        self.between(bottom.max(low), top.max(low))
    }
}

/// Appends `value` in decimal.
pub fn push_u64(out: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

fn push_line(out: &mut Vec<u8>, values: impl IntoIterator<Item = u64>) {
    for (i, value) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        push_u64(out, value);
    }
    out.push(b'\n');
}

/// The largest input of each problem that `benches/solvers.rs`, `bench/run` and the C++
/// comparison use (seed 1):
///
/// - lieges-of-legendre: the extended limits, n = 10^6 piles up to 10^18 (about 19 MB);
/// - nim (no count limit): 10,000 positions of 100 heaps up to 10^18 (about 19 MB);
/// - powers-of-two (no line limit): 10^6 values of n up to 10^18 (about 19 MB);
/// - s-nim: 100 test cases at the original limits, each 100 takes up to 10^4 and 100 positions of
///   100 heaps up to 10^4 (about 5 MB; a table of 10^4 values per test case);
/// - set-nim: the original limits, 100 takes and 100 heaps up to 10^4 (under 1 KB; one table).
pub fn max_input(problem: &str) -> Vec<u8> {
    let mut rng = Rng::new(1);
    let mut out = Vec::new();
    match problem {
        "lieges-of-legendre" => {
            let n = 1_000_000;
            push_line(&mut out, [n, E18 - 1]);
            push_line(&mut out, (0..n).map(|_| rng.between(1, E18)));
        }
        "nim" => {
            for _ in 0..10_000 {
                push_line(&mut out, (0..100).map(|_| rng.between(0, E18)));
            }
        }
        "powers-of-two" => {
            for _ in 0..1_000_000 {
                push_line(&mut out, [rng.between(1, E18)]);
            }
        }
        "s-nim" => {
            for _ in 0..100 {
                s_nim_test_case(&mut rng, &mut out, 100, 100, 100, 10_000);
            }
            out.extend_from_slice(b"0\n");
        }
        "set-nim" => {
            let takes = distinct_takes(&mut rng, 100, 10_000);
            push_line(&mut out, [takes.len() as u64]);
            push_line(&mut out, takes);
            push_line(&mut out, [100]);
            push_line(&mut out, (0..100).map(|_| rng.between(1, 10_000)));
        }
        _ => panic!("no benchmark input for `{problem}`"),
    }
    out
}

fn s_nim_test_case(rng: &mut Rng, out: &mut Vec<u8>, k: u64, m: u64, l: u64, top_heap: u64) {
    push_line(
        out,
        std::iter::once(k).chain((0..k).map(|_| rng.between(1, 10_000))),
    );
    push_line(out, [m]);
    for _ in 0..m {
        push_line(
            out,
            std::iter::once(l).chain((0..l).map(|_| rng.between(0, top_heap))),
        );
    }
}

fn distinct_takes(rng: &mut Rng, count: usize, top: u64) -> Vec<u64> {
    let mut takes: Vec<u64> = Vec::with_capacity(count);
    while takes.len() < count {
        let take = rng.between(1, top);
        if !takes.contains(&take) {
            takes.push(take);
        }
    }
    takes
}

/// A valid input of `problem` of about `bytes` bytes, for the synthetic suites. The three
/// problems whose solvers stream their input get exactly that size, with numbers of one random
/// width per case (1 to 18 digits, so both short and long numbers are parsed); s-nim and set-nim
/// inputs are small whatever `bytes` says (their size is bounded by the limits, and their cost
/// is the table, not the bytes).
pub fn sized_input(problem: &str, rng: &mut Rng, bytes: usize) -> Vec<u8> {
    let digits = rng.between(1, 18) as u32;
    let mut out = Vec::with_capacity(bytes + 64);
    match problem {
        "lieges-of-legendre" => {
            let n = (bytes / (digits as usize + 1)).clamp(1, 1_000_000) as u64;
            push_line(&mut out, [n, rng.between(1, 1_000_000_000)]);
            push_line(&mut out, (0..n).map(|_| rng.with_digits(digits, 1)));
        }
        "nim" => {
            let per_line = rng.between(1, 100);
            while out.len() < bytes {
                push_line(&mut out, (0..per_line).map(|_| rng.with_digits(digits, 0)));
            }
        }
        "powers-of-two" => {
            while out.len() < bytes {
                push_line(&mut out, [rng.with_digits(digits, 1)]);
            }
        }
        "s-nim" => {
            let count = rng.between(1, 3);
            for _ in 0..count {
                let (k, m, l) = (rng.between(1, 20), rng.between(1, 100), rng.between(1, 20));
                s_nim_test_case(rng, &mut out, k, m, l, 2_000);
            }
            out.extend_from_slice(b"0\n");
        }
        "set-nim" => {
            let k = rng.between(1, 20) as usize;
            let takes = distinct_takes(rng, k, 2_000);
            push_line(&mut out, [takes.len() as u64]);
            push_line(&mut out, takes);
            let n = rng.between(1, 100);
            push_line(&mut out, [n]);
            push_line(&mut out, (0..n).map(|_| rng.between(1, 2_000)));
        }
        _ => panic!("no benchmark input for `{problem}`"),
    }
    out
}

/// A tiny valid input of `problem` (a few numbers, under 40 bytes), for per-case overhead: the
/// five problems of [`PROBLEMS`], and `s-nim-move` and `s-nim-duel` (asked for by name).
pub fn tiny_input(problem: &str, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    match problem {
        "lieges-of-legendre" => {
            let n = rng.between(1, 3);
            push_line(&mut out, [n, rng.between(1, 9)]);
            push_line(&mut out, (0..n).map(|_| rng.between(1, 99)));
        }
        "nim" => push_line(&mut out, (0..rng.between(1, 4)).map(|_| rng.between(0, 99))),
        "powers-of-two" => push_line(&mut out, [rng.between(1, 999)]),
        "s-nim" => {
            s_nim_test_case(rng, &mut out, 2, 1, 3, 30);
            out.extend_from_slice(b"0\n");
        }
        "set-nim" => {
            push_line(&mut out, [2]);
            push_line(&mut out, distinct_takes(rng, 2, 9));
            push_line(&mut out, [2]);
            push_line(&mut out, [rng.between(1, 30), rng.between(1, 30)]);
        }
        // The two problems with a built-in checker and a built-in judge, the size of s-nim's
        // tiny case (two takes, three heaps up to 30); their takes are distinct, as their
        // checker and judge require.
        "s-nim-move" => {
            push_line(
                &mut out,
                std::iter::once(2).chain(distinct_takes(rng, 2, 9)),
            );
            push_line(&mut out, [1]);
            push_line(
                &mut out,
                std::iter::once(3).chain((0..3).map(|_| rng.between(0, 30))),
            );
        }
        "s-nim-duel" => {
            push_line(
                &mut out,
                std::iter::once(2).chain(distinct_takes(rng, 2, 9)),
            );
            push_line(
                &mut out,
                std::iter::once(3).chain((0..3).map(|_| rng.between(0, 30))),
            );
        }
        _ => panic!("no benchmark input for `{problem}`"),
    }
    out
}

/// The practical limit: read every integer of `input` with the solvers' own scanner and do
/// nothing with it but fold it into a checksum.
pub fn parse_only(input: &[u8]) -> u64 {
    let mut scanner = Scanner::new(input);
    let mut sum = 0u64;
    while !scanner.at_end() {
        sum = sum.wrapping_add(
            scanner
                .u64("number")
                .expect("benchmark inputs are integers"),
        );
    }
    sum
}

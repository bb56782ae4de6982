//! Writes the data `bench/run` measures, from a seed, into a folder it is given (a temporary one):
//!
//! ```text
//! bench-data max PROBLEM FILE                 the problem's maximum-size input (benches/data.rs)
//! bench-data suite DIR CASES MEGABYTES SEED   a synthetic suite of CASES cases, MEGABYTES of input
//! bench-data tiny DIR CASES SEED [PROBLEM]    CASES tiny cases (all problems, or one)
//! ```
//!
//! A suite is a fixtures root: `DIR/<problem>/<case>.in` and `.out`. Its expected outputs come from
//! the built-in solver: the suites exist to time the judge, not to check the solvers (the real
//! fixtures, with brute-force expected outputs, do that).
//!
//! Case sizes in a suite are log-uniform (largest about 100 times the smallest), scaled so the
//! inputs add up to MEGABYTES; 92% of the cases are of the three problems whose solvers stream
//! their input (lieges-of-legendre, nim, powers-of-two, in turn), 4% each s-nim and set-nim.

#[path = "data.rs"]
mod data;

use std::path::{Path, PathBuf};

use data::{max_input, sized_input, tiny_input, Rng, PROBLEMS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["max", problem, file] => write(Path::new(file), &max_input(problem)),
        ["suite", dir, cases, megabytes, seed] => suite(
            Path::new(dir),
            number(cases),
            number(megabytes),
            number(seed) as u64,
        ),
        ["tiny", dir, cases, seed, rest @ ..] if rest.len() <= 1 => tiny(
            Path::new(dir),
            number(cases),
            number(seed) as u64,
            rest.first().copied(),
        ),
        _ => {
            eprintln!(
                "usage: bench-data max PROBLEM FILE | suite DIR CASES MEGABYTES SEED | \
                 tiny DIR CASES SEED [PROBLEM]"
            );
            std::process::exit(2);
        }
    }
}

fn number(text: &str) -> usize {
    text.parse()
        .unwrap_or_else(|_| panic!("`{text}` is not a number"))
}

fn suite(dir: &Path, cases: usize, megabytes: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    // Log-uniform weights over two decades, scaled to the total.
    let weights: Vec<f64> = (0..cases)
        .map(|_| 10f64.powf(2.0 * (rng.next() >> 11) as f64 / (1u64 << 53) as f64))
        .collect();
    let problem = |index: usize| match index % 25 {
        0 => "s-nim",
        1 => "set-nim",
        i => PROBLEMS[i % 3],
    };
    // The streaming cases alone make up the total; the small s-nim and set-nim ones come on top.
    let total: f64 = (0..cases).filter(|&i| i % 25 > 1).map(|i| weights[i]).sum();
    let bytes = (megabytes as f64) * 1e6;
    let mut written = 0usize;
    for (index, weight) in weights.iter().enumerate() {
        let problem = problem(index);
        let size = (bytes * weight / total) as usize;
        let input = sized_input(problem, &mut rng, size);
        written += input.len();
        write_case(dir, problem, &format!("b{index:06}"), &input);
    }
    println!(
        "{cases} cases, {:.1} MB of input in {}",
        written as f64 / 1e6,
        dir.display()
    );
}

fn tiny(dir: &Path, cases: usize, seed: u64, only: Option<&str>) {
    let mut rng = Rng::new(seed);
    for index in 0..cases {
        let problem = only.unwrap_or(PROBLEMS[index % PROBLEMS.len()]);
        let input = tiny_input(problem, &mut rng);
        write_case(dir, problem, &format!("t{index:06}"), &input);
    }
    println!("{cases} tiny cases in {}", dir.display());
}

fn write_case(dir: &Path, problem: &str, case: &str, input: &[u8]) {
    let solve = grundy_problems::find(problem)
        .expect("a built-in problem")
        .solve;
    let mut expected = Vec::new();
    solve(input, &mut expected)
        .unwrap_or_else(|e| panic!("{problem}/{case}: the generated input is invalid: {e}"));
    let folder: PathBuf = dir.join(problem);
    std::fs::create_dir_all(&folder).expect("cannot create the suite folder");
    write(&folder.join(format!("{case}.in")), input);
    write(&folder.join(format!("{case}.out")), &expected);
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

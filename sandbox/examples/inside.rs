//! Runs a command under every containment this machine offers and prints what it printed:
//! a quick look at what a judged program sees. Usage (no shell is started for you):
//! `cargo run -p grundy-sandbox --example inside -- sh -c 'id; ls /; ls /proc'`

use std::time::Duration;

use grundy_sandbox::{Containment, Limits, Program, Spec, Stdin};

fn main() {
    println!("{}", grundy_sandbox::describe_containment());
    let missing = grundy_sandbox::guarantees().missing();
    if !missing.is_empty() {
        println!("not guaranteed here: {}", missing.join("; "));
    }
    let program = Program::new(std::env::args_os().skip(1));
    let limits = Limits {
        time: Duration::from_secs(10),
        wall: Duration::from_secs(21),
        memory_bytes: 512 << 20,
        output_bytes: 1 << 20,
    };
    for containment in [
        Containment::PidNamespace,
        Containment::Cgroup,
        Containment::ProcessGroup,
    ] {
        let spec = Spec::new(&program, &limits).stdin(Stdin::Bytes(b"1 2\n".to_vec()));
        match grundy_sandbox::run_with(spec, containment) {
            Ok(o) => println!(
                "== {containment}: {:?} in {:?}\n{}{}",
                o.end,
                o.wall_time,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => println!("== {containment}: {e}"),
        }
    }
}

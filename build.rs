//! Tells the tests what this machine lets them do, as the sandbox crate's build script found it
//! (its `links` metadata), so a test that cannot run here is `#[ignore]`d with its reason
//! instead of passing without testing anything: `cfg(as_root)` (built as root), `cfg(boxes)`
//! (the sandbox's boxes can be made here, or `GRUNDY_REQUIRE_BOX=1` says they must be); and
//! which languages' tools the PATH holds: `cfg(pypy3)`, `cfg(java)` (`javac` and `java`),
//! `cfg(gxx)` (`g++`), so a test of a language runs wherever its tool is (CI installs them:
//! `.ci/run`); which peers: `cfg(verifyproblem)` (problemtools), `cfg(bapctools)` (`bt`); and
//! `cfg(chromium)`, the browser the HTML report is loaded in (`.ci/run` installs it too).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(as_root)");
    println!("cargo:rustc-check-cfg=cfg(boxes)");
    for cfg in ["as_root", "boxes"] {
        let key = format!("DEP_GRUNDY_SANDBOX_PROBE_{}", cfg.to_uppercase());
        println!("cargo:rerun-if-env-changed={key}");
        if std::env::var(&key).is_ok_and(|v| v == "1") {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    // A tool installed later is seen by the next build that starts from a clean target or a
    // changed PATH (CI builds from a fresh clone, after installing them).
    println!("cargo:rerun-if-env-changed=PATH");
    let tools: [(&str, &[&str]); 6] = [
        ("pypy3", &["pypy3"]),
        ("java", &["javac", "java"]),
        ("gxx", &["g++"]),
        // The peers whose verdicts on the packages `new` writes the tests take as oracles.
        ("verifyproblem", &["verifyproblem"]),
        ("bapctools", &["bt"]),
        // Headless, the HTML report's page is loaded and its DOM read back.
        ("chromium", &["chromium"]),
    ];
    for (cfg, tools) in tools {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
        if tools.iter().all(|tool| on_path(tool)) {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
}

/// Whether an executable file `tool` is in a folder of the PATH.
fn on_path(tool: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|folder| {
        std::fs::metadata(folder.join(tool))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

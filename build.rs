//! Tells the tests what this machine lets them do, as the sandbox crate's build script found it
//! (its `links` metadata), so a test that cannot run here is `#[ignore]`d with its reason
//! instead of passing without testing anything: `cfg(as_root)` (built as root), `cfg(boxes)`
//! (the sandbox's boxes can be made here, or `GRUNDY_REQUIRE_BOX=1` says they must be); and
//! which languages' tools the PATH holds: `cfg(pypy3)`, `cfg(java)` (`javac` and `java`),
//! `cfg(gxx)` (`g++`), so a test of a language runs wherever its tool is (CI installs them:
//! `.ci/run`); which peers: `cfg(verifyproblem)` (problemtools), `cfg(bapctools)` (`bt`); and
//! `cfg(chromium)`, the browser the HTML report is loaded in (`.ci/run` installs it too).
//!
//! And ships the built-in problems' fixtures and `runner.toml` inside the binary
//! (`$OUT_DIR/shipped.rs`, which `src/shipped.rs` includes), so an installed grundy judges them
//! from any folder.

fn main() {
    ship_fixtures();
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

/// Writes `$OUT_DIR/shipped.rs`: `FILES`, every file of `fixtures/` and `runner.toml` as
/// (path relative to the checkout, bytes by `include_bytes!`), in path order; and `DIGEST`, a
/// hash of them all, which names the folder they are unpacked into, so a grundy shipping other
/// fixtures never reads an older one's. Uncompressed: the 8 MB they add cost no build time,
/// where a compressor would cost a dependency and its run at every start.
fn ship_fixtures() {
    let root = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    println!("cargo:rerun-if-changed=fixtures");
    println!("cargo:rerun-if-changed=runner.toml");
    let mut files = vec![std::path::PathBuf::from("runner.toml")];
    let mut folders = vec![std::path::PathBuf::from("fixtures")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(root.join(&folder)).unwrap() {
            let entry = entry.unwrap();
            let relative = folder.join(entry.file_name());
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                folders.push(relative);
            } else if kind.is_file() {
                files.push(relative);
            } else {
                panic!(
                    "{}: the shipped fixtures hold only files and folders",
                    relative.display()
                );
            }
        }
    }
    files.sort();
    // One blob, deflated: each file as its path, a 0 byte, its length (8 bytes, little-endian)
    // and its bytes. FNV-1a over each path and its contents, each ended by a 0 byte the paths
    // cannot hold, names it.
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    let mut blob = Vec::new();
    for file in &files {
        let path = file.to_str().expect("the fixtures' paths are UTF-8");
        let bytes = std::fs::read(root.join(file)).unwrap();
        for byte in path
            .bytes()
            .chain([0])
            .chain(bytes.iter().copied())
            .chain([0])
        {
            digest = (digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        blob.extend_from_slice(path.as_bytes());
        blob.push(0);
        blob.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        blob.extend_from_slice(&bytes);
    }
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let packed = out.join("shipped.deflate");
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut encoder, &blob).unwrap();
    std::fs::write(&packed, encoder.finish().unwrap()).unwrap();
    let table = format!(
        "pub static PACKED: &[u8] = include_bytes!({packed:?});\n\
         pub const DIGEST: &str = \"{digest:016x}\";\n"
    );
    std::fs::write(out.join("shipped.rs"), table).unwrap();
}

//! Tells the tests what this machine lets them do, as the sandbox crate's build script found it
//! (its `links` metadata), so a test that cannot run here is `#[ignore]`d with its reason
//! instead of passing without testing anything: `cfg(as_root)` (built as root), `cfg(boxes)`
//! (the sandbox's boxes can be made here, or `GRUNDY_REQUIRE_BOX=1` says they must be).

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
}

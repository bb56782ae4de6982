//! Tells the tests whether they are built as root (`cfg(as_root)`): the tests that need root
//! are then `#[ignore]`d, with the reason, instead of passing without testing anything.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(as_root)");
    println!("cargo:rerun-if-changed=build.rs");
    // A build by another user (su, sudo) sets another USER; rebuild to ask again.
    println!("cargo:rerun-if-env-changed=USER");
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let effective_uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1).map(str::to_owned));
    if effective_uid.as_deref() == Some("0") {
        println!("cargo:rustc-cfg=as_root");
    }
}

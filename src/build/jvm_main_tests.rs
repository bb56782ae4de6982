//! Tests of finding a JVM build's main class (jvm_main.rs) on class files written byte by byte
//! from the JVM specification's layout, so no compiler is needed.

use super::*;

/// A class file with one method `main` of `descriptor` and `flags`; the constant pool holds a
/// long (two entries) before the attribute's name, as compilers' pools do.
fn class_file(flags: u16, descriptor: &str) -> Vec<u8> {
    let utf8 = |text: &str| {
        let mut entry = vec![1];
        entry.extend((text.len() as u16).to_be_bytes());
        entry.extend(text.as_bytes());
        entry
    };
    let mut b = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61];
    b.extend(10u16.to_be_bytes()); // entries 1..=9
    b.extend(utf8("Hello")); // 1
    b.extend([7, 0, 1]); // 2: class #1
    b.extend(utf8("java/lang/Object")); // 3
    b.extend([7, 0, 3]); // 4: class #3
    b.extend(utf8("main")); // 5
    b.extend(utf8(descriptor)); // 6
    b.extend([5, 0, 0, 0, 0, 0, 0, 0, 42]); // 7 and 8: a long
    b.extend(utf8("Code")); // 9
    b.extend([0x00, 0x21, 0, 2, 0, 4, 0, 0]); // flags, this, super, no interfaces
                                              // One field named like the method, with one attribute of two bytes: skipped.
    b.extend([0, 1, 0, 0x08, 0, 5, 0, 6, 0, 1, 0, 9, 0, 0, 0, 2, 0, 0]);
    b.extend([0, 1]);
    b.extend(flags.to_be_bytes());
    b.extend([0, 5, 0, 6, 0, 0]);
    b
}

const MAIN: &str = "([Ljava/lang/String;)V";

#[test]
fn a_class_has_main_only_when_it_is_public_static_void_of_a_string_array() {
    assert!(has_main(&class_file(0x0009, MAIN)));
    assert!(has_main(&class_file(0x0019, MAIN)), "final too");
    assert!(!has_main(&class_file(0x0008, MAIN)), "not public");
    assert!(!has_main(&class_file(0x0001, MAIN)), "not static");
    assert!(!has_main(&class_file(0x0009, "()V")));
    assert!(!has_main(&class_file(0x0009, "([Ljava/lang/String;)I")));
}

#[test]
fn a_damaged_class_file_has_no_main_and_is_read_within_its_bytes() {
    let whole = class_file(0x0009, MAIN);
    for end in 0..whole.len() {
        assert!(!has_main(&whole[..end]), "cut at {end}");
    }
    let mut wrong_magic = whole.clone();
    wrong_magic[0] = 0;
    assert!(!has_main(&wrong_magic));
    let mut unknown_tag = whole;
    unknown_tag[10] = 99;
    assert!(!has_main(&unknown_tag));
}

fn build(files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

fn failure(result: Result<String, BuildError>) -> String {
    match result {
        Err(BuildError::Failed(message)) => message,
        Err(BuildError::Host(error)) => panic!("a host error: {error}"),
        Ok(class) => panic!("found {class}"),
    }
}

#[test]
fn the_one_class_with_main_is_found_by_its_binary_name_and_recorded() {
    let dir = build(&[
        ("pkg/Hello.class", class_file(0x0009, MAIN)),
        ("pkg/Util.class", class_file(0x0009, "()V")),
        ("Other.class", class_file(0x0001, MAIN)),
        ("notes.txt", class_file(0x0009, MAIN)),
    ]);
    let preferred = ["Main".to_string()];
    assert_eq!(find(dir.path(), &preferred).unwrap(), "pkg.Hello");
    assert_eq!(recorded(dir.path()).unwrap(), "pkg.Hello");
}

#[test]
fn among_several_the_preferred_class_wins_and_otherwise_the_build_fails_naming_them() {
    let dir = build(&[
        ("A.class", class_file(0x0009, MAIN)),
        ("B.class", class_file(0x0009, MAIN)),
    ]);
    let preferred = ["Main".to_string(), "B".to_string()];
    assert_eq!(find(dir.path(), &preferred).unwrap(), "B");
    let message = failure(find(dir.path(), &["Main".to_string()]));
    assert!(message.contains("(A, B)"), "{message}");
    assert!(
        message.contains("`entrypoint` in submissions.yaml"),
        "{message}"
    );
    let none = build(&[("A.class", class_file(0x0009, "()V"))]);
    let message = failure(find(none.path(), &[]));
    assert!(message.contains("no class declares"), "{message}");
}

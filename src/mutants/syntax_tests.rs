//! Angle brackets of types and unary or declaring `*` and `&&` are not mutated as operators;
//! the comparisons and products beside them still are. Expected mutants written by hand.

use super::operators_tests::made;
use super::scan::Family;

#[test]
fn cpp_template_brackets_are_no_comparisons() {
    let source = "vector<int> a(n);\n\
                  std::map<int, long long> m;\n\
                  vector<vector<int>> g(n + 1);\n\
                  if (a < b && c > d) x = 1;\n";
    assert_eq!(
        made(source, Family::C),
        [
            "2: long long → int",
            "3: + → -",
            "3: 1 → 2",
            "3: 1 → 0",
            "4: a < b && c > d → !(a < b && c > d)",
            "4: < → <=",
            "4: && → ||",
            "4: > → >=",
            "4: 1 → 2",
            "4: 1 → 0",
        ]
    );
}

#[test]
fn pointer_and_reference_declarations_and_dereferences_are_no_products() {
    let source = "int *p = &n, **q;\n\
                  Node *head = nullptr;\n\
                  long long r = *p * 2;\n\
                  void f(const string &s, int&& t);\n\
                  x = a * b;\n";
    assert_eq!(
        made(source, Family::C),
        [
            "3: long long → int",
            "3: * → /",
            "3: 2 → 3",
            "3: 2 → 1",
            "5: * → /",
        ]
    );
}

#[test]
fn java_generics_and_the_diamond() {
    let source = "List<Integer> a = new ArrayList<>();\n\
                  Map<String, List<Long>> m = new HashMap<>();\n\
                  static <T extends Comparable<T>> T max(T a, T b) { return a.compareTo(b) >= 0 ? a : b; }\n";
    assert_eq!(made(source, Family::C), ["3: >= → >", "3: 0 → 1"]);
}

#[test]
fn rust_generics_turbofish_lifetimes_and_unary_operators() {
    let source = "let v: Vec<Vec<i64>> = Vec::new();\n\
                  let s = xs.iter().map(|&x| x * 2).collect::<Vec<_>>();\n\
                  fn f<'a, T: Ord + Copy>(a: &'a [T], n: usize) -> Option<&'a T> { if n < a.len() { a.get(n) } else { None } }\n\
                  let z = -y * *r;\n";
    assert_eq!(
        made(source, Family::Rust),
        [
            "1: i64 → i32",
            "2: * → /",
            "2: 2 → 3",
            "2: 2 → 1",
            "3: n < a.len() → !(n < a.len())",
            "3: < → <=",
            "4: * → /",
        ]
    );
}

#[test]
fn python_star_arguments_are_no_products() {
    assert_eq!(
        made("print(*a, sep=x * 2)\n", Family::Python),
        ["1: * → /", "1: 2 → 3", "1: 2 → 1"]
    );
}

#[test]
fn a_strings_appends_are_no_sums() {
    let source = "std::string line, out = \"\";\n\
                  line += (char)c;\n\
                  out += x ? \"win\" : \"lose\";\n\
                  String s = t;\n\
                  s = s + name;\n\
                  k = n + 1;\n\
                  total += c;\n";
    // `line`, `out` and `s` are strings: their `+=` and `+` append. A whole append can still
    // go (not line 3's, whose `:` is no simple statement's).
    assert_eq!(
        made(source, Family::C),
        [
            "2: line += (char)c → ",
            "6: + → -",
            "6: 1 → 2",
            "6: 1 → 0",
            "7: total += c → ",
            "7: += → -=",
        ]
    );
}

//! The built-in problems as the runner names them: looking one up by id, and the one message for
//! an id that names none (with the closest id, and the whole list).

use anyhow::{anyhow, Result};
use grundy_problems::Problem;

use crate::suggest::did_you_mean;

/// The built-in problem `id`, or an error naming the known ones.
pub fn problem(id: &str) -> Result<&'static Problem> {
    grundy_problems::find(id).ok_or_else(|| anyhow!("{}", unknown(id)))
}

/// `no built-in problem `snim` (did you mean `s-nim`?); known problems: lieges-of-legendre, ...`.
pub fn unknown(id: &str) -> String {
    let ids = grundy_problems::ALL.iter().map(|p| p.id);
    format!(
        "no built-in problem `{id}`{}; known problems: {}",
        did_you_mean(id, ids.clone()),
        ids.collect::<Vec<_>>().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_id_gets_the_closest_and_the_list() {
        let message = problem("snim").err().unwrap().to_string();
        assert!(
            message.starts_with("no built-in problem `snim`"),
            "{message}"
        );
        assert!(message.contains("(did you mean `s-nim`?)"), "{message}");
        assert!(message.contains("lieges-of-legendre, nim,"), "{message}");
        assert_eq!(problem("nim").unwrap().id, "nim");
    }
}

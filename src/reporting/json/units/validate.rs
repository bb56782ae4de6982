//! `validate`'s lines: an input that is not what its group wants, and a package's validation.

use serde_json::{json, Value};

use crate::files::beneath::TreePath;
use crate::reporting::json::{all, clean};
use crate::reporting::unit::UnitId;
use crate::reporting::validated::{InputFinding, PackageValidation};
use crate::reporting::verified::Status;

/// An input of `validate`: its case and file, what was found, and what was said of it.
pub(in crate::reporting::json) fn input_object(
    id: &UnitId<'_>,
    input: &TreePath,
    finding: &InputFinding,
) -> Value {
    let case = format!("{}/{}", id.problem, id.case.unwrap_or_default());
    let mut object = json!({
        "case": clean(&case),
        "problem": clean(id.problem),
        "input": clean(&input.path().display().to_string()),
        "finding": finding.name(),
    });
    if let (Some(message), Value::Object(fields)) = (finding.message(), &mut object) {
        fields.insert("message".into(), clean(&message).into());
    }
    object
}

/// A package of `validate`: its status, what makes it invalid, what was not checked and what
/// was.
pub(in crate::reporting::json) fn validation_object(validation: &PackageValidation) -> Value {
    let mut errors: Vec<String> = validation
        .unreadable
        .iter()
        .map(|u| clean(&u.to_string()))
        .collect();
    errors.extend(all(&validation.errors));
    json!({
        "package": clean(&validation.name),
        "status": validation.status().name(),
        "valid": validation.status() == Status::Valid,
        "errors": errors,
        "unchecked": all(&validation.unchecked),
        "checked": clean(&validation.summary),
    })
}

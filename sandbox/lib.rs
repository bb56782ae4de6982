//! Placeholder: the process sandbox lands here.

//! An embedding program that prints an error with its sources (anyhow's `{:#}`, or a walk of
//! `source()`) reads each message once: the wrapping errors pass their inner one through
//! instead of repeating its text as their own.

use std::error::Error;
use std::path::Path;

use hexwar::{Session, SessionError};

/// Every message of the chain, outermost first.
fn chain(error: &dyn Error) -> Vec<String> {
    let mut out = vec![error.to_string()];
    let mut next = error.source();
    while let Some(e) = next {
        out.push(e.to_string());
        next = e.source();
    }
    out
}

#[test]
fn a_missing_save_names_the_file_then_the_system_error() {
    let Err(e) = Session::resume(Path::new("tests/fixtures/no_such_save.json")) else {
        panic!("expected an error")
    };
    assert!(matches!(e, SessionError::Save(_)), "{e:?}");
    let messages = chain(&e);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("tests/fixtures/no_such_save.json: cannot read save: "),
        "{messages:?}"
    );
    assert_ne!(messages[0], messages[1]);
    assert!(messages[0].ends_with(&messages[1]), "{messages:?}");
}

#[test]
fn a_broken_rules_module_is_one_message() {
    let Err(e) = Session::start(Path::new("tests/fixtures/broken_start"), Some(1)) else {
        panic!("expected an error")
    };
    let messages = chain(&e);
    assert_eq!(messages.len(), 1, "{messages:?}");
}

/// A scenario that is not there is told apart by type, with the system's error kind (it was a
/// line-0 error of the scenario's text, the `io::Error` lost in its message).
#[test]
fn a_missing_scenario_is_told_apart_by_its_error_kind() {
    let Err(SessionError::Scenario(errors)) =
        Session::start(Path::new("tests/fixtures/no_such_scenario"), Some(1))
    else {
        panic!("expected the scenario's errors")
    };
    let [hexwar::scenario::ScenarioError::Unreadable { kind, .. }] = errors.as_slice() else {
        panic!("{errors:?}")
    };
    assert_eq!(*kind, std::io::ErrorKind::NotFound);
    assert!(
        errors[0]
            .to_string()
            .starts_with("tests/fixtures/no_such_scenario: cannot read scenario file: "),
        "{}",
        errors[0]
    );
}

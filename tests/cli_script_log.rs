//! What the rules' scripts print (`print`, `hex.log`) reaches stderr from `hexwar run` and
//! `hexwar play`, a line each (`script: ...`), in the order printed; stdout keeps only the
//! command's own output (docs/guide.md, "`hex.log` and `print`").

mod common;

use common::{hexwar, stderr, stdout};

const SCENARIO: &str = "tests/fixtures/printing";

#[test]
fn run_shows_what_scripts_print_on_stderr() {
    let out = hexwar(&["run", SCENARIO, "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "script: phase\tmovement\t1\nscript: started blue\n\
         script: phase\tcombat\t1\nscript: started blue\n\
         script: phase\tmovement\t1\nscript: started red\n\
         script: phase\tcombat\t1\nscript: started red\n"
    );
    assert!(!stdout(&out).contains("script:"));
}

#[test]
fn play_shows_what_scripts_print_on_stderr() {
    let out = hexwar(&[
        "play",
        SCENARIO,
        "--orders",
        &format!("{SCENARIO}/orders.toml"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "script: phase\tmovement\t1\nscript: started blue\n\
         script: phase\tcombat\t1\nscript: started blue\n"
    );
}

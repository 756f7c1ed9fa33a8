//! A reader that goes away (`stencil-run … | head -0`) must not make the tools panic: the
//! write fails with a broken pipe, which is reported as an error with exit code 1 (a panic
//! would exit with 101).

use std::process::{Command, Stdio};

/// Runs `binary args` with its stdout's reading end closed before the child writes anything
/// (the child needs milliseconds to start; the pipe is closed microseconds after the spawn).
fn run_with_closed_stdout(binary: &str, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(binary)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{binary}: {e}"));
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn stencil_run_report_into_a_closed_pipe_is_an_error() {
    let (code, stderr) = run_with_closed_stdout(
        env!("CARGO_BIN_EXE_stencil-run"),
        &["../tests/lit/driver/Inputs/no-defaults.mlir", "--param", "N=4"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("stencil-run: error: cannot write the report to standard output: Broken pipe"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn stencil_run_json_into_a_closed_pipe_is_an_error() {
    let (code, stderr) = run_with_closed_stdout(
        env!("CARGO_BIN_EXE_stencil-run"),
        &["../tests/lit/driver/Inputs/no-defaults.mlir", "--param", "N=4", "--json"],
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn stencil_opt_list_passes_and_output_into_a_closed_pipe_are_errors() {
    for args in [&["--list-passes"][..], &["--show-dialects"], &["../examples/sor-2d-5pt.mlir"]] {
        let (code, stderr) = run_with_closed_stdout(env!("CARGO_BIN_EXE_stencil-opt"), args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("stencil-opt: error: cannot write to standard output: Broken pipe"),
            "{args:?}: {stderr}"
        );
    }
}

//! A reader that goes away (`stencil-run … | head -0`) must not make the tools panic: the
//! write fails with a broken pipe, which is reported as an error with exit code 1 (a panic
//! would exit with 101).

use std::process::{Command, Stdio};

/// Runs `binary args` with a standard output whose reader is gone before the child starts: one
/// end of a connected socket pair, the other end closed, so every write fails with a broken
/// pipe (a pipe closed after the spawn would race with a fast child's write).
fn run_with_closed_stdout(binary: &str, args: &[&str]) -> (Option<i32>, String) {
    let (writer, reader) = std::os::unix::net::UnixStream::pair().unwrap_or_else(|e| panic!("socket pair: {e}"));
    drop(reader);
    let output = Command::new(binary)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(writer)))
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {binary}: {e}"));
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

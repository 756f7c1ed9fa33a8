//! Logging set-up shared by the binaries: `--log FILTER` or `RUST_LOG`, in tracing's
//! `EnvFilter` syntax (`debug`, `stencil_ir::pass=trace`), written to stderr.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `filter` (from `--log`) wins over `RUST_LOG`; without
/// either only warnings are shown.
pub fn init(filter: Option<&str>) -> Result<(), String> {
    let env_filter = match filter {
        Some(f) => EnvFilter::try_new(f).map_err(|e| format!("invalid --log filter '{f}': {e}"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
    };
    tracing_subscriber::fmt()
        .with_env_filter(env_filter)
        .with_writer(std::io::stderr)
        .with_ansi(use_colour())
        .with_target(true)
        .without_time()
        .try_init()
        .map_err(|e| e.to_string())
}

/// Colours only where a person reads them: stderr is a terminal and `NO_COLOR` is not set
/// (<https://no-color.org>). Escape codes in a log file or a pipe are noise to grep.
pub fn use_colour() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

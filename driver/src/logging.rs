//! Logging set-up shared by the binaries: `--log FILTER` or `RUST_LOG`, in tracing's
//! `EnvFilter` syntax (`debug`, `stencil_ir::pass=trace`), written to stderr.

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
        .with_target(true)
        .without_time()
        .try_init()
        .map_err(|e| e.to_string())
}

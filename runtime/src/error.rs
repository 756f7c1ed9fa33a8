//! The one error type of the runtime: every failure a user can cause (bad parameters, bad
//! input files, an out-of-bounds access in a transformed program, an op the interpreter does
//! not know) ends here, with the op's source location when an op is involved.

use std::fmt;
use std::path::PathBuf;
use stencil_ir::Location;

/// Result type of the runtime.
pub type RuntimeResult<T> = Result<T, RuntimeError>;

/// Prints a location as `file:line:col` (or `<unknown location>`), the prefix MLIR tools use.
/// (Boxed to keep [`RuntimeError`] small.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc(pub Box<Location>);

impl Loc {
    /// A copy of `location`.
    pub fn new(location: &Location) -> Self {
        Loc(Box::new(location.clone()))
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.file_position() {
            Some((file, line, col)) => write!(f, "{file}:{line}:{col}"),
            None => f.write_str("<unknown location>"),
        }
    }
}

/// Formats `[x, y, z]` thread or block ids as `(x, y, z)`.
pub(crate) fn ids(v: &[u32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

/// Everything that can go wrong while preparing or running a program. More variants may come
/// (match with a `_` arm).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RuntimeError {
    /// A parameter has no value: neither given nor defaulted by the program.
    #[error(
        "missing value for parameter '{name}': give it one (stencil-run --param {name}=…, ProgramState::with_param in the library) or declare a default in the program"
    )]
    MissingParam {
        /// Parameter name.
        name: String,
    },
    /// A value was given for a name the program does not declare.
    #[error("unknown {what} '{name}': the program declares {declared}")]
    UnknownName {
        /// `parameter`, `field` or `scalar`.
        what: &'static str,
        /// The name given.
        name: String,
        /// The names the program declares, comma-separated.
        declared: String,
    },
    /// A parameter is below its declared minimum.
    #[error("parameter {name} = {value} is below its declared minimum {min}")]
    ParamBelowMinimum {
        /// Parameter name.
        name: String,
        /// Value given.
        value: i64,
        /// Declared minimum.
        min: i64,
    },
    /// A field extent evaluates to zero or less (or overflows) for the given parameters.
    #[error("field '{field}': extent '{extent}' of dimension {dim} is {value} for these parameters; extents must be positive (raise the parameters)")]
    NonPositiveExtent {
        /// Field name.
        field: String,
        /// Dimension.
        dim: usize,
        /// The extent as written in the program.
        extent: String,
        /// Its value (`None` on overflow).
        value: String,
    },
    /// A field has no data in the program state.
    #[error("field '{name}' has no data: initialise it with shape {shape:?} ({element}) before running")]
    MissingField {
        /// Field name.
        name: String,
        /// Expected shape.
        shape: Vec<usize>,
        /// Expected element type.
        element: String,
    },
    /// A field's data has another shape than the program computes from the parameters.
    #[error("field '{name}' has shape {found:?}, but the program expects {expected:?} for these parameters")]
    FieldShapeMismatch {
        /// Field name.
        name: String,
        /// Shape computed from the extents.
        expected: Vec<usize>,
        /// Shape of the given data.
        found: Vec<usize>,
    },
    /// A field's data has another element type than the program declares.
    #[error("field '{name}' holds {found} values, but the program declares {expected}")]
    FieldTypeMismatch {
        /// Field name.
        name: String,
        /// Declared element type.
        expected: String,
        /// Element type of the data.
        found: String,
    },
    /// A scalar argument has no value.
    #[error("missing value for scalar argument '{name}' ({ty}): pass it or declare a default in the program")]
    MissingScalar {
        /// Argument name.
        name: String,
        /// Its type.
        ty: String,
    },
    /// A scalar value cannot be converted to its argument's type.
    #[error("scalar argument '{name}' has type {ty}, which cannot hold {value}")]
    ScalarType {
        /// Argument name.
        name: String,
        /// Argument type.
        ty: String,
        /// The value given.
        value: String,
    },
    /// The IR is malformed in a way the verifier should have caught, or uses an unsupported
    /// construct.
    #[error("{location}: error: {message}")]
    Unsupported {
        /// Where.
        location: Loc,
        /// What and how to proceed.
        message: String,
    },
    /// A memory access outside a buffer or field.
    #[error("{location}: error: '{op}' accesses index {index:?} outside {what} of shape {shape:?}")]
    OutOfBounds {
        /// Where.
        location: Loc,
        /// The op.
        op: String,
        /// The index accessed.
        index: Vec<i64>,
        /// The shape accessed.
        shape: Vec<usize>,
        /// `memref` or `field 'A'`.
        what: String,
    },
    /// An op whose result is undefined for its operands (division by zero, over-wide shift,
    /// out-of-range float to integer conversion, use of a freed buffer …).
    #[error("{location}: error: '{op}' {message}")]
    Undefined {
        /// Where.
        location: Loc,
        /// The op.
        op: String,
        /// What happened.
        message: String,
    },
    /// No entry point of that name, or no unambiguous default.
    #[error("{message}")]
    Entry {
        /// What is missing and what exists.
        message: String,
    },
    /// Arguments passed to a function do not match its signature.
    #[error("{location}: error: {message}")]
    Signature {
        /// Location of the function.
        location: Loc,
        /// The mismatch.
        message: String,
    },
    /// Data handed to the runtime is inconsistent (values that do not fill a shape …).
    #[error("{message}")]
    InvalidData {
        /// What is wrong.
        message: String,
    },
    /// Two threads of a simulated GPU kernel access one element without synchronising, at
    /// least one of them writing ([`crate::gpu_sim`]).
    #[error("{location}: error: {report}")]
    DataRace {
        /// The access that revealed the race.
        location: Loc,
        /// Who, what, where.
        report: Box<crate::gpu_sim::RaceReport>,
    },
    /// Threads of a simulated block that do not all reach the same barrier.
    #[error("{location}: error: {message}")]
    BarrierDivergence {
        /// A barrier some threads wait at.
        location: Loc,
        /// Which threads are where.
        message: String,
    },
    /// A kernel launch the device would refuse (zero or oversized grid or block, too much
    /// workgroup memory, arguments that do not fit the kernel).
    #[error("{location}: error: 'gpu.launch_func' {message}")]
    Launch {
        /// The launch.
        location: Loc,
        /// What is wrong.
        message: String,
    },
    /// An error raised by one thread of a simulated kernel.
    #[error("{source} (in kernel {kernel}, block {}, thread {})", ids(.block), ids(.thread))]
    InKernel {
        /// The kernel, as `@module::@kernel`.
        kernel: String,
        /// `gpu.block_id` of the thread.
        block: [u32; 3],
        /// `gpu.thread_id` of the thread.
        thread: [u32; 3],
        /// What went wrong.
        source: Box<RuntimeError>,
    },
    /// A `.npy` file could not be read or written.
    #[error("{path}: {message}")]
    Npy {
        /// The file.
        path: PathBuf,
        /// What is wrong with it and how to fix it.
        message: String,
    },
}

impl RuntimeError {
    /// The location of the op involved, if any.
    pub fn location(&self) -> Option<&Location> {
        match self {
            RuntimeError::Unsupported { location, .. }
            | RuntimeError::OutOfBounds { location, .. }
            | RuntimeError::Undefined { location, .. }
            | RuntimeError::Signature { location, .. }
            | RuntimeError::DataRace { location, .. }
            | RuntimeError::BarrierDivergence { location, .. }
            | RuntimeError::Launch { location, .. } => Some(&*location.0),
            RuntimeError::InKernel { source, .. } => source.location(),
            _ => None,
        }
    }

    /// An [`RuntimeError::Unsupported`] error at `location`.
    pub(crate) fn unsupported(location: &Location, message: impl Into<String>) -> Self {
        RuntimeError::Unsupported { location: Loc::new(location), message: message.into() }
    }

    /// An [`RuntimeError::Undefined`] error for `op` at `location`.
    pub(crate) fn undefined(location: &Location, op: &str, message: impl Into<String>) -> Self {
        RuntimeError::Undefined { location: Loc::new(location), op: op.to_string(), message: message.into() }
    }
}

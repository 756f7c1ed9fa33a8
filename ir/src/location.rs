//! Source locations, as MLIR's `loc(...)` attributes.

use std::fmt;
use std::sync::Arc;

/// Where an operation or diagnostic comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Location {
    /// No known location (`loc(unknown)`).
    #[default]
    Unknown,
    /// A position in a source file (`loc("file":line:col)`), 1-based line and column.
    FileLineCol {
        /// File name as given to the parser.
        file: Arc<str>,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
    },
    /// A named location wrapping another (`loc("name"(inner))`).
    Name {
        /// The name.
        name: Arc<str>,
        /// The wrapped location.
        child: Box<Location>,
    },
    /// Several locations fused into one (`loc(fused[...])`, or `loc(fused<#meta>[...])` with
    /// metadata).
    Fused {
        /// The metadata attribute as written (printed form), e.g. `"loop fusion"`: opaque to
        /// us, kept so that a fused location prints back as it was read.
        metadata: Option<Arc<str>>,
        /// The fused locations.
        locations: Vec<Location>,
    },
    /// Code inlined from `callee` at `caller` (`loc(callsite(callee at caller))`); diagnostics
    /// point at the callee, as MLIR's do.
    CallSite {
        /// Where the code was written.
        callee: Box<Location>,
        /// Where it was called from.
        caller: Box<Location>,
    },
}

impl Location {
    /// A file/line/column location.
    pub fn file_line_col(file: &Arc<str>, line: u32, col: u32) -> Self {
        Location::FileLineCol { file: Arc::clone(file), line, col }
    }

    /// The first file/line/column position inside this location, used to prefix diagnostics.
    pub fn file_position(&self) -> Option<(&str, u32, u32)> {
        match self {
            Location::Unknown => None,
            Location::FileLineCol { file, line, col } => Some((file, *line, *col)),
            Location::Name { child, .. } => child.file_position(),
            Location::Fused { locations, .. } => locations.iter().find_map(Location::file_position),
            Location::CallSite { callee, caller } => callee.file_position().or_else(|| caller.file_position()),
        }
    }
}

/// Prints the location in MLIR's `loc(...)` syntax (without the `loc` wrapper).
pub struct LocationBody<'a>(pub &'a Location);

impl fmt::Display for LocationBody<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Location::Unknown => write!(f, "unknown"),
            Location::FileLineCol { file, line, col } => {
                write!(f, "{}:{line}:{col}", crate::printer::QuotedString(file))
            }
            Location::Name { name, child } => {
                write!(f, "{}", crate::printer::QuotedString(name))?;
                if **child != Location::Unknown {
                    write!(f, "({})", LocationBody(child))?;
                }
                Ok(())
            }
            Location::Fused { metadata, locations } => {
                write!(f, "fused")?;
                if let Some(metadata) = metadata {
                    write!(f, "<{metadata}>")?;
                }
                write!(f, "[")?;
                for (i, l) in locations.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", LocationBody(l))?;
                }
                write!(f, "]")
            }
            Location::CallSite { callee, caller } => {
                write!(f, "callsite({} at {})", LocationBody(callee), LocationBody(caller))
            }
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "loc({})", LocationBody(self))
    }
}

/// A source buffer with a line table, to turn byte offsets into line/column pairs.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
    line_starts: Vec<usize>,
    /// Line number (1-based) of the buffer's first line in the original file; split input
    /// chunks start in the middle of their file.
    first_line: u32,
}

impl SourceFile {
    /// Wraps `text` read from file `name`.
    pub fn new(name: &str, text: &str) -> Self {
        Self::with_first_line(name, text, 1)
    }

    /// Wraps a chunk of file `name` that starts at line `first_line` of that file.
    pub fn with_first_line(name: &str, text: &str, first_line: u32) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile { name: name.into(), text: text.into(), line_starts, first_line }
    }

    /// The file name.
    pub fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 1-based line of the first line of this buffer in the original file.
    pub fn first_line(&self) -> u32 {
        self.first_line
    }

    /// 1-based (line, column) of a byte offset, in the original file's numbering.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line_index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let col = self.text[self.line_starts[line_index]..offset.min(self.text.len())].chars().count() + 1;
        let line = u32::try_from(line_index).unwrap_or(u32::MAX).saturating_add(self.first_line);
        (line, u32::try_from(col).unwrap_or(u32::MAX))
    }

    /// The location of a byte offset.
    pub fn location(&self, offset: usize) -> Location {
        let (line, col) = self.line_col(offset);
        Location::file_line_col(&self.name, line, col)
    }

    /// The text of 1-based line `line` (in the original file's numbering), without newline.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let index = line.checked_sub(self.first_line)? as usize;
        let start = *self.line_starts.get(index)?;
        let end = self.line_starts.get(index + 1).map_or(self.text.len(), |e| e - 1);
        Some(self.text[start..end].trim_end_matches('\r'))
    }
}

//! `--split-input-file`: cut a buffer at `// -----` lines into independently processed chunks.

/// One chunk of the input: its text and the 1-based line where it starts in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk text.
    pub text: &'a str,
    /// 1-based line of the chunk's first line in the whole file.
    pub first_line: u32,
}

/// The separator mlir-opt uses.
pub const SEPARATOR: &str = "// -----";

/// Splits `text` at lines that consist of the separator (surrounding whitespace allowed).
pub fn split_input(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = vec![];
    let mut start = 0usize;
    let mut first_line = 1u32;
    let mut offset = 0usize;
    for (line_no, line) in (1u32..).zip(text.split_inclusive('\n')) {
        if line.trim() == SEPARATOR {
            chunks.push(Chunk { text: &text[start..offset], first_line });
            start = offset + line.len();
            first_line = line_no + 1;
        }
        offset += line.len();
    }
    chunks.push(Chunk { text: &text[start..], first_line });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_keeps_line_numbers() {
        let chunks = split_input("a\n// -----\nb\nc\n  // -----  \nd");
        assert_eq!(chunks.len(), 3);
        assert_eq!(chunks[1], Chunk { text: "b\nc\n", first_line: 3 });
        assert_eq!(chunks[2].first_line, 6);
    }
}

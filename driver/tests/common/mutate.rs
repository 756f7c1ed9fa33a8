//! Text mutations shared by the robustness proptest (`robustness.rs`) and the fuzzing harness
//! (`fuzz_pipelines.rs`): byte edits, line edits, identifier swaps and numbers replaced by
//! extremes, each position taken modulo the current length so that any value is an edit.

/// Numbers that break arithmetic: the limits of i32/i64/u64, zero, small values, huge shapes,
/// and float extremes (for the float literals of constants and defaults).
pub const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "3",
    "7",
    "16",
    "32",
    "64",
    "1000",
    "65536",
    "1000000",
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "4611686018427387904",
    "3037000500",
    "100000000000000000000000000000000000000000",
    "0x7FFFFFFFFFFFFFFF",
    "0x8000000000000000",
    "1.7976931348623157e308",
    "4.9e-324",
    "-0.0",
    "1e400",
    "0.5",
];

/// One edit of the seed text. Positions are taken modulo the current length (or count).
#[derive(Clone, Debug)]
pub enum Mutation {
    Truncate(usize),
    DeleteBytes(usize, usize),
    InsertFragment(usize, usize),
    DuplicateBytes(usize, usize),
    ReplaceByte(usize, u8),
    /// Replace the i-th number literal by an extreme value.
    ReplaceNumber(usize, usize),
    DuplicateLine(usize),
    DeleteLine(usize),
    SwapLines(usize, usize),
    /// Replace the i-th identifier-like word by the j-th one (`N` by `M`, `%A` by `%B`).
    ReplaceWord(usize, usize),
}

pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte ranges of the number literals (`12`, `-3`, `0x1F`, `1.5e-3`) of `s`, found as runs of
/// digits not inside identifiers.
pub fn number_spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut spans = vec![];
    let mut i = 0;
    while i < b.len() {
        let starts_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'%' | b'@' | b'#'));
        if b[i].is_ascii_digit() && !starts_word {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || (b[j] == b'-' && b[j - 1] == b'e')) {
                j += 1;
            }
            spans.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    spans
}

/// Byte ranges of identifier-like words (`N`, `%A`, `@S`, `stencil.apply`).
pub fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut spans = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || matches!(b[i], b'%' | b'@' | b'_') {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'.')) {
                j += 1;
            }
            spans.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    spans
}

pub fn line_spans(s: &str) -> Vec<(usize, usize)> {
    let mut spans = vec![];
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if c == '\n' {
            spans.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < s.len() {
        spans.push((start, s.len()));
    }
    spans
}

/// `text` with `mutations` applied in order; `InsertFragment` splices in one of `fragments`.
pub fn apply_mutations(text: &str, mutations: &[Mutation], fragments: &[&str]) -> String {
    let mut s = text.to_string();
    for m in mutations {
        let len = s.len().max(1);
        match *m {
            Mutation::Truncate(at) => {
                let at = floor_char_boundary(&s, at % len);
                s.truncate(at);
            }
            Mutation::DeleteBytes(at, n) => {
                let a = floor_char_boundary(&s, at % len);
                let b = floor_char_boundary(&s, a + n % 40);
                s.replace_range(a..b, "");
            }
            Mutation::InsertFragment(at, which) => {
                let a = floor_char_boundary(&s, at % len);
                s.insert_str(a, fragments[which % fragments.len().max(1)]);
            }
            Mutation::DuplicateBytes(at, n) => {
                let a = floor_char_boundary(&s, at % len);
                let b = floor_char_boundary(&s, a + n % 200);
                let piece = s[a..b].to_string();
                s.insert_str(b, &piece);
            }
            Mutation::ReplaceByte(at, byte) => {
                let a = floor_char_boundary(&s, at % len);
                let b = floor_char_boundary(&s, a + 1);
                s.replace_range(a..b, &char::from(byte % 128).to_string());
            }
            Mutation::ReplaceNumber(i, v) => {
                let spans = number_spans(&s);
                if !spans.is_empty() {
                    let (a, b) = spans[i % spans.len()];
                    s.replace_range(a..b, EXTREMES[v % EXTREMES.len()]);
                }
            }
            Mutation::DuplicateLine(i) => {
                let lines = line_spans(&s);
                if !lines.is_empty() {
                    let (a, b) = lines[i % lines.len()];
                    let line = s[a..b].to_string();
                    s.insert_str(b, &line);
                }
            }
            Mutation::DeleteLine(i) => {
                let lines = line_spans(&s);
                if !lines.is_empty() {
                    let (a, b) = lines[i % lines.len()];
                    s.replace_range(a..b, "");
                }
            }
            Mutation::SwapLines(i, j) => {
                let lines = line_spans(&s);
                if lines.len() >= 2 {
                    let (x, y) = (i % lines.len(), j % lines.len());
                    let (first, second) = (x.min(y), x.max(y));
                    if first != second {
                        let (a0, a1) = lines[first];
                        let (b0, b1) = lines[second];
                        let (la, lb) = (s[a0..a1].to_string(), s[b0..b1].to_string());
                        s.replace_range(b0..b1, &la);
                        s.replace_range(a0..a1, &lb);
                    }
                }
            }
            Mutation::ReplaceWord(i, j) => {
                let words = word_spans(&s);
                if !words.is_empty() {
                    let (a, b) = words[i % words.len()];
                    let (c, d) = words[j % words.len()];
                    let replacement = s[c..d].to_string();
                    s.replace_range(a..b, &replacement);
                }
            }
        }
    }
    s
}

//! NumPy `.npy` files (format versions 1.0–3.0) for fields: little-endian `f4`/`f8` in C
//! order, which is what `np.save` writes for `float32`/`float64` arrays.
//!
//! Hand-written rather than built on `npyz`: fields need only two dtypes and C order, the
//! format is a magic string, a Python-literal header and raw data, and `npyz` brings a
//! Python-literal parser with its own dependency tree for the header alone. Writing goes
//! through a temporary file renamed into place, so a failed write never leaves a partial
//! `.npy` behind.

use crate::error::{RuntimeError, RuntimeResult};
use crate::field::{element_count, ElementType, FieldData, FieldValues};
use std::io::Write;
use std::path::Path;

const MAGIC: &[u8] = b"\x93NUMPY";
/// numpy pads the header so the data starts at a multiple of this.
const ALIGN: usize = 64;

/// Reads a field from a `.npy` file.
pub fn read_npy(path: &Path) -> RuntimeResult<FieldData> {
    let err = |message: String| RuntimeError::Npy { path: path.to_path_buf(), message };
    let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    decode_npy(&bytes).map_err(err)
}

/// Writes a field to a `.npy` file (atomically: a temporary file in the same directory is
/// renamed over `path`).
pub fn write_npy(path: &Path, field: &FieldData) -> RuntimeResult<()> {
    let err = |message: String| RuntimeError::Npy { path: path.to_path_buf(), message };
    let mut tmp_name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    tmp_name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&encode_npy(field))?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(format!("cannot write: {e}"))
    })
}

/// The `.npy` encoding of a field (format 1.0, header padded to 64 bytes as numpy does).
pub fn encode_npy(field: &FieldData) -> Vec<u8> {
    let descr = match field.element() {
        ElementType::F32 => "<f4",
        ElementType::F64 => "<f8",
    };
    let shape = match field.shape.as_slice() {
        [single] => format!("({single},)"),
        dims => format!("({})", dims.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // magic (6) + version (2) + length (2) + header + '\n' is a multiple of ALIGN.
    let unpadded = MAGIC.len() + 4 + header.len() + 1;
    header.push_str(&" ".repeat((ALIGN - unpadded % ALIGN) % ALIGN));
    header.push('\n');
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + field.len() * field.element().size());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    // Headers of fields (at most 3 dimensions) are far below 64 KiB.
    out.extend_from_slice(&u16::try_from(header.len()).unwrap_or(u16::MAX).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    match &field.values {
        FieldValues::F32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        FieldValues::F64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
    }
    out
}

/// Decodes a `.npy` byte buffer; the error says what is wrong and how to fix the file.
pub fn decode_npy(bytes: &[u8]) -> Result<FieldData, String> {
    if !bytes.starts_with(MAGIC) {
        return Err("not a .npy file (missing the \\x93NUMPY magic string)".into());
    }
    let rest = &bytes[MAGIC.len()..];
    let (major, header_start, header_len) = match rest {
        [1, _, a, b, ..] => (1, 4, usize::from(u16::from_le_bytes([*a, *b]))),
        [major @ (2 | 3), _, a, b, c, d, ..] => (*major, 6, u32::from_le_bytes([*a, *b, *c, *d]) as usize),
        [1..=3, ..] | [] | [_] => return Err("truncated .npy header".into()),
        [major, minor, ..] => {
            return Err(format!("unsupported .npy format version {major}.{minor} (1.0 to 3.0 are supported)"))
        }
    };
    let header_end = header_start + header_len;
    let header_bytes = rest.get(header_start..header_end).ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(header_bytes)
        .map_err(|_| format!("the header of a version {major} .npy file is not valid text"))?;
    let dict = parse_header(header)?;
    if dict.fortran_order {
        return Err(
            "the array is stored in Fortran order; save it in C order (np.save(path, np.ascontiguousarray(a)))".into(),
        );
    }
    let element = match dict.descr.as_str() {
        "<f4" => ElementType::F32,
        "<f8" => ElementType::F64,
        ">f4" | ">f8" => {
            return Err(format!(
                "dtype '{}' is big-endian; save a little-endian copy (a.astype(a.dtype.newbyteorder('<')))",
                dict.descr
            ))
        }
        other => {
            return Err(format!(
                "unsupported dtype '{other}': fields hold float32 ('<f4') or float64 ('<f8'); convert with a.astype(np.float64)"
            ))
        }
    };
    let count = element_count(&dict.shape).ok_or("the shape has too many elements")?;
    let data = &rest[header_end..];
    let expected = count.checked_mul(element.size()).ok_or("the shape has too many elements")?;
    if data.len() < expected {
        return Err(format!(
            "truncated data: shape {:?} of {} needs {expected} bytes, the file has {}",
            dict.shape,
            element.name(),
            data.len()
        ));
    }
    if data.len() > expected {
        return Err(format!(
            "{} unexpected bytes after the data of shape {:?} ({}); the file is corrupt",
            data.len() - expected,
            dict.shape,
            element.name()
        ));
    }
    let values = match element {
        ElementType::F32 => {
            FieldValues::F32(data.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        }
        ElementType::F64 => FieldValues::F64(
            data.chunks_exact(8)
                .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect(),
        ),
    };
    Ok(FieldData { shape: dict.shape, values })
}

/// The three keys of a `.npy` header.
struct Header {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// Parses the header, a Python dict literal such as
/// `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`.
fn parse_header(text: &str) -> Result<Header, String> {
    let bad = || format!("malformed .npy header '{}'", text.trim_end());
    let mut lexer = HeaderLexer { s: text.trim_end().as_bytes(), pos: 0 };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    lexer.expect(b'{').ok_or_else(bad)?;
    loop {
        if lexer.eat(b'}') {
            break;
        }
        let key = lexer.string().ok_or_else(bad)?;
        lexer.expect(b':').ok_or_else(bad)?;
        match key.as_str() {
            "descr" => {
                descr = Some(lexer.string().ok_or_else(|| format!("{}: 'descr' must be a simple dtype string", bad()))?)
            }
            "fortran_order" => fortran = Some(lexer.boolean().ok_or_else(bad)?),
            "shape" => shape = Some(lexer.tuple().ok_or_else(bad)?),
            _ => return Err(format!("{}: unexpected key '{key}'", bad())),
        }
        if !lexer.eat(b',') {
            lexer.expect(b'}').ok_or_else(bad)?;
            break;
        }
    }
    match (descr, fortran, shape) {
        (Some(descr), Some(fortran_order), Some(shape)) => Ok(Header { descr, fortran_order, shape }),
        _ => Err(format!("{}: it needs 'descr', 'fortran_order' and 'shape'", bad())),
    }
}

struct HeaderLexer<'a> {
    s: &'a [u8],
    pos: usize,
}

impl HeaderLexer<'_> {
    fn skip_space(&mut self) {
        while self.s.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_space();
        if self.s.get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    fn string(&mut self) -> Option<String> {
        self.skip_space();
        let quote = *self.s.get(self.pos).filter(|q| **q == b'\'' || **q == b'"')?;
        let start = self.pos + 1;
        let len = self.s.get(start..)?.iter().position(|&c| c == quote)?;
        self.pos = start + len + 1;
        String::from_utf8(self.s[start..start + len].to_vec()).ok()
    }

    fn word(&mut self) -> &[u8] {
        self.skip_space();
        let start = self.pos;
        while self.s.get(self.pos).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            self.pos += 1;
        }
        &self.s[start..self.pos]
    }

    fn boolean(&mut self) -> Option<bool> {
        match self.word() {
            b"True" => Some(true),
            b"False" => Some(false),
            _ => None,
        }
    }

    fn tuple(&mut self) -> Option<Vec<usize>> {
        self.expect(b'(')?;
        let mut dims = vec![];
        loop {
            if self.eat(b')') {
                return Some(dims);
            }
            let word = self.word();
            // Python 2 era files may write long integers as `3L`.
            let digits = word.strip_suffix(b"L").unwrap_or(word);
            dims.push(std::str::from_utf8(digits).ok()?.parse().ok()?);
            if !self.eat(b',') {
                self.expect(b')')?;
                return Some(dims);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_matches_numpy() {
        let f = FieldData::new(vec![2, 3], FieldValues::F64(vec![0.0; 6])).unwrap();
        let bytes = encode_npy(&f);
        // What np.save writes for np.zeros((2, 3)): a 118-byte header, data at offset 128.
        let header = &bytes[10..128];
        assert_eq!(&bytes[..10], b"\x93NUMPY\x01\x00\x76\x00");
        assert!(header.starts_with(b"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(header.ends_with(b" \n"));
        assert_eq!(bytes.len(), 128 + 48);
        let one_d = FieldData::new(vec![5], FieldValues::F32(vec![1.5; 5])).unwrap();
        let text = String::from_utf8_lossy(&encode_npy(&one_d)).to_string();
        assert!(text.contains("'shape': (5,), }"), "{text}");
    }
}

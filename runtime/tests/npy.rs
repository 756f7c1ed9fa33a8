//! `.npy` reading and writing: round trips, numpy's header layout, and clear errors for
//! files fields cannot come from.

use stencil_runtime::npy::{decode_npy, encode_npy, read_npy, write_npy};
use stencil_runtime::{ElementType, FieldData, FieldValues, RuntimeError};

/// A `.npy` file with a hand-made header (padded like numpy) and raw data.
fn npy_with(header: &str, data: &[u8], version: u8) -> Vec<u8> {
    let mut out = b"\x93NUMPY".to_vec();
    out.extend_from_slice(&[version, 0]);
    let mut h = header.to_string();
    let prefix = if version == 1 { 10 } else { 12 };
    while !(prefix + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    if version == 1 {
        out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(h.as_bytes());
    out.extend_from_slice(data);
    out
}

fn f64_bytes(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn round_trips_through_files() {
    let dir = std::env::temp_dir().join(format!("stencil-runtime-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for field in [
        FieldData::pseudo_random(vec![3, 4, 5], ElementType::F64, 1).unwrap(),
        FieldData::pseudo_random(vec![7], ElementType::F32, 2).unwrap(),
        FieldData::new(vec![2, 2], FieldValues::F64(vec![f64::NAN, -0.0, f64::INFINITY, 1e-310])).unwrap(),
    ] {
        let path = dir.join("f.npy");
        write_npy(&path, &field).unwrap();
        let back = read_npy(&path).unwrap();
        assert_eq!(back.shape, field.shape);
        for i in 0..field.len() {
            assert_eq!(back.values.bits(i), field.values.bits(i));
        }
    }
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("f.npy")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reads_what_numpy_writes() {
    // np.save of np.array([[1.5, 2.0], [-3.0, 4.25]]) in format 1.0 and 2.0.
    let values = [1.5, 2.0, -3.0, 4.25];
    for version in [1, 2] {
        let bytes =
            npy_with("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", &f64_bytes(&values), version);
        let f = decode_npy(&bytes).unwrap();
        assert_eq!(f.shape, vec![2, 2]);
        assert_eq!(f.values, FieldValues::F64(values.to_vec()));
    }
    // Our own encoding has the same layout.
    let ours = encode_npy(&FieldData::new(vec![2, 2], FieldValues::F64(values.to_vec())).unwrap());
    assert_eq!(ours, npy_with("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", &f64_bytes(&values), 1));
}

#[test]
fn rejects_what_fields_cannot_hold() {
    let cases = [
        (b"NOTNUMPY".to_vec(), "not a .npy file"),
        (npy_with("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", &[0; 8], 1), "big-endian"),
        (npy_with("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", &[0; 8], 1), "unsupported dtype '<i4'"),
        (npy_with("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", &[0; 32], 1), "Fortran order"),
        (
            npy_with("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", &[0; 24], 1),
            "truncated data: shape [2, 2] of f64 needs 32 bytes, the file has 24",
        ),
        (npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", &[0; 12], 1), "4 unexpected bytes"),
        (npy_with("{'descr': '<f8', 'shape': (2,), }", &[0; 16], 1), "needs 'descr', 'fortran_order' and 'shape'"),
        (b"\x93NUMPY\x01\x00\xff".to_vec(), "truncated .npy header"),
        (b"\x93NUMPY\x04\x00\x00\x00".to_vec(), "unsupported .npy format version 4.0"),
    ];
    for (bytes, expected) in cases {
        let e = decode_npy(&bytes).unwrap_err();
        assert!(e.contains(expected), "expected '{expected}' in '{e}'");
    }
}

#[test]
fn file_errors_name_the_file() {
    let missing = std::env::temp_dir().join("stencil-runtime-no-such-file.npy");
    let e = read_npy(&missing).unwrap_err();
    assert!(matches!(e, RuntimeError::Npy { .. }));
    assert!(e.to_string().starts_with(&format!("{}: cannot read", missing.display())), "{e}");
}

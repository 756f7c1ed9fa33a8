//! Every PolyBench example (`examples/polybench-*.mlir`) against the PolyBench/C kernel it
//! implements (`driver/tests/polybench/kernels.c`, compiled here with the system C compiler at
//! `-O0 -ffp-contract=off`): the same initial fields, and the final fields must be
//! bit-identical — on the reference interpreter and after the tiled GPU pipeline on the
//! simulator. Skipped, with a message, where no C compiler runs (`$CC`, else `cc`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stencil_driver::opt::Registries;
use stencil_driver::run::init::{FieldInit, InitPlan};
use stencil_driver::run::{run_program, RunOptions, Target};
use stencil_runtime::{FieldData, FieldValues};

/// One example: its name in `examples/` and in `kernels.c`, its parameters (in the order
/// `kernels.c` takes them) and its fields with their shapes (in argument order).
struct Case {
    example: &'static str,
    kernel: &'static str,
    params: &'static [(&'static str, i64)],
    fields: &'static [(&'static str, &'static [usize])],
}

/// Small sizes (the simulator of a debug build runs about 0.1 M point updates per second), odd
/// where possible so that tiles of 4 do not divide them.
const CASES: &[Case] = &[
    Case {
        example: "polybench-jacobi-1d",
        kernel: "jacobi-1d",
        params: &[("T", 5), ("N", 30)],
        fields: &[("A", &[30]), ("B", &[30])],
    },
    Case {
        example: "polybench-jacobi-2d",
        kernel: "jacobi-2d",
        params: &[("T", 4), ("N", 13)],
        fields: &[("A", &[13, 13]), ("B", &[13, 13])],
    },
    Case {
        example: "polybench-seidel-2d",
        kernel: "seidel-2d",
        params: &[("T", 3), ("N", 11)],
        fields: &[("A", &[11, 11])],
    },
    Case {
        example: "polybench-heat-3d",
        kernel: "heat-3d",
        params: &[("T", 2), ("N", 7)],
        fields: &[("A", &[7, 7, 7]), ("B", &[7, 7, 7])],
    },
    Case {
        example: "polybench-fdtd-2d",
        kernel: "fdtd-2d",
        params: &[("T", 4), ("NX", 9), ("NY", 11)],
        fields: &[("ex", &[9, 11]), ("ey", &[9, 11]), ("hz", &[9, 11]), ("fict", &[4])],
    },
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn work_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("polybench_c");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The compiled kernels, or why there are none (no C compiler: the test is skipped). A
/// compiler that runs but fails on kernels.c is a test failure.
fn kernels_binary() -> Result<&'static Path, &'static str> {
    static BINARY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BINARY.get_or_init(|| {
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let source = repo_root().join("driver/tests/polybench/kernels.c");
        let binary = work_dir().join("kernels");
        let output =
            Command::new(&cc).args(["-std=c99", "-O0", "-ffp-contract=off", "-o"]).arg(&binary).arg(&source).output();
        match output {
            Err(e) => Err(format!("no C compiler ('{cc}': {e})")),
            Ok(o) if !o.status.success() => {
                panic!("'{cc}' failed on {}:\n{}", source.display(), String::from_utf8_lossy(&o.stderr))
            }
            Ok(_) => Ok(binary),
        }
    });
    built.as_deref().map_err(String::as_str)
}

/// Deterministic values in [-1, 1) with all 52 mantissa bits in use (splitmix64).
fn values(count: usize, seed: u64) -> Vec<f64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

fn f64_field(shape: &[usize], values: Vec<f64>) -> FieldData {
    FieldData::new(shape.to_vec(), FieldValues::F64(values)).unwrap_or_else(|e| panic!("{e}"))
}

/// The final fields of the C kernel from `inputs` (in the case's field order).
fn run_c(binary: &Path, case: &Case, inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let dir = work_dir();
    let (input, output) = (dir.join(format!("{}.in", case.kernel)), dir.join(format!("{}.out", case.kernel)));
    let bytes: Vec<u8> = inputs.iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&input, bytes).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let status = Command::new(binary)
        .arg(case.kernel)
        .arg(&input)
        .arg(&output)
        .args(case.params.iter().map(|(_, v)| v.to_string()))
        .status()
        .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    assert!(status.success(), "{}: the C kernel failed ({status})", case.kernel);
    let bytes = std::fs::read(&output).unwrap_or_else(|e| panic!("{}: {e}", output.display()));
    let mut all = bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
    case.fields.iter().map(|(_, shape)| all.by_ref().take(shape.iter().product()).collect::<Vec<f64>>()).collect()
}

/// The final fields of the example from `inputs` on `target` after `pipeline`.
fn run_example(case: &Case, inputs: &[Vec<f64>], target: Target, pipeline: Option<&str>) -> Vec<Vec<f64>> {
    let dir = work_dir().join(format!("{}-{}", case.kernel, if pipeline.is_some() { "sim" } else { "ref" }));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut init = InitPlan::default();
    for ((name, shape), values) in case.fields.iter().zip(inputs) {
        let path = dir.join(format!("{name}.in.npy"));
        stencil_runtime::npy::write_npy(&path, &f64_field(shape, values.clone()))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        init.fields.insert(name.to_string(), FieldInit::File(path));
    }
    let out = dir.join("out");
    let options = RunOptions {
        params: case.params.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        target,
        init,
        out_dir: Some(out.clone()),
        pipeline: pipeline.map(str::to_string),
        ..RunOptions::default()
    };
    let file = repo_root().join("examples").join(format!("{}.mlir", case.example));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    run_program(&file.display().to_string(), &text, &options, &Registries::all(), &mut |_| {})
        .unwrap_or_else(|e| panic!("{} ({pipeline:?}): {e}", case.example));
    case.fields
        .iter()
        .map(|(name, shape)| {
            let path = out.join(format!("{name}.npy"));
            let data = stencil_runtime::npy::read_npy(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(data.shape, *shape, "{}: shape of {name}", case.example);
            match data.values {
                FieldValues::F64(v) => v,
                FieldValues::F32(_) => panic!("{}: {name} is f32", case.example),
            }
        })
        .collect()
}

/// The first element whose bits differ, described, or `None` when all are identical.
fn first_difference(expected: &[f64], actual: &[f64]) -> Option<String> {
    if expected.len() != actual.len() {
        return Some(format!("{} values, expected {}", actual.len(), expected.len()));
    }
    let differing = expected.iter().zip(actual).filter(|(e, a)| e.to_bits() != a.to_bits()).count();
    let (i, (e, a)) = expected.iter().zip(actual).enumerate().find(|(_, (e, a))| e.to_bits() != a.to_bits())?;
    Some(format!("{differing} values differ; first at flat index {i}: C {e:e}, example {a:e}"))
}

#[test]
fn polybench_examples_are_bit_identical_to_the_polybench_c_kernels() {
    let binary = match kernels_binary() {
        Ok(b) => b,
        Err(why) => {
            eprintln!("SKIPPED polybench_examples_are_bit_identical_to_the_polybench_c_kernels: {why}; set CC to a C compiler to run it");
            return;
        }
    };
    let mut failures = vec![];
    for (seed, case) in CASES.iter().enumerate() {
        let inputs: Vec<Vec<f64>> = case
            .fields
            .iter()
            .enumerate()
            .map(|(f, (_, shape))| values(shape.iter().product(), (seed * 16 + f) as u64 + 1))
            .collect();
        let expected = run_c(binary, case, &inputs);
        // The inputs must change under the kernel, or the comparison proves nothing.
        assert_ne!(expected, inputs, "{}: the C kernel changed nothing", case.kernel);
        for (target, pipeline) in [
            (Target::Ref, None),
            (Target::Sim, Some("builtin.module(poly-schedule,poly-tile{sizes=4},gpu-map{block=8,4})")),
        ] {
            let actual = run_example(case, &inputs, target, pipeline);
            for (((name, _), e), a) in case.fields.iter().zip(&expected).zip(&actual) {
                if let Some(d) = first_difference(e, a) {
                    failures.push(format!("{} {name} ({}): {d}", case.example, pipeline.unwrap_or("ref")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "not bit-identical to PolyBench/C:\n{}", failures.join("\n"));
}

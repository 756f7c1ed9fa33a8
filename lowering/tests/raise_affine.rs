//! Issue 17: a function raised by `raise-affine-to-stencil` keeps its meaning for every input.
//! Each affine input of `examples/affine` (Polygeist-style PolyBench kernels) and a few
//! shapes of `tests/lit/passes/raise-affine-to-stencil.mlir` are called directly — the
//! original function and the raised one, lowered again by `poly-codegen` (reference
//! interpreter of the upstream subset) or tiled and mapped by `gpu-map` (GPU simulator) — with
//! the same pseudo-random arrays, for sizes in the program's range and below its minimums
//! (where the wrapper runs the original loops it kept, or nothing when they would do
//! nothing); every array must come out bit-identical.

mod common;

use common::{parse, registries, run_pipeline};
use stencil_ir::Module;
use stencil_runtime::gpu_sim::{simulate_module, SimOptions};
use stencil_runtime::loops::{CompiledModule, Memory, Value};
use stencil_runtime::{compare_fields, ElementType, FieldData};

/// An argument of a call.
#[derive(Clone, Debug)]
enum Arg {
    /// An integer (any integer type or index).
    Int(i64),
    /// An f64.
    F64(f64),
    /// A memref of f64 with this shape, pseudo-random.
    Buffer(Vec<usize>),
}

/// Calls `func` of `module` with `args` (buffers seeded by position) on the reference
/// interpreter, or the GPU simulator with `sim`; returns the buffers afterwards.
fn call(module: &Module, func: &str, args: &[Arg], sim: bool) -> Result<Vec<FieldData>, String> {
    let mut memory = Memory::new();
    let mut handles = vec![];
    let mut values = vec![];
    for (k, a) in args.iter().enumerate() {
        values.push(match a {
            Arg::Int(v) => Value::Int(*v),
            Arg::F64(v) => Value::F64(*v),
            Arg::Buffer(shape) => {
                let data = FieldData::pseudo_random(shape.clone(), ElementType::F64, 77 + k as u64)
                    .map_err(|e| e.to_string())?;
                let h = memory.insert_field(data);
                handles.push(h);
                Value::MemRef(h)
            }
        });
    }
    if sim {
        simulate_module(module, func, &values, &mut memory, &SimOptions::default()).map_err(|e| e.to_string())?;
    } else {
        CompiledModule::new(&module.ir, module.top)
            .and_then(|c| c.call(func, &values, &mut memory))
            .map_err(|e| e.to_string())?;
    }
    handles.into_iter().map(|h| memory.take_field(h).ok_or_else(|| "a buffer disappeared".to_string())).collect()
}

fn example(name: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/affine").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks `func` of `text` raised and lowered with `pipeline` against the original for every
/// argument list in `cases`.
fn check(text: &str, func: &str, pipeline: &str, sim: bool, cases: &[Vec<Arg>]) {
    let (dialects, _) = registries();
    let original = parse(text, &dialects).unwrap_or_else(|e| panic!("{func}: {e}"));
    let mut raised = parse(text, &dialects).unwrap_or_else(|e| panic!("{func}: {e}"));
    run_pipeline(&mut raised, "builtin.module(raise-affine-to-stencil{strict=true})")
        .unwrap_or_else(|e| panic!("{func}: {e}"));
    run_pipeline(&mut raised, pipeline).unwrap_or_else(|e| panic!("{func}: {pipeline}: {e}"));
    for args in cases {
        let expected = call(&original, func, args, false).unwrap_or_else(|e| panic!("{func} {args:?}: original: {e}"));
        let actual =
            call(&raised, func, args, sim).unwrap_or_else(|e| panic!("{func} {args:?}: raised ({pipeline}): {e}"));
        for (k, (e, a)) in expected.iter().zip(&actual).enumerate() {
            let c = compare_fields(e, a);
            assert!(
                c.bit_exact(),
                "{func} {args:?} after {pipeline}: buffer {k} differs at {} positions, first {:?}",
                c.differing,
                c.first_difference
            );
        }
    }
}

const CODEGEN: &str = "builtin.module(poly-codegen)";
const TILED: &str = "builtin.module(poly-schedule,poly-tile{sizes=3},gpu-map{block=8,4})";

fn jacobi_cases(rank: usize) -> Vec<Vec<Arg>> {
    // (tsteps, n): in range, and below the minimums tsteps >= 1, n >= 3.
    [(3, 9), (2, 5), (0, 9), (3, 2), (3, 1)]
        .into_iter()
        .map(|(t, n)| {
            let shape = vec![n.max(1) as usize; rank];
            vec![Arg::Int(t), Arg::Int(n), Arg::Buffer(shape.clone()), Arg::Buffer(shape)]
        })
        .collect()
}

#[test]
fn jacobi_1d_keeps_its_meaning() {
    let text = example("jacobi-1d.mlir");
    check(&text, "kernel_jacobi_1d", CODEGEN, false, &jacobi_cases(1));
    check(&text, "kernel_jacobi_1d", TILED, true, &jacobi_cases(1));
}

#[test]
fn jacobi_2d_keeps_its_meaning() {
    let text = example("jacobi-2d.mlir");
    check(&text, "kernel_jacobi_2d", CODEGEN, false, &jacobi_cases(2));
    check(&text, "kernel_jacobi_2d", TILED, true, &jacobi_cases(2));
}

#[test]
fn seidel_2d_keeps_its_meaning() {
    let text = example("seidel-2d.mlir");
    let cases: Vec<Vec<Arg>> = [2, 0].into_iter().map(|t| vec![Arg::Int(t), Arg::Buffer(vec![32, 32])]).collect();
    check(&text, "kernel_seidel_2d", CODEGEN, false, &cases);
    check(&text, "kernel_seidel_2d", TILED, true, &cases[..1]);
}

#[test]
fn heat_3d_keeps_its_meaning() {
    let text = example("heat-3d.mlir");
    let cases: Vec<Vec<Arg>> =
        [1, 0].into_iter().map(|t| vec![Arg::Int(t), Arg::Buffer(vec![10; 3]), Arg::Buffer(vec![10; 3])]).collect();
    check(&text, "kernel_heat_3d", CODEGEN, false, &cases);
    check(&text, "kernel_heat_3d", "builtin.module(gpu-map{naive})", true, &cases);
}

#[test]
fn fdtd_2d_keeps_its_meaning() {
    // (tmax, nx, ny); nx = 1 is below the program's minimum while the source statement
    // still runs: the wrapper's else branch (the original loops) does it.
    let text = example("fdtd-2d.mlir");
    let cases: Vec<Vec<Arg>> = [(3, 6, 7), (2, 1, 5), (2, 4, 1), (0, 4, 4)]
        .into_iter()
        .map(|(t, nx, ny)| {
            let field = vec![nx as usize, ny as usize];
            vec![
                Arg::Int(t),
                Arg::Int(nx),
                Arg::Int(ny),
                Arg::Buffer(field.clone()),
                Arg::Buffer(field.clone()),
                Arg::Buffer(field),
                Arg::Buffer(vec![(t as usize).max(1)]),
            ]
        })
        .collect();
    check(&text, "kernel_fdtd_2d", CODEGEN, false, &cases);
    check(&text, "kernel_fdtd_2d", TILED, true, &cases);
}

#[test]
fn sor_2d_keeps_its_meaning() {
    let text = example("sor-2d.mlir");
    let cases: Vec<Vec<Arg>> = [(2, 7, 9), (1, 2, 9), (2, 5, 3)]
        .into_iter()
        .map(|(t, n, m)| {
            vec![Arg::Int(t), Arg::Int(n), Arg::Int(m), Arg::F64(1.375), Arg::Buffer(vec![n as usize, m as usize])]
        })
        .collect();
    check(&text, "sor", CODEGEN, false, &cases);
    check(&text, "sor", TILED, true, &cases);
}

/// The fdtd-like shape of the lit test whose first statement runs for every `NX`.
const FALLBACK: &str = r#"
func.func @fallback(%T: index, %NX: index, %NY: index, %ey: memref<?x?xf64> {llvm.noalias}, %fict: memref<?xf64> {llvm.noalias}) {
  affine.for %t = 0 to %T {
    affine.for %j = 0 to %NY {
      %f = affine.load %fict[%t] : memref<?xf64>
      affine.store %f, %ey[0, %j] : memref<?x?xf64>
    }
    affine.for %i = 1 to %NX {
      affine.for %j = 0 to %NY {
        %a = affine.load %ey[%i - 1, %j] : memref<?x?xf64>
        affine.store %a, %ey[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}
"#;

/// The guarded shapes of the lit test: a static size with symbolic bounds (the call runs
/// only where the memref holds what the loops reach), a dynamic size reached up to a
/// constant (a memref.dim parameter), a statement that runs below the program's minimums
/// (the wrapper's else branch runs it), and a backward sweep.
#[test]
fn guarded_shapes_keep_their_meaning() {
    let text = r#"
func.func @static_size(%n: index, %A: memref<16xf64>) {
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<16xf64>
    %b = arith.addf %a, %a : f64
    affine.store %b, %A[%i] : memref<16xf64>
  }
  return
}
func.func @dynamic_size(%A: memref<?xf64>) {
  affine.for %i = 1 to 10 {
    %a = affine.load %A[%i - 1] : memref<?xf64>
    affine.store %a, %A[%i] : memref<?xf64>
  }
  return
}
func.func @reverse(%T: index, %N: index, %A: memref<?xf64>) {
  affine.for %t = 0 to %T {
    affine.for %x = affine_map<()[s0] -> (-s0 + 2)>()[%N] to 0 {
      %a = affine.load %A[-%x + 1] : memref<?xf64>
      %c = affine.load %A[-%x] : memref<?xf64>
      %i = arith.index_cast %x : index to i64
      %f = arith.sitofp %i : i64 to f64
      %s = arith.addf %a, %c : f64
      %v = arith.mulf %s, %f : f64
      affine.store %v, %A[-%x] : memref<?xf64>
    }
  }
  return
}
"#;
    let static_cases: Vec<Vec<Arg>> =
        [1, 2, 9, 16].into_iter().map(|n| vec![Arg::Int(n), Arg::Buffer(vec![16])]).collect();
    check(text, "static_size", CODEGEN, false, &static_cases);
    let dynamic_cases: Vec<Vec<Arg>> = [10, 13].into_iter().map(|n| vec![Arg::Buffer(vec![n])]).collect();
    check(text, "dynamic_size", CODEGEN, false, &dynamic_cases);
    // NX = 1 is below the program's NX >= 2, and the first statement still writes row 0.
    let fallback_cases: Vec<Vec<Arg>> = [(2, 4, 5), (2, 1, 5), (3, 1, 1)]
        .into_iter()
        .map(|(t, nx, ny)| {
            vec![
                Arg::Int(t),
                Arg::Int(nx),
                Arg::Int(ny),
                Arg::Buffer(vec![nx as usize, ny as usize]),
                Arg::Buffer(vec![t as usize]),
            ]
        })
        .collect();
    check(FALLBACK, "fallback", CODEGEN, false, &fallback_cases);
    // Its in-place row recurrence has no balanced intra-tile wavefront: Pluto's schedule.
    check(
        FALLBACK,
        "fallback",
        "builtin.module(poly-schedule{intra-balance=false},poly-tile{sizes=3},gpu-map{block=8,4})",
        true,
        &fallback_cases,
    );
    let reverse_cases: Vec<Vec<Arg>> = [(2, 9), (1, 3), (2, 2), (0, 5)]
        .into_iter()
        .map(|(t, n)| vec![Arg::Int(t), Arg::Int(n), Arg::Buffer(vec![n.max(1) as usize])])
        .collect();
    check(text, "reverse", CODEGEN, false, &reverse_cases);
}

/// Bounds a C front end computes in the arguments' integer types before the cast to `index`
/// are raised over the arguments, with the call guarded where the computation could wrap: for
/// values on both sides of the wrap (the function then runs its own loops), 64-bit arithmetic
/// (whose range does not fit a form's constant) and a zero-extended negative constant.
#[test]
fn integer_bound_computations_keep_their_meaning() {
    let text = r#"
func.func @narrow(%arg0: i32, %arg1: i8, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c100 = arith.constant 100 : i8
  %n = arith.addi %arg1, %c100 : i8
  %ub = arith.index_cast %n : i8 to index
  %T = arith.index_cast %arg0 : i32 to index
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      affine.store %a, %B[%i] : memref<?xf64>
    }
  }
  return
}
func.func @wide(%arg0: i64, %arg1: i64, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c1 = arith.constant 1 : i64
  %n = arith.subi %arg1, %c1 : i64
  %ub = arith.index_cast %n : i64 to index
  %T = arith.index_cast %arg0 : i64 to index
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i + 1] : memref<?xf64>
      affine.store %a, %B[%i] : memref<?xf64>
    }
  }
  return
}
func.func @unsigned(%arg0: i32, %arg1: i32, %A: memref<?xf64> {llvm.noalias}, %B: memref<?xf64> {llvm.noalias}) {
  %c = arith.constant -56 : i8
  %w = arith.extui %c : i8 to i32
  %n = arith.subi %arg1, %w : i32
  %ub = arith.index_castui %n : i32 to index
  %T = arith.index_cast %arg0 : i32 to index
  affine.for %t = 0 to %T {
    affine.for %i = 1 to %ub {
      %a = affine.load %A[%i - 1] : memref<?xf64>
      affine.store %a, %B[%i] : memref<?xf64>
    }
  }
  return
}
"#;
    let (dialects, _) = registries();
    let mut raised = parse(text, &dialects).expect("parses");
    run_pipeline(&mut raised, "builtin.module(raise-affine-to-stencil{strict=true})").expect("every function raises");
    let printed = stencil_ir::printer::print_op(&raised.ir, &dialects, raised.top, Default::default());
    // Over the arguments, not an opaque parameter of their computation.
    assert!(!printed.contains("sym"), "{printed}");
    let buffers = |n: usize| vec![Arg::Buffer(vec![n]), Arg::Buffer(vec![n])];
    let with = |t: i64, n: i64, size: usize| [vec![Arg::Int(t), Arg::Int(n)], buffers(size)].concat();
    // i8: n + 100 fits up to n = 27; past it the bound wraps negative and nothing runs.
    check(text, "narrow", CODEGEN, false, &[with(2, 20, 130), with(2, 27, 130), with(2, 28, 130), with(2, 100, 4)]);
    check(text, "wide", CODEGEN, false, &[with(2, 12, 13), with(1, 3, 4), with(2, 2, 4)]);
    // extui(-56 : i8) is 200: the bound is n - 200.
    check(text, "unsigned", CODEGEN, false, &[with(2, 210, 12), with(2, 202, 4), with(2, 200, 4)]);
}

//! The GPU simulator computes what the kernels compute on a GPU: Jacobi steps match the
//! reference interpreter and plain Rust bit for bit, in every block and thread order;
//! workgroup memory, barriers (also inside loops), ids, private memory and the counters work.

mod common;

use common::{assert_bits_eq, f64s, parse, random_f64, JACOBI_2D, REVERSE};
use stencil_runtime::gpu_sim::{run_module_sim, simulate_module, GpuModule, Order, RacePolicy, SimOptions};
use stencil_runtime::loops::{Memory, Value};
use stencil_runtime::{run_module, ElementType, FieldData, ProgramState};

/// The orders every race-free kernel must give identical results in.
fn orders() -> Vec<SimOptions> {
    let base = SimOptions::default();
    vec![
        base,
        base.with_order(Order::Reverse),
        base.with_order(Order::Shuffled { seed: 1 }),
        SimOptions { block_order: Order::Reverse, thread_order: Order::Shuffled { seed: 99 }, ..base },
    ]
}

/// 1-D Jacobi, one thread per interior point, ping-ponging between A and B: two launches of
/// the same kernel per time step.
const JACOBI_1D_GPU: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @jacobi1d(%A: memref<?xf64>, %B: memref<?xf64>, %n: index) kernel {
      %c1 = arith.constant 1 : index
      %third = arith.constant 0.33333333333333331 : f64
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bx, %bd : index
      %g = arith.addi %base, %tx : index
      %i = arith.addi %g, %c1 : index
      %last = arith.subi %n, %c1 : index
      %inside = arith.cmpi slt, %i, %last : index
      scf.if %inside {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %w = memref.load %A[%im] : memref<?xf64>
        %c = memref.load %A[%i] : memref<?xf64>
        %e = memref.load %A[%ip] : memref<?xf64>
        %s1 = arith.addf %w, %c : f64
        %s2 = arith.addf %s1, %e : f64
        %v = arith.mulf %s2, %third : f64
        memref.store %v, %B[%i] : memref<?xf64>
      }
      gpu.return
    }
  }
  func.func @jacobi1d(%A: memref<?xf64>, %B: memref<?xf64>, %T: index, %N: index)
      attributes {stencil.arg_names = ["A", "B"], stencil.param_names = ["T", "N"], stencil.param_mins = [1, 3],
                  stencil.defaults = {N = 1000 : i64, T = 4 : i64}, stencil.field_types = ["[N] x f64", "[N] x f64"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c127 = arith.constant 127 : index
    %interior = arith.subi %N, %c2 : index
    %rounded = arith.addi %interior, %c127 : index
    %blocks = arith.divui %rounded, %c128 : index
    scf.for %t = %c0 to %T step %c1 {
      gpu.launch_func @kernels::@jacobi1d blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1) args(%A : memref<?xf64>, %B : memref<?xf64>, %N : index)
      gpu.launch_func @kernels::@jacobi1d blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1) args(%B : memref<?xf64>, %A : memref<?xf64>, %N : index)
    }
    return
  }
}
"#;

fn jacobi_1d_in_rust(a: &mut [f64], b: &mut [f64], t: usize) {
    let third = 1.0_f64 / 3.0;
    let n = a.len();
    for _ in 0..t {
        for i in 1..n - 1 {
            b[i] = (a[i - 1] + a[i] + a[i + 1]) * third;
        }
        for i in 1..n - 1 {
            a[i] = (b[i - 1] + b[i] + b[i + 1]) * third;
        }
    }
}

#[test]
fn jacobi_1d_matches_plain_rust_in_every_order() {
    let module = parse(JACOBI_1D_GPU);
    let (n, t) = (1000usize, 4usize);
    let initial = ProgramState::new().with_field("A", random_f64(&[n], 1)).with_field("B", random_f64(&[n], 2));
    let (mut a, mut b) = (f64s(&initial.fields["A"]).to_vec(), f64s(&initial.fields["B"]).to_vec());
    jacobi_1d_in_rust(&mut a, &mut b, t);
    for options in orders() {
        let mut state = initial.clone();
        let stats = run_module_sim(&module, None, &mut state, &options).unwrap();
        assert_bits_eq(f64s(&state.fields["A"]), &a, &format!("A ({options:?})"));
        assert_bits_eq(f64s(&state.fields["B"]), &b, &format!("B ({options:?})"));
        let sim = &stats.sim;
        assert_eq!(sim.launches.len(), 2 * t);
        assert_eq!(sim.blocks(), 2 * t as u64 * 8, "ceil(998 / 128) = 8 blocks per launch");
        assert_eq!(sim.threads(), 2 * t as u64 * 8 * 128);
        assert_eq!(sim.race_count, 0);
        let interior = (n - 2) as u64;
        for launch in &sim.launches {
            assert_eq!(launch.kernel, "kernels::jacobi1d");
            assert_eq!((launch.grid, launch.block), ([8, 1, 1], [128, 1, 1]));
            assert_eq!(launch.global_bytes_read, 3 * 8 * interior, "three f64 loads per interior point");
            assert_eq!(launch.global_bytes_written, 8 * interior);
            assert_eq!(launch.barriers, 0);
        }
        assert_eq!(stats.run.field_stores, 2 * t as u64 * interior, "stores into the fields");
        assert_eq!(stats.run.point_updates, 2 * t as u64 * interior, "recorded point updates");
    }
}

/// 2-D Jacobi as DESIGN §7 maps it: 8×8 tiles, one block of 8×8 threads per tile; the tile and
/// its halo (10×10) are staged into workgroup memory (each thread loads elements `tid` and
/// `tid + 64`), then a barrier, then one point per thread. A second kernel copies B back into
/// A, as the program's second statement does.
const JACOBI_2D_GPU: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @jacobi_tile(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %N: index)
        workgroup(%tile : memref<10x10xf64, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c10 = arith.constant 10 : index
      %c64 = arith.constant 64 : index
      %c100 = arith.constant 100 : index
      %k = arith.constant 2.000000e-01 : f64
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %tid = arith.addi %row, %tx : index
      %i0 = arith.muli %by, %c8 : index
      %j0 = arith.muli %bx, %c8 : index
      scf.for %e = %tid to %c100 step %c64 {
        %r = arith.divui %e, %c10 : index
        %c = arith.remui %e, %c10 : index
        %gi = arith.addi %i0, %r : index
        %gj = arith.addi %j0, %c : index
        %in_i = arith.cmpi ult, %gi, %N : index
        %in_j = arith.cmpi ult, %gj, %N : index
        %in = arith.andi %in_i, %in_j : i1
        scf.if %in {
          %v = memref.load %A[%gi, %gj] : memref<?x?xf64>
          memref.store %v, %tile[%r, %c] : memref<10x10xf64, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %li = arith.addi %ty, %c1 : index
      %lj = arith.addi %tx, %c1 : index
      %i = arith.addi %i0, %li : index
      %j = arith.addi %j0, %lj : index
      %last = arith.subi %N, %c1 : index
      %ok_i = arith.cmpi ult, %i, %last : index
      %ok_j = arith.cmpi ult, %j, %last : index
      %ok = arith.andi %ok_i, %ok_j : i1
      scf.if %ok {
        %lim = arith.subi %li, %c1 : index
        %lip = arith.addi %li, %c1 : index
        %ljm = arith.subi %lj, %c1 : index
        %ljp = arith.addi %lj, %c1 : index
        %vc = memref.load %tile[%li, %lj] : memref<10x10xf64, #gpu.address_space<workgroup>>
        %vw = memref.load %tile[%li, %ljm] : memref<10x10xf64, #gpu.address_space<workgroup>>
        %ve = memref.load %tile[%li, %ljp] : memref<10x10xf64, #gpu.address_space<workgroup>>
        %vs = memref.load %tile[%lip, %lj] : memref<10x10xf64, #gpu.address_space<workgroup>>
        %vn = memref.load %tile[%lim, %lj] : memref<10x10xf64, #gpu.address_space<workgroup>>
        %a1 = arith.addf %vc, %vw : f64
        %a2 = arith.addf %a1, %ve : f64
        %a3 = arith.addf %a2, %vs : f64
        %a4 = arith.addf %a3, %vn : f64
        %v = arith.mulf %k, %a4 : f64
        memref.store %v, %B[%i, %j] : memref<?x?xf64>
      }
      gpu.return
    }
    gpu.func @copy(%B: memref<?x?xf64>, %A: memref<?x?xf64>, %N: index) kernel {
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %i0 = arith.muli %by, %bdy : index
      %j0 = arith.muli %bx, %bdx : index
      %i1 = arith.addi %i0, %ty : index
      %j1 = arith.addi %j0, %tx : index
      %i = arith.addi %i1, %c1 : index
      %j = arith.addi %j1, %c1 : index
      %last = arith.subi %N, %c1 : index
      %ok_i = arith.cmpi ult, %i, %last : index
      %ok_j = arith.cmpi ult, %j, %last : index
      %ok = arith.andi %ok_i, %ok_j : i1
      scf.if %ok {
        %v = memref.load %B[%i, %j] : memref<?x?xf64>
        memref.store %v, %A[%i, %j] : memref<?x?xf64>
      }
      gpu.return
    }
  }
  func.func @jacobi2d(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %T: index, %N: index)
      attributes {stencil.arg_names = ["A", "B"], stencil.param_names = ["T", "N"], stencil.param_mins = [1, 3],
                  stencil.defaults = {N = 64 : i64, T = 8 : i64}, stencil.field_types = ["[N, N] x f64", "[N, N] x f64"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %interior = arith.subi %N, %c2 : index
    %rounded = arith.addi %interior, %c7 : index
    %tiles = arith.divui %rounded, %c8 : index
    scf.for %t = %c0 to %T step %c1 {
      gpu.launch_func @kernels::@jacobi_tile blocks in (%tiles, %tiles, %c1) threads in (%c8, %c8, %c1) args(%A : memref<?x?xf64>, %B : memref<?x?xf64>, %N : index)
      gpu.launch_func @kernels::@copy blocks in (%tiles, %tiles, %c1) threads in (%c8, %c8, %c1) args(%B : memref<?x?xf64>, %A : memref<?x?xf64>, %N : index)
    }
    return
  }
}
"#;

#[test]
fn tiled_jacobi_2d_with_workgroup_memory_matches_the_reference_interpreter() {
    let gpu = parse(JACOBI_2D_GPU);
    let program = parse(JACOBI_2D);
    for (t, n) in [(8i64, 64usize), (3, 3), (2, 13)] {
        let initial = ProgramState::new()
            .with_param("T", t)
            .with_param("N", n as i64)
            .with_field("A", random_f64(&[n, n], 5))
            .with_field("B", random_f64(&[n, n], 6));
        let mut reference = initial.clone();
        let reference_stats = run_module(&program, None, &mut reference).unwrap();
        for options in orders() {
            let mut state = initial.clone();
            let start = std::time::Instant::now();
            let stats = run_module_sim(&gpu, None, &mut state, &options).unwrap();
            let tiles = (n as u64 - 2).div_ceil(8);
            eprintln!(
                "jacobi-2d N={n} T={t} {:?}/{:?}: {} launches, {} threads, {} instructions, {} barriers in {:.3} s",
                options.block_order,
                options.thread_order,
                stats.sim.launches.len(),
                stats.sim.threads(),
                stats.sim.instructions(),
                stats.sim.barriers(),
                start.elapsed().as_secs_f64()
            );
            for name in ["A", "B"] {
                assert_bits_eq(
                    f64s(&state.fields[name]),
                    f64s(&reference.fields[name]),
                    &format!("{name}, N={n}, T={t}"),
                );
            }
            assert_eq!(stats.run.point_updates, reference_stats.point_updates);
            assert_eq!(stats.sim.launches.len(), 2 * t as usize);
            assert_eq!(stats.sim.barriers(), t as u64 * tiles * tiles, "one barrier per tile and step");
            assert_eq!(stats.sim.race_count, 0);
        }
    }
}

#[test]
fn staging_through_workgroup_memory_is_correct_in_forward_and_reverse_order() {
    let module = parse(REVERSE);
    let input = random_f64(&[96], 3);
    let expected: Vec<f64> = f64s(&input).chunks(32).flat_map(|c| c.iter().rev().copied()).collect();
    for options in orders() {
        let mut memory = Memory::new();
        let a = memory.insert_field(input.clone());
        let b = memory.insert_field(FieldData::zeros(vec![96], ElementType::F64).unwrap());
        let args = [Value::MemRef(a), Value::MemRef(b), Value::Int(3)];
        let (results, report) = simulate_module(&module, "run", &args, &mut memory, &options).unwrap();
        assert!(results.is_empty());
        assert_bits_eq(f64s(&memory.take_field(b).unwrap()), &expected, &format!("{options:?}"));
        assert_eq!(report.launches[0].barriers, 3, "one barrier per block");
        assert_eq!(report.launches[0].global_bytes_read, 96 * 8, "workgroup traffic is not global");
        assert_eq!(report.launches[0].global_bytes_written, 96 * 8);
    }
}

/// A tree reduction per block: barriers inside an `scf.while` whose trip count every thread
/// shares, and an `scf.for` with iter_args and two barriers per iteration that rotates a
/// workgroup array.
const BARRIERS_IN_LOOPS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_sum(%in: memref<?xf64>, %out: memref<?xf64>)
        workgroup(%sh : memref<64xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %base = arith.muli %bx, %bd : index
      %g = arith.addi %base, %tx : index
      %v = memref.load %in[%g] : memref<?xf64>
      memref.store %v, %sh[%tx] : memref<64xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %done = scf.while (%s = %c32) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s2: index):
        %active = arith.cmpi ult, %tx, %s2 : index
        scf.if %active {
          %o = arith.addi %tx, %s2 : index
          %a = memref.load %sh[%tx] : memref<64xf64, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%o] : memref<64xf64, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f64
          memref.store %sum, %sh[%tx] : memref<64xf64, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.shrui %s2, %c1 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %total = memref.load %sh[%c0] : memref<64xf64, #gpu.address_space<workgroup>>
        memref.store %total, %out[%bx] : memref<?xf64>
      }
      gpu.return
    }
    gpu.func @rotate(%in: memref<?xf64>, %out: memref<?xf64>, %k: index)
        workgroup(%sh : memref<16xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.000000e+00 : f64
      %tx = gpu.thread_id x
      %v0 = memref.load %in[%tx] : memref<?xf64>
      memref.store %v0, %sh[%tx] : memref<16xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %next = arith.addi %tx, %c1 : index
      %src = arith.remui %next, %c16 : index
      %acc = scf.for %step = %c0 to %k step %c1 iter_args(%a = %zero) -> (f64) {
        %v = memref.load %sh[%src] : memref<16xf64, #gpu.address_space<workgroup>>
        gpu.barrier
        memref.store %v, %sh[%tx] : memref<16xf64, #gpu.address_space<workgroup>>
        gpu.barrier
        %a2 = arith.addf %a, %v : f64
        scf.yield %a2 : f64
      }
      %final = memref.load %sh[%tx] : memref<16xf64, #gpu.address_space<workgroup>>
      memref.store %final, %out[%tx] : memref<?xf64>
      %at = arith.addi %tx, %c16 : index
      memref.store %acc, %out[%at] : memref<?xf64>
      gpu.return
    }
  }
  func.func @sums(%in: memref<?xf64>, %out: memref<?xf64>, %blocks: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@block_sum blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<?xf64>, %out : memref<?xf64>)
    return
  }
  func.func @rotations(%in: memref<?xf64>, %out: memref<?xf64>, %k: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%in : memref<?xf64>, %out : memref<?xf64>, %k : index)
    return
  }
}
"#;

#[test]
fn barriers_inside_loops_synchronise_every_iteration() {
    let gpu = GpuModule::new(&parse(BARRIERS_IN_LOOPS).ir, parse(BARRIERS_IN_LOOPS).top).unwrap();
    assert_eq!(gpu.kernel_names(), vec!["kernels::block_sum", "kernels::rotate"]);
    let input = random_f64(&[256], 8);
    let values = f64s(&input).to_vec();
    // The tree order of the kernel: stride 32, 16, …, 1.
    let expected: Vec<f64> = values
        .chunks(64)
        .map(|c| {
            let mut sh = c.to_vec();
            let mut s = 32;
            while s > 0 {
                for t in 0..s {
                    sh[t] += sh[t + s];
                }
                s /= 2;
            }
            sh[0]
        })
        .collect();
    for options in orders() {
        let mut memory = Memory::new();
        let a = memory.insert_field(input.clone());
        let b = memory.insert_field(FieldData::zeros(vec![4], ElementType::F64).unwrap());
        let (_, report) =
            gpu.call("sums", &[Value::MemRef(a), Value::MemRef(b), Value::Int(4)], &mut memory, &options).unwrap();
        assert_bits_eq(f64s(&memory.take_field(b).unwrap()), &expected, &format!("sums, {options:?}"));
        assert_eq!(report.barriers(), 4 * 7, "one barrier after staging and six in the loop, per block");

        let k = 5;
        let mut memory = Memory::new();
        let a = memory.insert_field(random_f64(&[16], 9));
        let b = memory.insert_field(FieldData::zeros(vec![32], ElementType::F64).unwrap());
        let v = f64s(&random_f64(&[16], 9)).to_vec();
        gpu.call("rotations", &[Value::MemRef(a), Value::MemRef(b), Value::Int(k)], &mut memory, &options).unwrap();
        let out = f64s(&memory.take_field(b).unwrap()).to_vec();
        for t in 0..16usize {
            assert_eq!(out[t].to_bits(), v[(t + k as usize) % 16].to_bits(), "rotated by {k}");
            let acc = (1..=k as usize).fold(0.0, |a, s| a + v[(t + s) % 16]);
            assert_eq!(out[16 + t].to_bits(), acc.to_bits(), "iter_args of thread {t}");
        }
    }
}

/// Every thread writes a row: twice its launch-wide linear id (through a private attribution
/// and a `memref.alloca`), its `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`,
/// `gpu.grid_dim` along x, y, z, and the result of an `affine.for` with iter_args.
const IDS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<?x14xf64>) private(%p : memref<2xi64, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i64
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %b1 = arith.muli %bz, %gy : index
      %b2 = arith.addi %b1, %by : index
      %b3 = arith.muli %b2, %gx : index
      %block = arith.addi %b3, %bx : index
      %t1 = arith.muli %tz, %dy : index
      %t2 = arith.addi %t1, %ty : index
      %t3 = arith.muli %t2, %dx : index
      %thread = arith.addi %t3, %tx : index
      %d1 = arith.muli %dx, %dy : index
      %tpb = arith.muli %d1, %dz : index
      %r1 = arith.muli %block, %tpb : index
      %row = arith.addi %r1, %thread : index
      %scratch = memref.alloca() : memref<1xi64>
      %id = arith.index_cast %row : index to i64
      memref.store %id, %p[%c0] : memref<2xi64, #gpu.address_space<private>>
      affine.store %id, %scratch[0] : memref<1xi64>
      %again = memref.load %p[%c0] : memref<2xi64, #gpu.address_space<private>>
      %twice = affine.load %scratch[0] : memref<1xi64>
      %sum = arith.addi %again, %twice : i64
      %sumf = arith.sitofp %sum : i64 to f64
      memref.store %sumf, %out[%row, %c0] : memref<?x14xf64>
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %itx = arith.index_cast %tx : index to i64
      %ftx = arith.sitofp %itx : i64 to f64
      %ity = arith.index_cast %ty : index to i64
      %fty = arith.sitofp %ity : i64 to f64
      %itz = arith.index_cast %tz : index to i64
      %ftz = arith.sitofp %itz : i64 to f64
      %ibx = arith.index_cast %bx : index to i64
      %fbx = arith.sitofp %ibx : i64 to f64
      %iby = arith.index_cast %by : index to i64
      %fby = arith.sitofp %iby : i64 to f64
      %ibz = arith.index_cast %bz : index to i64
      %fbz = arith.sitofp %ibz : i64 to f64
      %idx = arith.index_cast %dx : index to i64
      %fdx = arith.sitofp %idx : i64 to f64
      %idy = arith.index_cast %dy : index to i64
      %fdy = arith.sitofp %idy : i64 to f64
      %idz = arith.index_cast %dz : index to i64
      %fdz = arith.sitofp %idz : i64 to f64
      %igx = arith.index_cast %gx : index to i64
      %fgx = arith.sitofp %igx : i64 to f64
      %igy = arith.index_cast %gy : index to i64
      %fgy = arith.sitofp %igy : i64 to f64
      %igz = arith.index_cast %gz : index to i64
      %fgz = arith.sitofp %igz : i64 to f64
      memref.store %ftx, %out[%row, %c1] : memref<?x14xf64>
      memref.store %fty, %out[%row, %c2] : memref<?x14xf64>
      memref.store %ftz, %out[%row, %c3] : memref<?x14xf64>
      memref.store %fbx, %out[%row, %c4] : memref<?x14xf64>
      memref.store %fby, %out[%row, %c5] : memref<?x14xf64>
      memref.store %fbz, %out[%row, %c6] : memref<?x14xf64>
      memref.store %fdx, %out[%row, %c7] : memref<?x14xf64>
      memref.store %fdy, %out[%row, %c8] : memref<?x14xf64>
      memref.store %fdz, %out[%row, %c9] : memref<?x14xf64>
      memref.store %fgx, %out[%row, %c10] : memref<?x14xf64>
      memref.store %fgy, %out[%row, %c11] : memref<?x14xf64>
      memref.store %fgz, %out[%row, %c12] : memref<?x14xf64>
      %acc = affine.for %k = 0 to 3 iter_args(%a = %zero) -> (i64) {
        %kk = affine.apply affine_map<(d0) -> (d0 * 2)>(%k)
        %ki = arith.index_cast %kk : index to i64
        %a2 = arith.addi %a, %ki : i64
        affine.yield %a2 : i64
      }
      %facc = arith.sitofp %acc : i64 to f64
      memref.store %facc, %out[%row, %c13] : memref<?x14xf64>
      gpu.return
    }
  }
  func.func @run(%out: memref<?x14xf64>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @kernels::@ids blocks in (%c2, %c1, %c3) threads in (%c3, %c2, %c2) args(%out : memref<?x14xf64>)
    return
  }
}
"#;

#[test]
fn thread_ids_sizes_and_private_memory() {
    let module = parse(IDS);
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::filled(vec![72, 14], ElementType::F64, -1.0).unwrap());
    let (_, report) =
        simulate_module(&module, "run", &[Value::MemRef(out)], &mut memory, &SimOptions::default()).unwrap();
    assert_eq!(report.threads(), 72);
    assert_eq!((report.launches[0].grid, report.launches[0].block), ([2, 1, 3], [3, 2, 2]));
    let field = memory.take_field(out).unwrap();
    let rows = f64s(&field);
    for row in 0..72usize {
        let (block, thread) = (row / 12, row % 12);
        let expected = [
            (2 * row) as f64,
            (thread % 3) as f64,
            ((thread / 3) % 2) as f64,
            (thread / 6) as f64,
            (block % 2) as f64,
            0.0,
            (block / 2) as f64,
            3.0,
            2.0,
            2.0,
            2.0,
            1.0,
            3.0,
            6.0,
        ];
        assert_eq!(&rows[row * 14..row * 14 + 14], &expected, "row {row}");
    }
}

#[test]
fn collected_races_do_not_stop_a_race_free_run() {
    // Collect mode on a race-free program: same results, no races.
    let module = parse(JACOBI_1D_GPU);
    let mut state = ProgramState::new()
        .with_param("N", 300)
        .with_field("A", random_f64(&[300], 1))
        .with_field("B", random_f64(&[300], 2));
    let options = SimOptions::default().with_races(RacePolicy::Collect);
    let stats = run_module_sim(&module, None, &mut state, &options).unwrap();
    assert!(stats.sim.races.is_empty());
    // Ignoring races gives the same fields.
    let mut again = ProgramState::new()
        .with_param("N", 300)
        .with_field("A", random_f64(&[300], 1))
        .with_field("B", random_f64(&[300], 2));
    run_module_sim(&module, None, &mut again, &SimOptions::default().with_races(RacePolicy::Ignore)).unwrap();
    assert_bits_eq(f64s(&again.fields["A"]), f64s(&state.fields["A"]), "A");
}

#[test]
fn kernels_can_be_launched_without_a_host_function() {
    let module = parse(REVERSE);
    let gpu = GpuModule::new(&module.ir, module.top).unwrap();
    let mut memory = Memory::new();
    let a = memory.insert_field(random_f64(&[32], 4));
    let b = memory.insert_field(FieldData::zeros(vec![32], ElementType::F64).unwrap());
    let report = gpu
        .launch(
            "kernels::reverse",
            [1, 1, 1],
            [32, 1, 1],
            &[Value::MemRef(a), Value::MemRef(b)],
            &mut memory,
            &SimOptions::default(),
        )
        .unwrap();
    assert_eq!(report.launches.len(), 1);
    let out = memory.take_field(b).unwrap();
    let input = memory.take_field(a).unwrap();
    assert_eq!(f64s(&out)[0].to_bits(), f64s(&input)[31].to_bits());
}

/// Parallel loops (run sequentially by each thread) and `affine.if` inside a kernel.
const PARALLEL_LOOPS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<4x6xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c10 = arith.constant 10 : index
      %minus = arith.constant -1.000000e+00 : f64
      %t = gpu.thread_id x
      %base = arith.muli %t, %c10 : index
      scf.parallel (%j) = (%c0) to (%c3) step (%c1) {
        %v = arith.addi %base, %j : index
        %vi = arith.index_cast %v : index to i64
        %vf = arith.sitofp %vi : i64 to f64
        memref.store %vf, %out[%t, %j] : memref<4x6xf64>
        scf.reduce
      }
      affine.parallel (%j) = (3) to (6) {
        affine.if affine_set<(d0) : (d0 - 5 >= 0)>(%j) {
          memref.store %minus, %out[%t, %j] : memref<4x6xf64>
        } else {
          %ji = arith.index_cast %j : index to i64
          %jf = arith.sitofp %ji : i64 to f64
          memref.store %jf, %out[%t, %j] : memref<4x6xf64>
        }
      }
      gpu.return
    }
  }
  func.func @run(%out: memref<4x6xf64>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4x6xf64>)
    return
  }
}
"#;

#[test]
fn parallel_loops_and_affine_ifs_run_inside_kernels() {
    let module = parse(PARALLEL_LOOPS);
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::zeros(vec![4, 6], ElementType::F64).unwrap());
    simulate_module(&module, "run", &[Value::MemRef(out)], &mut memory, &SimOptions::default()).unwrap();
    let field = memory.take_field(out).unwrap();
    for t in 0..4usize {
        let row = &f64s(&field)[t * 6..t * 6 + 6];
        let expected = [(10 * t) as f64, (10 * t + 1) as f64, (10 * t + 2) as f64, 3.0, 4.0, -1.0];
        assert_eq!(row, &expected, "thread {t}");
    }
}

/// `SimOptions::profile` attributes every warp-instruction to the kernel op it was compiled
/// from: per launch the lines sum to the launch's warp-instructions, on the warp-synchronous
/// run (Jacobi-1D) and on the thread-by-thread one (the `memref.alloca` kernel), every line is
/// an op inside the kernel, and the loads of the guarded body outweigh the once-per-thread id
/// reads. Without the option there is no profile.
#[test]
fn the_profile_accounts_for_every_warp_instruction() {
    let profiled = SimOptions::default().with_profile(true);
    let module = parse(JACOBI_1D_GPU);
    let initial = ProgramState::new().with_field("A", random_f64(&[1000], 1)).with_field("B", random_f64(&[1000], 2));
    let kernel_lines = |text: &str, name: &str| -> std::ops::RangeInclusive<u32> {
        let lines: Vec<&str> = text.lines().collect();
        let start = lines.iter().position(|l| l.contains(&format!("gpu.func @{name}"))).expect("kernel") as u32 + 1;
        let end = lines.iter().skip(start as usize).position(|l| l.contains("gpu.return")).expect("return") as u32;
        start..=start + end + 1
    };
    let check = |report: &stencil_runtime::gpu_sim::SimReport, lines: std::ops::RangeInclusive<u32>| {
        assert!(!report.launches.is_empty());
        for launch in &report.launches {
            let sum: u64 = launch.profile.iter().map(|(_, n)| n.warp_instructions).sum();
            assert_eq!(sum, launch.warp_instructions, "{}", launch.kernel);
            let lanes: u64 = launch.profile.iter().map(|(_, n)| n.thread_instructions).sum();
            assert_eq!(lanes, launch.thread_instructions, "{}", launch.kernel);
            for (location, _) in &launch.profile {
                let (_, line, _) = location.file_position().expect("a file position");
                assert!(lines.contains(&line), "line {line} outside the kernel {lines:?}");
            }
        }
        let total: u64 = report.profile().iter().map(|l| l.warp_instructions).sum();
        assert_eq!(total, report.warp_instructions());
        let lanes: u64 = report.profile().iter().map(|l| l.thread_instructions).sum();
        assert_eq!(lanes, report.launches.iter().map(|l| l.thread_instructions).sum::<u64>());
    };
    let mut state = initial.clone();
    let report = run_module_sim(&module, None, &mut state, &profiled).unwrap().sim;
    check(&report, kernel_lines(JACOBI_1D_GPU, "jacobi1d"));
    let line_of = |needle: &str| JACOBI_1D_GPU.lines().position(|l| l.contains(needle)).expect("a line") as u32 + 1;
    let count_at = |line: u32| {
        report
            .profile()
            .iter()
            .filter(|l| l.location.file_position().map(|p| p.1) == Some(line))
            .map(|l| l.warp_instructions)
            .sum::<u64>()
    };
    assert!(count_at(line_of("%w = memref.load")) > 0);
    assert!(count_at(line_of("%w = memref.load")) >= count_at(line_of("%tx = gpu.thread_id x")));
    let mut state = initial.clone();
    let plain = run_module_sim(&module, None, &mut state, &SimOptions::default()).unwrap().sim;
    assert!(plain.launches.iter().all(|l| l.profile.is_empty()) && plain.profile().is_empty());
    assert_eq!(plain.warp_instructions(), report.warp_instructions(), "profiling changes no count");

    let module = parse(IDS);
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::filled(vec![72, 14], ElementType::F64, -1.0).unwrap());
    let (_, report) = simulate_module(&module, "run", &[Value::MemRef(out)], &mut memory, &profiled).unwrap();
    let name =
        IDS.lines().find_map(|l| l.split("gpu.func @").nth(1)).and_then(|r| r.split('(').next()).expect("a kernel");
    check(&report, kernel_lines(IDS, name));
}

//! What the GPU simulator reports instead of computing garbage: data races within a block
//! (a missing barrier) and across blocks, divergent barriers, out-of-bounds accesses, reads of
//! unwritten workgroup memory, launches the device would refuse, endless threads. Every one is
//! an error value with a location, never a panic or a hang.

mod common;

use common::{f64s, parse, parse_unverified, random_f64, reverse_without_barrier};
use stencil_runtime::gpu_sim::{
    run_module_sim, simulate_module, AccessKind, GpuModule, MemorySpace, Order, RacePolicy, RaceReport, RaceScope,
    SimOptions,
};
use stencil_runtime::loops::{Memory, Value};
use stencil_runtime::{run_module, ElementType, FieldData, ProgramState, RuntimeError};

/// 1-based line and column of the op on the line containing `needle`: where its name starts
/// (after `%r = `), which is the location the parser gives it.
fn position_of(text: &str, needle: &str) -> (u32, u32) {
    let (i, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).expect("needle in text");
    let start = line.len() - line.trim_start().len();
    let col = match line.trim_start().starts_with('%') {
        true => line.find(" = ").map_or(start, |p| p + 3),
        false => start,
    };
    (i as u32 + 1, col as u32 + 1)
}

fn file_position(location: &stencil_ir::Location) -> (u32, u32) {
    let (file, line, col) = location.file_position().expect("a file location");
    assert_eq!(file, "test.mlir");
    (line, col)
}

fn run_reverse(options: &SimOptions) -> Result<stencil_runtime::gpu_sim::SimReport, RuntimeError> {
    let module = parse(&reverse_without_barrier());
    let mut memory = Memory::new();
    let a = memory.insert_field(random_f64(&[96], 3));
    let b = memory.insert_field(FieldData::zeros(vec![96], ElementType::F64).unwrap());
    simulate_module(&module, "run", &[Value::MemRef(a), Value::MemRef(b), Value::Int(3)], &mut memory, options)
        .map(|(_, report)| report)
}

fn race_of(error: RuntimeError) -> (RaceReport, String) {
    let text = error.to_string();
    match error {
        RuntimeError::DataRace { report, .. } => (*report, text),
        other => panic!("expected a data race, got: {other}"),
    }
}

#[test]
fn a_missing_barrier_is_reported_as_a_race_in_workgroup_memory() {
    let text = reverse_without_barrier();
    let store = position_of(&text, "memref.store %v, %tile[%tx]");
    let load = position_of(&text, "%w = memref.load %tile[%r]");
    for order in [Order::Forward, Order::Reverse, Order::Shuffled { seed: 5 }] {
        let error = run_reverse(&SimOptions::default().with_order(order)).expect_err("the race must be caught");
        let location = file_position(error.location().expect("located"));
        let (race, text) = race_of(error);
        assert_eq!(race.kernel, "kernels::reverse");
        assert_eq!(race.launch, 0);
        assert_eq!(race.memory, "workgroup attribution #0");
        assert_eq!(race.space, MemorySpace::Workgroup);
        assert_eq!(race.scope, RaceScope::WithinBlock);
        assert_eq!(race.first.block, race.second.block, "{order:?}");
        assert_ne!(race.first.thread, race.second.thread);
        // One thread stored the element the other loads: element e is stored by thread e and
        // loaded by thread 31 - e.
        let e = race.index[0] as u32;
        let (storer, loader) = if race.first.kind == AccessKind::Write {
            (&race.first, &race.second)
        } else {
            (&race.second, &race.first)
        };
        assert_ne!(race.first.kind, race.second.kind, "a load and a store");
        assert_eq!((storer.thread[0], loader.thread[0]), (e, 31 - e), "{order:?}: {text}");
        assert_eq!((storer.op.as_str(), loader.op.as_str()), ("memref.store", "memref.load"));
        assert_eq!(file_position(&storer.location), store);
        assert_eq!(file_position(&loader.location), load);
        assert_eq!(location, file_position(&race.second.location), "the error points at the later access");
        assert!(
            text.contains("data race in kernel @kernels::@reverse on workgroup attribution #0 element ["),
            "{text}"
        );
        assert!(text.contains(&format!("test.mlir:{}:{}", store.0, store.1)), "{text}");
        assert!(text.contains(&format!("test.mlir:{}:{}", load.0, load.1)), "{text}");
        assert!(text.contains("with no gpu.barrier between them"), "{text}");
    }
}

#[test]
fn races_can_be_collected_instead() {
    let options = SimOptions::default().with_races(RacePolicy::Collect);
    let report = run_reverse(&options).expect("collecting does not fail the run");
    // Every element of every block's tile is stored by one thread and loaded by another.
    assert_eq!(report.race_count, 96);
    assert_eq!(report.launches[0].races, 96);
    assert_eq!(report.races.len(), 2, "store-then-load and load-then-store pairs: {:#?}", report.races);
    assert_eq!(report.races.iter().map(|r| r.occurrences).sum::<u64>(), 96);
    assert!(report.races.iter().all(|r| r.space == MemorySpace::Workgroup));
    let few = run_reverse(&SimOptions { max_race_reports: 1, ..options }).unwrap();
    assert_eq!((few.races.len(), few.race_count), (1, 96));
    // Ignoring races runs to completion and reports nothing.
    let ignored = run_reverse(&SimOptions::default().with_races(RacePolicy::Ignore)).unwrap();
    assert_eq!(ignored.race_count, 0);
}

/// Thread 0 of every block writes `out[0]`; with `%all`, every thread of block 0 does.
const LAST_WRITER_WINS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @last(%out: memref<?xf64>, %all: i1) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      %writes = arith.ori %first, %all : i1
      scf.if %writes {
        %i = arith.index_cast %bx : index to i64
        %v = arith.sitofp %i : i64 to f64
        memref.store %v, %out[%c0] : memref<?xf64>
      }
      gpu.return
    }
  }
  func.func @last(%out: memref<?xf64>, %all: i1, %blocks: index)
      attributes {stencil.arg_names = ["out", "all"], stencil.param_names = ["blocks"],
                  stencil.field_types = ["[4] x f64"]} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@last blocks in (%blocks, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<?xf64>, %all : i1)
    return
  }
}
"#;

#[test]
fn blocks_writing_one_global_element_race() {
    let module = parse(LAST_WRITER_WINS);
    let store = position_of(LAST_WRITER_WINS, "memref.store %v, %out[%c0]");
    let state = || {
        ProgramState::new()
            .with_field("out", FieldData::zeros(vec![4], ElementType::F64).unwrap())
            .with_scalar("all", stencil_runtime::ScalarValue::Int(0))
    };
    let mut s = state().with_param("blocks", 2);
    let error = run_module_sim(&module, None, &mut s, &SimOptions::default()).expect_err("blocks race");
    let (race, text) = race_of(error);
    assert_eq!(race.scope, RaceScope::AcrossBlocks);
    assert_eq!(race.space, MemorySpace::Global);
    assert_eq!(race.memory, "argument #0 (field 'out')");
    assert_eq!(race.index, vec![0]);
    assert_eq!((race.first.block, race.first.thread, race.first.kind), ([0, 0, 0], [0, 0, 0], AccessKind::Write));
    assert_eq!((race.second.block, race.second.thread, race.second.kind), ([1, 0, 0], [0, 0, 0], AccessKind::Write));
    assert_eq!(file_position(&race.second.location), store);
    assert!(text.contains("in different blocks of one launch"), "{text}");
    assert_eq!(f64s(&s.fields["out"])[0], 1.0, "the fields come back with the updates done, the racing one included");

    // One block alone is race-free; the program's answer is then the block's.
    let mut one = state().with_param("blocks", 1);
    let stats = run_module_sim(&module, None, &mut one, &SimOptions::default()).unwrap();
    assert_eq!(stats.run.point_updates, 1);

    // Every thread of a block writing the element races within the block.
    let mut all = state().with_param("blocks", 1).with_scalar("all", stencil_runtime::ScalarValue::Int(1));
    let (race, _) = race_of(run_module_sim(&module, None, &mut all, &SimOptions::default()).unwrap_err());
    assert_eq!(race.scope, RaceScope::WithinBlock);
    assert_eq!((race.first.thread, race.second.thread), ([0, 0, 0], [1, 0, 0]));

    // Collected across blocks: the blocks-reversed order finds the same pairs.
    let options = SimOptions { block_order: Order::Reverse, ..SimOptions::default() }.with_races(RacePolicy::Collect);
    let mut s = state().with_param("blocks", 3);
    let stats = run_module_sim(&module, None, &mut s, &options).unwrap();
    assert_eq!(stats.sim.race_count, 2);
    assert_eq!(stats.sim.races[0].first.block, [2, 0, 0], "reverse block order: block 2 wrote first");
    assert_eq!(f64s(&s.fields["out"])[0], 0.0, "block 0 ran last");
}

/// Barriers that not every thread reaches, selected by `%mode`: 0, under `tid < 16`; 1, a
/// different barrier in each branch; 2, inside a loop whose trip count is the thread id.
const DIVERGENT: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @diverge(%mode: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %low = arith.cmpi ult, %tx, %c16 : index
      %m0 = arith.cmpi eq, %mode, %c0 : index
      %m1 = arith.cmpi eq, %mode, %c1 : index
      scf.if %m0 {
        scf.if %low {
          gpu.barrier
        }
      }
      scf.if %m1 {
        scf.if %low {
          gpu.barrier
        } else {
          gpu.barrier
        }
      }
      %m2 = arith.cmpi ugt, %mode, %c1 : index
      scf.if %m2 {
        scf.for %i = %c0 to %tx step %c1 {
          gpu.barrier
        }
      }
      gpu.return
    }
  }
  func.func @run(%mode: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@diverge blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%mode : index)
    return
  }
}
"#;

#[test]
fn divergent_barriers_are_errors_not_hangs() {
    let module = parse(DIVERGENT);
    let gpu = GpuModule::new(&module.ir, module.top).unwrap();
    for (mode, expected) in [
        (0, "thread (0, 0, 0) waits at this gpu.barrier, but thread (16, 0, 0) returned at"),
        (
            1,
            "thread (0, 0, 0) waits at this gpu.barrier while thread (16, 0, 0) waits at the gpu.barrier at test.mlir:",
        ),
        (2, "thread (1, 0, 0) waits at this gpu.barrier, but thread (0, 0, 0) returned at"),
    ] {
        for order in [Order::Forward, Order::Reverse] {
            let error = gpu
                .call("run", &[Value::Int(mode)], &mut Memory::new(), &SimOptions::default().with_order(order))
                .expect_err("divergent");
            let text = error.to_string();
            let RuntimeError::BarrierDivergence { .. } = &error else { panic!("mode {mode}: {text}") };
            let (line, _) = file_position(error.location().expect("located"));
            assert!(DIVERGENT.lines().nth(line as usize - 1).unwrap().contains("gpu.barrier"), "{text}");
            assert!(text.contains("divergent barrier in kernel @kernels::@diverge, block (0, 0, 0)"), "{text}");
            if order == Order::Forward {
                assert!(text.contains(expected), "mode {mode}: {text}");
            }
        }
    }
}

/// Thread `t` reads `A[t + 1]` and writes `tile[t + %shift]`.
const OUT_OF_BOUNDS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shift(%A: memref<?xf64>, %shift: index, %read: index)
        workgroup(%tile : memref<32xf64, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %i = arith.addi %tx, %read : index
      %v = memref.load %A[%i] : memref<?xf64>
      %j = arith.addi %tx, %shift : index
      memref.store %v, %tile[%j] : memref<32xf64, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @run(%A: memref<?xf64>, %shift: index, %read: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<?xf64>, %shift : index, %read : index)
    return
  }
}
"#;

#[test]
fn out_of_bounds_accesses_name_the_op_the_memory_and_the_thread() {
    let module = parse(OUT_OF_BOUNDS);
    let gpu = GpuModule::new(&module.ir, module.top).unwrap();
    let run = |shift: i64, read: i64| {
        let mut memory = Memory::new();
        let a = memory.insert_field(random_f64(&[32], 1));
        gpu.call("run", &[Value::MemRef(a), Value::Int(shift), Value::Int(read)], &mut memory, &SimOptions::default())
    };
    run(0, 0).expect("in bounds");

    let error = run(0, 1).expect_err("thread 31 reads A[32]");
    assert_eq!(file_position(error.location().unwrap()), position_of(OUT_OF_BOUNDS, "%v = memref.load %A[%i]"));
    let RuntimeError::InKernel { kernel, block, thread, source } = &error else { panic!("{error}") };
    assert_eq!((kernel.as_str(), *block, *thread), ("@kernels::@shift", [0, 0, 0], [31, 0, 0]));
    assert!(matches!(**source, RuntimeError::OutOfBounds { ref index, .. } if index == &[32]), "{source}");
    let text = error.to_string();
    assert!(text.contains("'memref.load' accesses index [32] outside argument #0 of shape [32]"), "{text}");
    assert!(text.ends_with("(in kernel @kernels::@shift, block (0, 0, 0), thread (31, 0, 0))"), "{text}");

    let error = run(-1, 0).expect_err("thread 0 writes tile[-1]");
    let text = error.to_string();
    assert_eq!(file_position(error.location().unwrap()), position_of(OUT_OF_BOUNDS, "memref.store %v, %tile[%j]"));
    assert!(text.contains("accesses index [-1] outside workgroup attribution #0 of shape [32]"), "{text}");
    assert!(text.contains("thread (0, 0, 0)"), "{text}");
}

/// Launches `@k` (whose workgroup memory is `%wg` f64 elements: 8 or 8192) with the sizes given.
fn launch_with(grid: [i64; 3], block: [i64; 3], big: bool) -> Result<(), RuntimeError> {
    let text = launch_config_module(big);
    let module = parse(&text);
    let args: Vec<Value> = grid.iter().chain(&block).map(|&v| Value::Int(v)).collect();
    simulate_module(&module, "run", &args, &mut Memory::new(), &SimOptions::default()).map(drop)
}

fn launch_config_module(big: bool) -> String {
    // 32768 f64 = 256 KiB: above the H100's 227 KiB of (dynamic) shared memory per block.
    let size = if big { 32768 } else { 8 };
    format!(
        r#"
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k() workgroup(%w : memref<{size}xf64, #gpu.address_space<workgroup>>) kernel {{
      gpu.return
    }}
  }}
  func.func @run(%gx: index, %gy: index, %gz: index, %bx: index, %by: index, %bz: index) {{
    gpu.launch_func @kernels::@k blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz)
    return
  }}
}}
"#
    )
}

#[test]
fn launches_the_device_would_refuse_are_errors() {
    launch_with([2, 1, 1], [32, 2, 1], false).expect("a valid launch");
    let launch = position_of(&launch_config_module(false), "gpu.launch_func");
    for (grid, block, big, expected) in [
        ([0, 1, 1], [32, 1, 1], false, "with grid size 0 along x; every grid and block size must be at least 1"),
        ([1, 1, 1], [32, 0, 1], false, "with block size 0 along y"),
        ([1, -3, 1], [32, 1, 1], false, "with grid size -3 along y"),
        ([1, 1, 1], [32, 32, 2], false, "launches blocks of 2048 threads (32, 32, 2), above the device limit of 1024"),
        ([1, 1, 1], [1, 1, 65], false, "with block size 65 along z, above the device limit 64"),
        ([1, 70000, 1], [1, 1, 1], false, "with grid size 70000 along y, above the device limit 65535"),
        ([1, 1, 1], [1, 1, 1], true, "take 262144 bytes per block, above the device limit of 232448 bytes"),
    ] {
        let error = launch_with(grid, block, big).expect_err(expected);
        let text = error.to_string();
        assert!(matches!(error, RuntimeError::Launch { .. }), "{text}");
        assert!(text.contains(expected), "{text}");
        assert!(text.contains("error: 'gpu.launch_func' "), "{text}");
        assert_eq!(file_position(error.location().unwrap()), launch);
    }
}

#[test]
fn reading_workgroup_memory_nobody_wrote_is_an_error() {
    let text = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out: memref<?xf64>) workgroup(%tile : memref<32xf64, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %tile[%tx] : memref<32xf64, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tx] : memref<?xf64>
      gpu.return
    }
  }
  func.func @run(%out: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<?xf64>)
    return
  }
}
"#;
    let module = parse(text);
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::zeros(vec![32], ElementType::F64).unwrap());
    let error = simulate_module(&module, "run", &[Value::MemRef(out)], &mut memory, &SimOptions::default())
        .expect_err("uninitialised");
    let message = error.to_string();
    assert!(
        message.contains(
            "'memref.load' reads element [0] of workgroup attribution #0, which no thread of the block has written"
        ),
        "{message}"
    );
    assert_eq!(file_position(error.location().unwrap()), position_of(text, "%v = memref.load %tile"));
    // Without race detection the simulator does not track it: memory reads as zero.
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::filled(vec![32], ElementType::F64, 1.0).unwrap());
    let options = SimOptions::default().with_races(RacePolicy::Ignore);
    simulate_module(&module, "run", &[Value::MemRef(out)], &mut memory, &options).unwrap();
    assert!(f64s(&memory.take_field(out).unwrap()).iter().all(|&v| v == 0.0));
}

#[test]
fn an_endless_thread_stops_at_the_instruction_budget() {
    let text = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin() kernel {
      %true = arith.constant true
      scf.while : () -> () {
        scf.condition(%true)
      } do {
        scf.yield
      }
      gpu.return
    }
  }
  func.func @run() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"#;
    let module = parse(text);
    let options = SimOptions { max_instructions_per_thread: 10_000, ..SimOptions::default() };
    let error = simulate_module(&module, "run", &[], &mut Memory::new(), &options).expect_err("endless");
    let message = error.to_string();
    assert!(message.contains("ran more than 10000 instructions in one thread"), "{message}");
    assert!(message.contains("SimOptions::max_instructions_per_thread"), "{message}");
}

#[test]
fn kernels_need_the_simulator_and_a_matching_launch() {
    // The reference interpreter says where to go.
    let module = parse(&reverse_without_barrier());
    let mut memory = Memory::new();
    let a = memory.insert_field(random_f64(&[32], 1));
    let error = stencil_runtime::loops::CompiledModule::new(&module.ir, module.top)
        .map(drop)
        .expect_err("gpu.launch_func needs the simulator");
    assert!(error.to_string().contains("run the module with the GPU simulator"), "{error}");
    let mut state = ProgramState::new();
    assert!(run_module(&parse(LAST_WRITER_WINS), None, &mut state).is_err());

    // A buffer of the wrong static shape for the kernel.
    let text = r#"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf64>) kernel {
      gpu.return
    }
  }
  func.func @run(%a: memref<16xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf64>)
    return
  }
}
"#;
    let gpu = GpuModule::new(&parse(text).ir, parse(text).top).unwrap();
    let error =
        gpu.launch("kernels::k", [1, 1, 1], [1, 1, 1], &[Value::MemRef(a)], &mut memory, &SimOptions::default());
    assert!(error.unwrap_err().to_string().contains("a buffer of shape [32] does not fit"));
    let error = gpu.launch("kernels::nope", [1, 1, 1], [1, 1, 1], &[], &mut memory, &SimOptions::default());
    assert!(error.unwrap_err().to_string().contains("no kernel kernels::nope in the module (kernels: kernels::k)"));

    // Launch operands that do not match the kernel (the verifier would say so too).
    let mismatched = text.replace("args(%a : memref<16xf64>)", "");
    let module = parse_unverified(&mismatched);
    let error = GpuModule::new(&module.ir, module.top).expect_err("no arguments for @k");
    assert!(error.to_string().contains("passes () to a kernel taking (memref<16xf64>)"), "{error}");

    // Calls inside kernels are not supported: a compile-time error with the op's location.
    let call = text.replace(
        "gpu.func @k(%a: memref<16xf64>) kernel {\n",
        "gpu.func @k(%a: memref<16xf64>) kernel {\n      func.call @nothing() : () -> ()\n",
    );
    let module =
        parse_unverified(&call.replace("  func.func @run", "  func.func private @nothing()\n  func.func @run"));
    let error = GpuModule::new(&module.ir, module.top).expect_err("calls");
    assert!(error.to_string().contains("'func.call' inside a kernel is not supported by the GPU simulator"), "{error}");
}

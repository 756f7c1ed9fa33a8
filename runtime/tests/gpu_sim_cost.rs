//! The simulator's cost counters on small kernels whose answer is known by hand: the warp
//! model (a warp issues each instruction as often as its busiest lane runs it, per barrier
//! phase), lane utilisation, partial warps, and the memory access counts. Counted
//! instructions are those of docs/cost-model.md: arith ops, loads, stores, loop tests and
//! increments, branches, barriers and returns (constants, thread ids, register copies and
//! the jump closing an `if`'s `then` side are not).

mod common;

use common::{parse, random_f64, REVERSE};
use stencil_runtime::gpu_sim::{GpuModule, LaunchStats, RacePolicy, SimOptions};
use stencil_runtime::loops::{Memory, Value};
use stencil_runtime::{ElementType, FieldData};

/// Kernels over one `memref<64xf64>`, each the subject of one test below.
const KERNELS: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @full(%out: memref<64xf64>) kernel {
      %one = arith.constant 1.0 : f64
      %t = gpu.thread_id x
      memref.store %one, %out[%t] : memref<64xf64>
      gpu.return
    }
    gpu.func @one_lane(%out: memref<64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f64
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %one, %out[%t] : memref<64xf64>
      }
      gpu.return
    }
    gpu.func @divergent(%out: memref<64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f64
      %t = gpu.thread_id x
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        %a = arith.addf %one, %one : f64
        memref.store %a, %out[%t] : memref<64xf64>
      } else {
        %a = arith.mulf %one, %one : f64
        %b = arith.addf %a, %one : f64
        memref.store %b, %out[%t] : memref<64xf64>
      }
      gpu.return
    }
    gpu.func @trips(%out: memref<64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = gpu.thread_id x
      scf.for %i = %c0 to %t step %c1 {
        %x = arith.addi %i, %c1 : index
      }
      gpu.return
    }
    gpu.func @phases(%out: memref<64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f64
      %t = gpu.thread_id x
      scf.for %k = %c0 to %c2 step %c1 {
        %mine = arith.cmpi eq, %t, %k : index
        scf.if %mine {
          memref.store %one, %out[%t] : memref<64xf64>
        }
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @strided(%out: memref<64xf64>) kernel {
      %c4 = arith.constant 4 : index
      %c63 = arith.constant 63 : index
      %t = gpu.thread_id x
      %v = memref.load %out[%c63] : memref<64xf64>
      %i = arith.muli %t, %c4 : index
      memref.store %v, %out[%i] : memref<64xf64>
      gpu.return
    }
    gpu.func @racy(%out: memref<64xf64>) kernel {
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f64
      %t = gpu.thread_id x
      %i = arith.divui %t, %c2 : index
      memref.store %one, %out[%i] : memref<64xf64>
      gpu.return
    }
    gpu.func @rows(%out: memref<64xf64>) kernel {
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %one = arith.constant 1.0 : f64
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %top = arith.cmpi ult, %y, %c4 : index
      scf.if %top {
        %row = arith.muli %y, %c8 : index
        %i = arith.addi %row, %x : index
        memref.store %one, %out[%i] : memref<64xf64>
      }
      gpu.return
    }
  }
}
"#;

/// Launches `@k::@kernel` as one block of `block` threads over a 64-element buffer.
fn launch(kernel: &str, block: [i64; 3]) -> LaunchStats {
    launch_with(kernel, block, &SimOptions::default())
}

/// [`launch`] with `options`.
fn launch_with(kernel: &str, block: [i64; 3], options: &SimOptions) -> LaunchStats {
    let module = parse(KERNELS);
    let gpu = GpuModule::new(&module.ir, module.top).unwrap();
    let mut memory = Memory::new();
    let out = memory.insert_field(FieldData::zeros(vec![64], ElementType::F64).unwrap());
    let report =
        gpu.launch(&format!("k::{kernel}"), [1, 1, 1], block, &[Value::MemRef(out)], &mut memory, options).unwrap();
    report.launches.into_iter().next().unwrap()
}

fn utilisation(l: &LaunchStats) -> f64 {
    l.thread_instructions as f64 / (32.0 * l.warp_instructions as f64)
}

#[test]
fn a_full_warp_and_a_single_active_lane() {
    // store + return, every lane: 2 warp-instructions, all 32 lanes busy.
    let full = launch("full", [32, 1, 1]);
    assert_eq!((full.warp_instructions, full.thread_instructions), (2, 64));
    assert_eq!(utilisation(&full), 1.0);
    assert_eq!((full.global_stores, full.global_bytes_written, full.global_loads), (32, 256, 0));
    // cmpi + branch + return for every lane, the store for lane 0 alone: the warp still
    // issues the store once.
    let one = launch("one_lane", [32, 1, 1]);
    assert_eq!((one.warp_instructions, one.thread_instructions), (4, 3 * 32 + 1));
    assert_eq!(utilisation(&one), 97.0 / 128.0);
}

#[test]
fn a_partial_warp_wastes_its_idle_lanes() {
    // 40 threads are a full warp and a warp of 8: each issues store + return.
    let l = launch("full", [40, 1, 1]);
    assert_eq!(l.warps(), 2);
    assert_eq!((l.warp_instructions, l.thread_instructions), (4, 80));
    assert_eq!(utilisation(&l), 80.0 / 128.0);
}

#[test]
fn both_sides_of_a_divergent_branch_are_issued() {
    // remui, cmpi, branch (3), then side addf + store (2), else side mulf + addf + store (3),
    // return (1): 9 per warp. Even lanes run 6 instructions, odd lanes 7.
    let l = launch("divergent", [32, 1, 1]);
    assert_eq!((l.warp_instructions, l.thread_instructions), (9, 16 * 6 + 16 * 7));
}

#[test]
fn a_loop_is_issued_for_the_largest_trip_count_of_the_warp() {
    // Lane t loops t times: t + 1 loop tests, t bodies, t increments, one return (3t + 2).
    // The warp issues lane 31's 32 tests, 31 bodies and 31 increments, and the return.
    let l = launch("trips", [32, 1, 1]);
    assert_eq!(l.warp_instructions, 32 + 31 + 31 + 1);
    assert_eq!(l.thread_instructions, (0..32u64).map(|t| 3 * t + 2).sum::<u64>());
}

#[test]
fn each_barrier_phase_is_folded_on_its_own() {
    // Phase 1: loop test, cmpi, branch, lane 0's store, barrier (5). Phase 2: increment, test,
    // cmpi, branch, lane 1's store, barrier (6). Phase 3: increment, exiting test, return (3).
    // The store counts once per phase: over the whole kernel no lane ran it twice, but the
    // warp issued it in two phases.
    let l = launch("phases", [32, 1, 1]);
    assert_eq!(l.barriers, 2);
    assert_eq!(l.busiest_block_barriers, 2);
    assert_eq!(l.warp_instructions, 5 + 6 + 3);
    assert_eq!(l.thread_instructions, (4 * 32 + 1) + (5 * 32 + 1) + 3 * 32);
    assert_eq!(l.busiest_block_warp_instructions, l.warp_instructions, "one block");
}

#[test]
fn warps_take_threads_by_linear_id_x_fastest() {
    // An 8 × 8 block: warp 0 holds rows y = 0..3, warp 1 rows 4..7. Only warp 0 takes the
    // branch: cmpi, branch, return in both warps (6), muli, addi, store in warp 0 (3).
    let l = launch("rows", [8, 8, 1]);
    assert_eq!(l.warp_instructions, 6 + 3);
    assert_eq!(l.thread_instructions, 64 * 3 + 32 * 3);
}

#[test]
fn global_and_workgroup_accesses_are_counted_apart() {
    // REVERSE: a global load and a workgroup store, a barrier, a workgroup load and a global
    // store per thread; 32 threads per block, 3 blocks.
    let module = parse(REVERSE);
    let gpu = GpuModule::new(&module.ir, module.top).unwrap();
    let mut memory = Memory::new();
    let a = memory.insert_field(random_f64(&[96], 3));
    let b = memory.insert_field(FieldData::zeros(vec![96], ElementType::F64).unwrap());
    let args = [Value::MemRef(a), Value::MemRef(b), Value::Int(3)];
    let (_, report) = gpu.call("run", &args, &mut memory, &SimOptions::default()).unwrap();
    let l = &report.launches[0];
    assert_eq!((l.global_loads, l.global_stores, l.workgroup_loads, l.workgroup_stores), (96, 96, 96, 96));
    assert_eq!(l.workgroup_bytes, 32 * 8);
    // Per block: muli, addi, load, store, barrier | subi, load, store, return.
    assert_eq!(l.warp_instructions, 3 * 9);
    assert_eq!((l.busiest_block_warp_instructions, l.busiest_block_barriers), (9, 1));
    assert_eq!(report.warp_instructions(), 27);
}

#[test]
fn dram_traffic_counts_each_32_byte_sector_once_per_launch() {
    // 32 threads store 32 consecutive f64: 256 bytes asked for, 8 sectors.
    let l = launch("full", [32, 1, 1]);
    assert_eq!((l.global_bytes_written, l.dram_bytes_written, l.dram_bytes_read), (256, 256, 0));
    // 16 threads all load element 63 (one sector) and store 4 elements apart (a sector each):
    // the stores ask for 128 bytes and move 512.
    let l = launch("strided", [16, 1, 1]);
    assert_eq!((l.global_bytes_read, l.dram_bytes_read), (128, 32));
    assert_eq!((l.global_bytes_written, l.dram_bytes_written), (128, 512));
}

#[test]
fn a_block_run_again_thread_by_thread_counts_its_sectors_once() {
    // Two threads store to each of 16 elements: a race, which the warp-synchronous run leaves
    // to the thread-by-thread run (RacePolicy::Collect reports it and goes on). The counters
    // are those of one run: 32 stores, 16 elements, 4 sectors.
    let options = SimOptions { races: RacePolicy::Collect, ..SimOptions::default() };
    let l = launch_with("racy", [32, 1, 1], &options);
    assert!(l.races > 0, "the race is found");
    assert_eq!((l.global_stores, l.global_bytes_written, l.dram_bytes_written), (32, 256, 128));
}

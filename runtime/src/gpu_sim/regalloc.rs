//! Register allocation for compiled kernels: every SSA value of a kernel has a register of its
//! own (`compile.rs`), which makes a thread's frame as large as the kernel — thousands of
//! registers for a tiled 3-D kernel, most of them dead at any moment. Copying and touching such
//! frames cost more than running the threads. Here registers whose values are never live at
//! the same time share one, which shrinks frames to the largest number of values live at once
//! (plus the pinned registers below).
//!
//! The method is linear scan (Poletto & Sarkar, "Linear scan register allocation", TOPLAS
//! 1999) over live intervals computed by the classic backward liveness data flow over the
//! flat code's basic blocks (Aho, Lam, Sethi & Ullman, Dragon book §9.2.5). A register's
//! interval is the hull of every position where it is live or written, so two registers whose
//! intervals are disjoint are never live at once on any path, and sharing one cannot change
//! what any thread computes. Intervals are closed: a register last read by an instruction and
//! one written by it get different registers, so an instruction never overwrites an operand
//! it has not read yet (an executor may read operands and write results in any order).
//!
//! Pinned (never shared): registers set when a thread starts — constants, arguments, thread and
//! block ids and sizes, memory attributions — and registers some path reads before any write
//! (they read the frame's initial zero, which a shared register would not hold).

use super::kernel::{leaders, Insn, Kernel, RegRole};
use crate::scalar::Reg;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A set of registers.
#[derive(Clone, PartialEq, Eq)]
struct RegSet(Vec<u64>);

impl RegSet {
    fn new(n: usize) -> Self {
        RegSet(vec![0; n.div_ceil(64)])
    }

    fn insert(&mut self, r: Reg) {
        self.0[r as usize / 64] |= 1 << (r % 64);
    }

    #[cfg(test)]
    fn remove(&mut self, r: Reg) {
        self.0[r as usize / 64] &= !(1 << (r % 64));
    }

    fn contains(&self, r: Reg) -> bool {
        self.0[r as usize / 64] & (1 << (r % 64)) != 0
    }

    /// `self = gen ∪ (out − kill)`; whether `self` changed.
    fn assign_transfer(&mut self, gen: &RegSet, out: &RegSet, kill: &RegSet) -> bool {
        let mut changed = false;
        for (((s, &g), &o), &k) in self.0.iter_mut().zip(&gen.0).zip(&out.0).zip(&kill.0) {
            let v = g | (o & !k);
            changed |= *s != v;
            *s = v;
        }
        changed
    }

    fn union_with(&mut self, other: &RegSet) {
        for (s, &o) in self.0.iter_mut().zip(&other.0) {
            *s |= o;
        }
    }

    fn iter(&self) -> impl Iterator<Item = Reg> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w * 64) as Reg + b
                })
            })
        })
    }
}

/// The registers every instruction reads and writes (a copy of the code, visited read-only).
fn regs_of(insn: &Insn) -> Vec<(Reg, RegRole)> {
    let mut out = Vec::new();
    insn.clone().visit_regs(&mut |r, role| out.push((*r, role)));
    out
}

/// Gives constants with the same bits one register: every `arith.constant` has a register of
/// its own, and a tiled kernel has thousands of them with a few dozen values — all pinned,
/// they would keep frames large. Constants are never written, so sharing cannot change a read.
fn share_constants(kernel: &mut Kernel) {
    let n = kernel.num_regs;
    let mut alias: Vec<Reg> = (0..n as Reg).collect();
    let mut first: std::collections::HashMap<u64, Reg> = std::collections::HashMap::new();
    let mut kept = Vec::new();
    for &(r, bits) in kernel.constants.iter() {
        if (r as usize) >= n {
            return;
        }
        match first.get(&bits) {
            Some(&rep) => alias[r as usize] = rep,
            None => {
                first.insert(bits, r);
                kept.push((r, bits));
            }
        }
    }
    let mut code = std::mem::take(&mut kernel.code).into_vec();
    for (insn, _) in code.iter_mut() {
        insn.visit_regs(&mut |r, _| {
            if let Some(&a) = alias.get(*r as usize) {
                *r = a;
            }
        });
    }
    kernel.code = code.into();
    kernel.constants = kept.into();
}

/// Renames the registers of `kernel` so that registers never live at the same time share one
/// (see the module documentation); returns how many registers the kernel has afterwards.
/// Registers read before any write (on some path from the kernel's start) keep a register of
/// their own, which holds zero when a thread starts (every frame starts as a copy of the
/// launch's template, zero where nothing is set).
pub(crate) fn allocate(kernel: &mut Kernel) -> usize {
    let n = kernel.num_regs;
    share_constants(kernel);
    let code: Vec<Insn> = kernel.code.iter().map(|(insn, _)| insn.clone()).collect();
    let roles: Vec<Vec<(Reg, RegRole)>> = code.iter().map(regs_of).collect();
    if roles.iter().flatten().any(|&(r, _)| r as usize >= n) {
        // A register the frame does not have: leave the kernel as it is (the interpreter
        // reports the bad access).
        return n;
    }

    // Basic blocks and their successors.
    let leader = leaders(&code);
    let starts: Vec<usize> = (0..code.len()).filter(|&i| leader[i]).collect();
    let mut block_of = vec![usize::MAX; code.len() + 1];
    for (b, &s) in starts.iter().enumerate() {
        block_of[s] = b;
    }
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([code.len()]).collect();
    let successors: Vec<Vec<usize>> = (0..starts.len())
        .map(|b| {
            let last = &code[ends[b] - 1];
            let (t1, t2, falls) = last.successors();
            let mut out: Vec<usize> = [t1, t2]
                .into_iter()
                .flatten()
                .filter_map(|t| block_of.get(t as usize).copied().filter(|&s| s != usize::MAX))
                .collect();
            if falls && b + 1 < starts.len() {
                out.push(b + 1);
            }
            out
        })
        .collect();

    // Liveness: live_in(b) = gen(b) ∪ (live_out(b) − kill(b)), live_out(b) = ∪ live_in(succ).
    let nb = starts.len();
    let mut gen = vec![RegSet::new(n); nb];
    let mut kill = vec![RegSet::new(n); nb];
    for b in 0..nb {
        for &(r, role) in roles[starts[b]..ends[b]].iter().flatten() {
            match role {
                RegRole::Use if !kill[b].contains(r) => gen[b].insert(r),
                RegRole::Def => kill[b].insert(r),
                RegRole::Use => {}
            }
        }
    }
    let mut live_in = vec![RegSet::new(n); nb];
    let mut live_out = vec![RegSet::new(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = RegSet::new(n);
            for &s in &successors[b] {
                out.union_with(&live_in[s]);
            }
            live_out[b] = out;
            changed |= live_in[b].assign_transfer(&gen[b], &live_out[b], &kill[b]);
        }
    }

    // Pinned registers: set at thread start, or read before written.
    let mut pinned = RegSet::new(n);
    let mut pinned_order: Vec<Reg> = Vec::new();
    let mut pin = |r: Reg, pinned: &mut RegSet| {
        if (r as usize) < n && !pinned.contains(r) {
            pinned.insert(r);
            pinned_order.push(r);
        }
    };
    for &(r, _) in kernel.constants.iter() {
        pin(r, &mut pinned);
    }
    for &r in kernel.args.iter() {
        pin(r, &mut pinned);
    }
    for &(r, _) in kernel.specials.iter() {
        pin(r, &mut pinned);
    }
    for a in kernel.workgroup.iter().chain(kernel.private.iter()) {
        pin(a.reg, &mut pinned);
    }
    if nb > 0 {
        for r in live_in[0].iter() {
            pin(r, &mut pinned);
        }
    }

    // Live intervals: the hull of the positions where a register is live or written.
    let mut start = vec![usize::MAX; n];
    let mut end = vec![0usize; n];
    let mut extend = |r: Reg, at: usize| {
        let r = r as usize;
        start[r] = start[r].min(at);
        end[r] = end[r].max(at);
    };
    for b in 0..nb {
        for r in live_in[b].iter() {
            extend(r, starts[b]);
        }
        for r in live_out[b].iter() {
            extend(r, ends[b] - 1);
        }
        for (i, named) in roles.iter().enumerate().take(ends[b]).skip(starts[b]) {
            for &(r, _) in named {
                extend(r, i);
            }
        }
    }

    // Linear scan over the intervals in order of their starts.
    let mut map = vec![Reg::MAX; n];
    for (p, &r) in pinned_order.iter().enumerate() {
        map[r as usize] = p as Reg;
    }
    let mut next = pinned_order.len() as Reg;
    let mut intervals: Vec<(usize, usize, Reg)> = (0..n as Reg)
        .filter(|&r| start[r as usize] != usize::MAX && !pinned.contains(r))
        .map(|r| (start[r as usize], end[r as usize], r))
        .collect();
    intervals.sort_unstable();
    let mut active: BinaryHeap<Reverse<(usize, Reg)>> = BinaryHeap::new();
    let mut free: Vec<Reg> = Vec::new();
    for (s, e, r) in intervals {
        while let Some(&Reverse((last, phys))) = active.peek() {
            if last >= s {
                break;
            }
            active.pop();
            free.push(phys);
        }
        let phys = free.pop().unwrap_or_else(|| {
            next += 1;
            next - 1
        });
        map[r as usize] = phys;
        active.push(Reverse((e, phys)));
    }

    // Rename. Registers no instruction names and nothing pins keep no register.
    let rename = |r: &mut Reg| {
        if map[*r as usize] != Reg::MAX {
            *r = map[*r as usize];
        }
    };
    let mut code = std::mem::take(&mut kernel.code).into_vec();
    for (insn, _) in code.iter_mut() {
        insn.visit_regs(&mut |r, _| rename(r));
    }
    kernel.code = code.into();
    kernel.constants.iter_mut().for_each(|(r, _)| rename(r));
    kernel.args.iter_mut().for_each(rename);
    kernel.specials.iter_mut().for_each(|(r, _)| rename(r));
    kernel.workgroup.iter_mut().chain(kernel.private.iter_mut()).for_each(|a| rename(&mut a.reg));
    kernel.num_regs = next as usize;
    kernel.pinned = pinned_order.len();
    tracing::debug!(kernel = %kernel.name, before = n, after = kernel.num_regs, "allocated registers");
    kernel.num_regs
}

#[cfg(test)]
mod tests {
    use super::RegSet;
    use crate::gpu_sim::compile::compile_kernels;
    use crate::gpu_sim::{GpuModule, SimOptions};
    use crate::loops::{Memory, Value};
    use stencil_ir::parser::{parse_source, ParserConfig};
    use stencil_ir::SourceFile;

    /// A kernel with a chain of temporaries (each dead after the next is computed), ten equal
    /// constants and a loop whose iter_args swap every iteration.
    const CHAIN: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: memref<?xi64>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %a0 = arith.constant 1 : i64
      %a1 = arith.addi %a0, %a0 : i64
      %a2 = arith.addi %a1, %a1 : i64
      %a3 = arith.addi %a2, %a2 : i64
      %a4 = arith.addi %a3, %a3 : i64
      %a5 = arith.addi %a4, %a4 : i64
      %a6 = arith.addi %a5, %a5 : i64
      %a7 = arith.addi %a6, %a6 : i64
      %a8 = arith.addi %a7, %a7 : i64
      %one = arith.constant 1 : i64
      %inc = arith.constant 1 : i64
      %x, %y = scf.for %i = %c0 to %c5 step %c1 iter_args(%p = %one, %q = %a8) -> (i64, i64) {
        %s = arith.addi %p, %inc : i64
        scf.yield %q, %s : i64, i64
      }
      %r = arith.addi %x, %y : i64
      memref.store %r, %A[%tx] : memref<?xi64>
      gpu.return
    }
  }
}
"#;

    #[test]
    fn registers_shrink_to_the_values_live_at_once_and_results_stay() {
        let registry = stencil_dialects::registry();
        let source = SourceFile::new("chain.mlir", CHAIN);
        let module = parse_source(&source, ParserConfig { registry: &registry, allow_unregistered: false })
            .unwrap_or_else(|d| panic!("{}", d.render()));
        let (kernels, _) = compile_kernels(&module.ir, module.top).expect("compiles");
        // 30 SSA values and loop temporaries before allocation; at most a handful live at once.
        assert!(kernels[0].num_regs <= 12, "{} registers", kernels[0].num_regs);
        let gpu = GpuModule::new(&module.ir, module.top).expect("compiles");
        let mut memory = Memory::default();
        let a = memory.alloc(vec![2], crate::scalar::ValueKind::Int(64)).expect("allocates");
        gpu.launch("m::k", [1, 1, 1], [2, 1, 1], &[Value::MemRef(a)], &mut memory, &SimOptions::default())
            .expect("runs");
        // (p, q) ← (q, p + 1) five times from (1, 256): (256, 2), (2, 257), (257, 3), (3, 258),
        // (258, 4); the sum is 262 — wrong if a swap or the chain shared a live register.
        let values: Vec<u64> = (0..2).map(|i| memory.get(a).and_then(|b| b.read(i)).expect("reads")).collect();
        assert_eq!(values, vec![262, 262]);
    }

    #[test]
    fn register_sets_iterate_in_order() {
        let mut s = RegSet::new(200);
        for r in [3, 64, 130, 199] {
            s.insert(r);
        }
        s.remove(64);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 130, 199]);
        assert!(s.contains(130) && !s.contains(64));
    }
}

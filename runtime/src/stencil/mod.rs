//! Execution of `stencil.program`s with their sequential semantics (DESIGN §4): iterates
//! are sequential loops, applies run their body at every point of their box in
//! lexicographic order (or reverse) and store each value before the next point runs.
//!
//! [`CompiledProgram::new`] binds the parameters (so every box, shape and stride is a
//! number) and compiles each apply body once ([`kernel`]); [`CompiledProgram::run`] then
//! only walks the iterate tree and sweeps the boxes ([`sweep`]).

mod bind;
mod kernel;
mod sweep;

pub(crate) use bind::{bind_params, field_shape, scalar_of_attr, scalar_type};
pub(crate) use kernel::strides_of;

use crate::error::{RuntimeError, RuntimeResult};
use crate::field::{FieldData, FieldValues};
use crate::state::{scalar_bits, ProgramInterface, ProgramState, RunStats};
use kernel::{compile_apply, ApplyKernel, KernelContext};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;
use stencil_dialects::stencil::updates;
use stencil_ir::{Ir, OpId, ValueId};
use sweep::{run_apply, ApplyInputs};

/// A node of the program's sweep tree.
#[derive(Clone, Debug)]
enum SweepNode {
    /// `stencil.iterate`: induction variable number and bounds.
    Iterate { iv: usize, lower: i64, upper: i64, body: Vec<SweepNode> },
    /// A compiled `stencil.apply`.
    Apply(Box<ApplyKernel>),
}

/// How far a running program is: point updates done out of the total.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Point updates done so far.
    pub done: u64,
    /// Point updates of the whole run.
    pub total: u64,
}

fn count_points(nodes: &[SweepNode]) -> u64 {
    nodes
        .iter()
        .map(|n| match n {
            SweepNode::Iterate { lower, upper, body, .. } => {
                u64::try_from(upper.saturating_sub(*lower)).unwrap_or(0).saturating_mul(count_points(body))
            }
            SweepNode::Apply(k) => k.points(),
        })
        .fold(0u64, u64::saturating_add)
}

/// A `stencil.program` compiled for fixed parameter values, ready to run any number of times
/// on different field data.
#[derive(Clone, Debug)]
pub struct CompiledProgram {
    interface: ProgramInterface,
    nodes: Vec<SweepNode>,
    num_ivs: usize,
    /// The point updates an SOR rewrite recorded (`sor.rewrite`'s `point_updates`: its masked
    /// applies each update part of their box, so the instances run are not the updates).
    recorded_updates: Option<u64>,
}

impl CompiledProgram {
    /// Binds the parameters of `program` (`params` overrides the program's defaults; each
    /// value is checked against its declared minimum), computes every field's shape (a zero
    /// or negative extent is an error) and compiles every apply body.
    pub fn new(ir: &Ir, program: OpId, params: &BTreeMap<String, i64>) -> RuntimeResult<Self> {
        if ir.op_name(program) != "stencil.program" {
            return Err(RuntimeError::unsupported(
                ir.location(program),
                format!("expected a stencil.program, found '{}'", ir.op_name(program)),
            ));
        }
        let interface = bind::program_interface(ir, program, params)?;
        let values: Vec<i64> = interface.params.iter().map(|(_, v)| *v).collect();
        let entry = ir.regions(program).first().and_then(|&r| ir.entry_block(r));
        let program_args = entry.map(|b| ir.block_args(b).to_vec()).unwrap_or_default();
        let mut compiler =
            TreeCompiler { ir, interface: &interface, params: &values, program_args, ivs: HashMap::new() };
        let nodes = match entry {
            Some(b) => compiler.compile_block(b)?,
            None => vec![],
        };
        let num_ivs = compiler.ivs.len();
        tracing::debug!(program = %interface.name, params = ?interface.params, "compiled stencil program");
        let recorded_updates = updates::rewrite_point_update_terms(ir, program)
            .and_then(|terms| updates::evaluate_point_updates(terms, &values));
        Ok(CompiledProgram { interface, nodes, num_ivs, recorded_updates })
    }

    /// What the program needs: parameters (bound), fields with shapes, scalars.
    pub fn interface(&self) -> &ProgramInterface {
        &self.interface
    }

    /// Point updates one run performs (for throughput figures): the apply instances it runs,
    /// or for an SOR rewrite the updates it recorded (the points its masked applies change).
    pub fn total_point_updates(&self) -> u64 {
        self.recorded_updates.unwrap_or_else(|| count_points(&self.nodes))
    }

    /// Runs the program on `state`'s fields, updating them in place. Every field must be
    /// present with the shape of [`CompiledProgram::interface`]; scalars default to the
    /// program's defaults. Parameters in `state.params` must equal the bound values. On an
    /// error the fields stay in `state` (with the updates done so far).
    pub fn run(&self, state: &mut ProgramState) -> RuntimeResult<RunStats> {
        self.run_with_progress(state, &mut |_| {})
    }

    /// [`CompiledProgram::run`], calling `progress` after every sweep of an apply (callers
    /// throttle their display; the call itself is cheap).
    pub fn run_with_progress(
        &self,
        state: &mut ProgramState,
        progress: &mut dyn FnMut(Progress),
    ) -> RuntimeResult<RunStats> {
        for (name, value) in &state.params {
            if let Some((_, bound)) = self.interface.params.iter().find(|(n, _)| n == name) {
                if bound != value {
                    return Err(RuntimeError::InvalidData {
                        message: format!(
                            "the program was compiled for {name} = {bound}, but the state sets {name} = {value}"
                        ),
                    });
                }
            }
        }
        self.interface.check_names(state)?;
        for spec in &self.interface.fields {
            self.interface.check_field(spec, state)?;
        }
        let scalars = self
            .interface
            .scalars
            .iter()
            .map(|s| scalar_bits(&s.name, s.ty, self.interface.scalar_value(s, state)?))
            .collect::<RuntimeResult<Vec<u64>>>()?;
        let names: Vec<String> = self.interface.fields.iter().map(|f| f.name.clone()).collect();
        let mut taken: Vec<FieldData> = names.iter().filter_map(|n| state.fields.remove(n)).collect();
        let mut values: Vec<FieldValues> =
            taken.iter_mut().map(|f| std::mem::replace(&mut f.values, FieldValues::F64(vec![]))).collect();
        let start = Instant::now();
        let mut run = Run {
            inputs_scalars: &scalars,
            field_names: &names,
            ivs: vec![0; self.num_ivs],
            regs: sweep::new_reg_file(),
            points: 0,
            total: count_points(&self.nodes),
            progress,
        };
        let result = run.nodes(&self.nodes, &mut values);
        let seconds = start.elapsed().as_secs_f64();
        for ((name, mut data), v) in names.iter().zip(taken).zip(values) {
            data.values = v;
            state.fields.insert(name.clone(), data);
        }
        result?;
        let point_updates = self.recorded_updates.unwrap_or(run.points);
        let stats = RunStats { point_updates, field_stores: run.points, seconds };
        tracing::debug!(program = %self.interface.name, points = stats.point_updates, seconds, "ran stencil program");
        Ok(stats)
    }
}

struct TreeCompiler<'a> {
    ir: &'a Ir,
    interface: &'a ProgramInterface,
    params: &'a [i64],
    program_args: Vec<ValueId>,
    ivs: HashMap<ValueId, usize>,
}

impl TreeCompiler<'_> {
    fn compile_block(&mut self, block: stencil_ir::BlockId) -> RuntimeResult<Vec<SweepNode>> {
        let ir = self.ir;
        let mut nodes = vec![];
        for op in ir.block_op_iter(block) {
            let location = ir.location(op);
            match ir.op_name(op) {
                "stencil.iterate" => {
                    let lower = bind::eval_bounds(ir, op, "lower_bound", self.params, location)?;
                    let upper = bind::eval_bounds(ir, op, "upper_bound", self.params, location)?;
                    let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or_else(|| {
                        RuntimeError::unsupported(location, "malformed stencil.iterate: it has no body")
                    })?;
                    let &[iv_value] = ir.block_args(body) else {
                        return Err(RuntimeError::unsupported(
                            location,
                            "malformed stencil.iterate: it needs one induction variable",
                        ));
                    };
                    let iv = self.ivs.len();
                    self.ivs.insert(iv_value, iv);
                    let (Some(&lower), Some(&upper)) = (lower.first(), upper.first()) else {
                        return Err(RuntimeError::unsupported(location, "malformed stencil.iterate bounds"));
                    };
                    nodes.push(SweepNode::Iterate { iv, lower, upper, body: self.compile_block(body)? });
                }
                "stencil.apply" => {
                    let cx = KernelContext {
                        ir,
                        interface: self.interface,
                        params: self.params,
                        program_args: &self.program_args,
                        ivs: &self.ivs,
                    };
                    let kernel = compile_apply(&cx, op)?;
                    tracing::debug!(
                        apply = %kernel.name,
                        prologue = kernel.prologue.len(),
                        body = kernel.body.len(),
                        registers = kernel.num_regs,
                        "compiled apply body"
                    );
                    nodes.push(SweepNode::Apply(Box::new(kernel)));
                }
                other => {
                    return Err(RuntimeError::unsupported(
                        location,
                        format!("'{other}' cannot appear in a stencil.program or stencil.iterate body"),
                    ))
                }
            }
        }
        Ok(nodes)
    }
}

struct Run<'a> {
    inputs_scalars: &'a [u64],
    field_names: &'a [String],
    ivs: Vec<i64>,
    regs: Box<sweep::RegFile>,
    points: u64,
    total: u64,
    progress: &'a mut dyn FnMut(Progress),
}

impl Run<'_> {
    fn nodes(&mut self, nodes: &[SweepNode], fields: &mut [FieldValues]) -> RuntimeResult<()> {
        for node in nodes {
            match node {
                SweepNode::Iterate { iv, lower, upper, body } => {
                    for t in *lower..*upper {
                        self.ivs[*iv] = t;
                        self.nodes(body, fields)?;
                    }
                }
                SweepNode::Apply(kernel) => {
                    let inputs =
                        ApplyInputs { scalars: self.inputs_scalars, ivs: &self.ivs, field_names: self.field_names };
                    self.points += run_apply(kernel, fields, &inputs, &mut self.regs)?;
                    (self.progress)(Progress { done: self.points, total: self.total });
                }
            }
        }
        Ok(())
    }
}

//! Building the [`Scop`] of a `stencil.program`: domains, accesses and β schedules (thesis
//! §3.2.1–§3.2.4), with a located error for anything the model cannot represent.

use stencil_dialects::stencil::linear::{linearize, Linear};
use stencil_dialects::stencil::{program_arg_names, ApplyOrder, FieldType, ProgramParams};
use stencil_dialects::support::op_error;
use stencil_ir::affine::AffineMap;
use stencil_ir::ir::ValueDef;
use stencil_ir::{Attribute, BlockId, Diagnostic, DialectRegistry, Ir, OpId, ValueId};
use stencil_poly::{AccessRelation, AffineForm, ArrayId, PolyError, Polyhedron, Schedule, Scop, Space, Statement};

use super::{ScopInfo, StatementOrigin};

/// Extracts the SCoP of `program` (a `stencil.program`), faithful to its sequential semantics
/// (thesis §3.2; the rules are in the [module documentation](super)).
///
/// `registry` tells which ops of an apply body are pure: any other op there (an op with
/// memory effects, an unregistered op) cannot be modelled and is an error. Errors are
/// [`Diagnostic`]s located at the offending op; the function never panics on malformed IR
/// (it is also safe on IR the verifier has not seen).
pub fn extract_scop(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Result<ScopInfo, Diagnostic> {
    if ir.op_name(program) != "stencil.program" {
        return Err(op_error(ir, program, "is not a stencil.program: only stencil programs have a SCoP"));
    }
    let _span = tracing::debug_span!("extract_scop", program = super::program_name(ir, program)).entered();
    let mut builder = Builder::new(ir, registry, program)?;
    let body = single_block(ir, program)?;
    builder.visit(body, &mut Vec::new(), &mut Vec::new())?;
    tracing::debug!(statements = builder.statements.len(), "SCoP extracted");
    Ok(ScopInfo { program, scop: builder.scop, statements: builder.statements, arrays: builder.arrays })
}

/// Where the accesses of one apply are modelled: the apply, its enclosing iterates, its
/// rank and the number of columns of its statement space.
struct ApplyScope<'l> {
    apply: OpId,
    loops: &'l [Loop],
    rank: usize,
    n_columns: usize,
}

/// An enclosing `stencil.iterate`: its induction variable and bounds.
struct Loop {
    op: OpId,
    iv: ValueId,
    lower: Linear,
    upper: Linear,
}

struct Builder<'a> {
    ir: &'a Ir,
    registry: &'a DialectRegistry,
    params: ProgramParams,
    scop: Scop,
    /// Field argument of each array.
    arrays: Vec<ValueId>,
    statements: Vec<StatementOrigin>,
}

/// A polyhedral-library error met while modelling `op`, located there.
fn model_error(ir: &Ir, op: OpId, e: PolyError) -> Diagnostic {
    op_error(ir, op, format!("cannot be represented in the polyhedral model: {e}"))
}

fn single_block(ir: &Ir, op: OpId) -> Result<BlockId, Diagnostic> {
    match ir.regions(op) {
        [region] => match ir.blocks(*region) {
            [block] => Ok(*block),
            _ => Err(op_error(ir, op, "must have a body of exactly one block to be modelled")),
        },
        _ => Err(op_error(ir, op, "must have exactly one region to be modelled")),
    }
}

impl<'a> Builder<'a> {
    fn new(ir: &'a Ir, registry: &'a DialectRegistry, program: OpId) -> Result<Builder<'a>, Diagnostic> {
        let params = ProgramParams::of(ir, program);
        if params.mins.len() != params.names.len() {
            return Err(op_error(ir, program, "needs one declared minimum per parameter ('param_mins')"));
        }
        let mut scop = Scop::new(params.names.iter().cloned());
        // The context is what the program declares — each parameter at least its minimum — and
        // nothing more: non-emptiness of domains is not implied by the semantics (an empty box
        // just runs nothing).
        let context = declared_context(scop.param_space(), &params.mins).map_err(|e| model_error(ir, program, e))?;
        scop.set_context(context).map_err(|e| model_error(ir, program, e))?;

        let body = single_block(ir, program)?;
        let names = program_arg_names(ir, program);
        let mut arrays = Vec::new();
        for (k, &arg) in ir.block_args(body).iter().enumerate() {
            let Some(field) = FieldType::from_type(ir.value_type(arg)) else { continue };
            let name = names.get(k).cloned().flatten().unwrap_or_else(|| format!("arg{k}"));
            scop.add_array(name, field.rank()).map_err(|e| model_error(ir, program, e))?;
            arrays.push(arg);
        }
        Ok(Builder { ir, registry, params, scop, arrays, statements: Vec::new() })
    }

    /// Walks a program or iterate body: `loops` are the enclosing iterates, `beta` the textual
    /// positions of the enclosing ops so far.
    fn visit(&mut self, block: BlockId, loops: &mut Vec<Loop>, beta: &mut Vec<i64>) -> Result<(), Diagnostic> {
        let ir = self.ir;
        for (position, op) in ir.block_op_iter(block).enumerate() {
            let position = i64::try_from(position).map_err(|_| op_error(ir, op, "is at a position beyond i64"))?;
            match ir.op_name(op) {
                "stencil.iterate" => {
                    let lower = self.bounds(op, "lower_bound")?.into_iter().next();
                    let upper = self.bounds(op, "upper_bound")?.into_iter().next();
                    let body = single_block(ir, op)?;
                    let (Some(lower), Some(upper), [iv]) = (lower, upper, ir.block_args(body)) else {
                        return Err(op_error(ir, op, "needs one lower bound, one upper bound and one induction variable"));
                    };
                    loops.push(Loop { op, iv: *iv, lower, upper });
                    beta.push(position);
                    self.visit(body, loops, beta)?;
                    beta.pop();
                    loops.pop();
                }
                "stencil.apply" => {
                    let mut apply_beta = beta.clone();
                    apply_beta.push(position);
                    self.add_statement(op, loops, apply_beta)?;
                }
                _ => {
                    return Err(op_error(
                        ir,
                        op,
                        "cannot be part of a SCoP: program and iterate bodies may hold only stencil.iterate and stencil.apply",
                    ))
                }
            }
        }
        Ok(())
    }

    /// The linear forms (in the parameters) of a bound map `()[params] -> (…)`.
    fn bounds(&self, op: OpId, attr: &str) -> Result<Vec<Linear>, Diagnostic> {
        let np = self.params.names.len();
        let map = self
            .ir
            .attr(op, attr)
            .and_then(Attribute::as_affine_map)
            .filter(|m| m.num_dims == 0 && usize::try_from(m.num_symbols).is_ok_and(|s| s == np));
        let Some(map) = map else {
            return Err(op_error(
                self.ir,
                op,
                format!("needs '{attr}', an affine map over the {np} program parameters"),
            ));
        };
        map.results
            .iter()
            .map(|e| {
                linearize(e, 0, np).ok_or_else(|| {
                    op_error(self.ir, op, format!("bound '{e}' in '{attr}' is not affine in the parameters"))
                })
            })
            .collect()
    }

    fn add_statement(&mut self, apply: OpId, loops: &[Loop], mut beta: Vec<i64>) -> Result<(), Diagnostic> {
        let ir = self.ir;
        let name = ir.attr(apply, "name").and_then(Attribute::as_str).unwrap_or_default().to_string();
        if let Some(first) =
            self.statements.iter().find(|s| ir.attr(s.apply, "name").and_then(Attribute::as_str) == Some(&name))
        {
            return Err(op_error(
                ir,
                apply,
                format!("reuses the statement name @{name}: the applies of one program need distinct names (rename this apply)"),
            )
            .with_note(ir.location(first.apply).clone(), "the first apply named so"));
        }
        let written = ir.operands(apply).first().copied();
        let Some(array) = written.and_then(|v| self.array_of(v)) else {
            return Err(op_error(ir, apply, "must write a field argument of the enclosing stencil.program"));
        };
        let lower = self.bounds(apply, "lower_bounds")?;
        let upper = self.bounds(apply, "upper_bounds")?;
        let rank = lower.len();
        if upper.len() != rank || self.scop.array(array).map(|a| a.rank) != Some(rank) {
            return Err(op_error(ir, apply, "needs one lower and one upper bound per dimension of the written field"));
        }
        let space = self.scop.statement_space(self.iterator_names(loops.len(), rank));
        let domain = self.domain(&space, loops, &lower, &upper).map_err(|e| model_error(ir, apply, e))?;
        let order = ApplyOrder::of(ir, apply);
        beta.extend(std::iter::repeat_n(0, rank));
        let schedule = original_schedule(&space, &beta, loops.len(), order).map_err(|e| model_error(ir, apply, e))?;
        let mut statement = Statement::new(name, domain, schedule);
        let mut accesses = Vec::new();
        let body = single_block(ir, apply)?;
        let scope = ApplyScope { apply, loops, rank, n_columns: space.n_columns() };
        for op in ir.block_op_iter(body) {
            match ir.op_name(op) {
                "stencil.access" => {
                    statement = statement.with_access(self.read(op, &scope)?);
                    accesses.push(op);
                }
                "stencil.index" | "stencil.yield" => {}
                _ if self.registry.traits_of(ir, op).pure && ir.regions(op).is_empty() => {}
                _ => {
                    return Err(op_error(
                        ir,
                        op,
                        "cannot be part of a SCoP: a stencil.apply body may only read fields (stencil.access) and compute with pure ops; this op may have other effects",
                    ))
                }
            }
        }
        let point = (0..rank)
            .map(|d| AffineForm::unit(space.n_columns(), loops.len() + d))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| model_error(ir, apply, e))?;
        statement = statement.with_access(AccessRelation::write(array, point));
        accesses.push(apply);
        self.scop.add_statement(statement).map_err(|e| model_error(ir, apply, e))?;
        self.statements.push(StatementOrigin {
            apply,
            iterates: loops.iter().map(|l| l.op).collect(),
            beta,
            order,
            accesses,
        });
        Ok(())
    }

    fn array_of(&self, field: ValueId) -> Option<ArrayId> {
        self.arrays.iter().position(|&v| v == field).map(ArrayId)
    }

    /// Iterator names as the printer names the values: `t`, `t_0`, `t_1`, … for iterates and
    /// `i`, `j`, `k` for point dimensions, each made distinct from the parameter names.
    fn iterator_names(&self, n_loops: usize, rank: usize) -> Vec<String> {
        let loops = (0..n_loops).map(|k| if k == 0 { "t".to_string() } else { format!("t_{}", k - 1) });
        let points = ["i", "j", "k"].iter().take(rank).map(|s| s.to_string());
        let mut names: Vec<String> = Vec::new();
        for mut name in loops.chain(points) {
            while self.params.names.contains(&name) || names.contains(&name) {
                name.push('_');
            }
            names.push(name);
        }
        names
    }

    /// `lower <= x < upper` for every iterate and box dimension.
    fn domain(
        &self,
        space: &Space,
        loops: &[Loop],
        lower: &[Linear],
        upper: &[Linear],
    ) -> stencil_poly::Result<Polyhedron> {
        let mut domain = Polyhedron::universe(space.clone());
        let bounds = loops.iter().map(|l| (&l.lower, &l.upper)).chain(lower.iter().zip(upper));
        for (col, (lo, hi)) in bounds.enumerate() {
            let x = AffineForm::unit(space.n_columns(), col)?;
            domain.add_inequality(&x.checked_sub(&param_form(space, lo)?)?)?;
            domain.add_inequality(&param_form(space, hi)?.checked_sub(&x)?.checked_add_constant(-1)?)?;
        }
        Ok(domain)
    }

    /// The read of one `stencil.access` of an apply, as affine index functions over the
    /// statement's iterators.
    fn read(&self, op: OpId, scope: &ApplyScope<'_>) -> Result<AccessRelation, Diagnostic> {
        let ir = self.ir;
        let field = ir.operands(op).first().copied();
        let Some(array) = field.and_then(|v| self.array_of(v)) else {
            return Err(op_error(ir, op, "must read a field argument of the enclosing stencil.program"));
        };
        let array_rank = self.scop.array(array).map(|a| a.rank).unwrap_or(0);
        let rank = scope.rank;
        let index = match (ir.attr(op, "offset").and_then(Attribute::as_dense_array), ir.attr(op, "map")) {
            (Some(offsets), None) => {
                if offsets.len() != rank || array_rank != rank {
                    return Err(op_error(
                        ir,
                        op,
                        format!(
                            "has {} offsets on a rank-{array_rank} field inside a rank-{rank} domain",
                            offsets.len()
                        ),
                    ));
                }
                offsets
                    .iter()
                    .enumerate()
                    .map(|(d, &o)| AffineForm::from_terms(scope.n_columns, &[(scope.loops.len() + d, 1)], o))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| model_error(ir, op, e))?
            }
            (None, Some(map)) => {
                let Some(map) = map.as_affine_map() else {
                    return Err(op_error(ir, op, "'map' must be an affine map"));
                };
                self.general_index(op, map, array_rank, scope)?
            }
            _ => return Err(op_error(ir, op, "needs exactly one of 'offset' or 'map' to be modelled")),
        };
        Ok(AccessRelation::read(array, index))
    }

    /// The index functions of a general access `F at [e0, …]`: each `dN` of the map is an
    /// index operand, replaced by the iterator it stands for.
    fn general_index(
        &self,
        op: OpId,
        map: &AffineMap,
        array_rank: usize,
        scope: &ApplyScope<'_>,
    ) -> Result<Vec<AffineForm>, Diagnostic> {
        let ir = self.ir;
        let operands = ir.operands(op).get(1..).unwrap_or(&[]);
        if usize::try_from(map.num_dims).ok() != Some(operands.len()) || map.num_symbols != 0 {
            return Err(op_error(ir, op, "'map' must take one dimension per index operand and no symbols"));
        }
        if map.results.len() != array_rank {
            return Err(op_error(
                ir,
                op,
                format!("'map' has {} results for a rank-{array_rank} field", map.results.len()),
            ));
        }
        let columns = operands.iter().map(|&v| self.index_column(op, v, scope)).collect::<Result<Vec<_>, _>>()?;
        map.results
            .iter()
            .map(|e| {
                let Some(l) = linearize(e, operands.len(), 0) else {
                    return Err(op_error(
                        ir,
                        op,
                        format!("index '{e}' (dN is index operand N) is not affine: the polyhedral model needs sums of integer multiples of index values and a constant"),
                    ));
                };
                let terms: Vec<(usize, i64)> = columns.iter().copied().zip(l.dims.iter().copied()).collect();
                AffineForm::from_terms(scope.n_columns, &terms, l.constant).map_err(|e| model_error(ir, op, e))
            })
            .collect()
    }

    /// The iterator column of an index operand: an enclosing iterate's induction variable or a
    /// `stencil.index` coordinate of this apply.
    fn index_column(&self, op: OpId, v: ValueId, scope: &ApplyScope<'_>) -> Result<usize, Diagnostic> {
        let ir = self.ir;
        let column = match ir.value_def(v) {
            ValueDef::BlockArgument { .. } => scope.loops.iter().position(|l| l.iv == v),
            ValueDef::Result { op: def, .. }
                if ir.op_name(def) == "stencil.index" && ir.parent_op(def) == Some(scope.apply) =>
            {
                ir.attr(def, "dim")
                    .and_then(Attribute::as_i64)
                    .and_then(|d| usize::try_from(d).ok())
                    .filter(|&d| d < scope.rank)
                    .map(|d| scope.loops.len() + d)
            }
            _ => None,
        };
        column.ok_or_else(|| {
            op_error(
                ir,
                op,
                "has an index operand that is neither an enclosing stencil.iterate induction variable nor a stencil.index coordinate of its apply: the polyhedral model needs indices affine in the iterators",
            )
        })
    }
}

/// `p_j >= min_j` for every parameter: the program's declared minimums.
fn declared_context(space: &Space, mins: &[i64]) -> stencil_poly::Result<Polyhedron> {
    let n = space.n_columns();
    let mut context = Polyhedron::universe(space.clone());
    for (j, &min) in mins.iter().enumerate() {
        context.add_inequality(&AffineForm::unit(n, j)?.checked_sub(&AffineForm::constant_form(n, min))?)?;
    }
    Ok(context)
}

/// A bound (linear in the parameters) as a form over `space`.
fn param_form(space: &Space, l: &Linear) -> stencil_poly::Result<AffineForm> {
    let nd = space.n_dims();
    let terms: Vec<(usize, i64)> = l.symbols.iter().enumerate().map(|(j, &c)| (nd + j, c)).collect();
    AffineForm::from_terms(space.n_columns(), &terms, l.constant)
}

/// The original schedule `(β0, x1, β1, …, xn, βn)` (thesis §3.2.3), with the point rows of a
/// reverse apply negated: `(−i, −j)` increases exactly when `(i, j)` decreases
/// lexicographically.
fn original_schedule(space: &Space, beta: &[i64], n_loops: usize, order: ApplyOrder) -> stencil_poly::Result<Schedule> {
    let n = space.n_columns();
    let mut rows = Vec::with_capacity(2 * beta.len());
    for (k, &b) in beta.iter().enumerate() {
        rows.push(AffineForm::constant_form(n, b));
        if k < space.n_dims() {
            let sign = if order == ApplyOrder::Reverse && k >= n_loops { -1 } else { 1 };
            rows.push(AffineForm::from_terms(n, &[(k, sign)], 0)?);
        }
    }
    Schedule::new(space, rows)
}

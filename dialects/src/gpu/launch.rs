//! `gpu.launch_func`: the host-side launch of a kernel on a grid of thread blocks.

use std::fmt::{self, Write};
use std::ops::Range;
use stencil_ir::parser::lexer::TokenKind;
use stencil_ir::parser::{CustomOpParser, ParseResult, UnresolvedOperand};
use stencil_ir::printer::OpPrinter;
use stencil_ir::registry::DialectRegistry;
use stencil_ir::symbols::lookup_in;
use stencil_ir::{Attribute, DiagResult, Diagnostic, Ir, Location, OpId, OperationState, Type, ValueId};

use super::attributes::is_async_token;
use super::{async_token_type, is_kernel, CONTAINER_MODULE_ATTR, KERNEL_ATTR};
use crate::support::{expect_region_count, op_error, types_of};

/// Number of operand groups of `gpu.launch_func` in its `operandSegmentSizes`: async
/// dependencies, grid x/y/z, block x/y/z, cluster x/y/z, dynamic shared memory size, kernel
/// operands, async object.
const LAUNCH_SEGMENTS: usize = 13;

/// The operands of a `gpu.launch_func`, split by its `operandSegmentSizes` property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchFuncOperands {
    /// Tokens the launch waits for (`async [%t]`).
    pub async_dependencies: Vec<ValueId>,
    /// Number of blocks along x, y, z.
    pub grid: [ValueId; 3],
    /// Number of work items per block along x, y, z.
    pub block: [ValueId; 3],
    /// Number of blocks per cluster along x, y, z (`clusters in (…)`), if given.
    pub cluster: Option<[ValueId; 3]>,
    /// Bytes of dynamic workgroup memory (an `i32`), if given.
    pub dynamic_shared_memory_size: Option<ValueId>,
    /// Arguments passed to the kernel.
    pub kernel_operands: Vec<ValueId>,
    /// Stream or queue the launch is issued on (`<%stream : !llvm.ptr>`), if given.
    pub async_object: Option<ValueId>,
}

impl LaunchFuncOperands {
    /// Splits the operands of `op`; an error says what is wrong with `operandSegmentSizes`.
    pub fn of(ir: &Ir, op: OpId) -> Result<Self, String> {
        let Some(attr) = ir.attr(op, "operandSegmentSizes") else {
            return Err("requires attribute 'operandSegmentSizes'".to_string());
        };
        let sizes = match attr {
            Attribute::DenseArray { element: Type::Integer(32), values }
                if values.len() == LAUNCH_SEGMENTS && values.iter().all(|&v| v >= 0) =>
            {
                values
            }
            _ => {
                return Err(format!(
                    "'operandSegmentSizes' must be an array<i32> of {LAUNCH_SEGMENTS} non-negative sizes"
                ))
            }
        };
        let operands = ir.operands(op);
        let total: i128 = sizes.iter().map(|&s| i128::from(s)).sum();
        if usize::try_from(total).ok() != Some(operands.len()) {
            return Err(format!("operand count ({}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'", operands.len()));
        }
        let mut ranges: Vec<Range<usize>> = Vec::with_capacity(LAUNCH_SEGMENTS);
        let mut start = 0usize;
        for &size in sizes {
            let end = start + size as usize;
            ranges.push(start..end);
            start = end;
        }
        let group = |i: usize| &operands[ranges[i].clone()];
        let single = |i: usize, what: &str| -> Result<ValueId, String> {
            match group(i) {
                [v] => Ok(*v),
                g => Err(format!("expects exactly one {what} operand, found {}", g.len())),
            }
        };
        let optional = |i: usize, what: &str| -> Result<Option<ValueId>, String> {
            match group(i) {
                [] => Ok(None),
                [v] => Ok(Some(*v)),
                g => Err(format!("expects at most one {what} operand, found {}", g.len())),
            }
        };
        let grid = [single(1, "gridSizeX")?, single(2, "gridSizeY")?, single(3, "gridSizeZ")?];
        let block = [single(4, "blockSizeX")?, single(5, "blockSizeY")?, single(6, "blockSizeZ")?];
        let cluster = match (optional(7, "clusterSizeX")?, optional(8, "clusterSizeY")?, optional(9, "clusterSizeZ")?) {
            (None, None, None) => None,
            (Some(x), Some(y), Some(z)) => Some([x, y, z]),
            _ => return Err("expects either all three cluster sizes or none".to_string()),
        };
        Ok(LaunchFuncOperands {
            async_dependencies: group(0).to_vec(),
            grid,
            block,
            cluster,
            dynamic_shared_memory_size: optional(10, "dynamicSharedMemorySize")?,
            kernel_operands: group(11).to_vec(),
            async_object: optional(12, "asyncObject")?,
        })
    }

    /// The operands in order and the matching `operandSegmentSizes` property.
    pub fn flatten(&self) -> (Vec<ValueId>, Attribute) {
        let mut operands = self.async_dependencies.clone();
        operands.extend(self.grid);
        operands.extend(self.block);
        operands.extend(self.cluster.into_iter().flatten());
        operands.extend(self.dynamic_shared_memory_size);
        operands.extend(&self.kernel_operands);
        operands.extend(self.async_object);
        let c = i64::from(self.cluster.is_some());
        let sizes = [
            self.async_dependencies.len() as i64,
            1,
            1,
            1,
            1,
            1,
            1,
            c,
            c,
            c,
            i64::from(self.dynamic_shared_memory_size.is_some()),
            self.kernel_operands.len() as i64,
            i64::from(self.async_object.is_some()),
        ];
        (operands, Attribute::dense_i32(&sizes))
    }
}

/// The state of a synchronous `gpu.launch_func @module::@kernel blocks in (grid) threads in
/// (block) args(operands)`, for lowerings that outline kernels.
pub fn launch_func_state(
    kernel: Attribute,
    grid: [ValueId; 3],
    block: [ValueId; 3],
    kernel_operands: Vec<ValueId>,
    location: Location,
) -> OperationState {
    let launch = LaunchFuncOperands {
        async_dependencies: vec![],
        grid,
        block,
        cluster: None,
        dynamic_shared_memory_size: None,
        kernel_operands,
        async_object: None,
    };
    let (operands, sizes) = launch.flatten();
    let mut state = OperationState::new("gpu.launch_func", location);
    state.operands = operands;
    state.add_property("kernel", kernel);
    state.add_property("operandSegmentSizes", sizes);
    state
}

/// `gpu.launch_func async? ([%deps])? (<%obj : t>)? @module::@kernel
/// (clusters in (%x, %y, %z))? blocks in (%x, %y, %z) threads in (%x, %y, %z) (: t)?
/// (dynamic_shared_memory_size %s)? (args(%a : t, …))? {attrs}?`
pub(super) fn parse_launch_func(p: &mut CustomOpParser<'_, '_>) -> ParseResult<()> {
    let is_async = p.consume_keyword("async");
    let deps = if p.at(TokenKind::LSquare) {
        p.parse_delimited_operand_list(TokenKind::LSquare, TokenKind::RSquare)?
    } else {
        vec![]
    };
    let async_object = if p.consume_if(TokenKind::Less) {
        let operand = p.parse_operand()?;
        let ty = p.parse_colon_type()?;
        p.expect(TokenKind::Greater, "'>' after the async object")?;
        Some((operand, ty))
    } else {
        None
    };
    let loc = p.location();
    let kernel = p.parse_attribute()?;
    if !matches!(kernel, Attribute::SymbolRef { .. }) {
        return Err(Diagnostic::error(loc, "expected the kernel symbol reference (@module::@kernel)"));
    }
    p.state().add_property("kernel", kernel);
    let cluster = if p.consume_keyword("clusters") { Some(parse_size_triple(p)?) } else { None };
    p.expect_keyword("blocks")?;
    let grid = parse_size_triple(p)?;
    p.expect_keyword("threads")?;
    let block = parse_size_triple(p)?;
    let size_type = if p.consume_if(TokenKind::Colon) { p.parse_type()? } else { Type::Index };
    let dynamic_shared_memory =
        if p.consume_keyword("dynamic_shared_memory_size") { Some(p.parse_operand()?) } else { None };
    let mut args: Vec<UnresolvedOperand> = vec![];
    let mut arg_types: Vec<Type> = vec![];
    if p.consume_keyword("args") {
        p.expect(TokenKind::LParen, "'(' after 'args'")?;
        if !p.consume_if(TokenKind::RParen) {
            loop {
                args.push(p.parse_operand()?);
                arg_types.push(p.parse_colon_type()?);
                if !p.consume_if(TokenKind::Comma) {
                    break;
                }
            }
            p.expect(TokenKind::RParen, "',' or ')' in the kernel arguments")?;
        }
    }
    p.parse_optional_attr_dict()?;

    // Resolve in operand order: deps, grid, block, cluster, shared memory, args, object.
    let token = async_token_type();
    let async_dependencies = deps.iter().map(|d| p.resolve_operand(d, &token)).collect::<ParseResult<Vec<_>>>()?;
    let triple = |p: &mut CustomOpParser<'_, '_>, [x, y, z]: &[UnresolvedOperand; 3]| -> ParseResult<[ValueId; 3]> {
        Ok([p.resolve_operand(x, &size_type)?, p.resolve_operand(y, &size_type)?, p.resolve_operand(z, &size_type)?])
    };
    let grid = triple(p, &grid)?;
    let block = triple(p, &block)?;
    let cluster = cluster.map(|c| triple(p, &c)).transpose()?;
    let dynamic_shared_memory_size = dynamic_shared_memory.map(|s| p.resolve_operand(&s, &Type::I32)).transpose()?;
    let kernel_operands =
        args.iter().zip(&arg_types).map(|(a, t)| p.resolve_operand(a, t)).collect::<ParseResult<Vec<_>>>()?;
    let async_object = async_object.map(|(o, t)| p.resolve_operand(&o, &t)).transpose()?;
    let launch = LaunchFuncOperands {
        async_dependencies,
        grid,
        block,
        cluster,
        dynamic_shared_memory_size,
        kernel_operands,
        async_object,
    };
    let (operands, sizes) = launch.flatten();
    p.state().operands.extend(operands);
    p.state().add_property("operandSegmentSizes", sizes);
    if is_async {
        p.add_result_types([token]);
    }
    Ok(())
}

/// `in (%x, %y, %z)` after `blocks`, `threads` or `clusters`.
fn parse_size_triple(p: &mut CustomOpParser<'_, '_>) -> ParseResult<[UnresolvedOperand; 3]> {
    p.expect_keyword("in")?;
    p.expect(TokenKind::LParen, "'('")?;
    let x = p.parse_operand()?;
    p.expect(TokenKind::Comma, "','")?;
    let y = p.parse_operand()?;
    p.expect(TokenKind::Comma, "','")?;
    let z = p.parse_operand()?;
    p.expect(TokenKind::RParen, "')'")?;
    Ok([x, y, z])
}

/// Prints MLIR 22's spacing exactly, including the double spaces its generated printer leaves
/// around empty optional groups (`gpu.launch_func  @m::@k … threads in (…)  args(…)`).
pub(super) fn print_launch_func(pr: &mut OpPrinter<'_>, op: OpId) -> fmt::Result {
    let ir = pr.ir();
    let Ok(launch) = LaunchFuncOperands::of(ir, op) else {
        // Only reachable for unverified IR; the generic form shows what is there.
        return pr.write_str(" <<malformed gpu.launch_func: print with --mlir-print-op-generic>>");
    };
    pr.write_char(' ')?;
    let is_async = !ir.results(op).is_empty();
    if is_async {
        pr.write_str("async")?;
    }
    if !launch.async_dependencies.is_empty() {
        if is_async {
            pr.write_char(' ')?;
        }
        pr.write_char('[')?;
        pr.print_values(&launch.async_dependencies)?;
        pr.write_char(']')?;
    }
    if let Some(object) = launch.async_object {
        pr.write_char('<')?;
        pr.print_value(object)?;
        pr.write_str(" : ")?;
        pr.print_type(ir.value_type(object))?;
        pr.write_char('>')?;
    }
    pr.write_char(' ')?;
    pr.print_attribute(ir.attr(op, "kernel").unwrap_or(&Attribute::Unit))?;
    if let Some(cluster) = launch.cluster {
        pr.write_str(" clusters in (")?;
        pr.print_values(&cluster)?;
        pr.write_char(')')?;
    }
    pr.write_str(" blocks in (")?;
    pr.print_values(&launch.grid)?;
    pr.write_str(") threads in (")?;
    pr.print_values(&launch.block)?;
    pr.write_str(") ")?;
    let size_type = ir.value_type(launch.grid[0]);
    if *size_type != Type::Index {
        pr.write_str(": ")?;
        pr.print_type(size_type)?;
    }
    if let Some(size) = launch.dynamic_shared_memory_size {
        pr.write_str(" dynamic_shared_memory_size ")?;
        pr.print_value(size)?;
    }
    pr.write_char(' ')?;
    if !launch.kernel_operands.is_empty() {
        pr.write_str("args(")?;
        for (i, &v) in launch.kernel_operands.iter().enumerate() {
            if i > 0 {
                pr.write_str(", ")?;
            }
            pr.print_value(v)?;
            pr.write_str(" : ")?;
            pr.print_type(ir.value_type(v))?;
        }
        pr.write_char(')')?;
    }
    pr.print_optional_attr_dict(op, &["kernel", "operandSegmentSizes"])
}

pub(super) fn verify_launch_func(ir: &Ir, op: OpId, _: &DialectRegistry) -> DiagResult<()> {
    expect_region_count(ir, op, 0)?;
    let Some(kernel) = ir.attr(op, "kernel") else {
        return Err(op_error(ir, op, "requires attribute 'kernel'"));
    };
    let Attribute::SymbolRef { root, nested } = kernel else {
        return Err(op_error(ir, op, "attribute 'kernel' failed to satisfy constraint: symbol reference attribute"));
    };
    let launch = LaunchFuncOperands::of(ir, op).map_err(|msg| op_error(ir, op, msg))?;

    // Types of the operand groups.
    if launch.async_dependencies.iter().any(|&d| !is_async_token(ir.value_type(d))) {
        return Err(op_error(ir, op, "async dependencies must be of type '!gpu.async.token'"));
    }
    match types_of(ir, ir.results(op)).as_slice() {
        [] => {}
        [t] if is_async_token(t) => {}
        _ => return Err(op_error(ir, op, "expects no result or one '!gpu.async.token' result (with 'async')")),
    }
    let size_type = ir.value_type(launch.grid[0]);
    if !matches!(size_type, Type::Index | Type::Integer(32 | 64)) {
        return Err(op_error(
            ir,
            op,
            format!("grid and block sizes must be of type index, i32 or i64, but got '{size_type}'"),
        ));
    }
    let sizes = launch.grid.iter().chain(&launch.block).chain(launch.cluster.iter().flatten());
    if sizes.map(|&v| ir.value_type(v)).any(|t| t != size_type) {
        return Err(op_error(ir, op, "expects grid, block and cluster sizes to all have the same type"));
    }
    if let Some(size) = launch.dynamic_shared_memory_size {
        let t = ir.value_type(size);
        if *t != Type::I32 {
            return Err(op_error(ir, op, format!("operand 'dynamicSharedMemorySize' must be i32, but got '{t}'")));
        }
    }

    // The closest module must be a container of kernel modules.
    let mut module = ir.parent_op(op);
    while let Some(m) = module.filter(|&m| ir.op_name(m) != "builtin.module") {
        module = ir.parent_op(m);
    }
    let Some(module) = module else {
        return Err(op_error(ir, op, "expected to belong to a module"));
    };
    if ir.attr(module, CONTAINER_MODULE_ATTR) != Some(&Attribute::Unit) {
        return Err(op_error(
            ir,
            op,
            format!("expected the closest surrounding module to have the '{CONTAINER_MODULE_ATTR}' attribute"),
        ));
    }

    // `@module::@kernel` names a kernel gpu.func in a gpu.module of that module.
    let Some(container) = lookup_in(ir, module, root) else {
        return Err(op_error(ir, op, format!("kernel container '{root}' is undefined")));
    };
    if ir.op_name(container) != "gpu.module" {
        return Err(op_error(ir, op, format!("kernel module '{root}' is undefined")));
    }
    let mut func = Some(container);
    for name in nested {
        func = func.and_then(|f| lookup_in(ir, f, name));
    }
    let Some(func) = func else {
        return Err(op_error(ir, op, format!("kernel function '{kernel}' is undefined")));
    };
    if !matches!(ir.op_name(func), "gpu.func" | "func.func") {
        return Err(op_error(ir, op, format!("referenced kernel '{kernel}' is not a function"))
            .with_note(ir.location(func).clone(), "see the kernel definition here"));
    }
    if !is_kernel(ir, func) {
        return Err(op_error(ir, op, format!("kernel function is missing the '{KERNEL_ATTR}' attribute")));
    }
    // As MLIR, only gpu.func kernels have their signature checked: a func.func kernel may
    // already be in a lowered calling convention.
    if ir.op_name(func) != "gpu.func" {
        return Ok(());
    }
    let Some(fn_type) = ir.attr(func, "function_type").and_then(Attribute::as_type).and_then(Type::as_function) else {
        return Ok(());
    };
    if launch.kernel_operands.len() != fn_type.inputs.len() {
        return Err(op_error(
            ir,
            op,
            format!("got {} kernel operands but expected {}", launch.kernel_operands.len(), fn_type.inputs.len()),
        ));
    }
    for (i, (&v, expected)) in launch.kernel_operands.iter().zip(&fn_type.inputs).enumerate() {
        if ir.value_type(v) != expected {
            return Err(op_error(ir, op, format!("type of function argument {i} does not match")));
        }
    }
    Ok(())
}

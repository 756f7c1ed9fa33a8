//! Which values may be used as affine dimensions and symbols (MLIR's `isValidDim` and
//! `isValidSymbol` in `mlir/lib/Dialect/Affine/IR/AffineOps.cpp`).
//!
//! A *symbol* is a value fixed for the whole execution of the enclosing affine scope (an op
//! with [`OpTraits::affine_scope`], or one isolated from above such as `func.func`): an
//! argument or top-level value of that scope, a constant, an `affine.apply` of symbols, a
//! `memref.dim` of a top-level memref, a side-effect-free op whose operands are all symbols, or
//! a value defined above a non-isolated scope. A *dimension* is a symbol, an `affine.for` or
//! `affine.parallel` induction variable, or an `affine.apply` of dimensions.
//!
//! [`OpTraits::affine_scope`]: stencil_ir::OpTraits::affine_scope

use std::collections::HashMap;
use stencil_ir::ir::ValueDef;
use stencil_ir::{Attribute, DiagResult, DialectRegistry, Ir, OpId, RegionId, ValueId};

use crate::support::op_error;

/// Evaluates the rules with memoization, so that long chains of pure ops stay linear.
pub struct AffineValueRules<'a> {
    ir: &'a Ir,
    registry: &'a DialectRegistry,
    symbol_memo: HashMap<(ValueId, Option<RegionId>), bool>,
}

impl<'a> AffineValueRules<'a> {
    /// Rules for values of `ir`, with op traits from `registry`.
    pub fn new(ir: &'a Ir, registry: &'a DialectRegistry) -> Self {
        AffineValueRules { ir, registry, symbol_memo: HashMap::new() }
    }

    fn is_affine_scope(&self, op: OpId) -> bool {
        let t = self.registry.traits_of(self.ir, op);
        t.affine_scope || t.isolated_from_above
    }

    /// The region of the closest enclosing affine scope that (transitively) contains `op`
    /// (MLIR's `getAffineScope`).
    pub fn affine_scope(&self, op: OpId) -> Option<RegionId> {
        let ir = self.ir;
        let mut cur = op;
        while let Some(parent) = ir.parent_op(cur) {
            if self.is_affine_scope(parent) {
                return ir.parent_block(cur).and_then(|b| ir.block_parent_region(b));
            }
            cur = parent;
        }
        None
    }

    /// The region that directly contains the definition of `v`.
    fn defining_region(&self, v: ValueId) -> Option<RegionId> {
        match self.ir.value_def(v) {
            ValueDef::Result { op, .. } => self.ir.parent_block(op).and_then(|b| self.ir.block_parent_region(b)),
            ValueDef::BlockArgument { block, .. } => self.ir.block_parent_region(block),
            ValueDef::Undefined => None,
        }
    }

    /// Whether `v` is defined at the top level of an affine scope (or is one of its region
    /// arguments).
    fn is_top_level_value(&self, v: ValueId) -> bool {
        self.defining_region(v).and_then(|r| self.ir.region_parent_op(r)).is_some_and(|op| self.is_affine_scope(op))
    }

    /// The region enclosing the op that owns `region`, unless that op is isolated from above
    /// (values defined there dominate everything inside `region`).
    fn enclosing_region(&self, region: RegionId) -> Option<RegionId> {
        let owner = self.ir.region_parent_op(region)?;
        if self.registry.traits_of(self.ir, owner).isolated_from_above {
            return None;
        }
        self.ir.parent_block(owner).and_then(|b| self.ir.block_parent_region(b))
    }

    /// Whether `v` is a valid symbol wherever it is used.
    pub fn is_valid_symbol(&mut self, v: ValueId) -> bool {
        if !self.ir.value_type(v).is_index() {
            return false;
        }
        if self.is_top_level_value(v) {
            return true;
        }
        match self.ir.defining_op(v) {
            Some(def) => {
                let scope = self.affine_scope(def);
                self.is_valid_symbol_in(v, scope)
            }
            None => false,
        }
    }

    /// Whether `v` is a valid symbol for uses in `region` (an affine scope's region).
    pub fn is_valid_symbol_in(&mut self, v: ValueId, region: Option<RegionId>) -> bool {
        if let Some(&known) = self.symbol_memo.get(&(v, region)) {
            return known;
        }
        // Provisional answer for the (impossible in valid SSA) case of a cycle.
        self.symbol_memo.insert((v, region), false);
        let valid = self.compute_valid_symbol_in(v, region);
        self.symbol_memo.insert((v, region), valid);
        valid
    }

    fn compute_valid_symbol_in(&mut self, v: ValueId, region: Option<RegionId>) -> bool {
        let ir = self.ir;
        if !ir.value_type(v).is_index() {
            return false;
        }
        if region.is_some() && self.defining_region(v) == region {
            return true;
        }
        let Some(def) = ir.defining_op(v) else {
            // A block argument below the scope's top level is a symbol only if it is defined
            // above a non-isolated scope.
            return match region.and_then(|r| self.enclosing_region(r)) {
                Some(outer) => self.is_valid_symbol_in(v, Some(outer)),
                None => false,
            };
        };
        let traits = self.registry.traits_of(ir, def);
        if traits.constant_like {
            return true;
        }
        match ir.op_name(def) {
            "affine.apply" => return ir.operands(def).to_vec().into_iter().all(|o| self.is_valid_symbol_in(o, region)),
            "memref.dim" => return self.is_dim_op_valid_symbol(def, region),
            _ => {}
        }
        if traits.pure
            && ir.regions(def).is_empty()
            && ir.operands(def).to_vec().into_iter().all(|o| self.is_valid_symbol_in(o, region))
        {
            return true;
        }
        match region.and_then(|r| self.enclosing_region(r)) {
            Some(outer) => self.is_valid_symbol_in(v, Some(outer)),
            None => false,
        }
    }

    /// `memref.dim %m, %i` is a symbol when `%m` is a top-level value, or when `%m` comes from
    /// `memref.alloc`/`memref.alloca` and dimension `%i` is static or sized by a symbol.
    fn is_dim_op_valid_symbol(&mut self, dim_op: OpId, region: Option<RegionId>) -> bool {
        let ir = self.ir;
        let [source, index] = ir.operands(dim_op) else { return false };
        let (source, index) = (*source, *index);
        if self.is_top_level_value(source) {
            return true;
        }
        let Some(alloc) = ir.defining_op(source).filter(|&a| matches!(ir.op_name(a), "memref.alloc" | "memref.alloca"))
        else {
            return false;
        };
        let Some(i) = self.constant_index(index) else { return false };
        let Some(shape) = ir.value_type(source).as_memref().and_then(|m| m.shape.clone()) else { return false };
        let Some(dim) = shape.get(i) else { return false };
        if *dim != stencil_ir::types::Dim::Dynamic {
            return true;
        }
        // The dynamic sizes come first among the alloc's operands, in dimension order.
        let dynamic_pos = shape[..i].iter().filter(|d| **d == stencil_ir::types::Dim::Dynamic).count();
        match ir.operands(alloc).get(dynamic_pos) {
            Some(&size) => self.is_valid_symbol_in(size, region),
            None => false,
        }
    }

    fn constant_index(&self, v: ValueId) -> Option<usize> {
        let def = self.ir.defining_op(v)?;
        if !self.registry.traits_of(self.ir, def).constant_like {
            return None;
        }
        self.ir.attr(def, "value").and_then(Attribute::as_i64).and_then(|c| usize::try_from(c).ok())
    }

    /// Whether `v` is a valid dimension wherever it is used.
    pub fn is_valid_dim(&mut self, v: ValueId) -> bool {
        let ir = self.ir;
        if !ir.value_type(v).is_index() {
            return false;
        }
        match ir.value_def(v) {
            ValueDef::Result { op, .. } => {
                let scope = self.affine_scope(op);
                self.is_valid_dim_in(v, scope)
            }
            ValueDef::BlockArgument { block, .. } => {
                ir.block_parent_op(block).is_some_and(|owner| self.is_affine_scope(owner) || is_affine_loop(ir, owner))
            }
            ValueDef::Undefined => false,
        }
    }

    /// Whether `v` is a valid dimension for uses in `region` (an affine scope's region).
    pub fn is_valid_dim_in(&mut self, v: ValueId, region: Option<RegionId>) -> bool {
        let ir = self.ir;
        if !ir.value_type(v).is_index() {
            return false;
        }
        if self.is_valid_symbol_in(v, region) {
            return true;
        }
        match ir.value_def(v) {
            ValueDef::BlockArgument { block, .. } => {
                ir.block_parent_op(block).is_some_and(|owner| is_affine_loop(ir, owner))
            }
            ValueDef::Result { op, .. } => match ir.op_name(op) {
                "affine.apply" => ir.operands(op).to_vec().into_iter().all(|o| self.is_valid_dim_in(o, region)),
                "memref.dim" => ir.operands(op).first().is_some_and(|&m| self.is_top_level_value(m)),
                _ => false,
            },
            ValueDef::Undefined => false,
        }
    }

    /// Checks that the first `num_dims` of `operands` are valid dimensions and the rest valid
    /// symbols for `op`'s affine scope (MLIR's `verifyDimAndSymbolIdentifiers`).
    pub fn verify_dims_and_symbols(&mut self, op: OpId, operands: &[ValueId], num_dims: usize) -> DiagResult<()> {
        let scope = self.affine_scope(op);
        for (i, &v) in operands.iter().enumerate() {
            if i < num_dims {
                if !self.is_valid_dim_in(v, scope) {
                    return Err(op_error(self.ir, op, "operand cannot be used as a dimension id"));
                }
            } else if !self.is_valid_symbol_in(v, scope) {
                return Err(op_error(self.ir, op, "operand cannot be used as a symbol"));
            }
        }
        Ok(())
    }
}

fn is_affine_loop(ir: &Ir, op: OpId) -> bool {
    matches!(ir.op_name(op), "affine.for" | "affine.parallel")
}

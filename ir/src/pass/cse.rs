//! `cse`: common subexpression elimination over structured regions. A pure op without
//! regions is replaced by an identical op (same name, operands, attributes and result types)
//! that dominates it: one earlier in the same block or in an enclosing block, never across
//! an isolated-from-above boundary.

use super::{Pass, PassContext, PassContract, PassFactory, PassInfo};
use crate::attributes::NamedAttribute;
use crate::diagnostics::DiagResult;
use crate::ir::{Ir, OpId, RegionId, ValueId};
use crate::registry::DialectRegistry;
use crate::types::Type;
use std::collections::HashMap;
use std::sync::Arc;

/// Registration record.
pub fn info() -> PassInfo {
    PassInfo {
        argument: "cse",
        summary: "Eliminate common subexpressions of pure operations",
        options: vec![],
        factory: PassFactory::new(|_| Ok(Box::new(Cse))),
        contract: PassContract::default(),
    }
}

struct Cse;

impl Pass for Cse {
    fn argument(&self) -> &'static str {
        "cse"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        let erased = eliminate_common_subexpressions(ir, root, cx.registry);
        tracing::debug!(erased, "cse finished");
        Ok(())
    }
}

/// What the `cse` pass does, on the regions of `root`: every pure op without regions that an
/// identical dominating op already computes is replaced by that op's results. Returns how many
/// ops were erased. (Lowerings call it on the code they generate.)
pub fn eliminate_common_subexpressions(ir: &mut Ir, root: OpId, registry: &DialectRegistry) -> usize {
    let mut table = ScopedTable::default();
    let mut erased = 0usize;
    for region in ir.regions(root).to_vec() {
        table.push();
        process_region(ir, registry, region, &mut table, &mut erased);
        table.pop();
    }
    erased
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct OpKey {
    name: Arc<str>,
    operands: Vec<ValueId>,
    properties: Vec<NamedAttribute>,
    attributes: Vec<NamedAttribute>,
    result_types: Vec<Type>,
}

/// A hash table with nested scopes: entries added in a scope disappear when it is popped.
#[derive(Default)]
struct ScopedTable {
    map: HashMap<OpKey, OpId>,
    scopes: Vec<Vec<OpKey>>,
}

impl ScopedTable {
    fn push(&mut self) {
        self.scopes.push(vec![]);
    }

    fn pop(&mut self) {
        for key in self.scopes.pop().unwrap_or_default() {
            self.map.remove(&key);
        }
    }

    fn insert(&mut self, key: OpKey, op: OpId) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(key.clone());
        }
        self.map.insert(key, op);
    }
}

fn process_region(
    ir: &mut Ir,
    registry: &DialectRegistry,
    region: RegionId,
    table: &mut ScopedTable,
    erased: &mut usize,
) {
    for block in ir.blocks(region).to_vec() {
        table.push();
        for op in ir.block_ops(block) {
            let traits = registry.traits_of(ir, op);
            if traits.pure && !traits.terminator && ir.regions(op).is_empty() && !ir.results(op).is_empty() {
                let mut operands = ir.operands(op).to_vec();
                if traits.commutative {
                    operands.sort();
                }
                let key = OpKey {
                    name: ir.op(op).name.clone(),
                    operands,
                    properties: ir.properties(op).to_vec(),
                    attributes: ir.attributes(op).to_vec(),
                    result_types: ir.results(op).iter().map(|&r| ir.value_type(r).clone()).collect(),
                };
                if let Some(&existing) = table.map.get(&key) {
                    let values = ir.results(existing).to_vec();
                    ir.replace_op(op, &values);
                    *erased += 1;
                    continue;
                }
                table.insert(key, op);
            }
            let isolated = traits.isolated_from_above;
            for r in ir.regions(op).to_vec() {
                if isolated {
                    let mut inner = ScopedTable::default();
                    inner.push();
                    process_region(ir, registry, r, &mut inner, erased);
                } else {
                    table.push();
                    process_region(ir, registry, r, table, erased);
                    table.pop();
                }
            }
        }
        table.pop();
    }
}

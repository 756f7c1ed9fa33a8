//! The operation tree: operations, blocks, regions and values in arenas.
//!
//! Data (what an op is) and layout (where it sits) are kept in the same records but accessed
//! through separate methods, as cranelift separates its DFG from its layout: ops form a doubly
//! linked list inside their block so insertion and erasure are O(1).

use crate::attributes::{get_named, remove_named, set_named, Attribute, NamedAttribute};
use crate::entity::Arena;
use crate::location::Location;
use crate::types::Type;
use std::sync::Arc;

crate::entity_id! {
    /// An operation.
    pub struct OpId, "op";
}
crate::entity_id! {
    /// A block (a list of operations with arguments).
    pub struct BlockId, "block";
}
crate::entity_id! {
    /// A region (a list of blocks owned by an operation).
    pub struct RegionId, "region";
}
crate::entity_id! {
    /// An SSA value (an op result or a block argument).
    pub struct ValueId, "v";
}

/// What defines a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result {
        /// The defining op.
        op: OpId,
        /// Result number.
        index: u32,
    },
    /// Argument `index` of `block`.
    BlockArgument {
        /// The owning block.
        block: BlockId,
        /// Argument number.
        index: u32,
    },
    /// A value not defined (yet): the parser's forward references, or a value whose definition
    /// was erased.
    Undefined,
}

/// One use of a value: operand `operand` of `op`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Use {
    /// The using op.
    pub op: OpId,
    /// Operand number.
    pub operand: u32,
}

/// A value's record.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// The value's type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
    uses: Vec<Use>,
}

/// An operation's record.
#[derive(Clone, Debug)]
pub struct OpData {
    /// Full name, `dialect.op`.
    pub name: Arc<str>,
    operands: Vec<ValueId>,
    results: Vec<ValueId>,
    /// Inherent attributes (MLIR 22 properties, printed in `<{…}>` in generic form), sorted.
    properties: Vec<NamedAttribute>,
    /// Discardable attributes (printed in `{…}`), sorted.
    attributes: Vec<NamedAttribute>,
    regions: Vec<RegionId>,
    /// Source location.
    pub location: Location,
    parent: Option<BlockId>,
    prev: Option<OpId>,
    next: Option<OpId>,
    alive: bool,
}

/// A block's record.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    args: Vec<ValueId>,
    parent: Option<RegionId>,
    first: Option<OpId>,
    last: Option<OpId>,
}

/// A region's record.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    blocks: Vec<BlockId>,
    parent: Option<OpId>,
}

/// Everything needed to create an operation (MLIR's `OperationState`).
#[derive(Clone, Debug, Default)]
pub struct OperationState {
    /// Full op name.
    pub name: String,
    /// Location.
    pub location: Location,
    /// Operand values.
    pub operands: Vec<ValueId>,
    /// Result types.
    pub result_types: Vec<Type>,
    /// Inherent attributes (properties).
    pub properties: Vec<NamedAttribute>,
    /// Discardable attributes.
    pub attributes: Vec<NamedAttribute>,
    /// Regions, already created (detached) with [`Ir::create_region`].
    pub regions: Vec<RegionId>,
}

impl OperationState {
    /// A state for op `name` at `location`.
    pub fn new(name: &str, location: Location) -> Self {
        OperationState { name: name.to_string(), location, ..Default::default() }
    }

    /// Adds a property (inherent attribute), keeping the list sorted.
    pub fn add_property(&mut self, name: &str, value: Attribute) -> &mut Self {
        set_named(&mut self.properties, name, value);
        self
    }

    /// Adds a discardable attribute, keeping the list sorted.
    pub fn add_attribute(&mut self, name: &str, value: Attribute) -> &mut Self {
        set_named(&mut self.attributes, name, value);
        self
    }
}

/// Where the builder inserts the next operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// At the end of a block.
    End(BlockId),
    /// At the start of a block.
    Start(BlockId),
    /// Before an operation.
    Before(OpId),
    /// After an operation.
    After(OpId),
}

/// Arena storage for one tree of operations.
#[derive(Clone, Debug, Default)]
pub struct Ir {
    ops: Arena<OpId, OpData>,
    blocks: Arena<BlockId, BlockData>,
    regions: Arena<RegionId, RegionData>,
    values: Arena<ValueId, ValueData>,
}

/// Order in which [`Ir::walk`] visits an op relative to its nested ops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WalkOrder {
    /// Parent before children.
    PreOrder,
    /// Children before parent.
    PostOrder,
}

impl Ir {
    /// An empty IR.
    pub fn new() -> Self {
        Self::default()
    }

    // ----- creation -------------------------------------------------------------------------

    /// Creates a detached value of type `ty` with no definition (a placeholder).
    pub fn create_placeholder(&mut self, ty: Type) -> ValueId {
        self.values.push(ValueData { ty, def: ValueDef::Undefined, uses: vec![] })
    }

    /// Creates a detached, empty region.
    pub fn create_region(&mut self) -> RegionId {
        self.regions.push(RegionData::default())
    }

    /// Creates a block with arguments of the given types and appends it to `region`.
    pub fn append_block(&mut self, region: RegionId, arg_types: &[Type]) -> BlockId {
        let block = self.blocks.push(BlockData { parent: Some(region), ..Default::default() });
        for ty in arg_types {
            self.add_block_argument(block, ty.clone());
        }
        self.regions[region].blocks.push(block);
        block
    }

    /// Appends an argument of type `ty` to `block`.
    pub fn add_block_argument(&mut self, block: BlockId, ty: Type) -> ValueId {
        let index = u32::try_from(self.blocks[block].args.len()).unwrap_or(u32::MAX);
        let v = self.values.push(ValueData { ty, def: ValueDef::BlockArgument { block, index }, uses: vec![] });
        self.blocks[block].args.push(v);
        v
    }

    /// Removes the last argument of `block`, which must have no uses (replace them first);
    /// returns it, or `None` when the block has no argument or the last one is still used.
    pub fn pop_block_argument(&mut self, block: BlockId) -> Option<ValueId> {
        let &last = self.blocks[block].args.last()?;
        if !self.values[last].uses.is_empty() {
            return None;
        }
        self.blocks[block].args.pop()
    }

    /// Creates a detached operation from `state`; its regions become owned by it.
    pub fn create_op(&mut self, state: OperationState) -> OpId {
        let op = self.ops.push(OpData {
            name: state.name.into(),
            operands: vec![],
            results: vec![],
            properties: state.properties,
            attributes: state.attributes,
            regions: state.regions,
            location: state.location,
            parent: None,
            prev: None,
            next: None,
            alive: true,
        });
        for (i, v) in state.operands.into_iter().enumerate() {
            self.values[v].uses.push(Use { op, operand: i as u32 });
            self.ops[op].operands.push(v);
        }
        for (i, ty) in state.result_types.into_iter().enumerate() {
            let v = self.values.push(ValueData { ty, def: ValueDef::Result { op, index: i as u32 }, uses: vec![] });
            self.ops[op].results.push(v);
        }
        for r in self.ops[op].regions.clone() {
            self.regions[r].parent = Some(op);
        }
        op
    }

    /// Creates an op from `state` and inserts it at `at`.
    pub fn build(&mut self, at: InsertPoint, state: OperationState) -> OpId {
        let op = self.create_op(state);
        self.insert(op, at);
        op
    }

    /// Links a detached op into a block at `at`.
    pub fn insert(&mut self, op: OpId, at: InsertPoint) {
        debug_assert!(self.ops[op].parent.is_none(), "op is already in a block");
        let (block, prev, next) = match at {
            InsertPoint::End(b) => (b, self.blocks[b].last, None),
            InsertPoint::Start(b) => (b, None, self.blocks[b].first),
            InsertPoint::Before(o) => {
                let b = self.ops[o].parent.expect("insertion anchor must be in a block");
                (b, self.ops[o].prev, Some(o))
            }
            InsertPoint::After(o) => {
                let b = self.ops[o].parent.expect("insertion anchor must be in a block");
                (b, Some(o), self.ops[o].next)
            }
        };
        let data = &mut self.ops[op];
        data.parent = Some(block);
        data.prev = prev;
        data.next = next;
        match prev {
            Some(p) => self.ops[p].next = Some(op),
            None => self.blocks[block].first = Some(op),
        }
        match next {
            Some(n) => self.ops[n].prev = Some(op),
            None => self.blocks[block].last = Some(op),
        }
    }

    /// Unlinks `op` from its block, leaving it detached (still alive).
    pub fn detach(&mut self, op: OpId) {
        let Some(block) = self.ops[op].parent.take() else { return };
        let (prev, next) = (self.ops[op].prev.take(), self.ops[op].next.take());
        match prev {
            Some(p) => self.ops[p].next = next,
            None => self.blocks[block].first = next,
        }
        match next {
            Some(n) => self.ops[n].prev = prev,
            None => self.blocks[block].last = prev,
        }
    }

    /// Moves `op` to `at`.
    pub fn move_op(&mut self, op: OpId, at: InsertPoint) {
        self.detach(op);
        self.insert(op, at);
    }

    // ----- erasure and replacement ----------------------------------------------------------

    /// Erases `op` and everything nested in it. Remaining uses of its results are left
    /// pointing at values whose definition is [`ValueDef::Undefined`]; callers replace uses
    /// first (the verifier reports any left over).
    pub fn erase_op(&mut self, op: OpId) {
        self.detach(op);
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            if !self.ops[o].alive {
                continue;
            }
            self.ops[o].alive = false;
            for (i, v) in std::mem::take(&mut self.ops[o].operands).into_iter().enumerate() {
                self.remove_use(v, Use { op: o, operand: i as u32 });
            }
            for r in self.ops[o].results.clone() {
                self.values[r].def = ValueDef::Undefined;
            }
            for r in self.ops[o].regions.clone() {
                for b in self.regions[r].blocks.clone() {
                    stack.extend(self.block_ops(b));
                    for a in self.blocks[b].args.clone() {
                        self.values[a].def = ValueDef::Undefined;
                    }
                }
            }
        }
    }

    fn remove_use(&mut self, v: ValueId, u: Use) {
        let uses = &mut self.values[v].uses;
        if let Some(pos) = uses.iter().position(|x| *x == u) {
            uses.swap_remove(pos);
        }
    }

    /// Sets operand `index` of `op` to `value`.
    pub fn set_operand(&mut self, op: OpId, index: usize, value: ValueId) {
        let old = self.ops[op].operands[index];
        let u = Use { op, operand: index as u32 };
        self.remove_use(old, u);
        self.ops[op].operands[index] = value;
        self.values[value].uses.push(u);
    }

    /// Replaces all operands of `op`.
    pub fn set_operands(&mut self, op: OpId, values: &[ValueId]) {
        for (i, v) in std::mem::take(&mut self.ops[op].operands).into_iter().enumerate() {
            self.remove_use(v, Use { op, operand: i as u32 });
        }
        for (i, &v) in values.iter().enumerate() {
            self.values[v].uses.push(Use { op, operand: i as u32 });
        }
        self.ops[op].operands = values.to_vec();
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        for u in std::mem::take(&mut self.values[from].uses) {
            self.ops[u.op].operands[u.operand as usize] = to;
            self.values[to].uses.push(u);
        }
    }

    /// Replaces the results of `op` with `values` (same count) and erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        for (r, &v) in self.ops[op].results.clone().iter().zip(values) {
            self.replace_all_uses(*r, v);
        }
        self.erase_op(op);
    }

    /// Sets the location of `op`.
    pub fn set_location(&mut self, op: OpId, location: Location) {
        self.ops[op].location = location;
    }

    // ----- queries --------------------------------------------------------------------------

    /// The op's record.
    pub fn op(&self, op: OpId) -> &OpData {
        &self.ops[op]
    }

    /// Full name of `op`.
    pub fn op_name(&self, op: OpId) -> &str {
        &self.ops[op].name
    }

    /// Whether `op` has not been erased.
    pub fn is_alive(&self, op: OpId) -> bool {
        self.ops[op].alive
    }

    /// The op's location.
    pub fn location(&self, op: OpId) -> &Location {
        &self.ops[op].location
    }

    /// Operand values.
    pub fn operands(&self, op: OpId) -> &[ValueId] {
        &self.ops[op].operands
    }

    /// Operand `i`.
    pub fn operand(&self, op: OpId, i: usize) -> ValueId {
        self.ops[op].operands[i]
    }

    /// Result values.
    pub fn results(&self, op: OpId) -> &[ValueId] {
        &self.ops[op].results
    }

    /// Result `i`.
    pub fn result(&self, op: OpId, i: usize) -> ValueId {
        self.ops[op].results[i]
    }

    /// Regions of `op`.
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.ops[op].regions
    }

    /// Region `i` of `op`.
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.ops[op].regions[i]
    }

    /// Inherent attributes (properties), sorted by name.
    pub fn properties(&self, op: OpId) -> &[NamedAttribute] {
        &self.ops[op].properties
    }

    /// Discardable attributes, sorted by name.
    pub fn attributes(&self, op: OpId) -> &[NamedAttribute] {
        &self.ops[op].attributes
    }

    /// Looks an attribute up among properties first, then discardable attributes.
    pub fn attr(&self, op: OpId, name: &str) -> Option<&Attribute> {
        get_named(&self.ops[op].properties, name).or_else(|| get_named(&self.ops[op].attributes, name))
    }

    /// Sets a property (inherent attribute).
    pub fn set_property(&mut self, op: OpId, name: &str, value: Attribute) {
        set_named(&mut self.ops[op].properties, name, value);
    }

    /// Sets a discardable attribute.
    pub fn set_attribute(&mut self, op: OpId, name: &str, value: Attribute) {
        set_named(&mut self.ops[op].attributes, name, value);
    }

    /// Removes an attribute (property or discardable), returning it.
    pub fn remove_attr(&mut self, op: OpId, name: &str) -> Option<Attribute> {
        remove_named(&mut self.ops[op].properties, name).or_else(|| remove_named(&mut self.ops[op].attributes, name))
    }

    /// The block containing `op`.
    pub fn parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op].parent
    }

    /// The op whose region contains `op`.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let block = self.ops[op].parent?;
        self.block_parent_op(block)
    }

    /// The op owning the region that contains `block`.
    pub fn block_parent_op(&self, block: BlockId) -> Option<OpId> {
        self.regions[self.blocks[block].parent?].parent
    }

    /// The region containing `block`.
    pub fn block_parent_region(&self, block: BlockId) -> Option<RegionId> {
        self.blocks[block].parent
    }

    /// The op owning `region`.
    pub fn region_parent_op(&self, region: RegionId) -> Option<OpId> {
        self.regions[region].parent
    }

    /// The op after `op` in its block.
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op].next
    }

    /// The op before `op` in its block.
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op].prev
    }

    /// Blocks of `region`.
    pub fn blocks(&self, region: RegionId) -> &[BlockId] {
        &self.regions[region].blocks
    }

    /// The first block of `region`.
    pub fn entry_block(&self, region: RegionId) -> Option<BlockId> {
        self.regions[region].blocks.first().copied()
    }

    /// Arguments of `block`.
    pub fn block_args(&self, block: BlockId) -> &[ValueId] {
        &self.blocks[block].args
    }

    /// First op of `block`.
    pub fn first_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block].first
    }

    /// Last op of `block` (its terminator in a well-formed block).
    pub fn last_op(&self, block: BlockId) -> Option<OpId> {
        self.blocks[block].last
    }

    /// Iterates over the ops of `block` in order. The iterator reads links lazily, so the
    /// current op may be erased or moved while iterating only if the caller collected the
    /// ops first (see [`Ir::block_ops`]).
    pub fn block_op_iter(&self, block: BlockId) -> impl Iterator<Item = OpId> + '_ {
        std::iter::successors(self.blocks[block].first, move |&o| self.ops[o].next)
    }

    /// The ops of `block`, collected (safe to mutate the IR while iterating).
    pub fn block_ops(&self, block: BlockId) -> Vec<OpId> {
        self.block_op_iter(block).collect()
    }

    /// Type of `value`.
    pub fn value_type(&self, value: ValueId) -> &Type {
        &self.values[value].ty
    }

    /// Definition of `value`.
    pub fn value_def(&self, value: ValueId) -> ValueDef {
        self.values[value].def
    }

    /// The op defining `value`, if it is an op result.
    pub fn defining_op(&self, value: ValueId) -> Option<OpId> {
        match self.values[value].def {
            ValueDef::Result { op, .. } => Some(op),
            _ => None,
        }
    }

    /// Uses of `value`.
    pub fn uses(&self, value: ValueId) -> &[Use] {
        &self.values[value].uses
    }

    /// Whether `value` has no use.
    pub fn is_unused(&self, value: ValueId) -> bool {
        self.values[value].uses.is_empty()
    }

    /// Number of op records ever created (alive or erased).
    pub fn op_capacity(&self) -> usize {
        self.ops.len()
    }

    /// Number of value records ever created.
    pub fn value_capacity(&self) -> usize {
        self.values.len()
    }

    /// Whether `ancestor` is `op` or contains it (through regions).
    pub fn is_ancestor(&self, ancestor: OpId, mut op: OpId) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }

    // ----- traversal ------------------------------------------------------------------------

    /// Visits `root` and every op nested in it.
    pub fn walk(&self, root: OpId, order: WalkOrder, f: &mut dyn FnMut(OpId)) {
        if order == WalkOrder::PreOrder {
            f(root);
        }
        for &r in &self.ops[root].regions {
            for &b in &self.regions[r].blocks {
                for o in self.block_op_iter(b) {
                    self.walk(o, order, f);
                }
            }
        }
        if order == WalkOrder::PostOrder {
            f(root);
        }
    }

    /// `root` and all nested ops, collected in the given order.
    pub fn collect_ops(&self, root: OpId, order: WalkOrder) -> Vec<OpId> {
        let mut out = vec![];
        self.walk(root, order, &mut |o| out.push(o));
        out
    }

    // ----- cloning --------------------------------------------------------------------------

    /// Deep-clones `op` (detached). Operands found in `mapping` are remapped; nested values
    /// are added to `mapping` as they are cloned.
    pub fn clone_op(&mut self, op: OpId, mapping: &mut ValueMapping) -> OpId {
        let data = self.ops[op].clone();
        let regions: Vec<RegionId> = data.regions.iter().map(|&r| self.clone_region(r, mapping)).collect();
        let state = OperationState {
            name: data.name.to_string(),
            location: data.location.clone(),
            operands: data.operands.iter().map(|&v| mapping.lookup(v)).collect(),
            result_types: data.results.iter().map(|&v| self.values[v].ty.clone()).collect(),
            properties: data.properties.clone(),
            attributes: data.attributes.clone(),
            regions,
        };
        let new_op = self.create_op(state);
        for (i, &r) in data.results.iter().enumerate() {
            mapping.map(r, self.ops[new_op].results[i]);
        }
        new_op
    }

    /// Deep-clones a region (detached).
    pub fn clone_region(&mut self, region: RegionId, mapping: &mut ValueMapping) -> RegionId {
        let new_region = self.create_region();
        let blocks = self.regions[region].blocks.clone();
        for &b in &blocks {
            let types: Vec<Type> = self.blocks[b].args.iter().map(|&a| self.values[a].ty.clone()).collect();
            let nb = self.append_block(new_region, &types);
            for (old, new) in self.blocks[b].args.clone().into_iter().zip(self.blocks[nb].args.clone()) {
                mapping.map(old, new);
            }
        }
        for (&b, nb) in blocks.iter().zip(self.regions[new_region].blocks.clone()) {
            for o in self.block_ops(b) {
                let c = self.clone_op(o, mapping);
                self.insert(c, InsertPoint::End(nb));
            }
        }
        new_region
    }

    /// Moves all blocks of `from` to the end of `to`.
    pub fn take_blocks(&mut self, from: RegionId, to: RegionId) {
        for b in std::mem::take(&mut self.regions[from].blocks) {
            self.blocks[b].parent = Some(to);
            self.regions[to].blocks.push(b);
        }
    }

    /// Moves the ops of `from` before `at`, replacing `from`'s arguments with `args` first.
    /// This is MLIR's `inlineBlockBefore`, used to fold away single-block regions.
    pub fn inline_block(&mut self, from: BlockId, at: InsertPoint, args: &[ValueId]) {
        for (a, &v) in self.blocks[from].args.clone().iter().zip(args) {
            self.replace_all_uses(*a, v);
        }
        let mut anchor = at;
        for o in self.block_ops(from) {
            self.detach(o);
            self.insert(o, anchor);
            anchor = InsertPoint::After(o);
        }
    }
}

/// A value-to-value mapping used by cloning (MLIR's `IRMapping`).
#[derive(Clone, Debug, Default)]
pub struct ValueMapping {
    map: std::collections::HashMap<ValueId, ValueId>,
}

impl ValueMapping {
    /// An empty mapping.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `from` to `to`.
    pub fn map(&mut self, from: ValueId, to: ValueId) {
        self.map.insert(from, to);
    }

    /// The mapped value, or `v` itself.
    pub fn lookup(&self, v: ValueId) -> ValueId {
        self.map.get(&v).copied().unwrap_or(v)
    }
}

/// A parsed top-level operation together with its arena.
#[derive(Clone, Debug)]
pub struct Module {
    /// The arena.
    pub ir: Ir,
    /// The top-level op (normally `builtin.module`).
    pub top: OpId,
    /// The text it was parsed from (`None` for IR built in code): diagnostics located in it
    /// are rendered with their source line, also after passes changed the IR.
    pub source: Option<std::sync::Arc<crate::SourceFile>>,
}

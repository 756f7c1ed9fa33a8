//! Printer for MLIR's textual format: generic form for any op, custom forms through the op's
//! [`crate::registry::PrintFn`], and MLIR-style value naming (`%0`, `%arg0`, `%c0`, `%cst`).

use crate::affine::{AffineExpr, AffineExprPrinter, AffineMap};
use crate::attributes::{is_bare_identifier, write_named_list, Attribute, NamedAttribute, SymbolName};
use crate::ir::{BlockId, Ir, OpId, RegionId, ValueDef, ValueId};
use crate::location::LocationBody;
use crate::registry::DialectRegistry;
use crate::types::{write_result_types, Type};
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write};

/// Printer settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in generic form (`--mlir-print-op-generic`).
    pub generic: bool,
    /// Print `loc(...)` after every op (`--mlir-print-debuginfo`).
    pub debug_info: bool,
}

/// Writes a string literal with MLIR's escapes.
pub struct QuotedString<'a>(pub &'a str);

impl fmt::Display for QuotedString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for b in self.0.bytes() {
            match b {
                // MLIR (llvm::printEscapedString) escapes '"' and control characters in hex.
                b'\\' => f.write_str("\\\\")?,
                b'"' => f.write_str("\\22")?,
                0x20..=0x7e => f.write_char(b as char)?,
                _ => write!(f, "\\{b:02X}")?,
            }
        }
        f.write_char('"')
    }
}

/// Prints `op` (normally the top-level module) to a string.
pub fn print_op(ir: &Ir, registry: &DialectRegistry, op: OpId, options: PrintOptions) -> String {
    let names = NameTable::build(ir, registry, op);
    let mut printer =
        OpPrinter { ir, registry, names, out: String::new(), indent: 0, options, default_dialects: vec![] };
    // Writing to a String cannot fail.
    let _ = printer.print_operation(op);
    printer.out
}

/// Printed names of values and blocks.
#[derive(Default)]
struct NameTable {
    values: HashMap<ValueId, (String, Option<u32>)>,
    blocks: HashMap<BlockId, String>,
}

/// Counters and used names of one naming scope.
#[derive(Clone, Default)]
struct NameScope {
    next_value: usize,
    next_arg: usize,
    used: HashSet<String>,
    /// MLIR's `nextConflictID`: one counter for every clashing name of the scope, so a second
    /// `%cst` after `%c0_0` is `%cst_1`.
    next_conflict: usize,
}

impl NameScope {
    fn unique(&mut self, hint: &str) -> String {
        if self.used.insert(hint.to_string()) {
            return hint.to_string();
        }
        loop {
            let candidate = format!("{hint}_{}", self.next_conflict);
            self.next_conflict += 1;
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// Keeps the characters MLIR allows in a suffix id (letters, digits and `$._-`, so constants
/// print as `%c-1_i32` like mlir-opt) and replaces the rest with `_`.
fn sanitize_hint(hint: &str) -> Option<String> {
    let s: String = hint
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '$' | '.' | '_' | '-') { c } else { '_' })
        .collect();
    // Names starting with a digit would collide with numbered values.
    (!s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit())).then_some(s)
}

impl NameTable {
    fn build(ir: &Ir, registry: &DialectRegistry, root: OpId) -> Self {
        let mut table = NameTable::default();
        let mut scope = NameScope::default();
        table.name_results(ir, registry, root, &mut scope);
        table.name_nested(ir, registry, root, &scope);
        table
    }

    fn name_results(&mut self, ir: &Ir, registry: &DialectRegistry, op: OpId, scope: &mut NameScope) {
        let results = ir.results(op);
        if results.is_empty() {
            return;
        }
        let hint = (results.len() == 1)
            .then(|| registry.def_of(ir, op).and_then(|d| d.name_hint).and_then(|h| h(ir, op)))
            .flatten()
            .and_then(|h| sanitize_hint(&h));
        let base = match hint {
            Some(h) => scope.unique(&h),
            None => {
                let n = scope.next_value;
                scope.next_value += 1;
                n.to_string()
            }
        };
        if results.len() == 1 {
            self.values.insert(results[0], (base, None));
        } else {
            for (i, &r) in results.iter().enumerate() {
                self.values.insert(r, (base.clone(), Some(i as u32)));
            }
        }
    }

    /// Names the values inside `op`'s regions. Each region starts from a copy of the
    /// enclosing scope, so sibling regions reuse numbers (as MLIR prints them); isolated ops
    /// start from scratch.
    fn name_nested(&mut self, ir: &Ir, registry: &DialectRegistry, op: OpId, scope: &NameScope) {
        let isolated = registry.traits_of(ir, op).isolated_from_above;
        let arg_hints = registry.def_of(ir, op).and_then(|d| d.arg_name_hint).map(|h| h(ir, op)).unwrap_or_default();
        for (ri, &region) in ir.regions(op).iter().enumerate() {
            let mut inner = if isolated { NameScope::default() } else { scope.clone() };
            let hints: &[Option<String>] = if ri == 0 { &arg_hints } else { &[] };
            self.name_region(ir, registry, region, &mut inner, hints);
        }
    }

    /// MLIR numbers a whole block's results before descending into nested regions, so a
    /// value after a loop gets a smaller number than the values inside the loop.
    fn name_region(
        &mut self,
        ir: &Ir,
        registry: &DialectRegistry,
        region: RegionId,
        scope: &mut NameScope,
        entry_hints: &[Option<String>],
    ) {
        for (bi, &block) in ir.blocks(region).iter().enumerate() {
            // Block labels are numbered per region, as MLIR does.
            self.blocks.insert(block, format!("bb{bi}"));
            for (ai, &arg) in ir.block_args(block).iter().enumerate() {
                let hint =
                    if bi == 0 { entry_hints.get(ai).cloned().flatten().and_then(|h| sanitize_hint(&h)) } else { None };
                let name = if let Some(h) = hint {
                    scope.unique(&h)
                } else if bi == 0 {
                    // Skip numbers taken by hinted names (an argument hinted `arg1`).
                    loop {
                        let candidate = format!("arg{}", scope.next_arg);
                        scope.next_arg += 1;
                        if scope.used.insert(candidate.clone()) {
                            break candidate;
                        }
                    }
                } else {
                    let n = scope.next_value;
                    scope.next_value += 1;
                    n.to_string()
                };
                self.values.insert(arg, (name, None));
            }
            for op in ir.block_op_iter(block) {
                self.name_results(ir, registry, op, scope);
            }
        }
        for &block in ir.blocks(region) {
            for op in ir.block_op_iter(block) {
                self.name_nested(ir, registry, op, scope);
            }
        }
    }
}

/// Prints ops; custom printers receive it to print everything after the op name.
pub struct OpPrinter<'a> {
    ir: &'a Ir,
    registry: &'a DialectRegistry,
    names: NameTable,
    out: String,
    indent: usize,
    options: PrintOptions,
    default_dialects: Vec<Option<&'static str>>,
}

impl Write for OpPrinter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.push_str(s);
        Ok(())
    }
}

impl<'a> OpPrinter<'a> {
    /// The IR being printed.
    pub fn ir(&self) -> &'a Ir {
        self.ir
    }

    /// The registry (to look up other ops' definitions).
    pub fn registry(&self) -> &'a DialectRegistry {
        self.registry
    }

    /// Writes a value's name (`%0`, `%arg1`, `%0#1`).
    pub fn print_value(&mut self, v: ValueId) -> fmt::Result {
        match self.names.values.get(&v) {
            Some((base, None)) => write!(self.out, "%{base}"),
            Some((base, Some(i))) => write!(self.out, "%{base}#{i}"),
            // A value defined outside the printed tree (or erased): print a stable placeholder
            // that the parser will reject as undeclared rather than silently mis-binding.
            None => write!(self.out, "%<<UNKNOWN SSA VALUE {}>>", self.value_debug_id(v)),
        }
    }

    fn value_debug_id(&self, v: ValueId) -> String {
        match self.ir.value_def(v) {
            ValueDef::Undefined => format!("{v:?} (undefined)"),
            _ => format!("{v:?}"),
        }
    }

    /// Writes `%a, %b`.
    pub fn print_values(&mut self, values: &[ValueId]) -> fmt::Result {
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_value(v)?;
        }
        Ok(())
    }

    /// Writes the types of `values`, comma separated.
    pub fn print_value_types(&mut self, values: &[ValueId]) -> fmt::Result {
        let types: Vec<Type> = values.iter().map(|&v| self.ir.value_type(v).clone()).collect();
        crate::types::write_list(&mut self.out, &types)
    }

    /// Writes a type.
    pub fn print_type(&mut self, t: &Type) -> fmt::Result {
        write!(self.out, "{t}")
    }

    /// Writes `t1, t2`.
    pub fn print_types(&mut self, types: &[Type]) -> fmt::Result {
        crate::types::write_list(&mut self.out, types)
    }

    /// Writes a result type list as in a function type (`t` or `(t1, t2)`).
    pub fn print_result_types(&mut self, types: &[Type]) -> fmt::Result {
        write_result_types(&mut self.out, types)
    }

    /// Writes an attribute.
    pub fn print_attribute(&mut self, a: &Attribute) -> fmt::Result {
        write!(self.out, "{a}")
    }

    /// Writes `@name`.
    pub fn print_symbol_name(&mut self, name: &str) -> fmt::Result {
        write!(self.out, "{}", SymbolName(name))
    }

    /// Writes ` {a = 1, b}` with the op's discardable attributes and properties, except the
    /// `elided` names; nothing when empty.
    pub fn print_optional_attr_dict(&mut self, op: OpId, elided: &[&str]) -> fmt::Result {
        let entries = self.attrs_except(op, elided);
        if entries.is_empty() {
            return Ok(());
        }
        self.out.push_str(" {");
        write_named_list(&mut self.out, &entries)?;
        self.out.push('}');
        Ok(())
    }

    /// As [`Self::print_optional_attr_dict`] with the `attributes` keyword (func-like ops).
    pub fn print_optional_attr_dict_with_keyword(&mut self, op: OpId, elided: &[&str]) -> fmt::Result {
        let entries = self.attrs_except(op, elided);
        if entries.is_empty() {
            return Ok(());
        }
        self.out.push_str(" attributes {");
        write_named_list(&mut self.out, &entries)?;
        self.out.push('}');
        Ok(())
    }

    fn attrs_except(&self, op: OpId, elided: &[&str]) -> Vec<NamedAttribute> {
        let mut all: Vec<NamedAttribute> = self
            .ir
            .properties(op)
            .iter()
            .chain(self.ir.attributes(op))
            .filter(|a| !elided.contains(&&*a.name))
            .cloned()
            .collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    /// Writes a dictionary `{…}` of the given entries (for argument attributes).
    pub fn print_dictionary(&mut self, entries: &[NamedAttribute]) -> fmt::Result {
        self.out.push('{');
        write_named_list(&mut self.out, entries)?;
        self.out.push('}');
        Ok(())
    }

    /// Writes the results of `map` over `operands` (dims first, then symbols) as affine ops
    /// print them: `%i + 1, symbol(%n) floordiv 2`.
    ///
    /// The map is printed as the parser will read it back ([`as_parsed_ssa_map`]): dims and
    /// symbols numbered by first use, commutative operands ordered by those numbers, so that
    /// the text parses to the same map and prints identically, whatever operand order the
    /// pass that built the op chose.
    pub fn print_affine_map_of_ssa_ids(&mut self, map: &AffineMap, operands: &[ValueId]) -> fmt::Result {
        let (map, operands) = as_parsed_ssa_map(map, operands);
        let (map, operands) = (&map, &operands[..]);
        let num_dims = map.num_dims as usize;
        let names: Vec<String> = operands
            .iter()
            .map(|&v| {
                let mut s = String::new();
                match self.names.values.get(&v) {
                    Some((b, None)) => s = format!("%{b}"),
                    Some((b, Some(i))) => s = format!("%{b}#{i}"),
                    None => s.push_str("%<<UNKNOWN SSA VALUE>>"),
                }
                s
            })
            .collect();
        for (i, e) in map.results.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let p = AffineExprPrinter {
                expr: e,
                dim: |d, f: &mut fmt::Formatter<'_>| f.write_str(names.get(d as usize).map_or("%<<?>>", |s| s)),
                symbol: |s, f: &mut fmt::Formatter<'_>| {
                    write!(f, "symbol({})", names.get(num_dims + s as usize).map_or("%<<?>>", |s| s))
                },
            };
            write!(self.out, "{p}")?;
        }
        Ok(())
    }

    /// Writes `%name: type` for a block argument, with optional attributes.
    pub fn print_argument(&mut self, arg: ValueId, attrs: &[NamedAttribute]) -> fmt::Result {
        self.print_value(arg)?;
        write!(self.out, ": {}", self.ir.value_type(arg))?;
        if !attrs.is_empty() {
            self.out.push(' ');
            self.print_dictionary(attrs)?;
        }
        Ok(())
    }

    /// Starts a new line at the current indentation.
    pub fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// Writes a region in braces. `print_entry_args`: whether the entry block's label and
    /// arguments are printed (false when the op's syntax already names them);
    /// `print_terminators`: whether a terminator without operands or attributes is printed.
    pub fn print_region(&mut self, region: RegionId, print_entry_args: bool, print_terminators: bool) -> fmt::Result {
        self.print_region_impl(region, print_entry_args, print_terminators, false)
    }

    /// As [`Self::print_region`]; `print_empty_block` labels an empty entry block (`^bb0:`),
    /// as MLIR's generic form does so that the block is not lost.
    fn print_region_impl(
        &mut self,
        region: RegionId,
        print_entry_args: bool,
        print_terminators: bool,
        print_empty_block: bool,
    ) -> fmt::Result {
        self.out.push('{');
        self.indent += 1;
        let owner = self.ir.region_parent_op(region);
        let default_dialect = owner.and_then(|o| self.registry.def_of(self.ir, o)).and_then(|d| d.default_dialect);
        self.default_dialects.push(default_dialect);
        let blocks = self.ir.blocks(region);
        for (bi, &block) in blocks.iter().enumerate() {
            let args = self.ir.block_args(block);
            let print_label = bi > 0
                || (print_entry_args && !args.is_empty())
                || (print_empty_block && self.ir.first_op(block).is_none());
            if print_label {
                self.indent -= 1;
                self.newline();
                self.indent += 1;
                let label = self.names.blocks.get(&block).cloned().unwrap_or_default();
                write!(self.out, "^{label}")?;
                if !args.is_empty() {
                    self.out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.print_argument(a, &[])?;
                    }
                    self.out.push(')');
                }
                self.out.push(':');
            }
            for op in self.ir.block_op_iter(block) {
                let is_last = self.ir.next_op(op).is_none();
                if is_last && !print_terminators && self.is_trivial_terminator(op) {
                    continue;
                }
                self.newline();
                self.print_operation(op)?;
            }
        }
        self.default_dialects.pop();
        self.indent -= 1;
        self.newline();
        self.out.push('}');
        Ok(())
    }

    fn is_trivial_terminator(&self, op: OpId) -> bool {
        self.registry.traits_of(self.ir, op).terminator
            && self.ir.operands(op).is_empty()
            && self.ir.results(op).is_empty()
            && self.ir.attributes(op).is_empty()
            && self.ir.properties(op).is_empty()
            && self.ir.regions(op).is_empty()
    }

    fn print_operation(&mut self, op: OpId) -> fmt::Result {
        let results = self.ir.results(op);
        if !results.is_empty() {
            match self.names.values.get(&results[0]).cloned() {
                Some((base, Some(_))) => write!(self.out, "%{base}:{} = ", results.len())?,
                _ => {
                    self.print_values(results)?;
                    self.out.push_str(" = ");
                }
            }
        }
        let def = self.registry.def_of(self.ir, op);
        match def.and_then(|d| d.print) {
            Some(print) if !self.options.generic => {
                let name = self.ir.op_name(op);
                let shown = self.shown_op_name(name);
                self.out.push_str(shown);
                print(self, op)?;
            }
            _ => self.print_generic(op)?,
        }
        if self.options.debug_info {
            write!(self.out, " loc({})", LocationBody(self.ir.location(op)))?;
        }
        Ok(())
    }

    /// The op name as written in custom form: without `builtin.`, and without the enclosing
    /// op's default dialect prefix (`return` inside `func.func`).
    fn shown_op_name<'n>(&self, name: &'n str) -> &'n str {
        if let Some(rest) = name.strip_prefix("builtin.") {
            return rest;
        }
        if let Some(Some(dialect)) = self.default_dialects.last() {
            if let Some(rest) = name.strip_prefix(dialect).and_then(|r| r.strip_prefix('.')) {
                return rest;
            }
        }
        name
    }

    fn print_generic(&mut self, op: OpId) -> fmt::Result {
        let ir = self.ir;
        write!(self.out, "{}(", QuotedString(ir.op_name(op)))?;
        self.print_values(ir.operands(op))?;
        self.out.push(')');
        // Default-valued properties (`overflowFlags = #arith.overflow<none>`) always exist in
        // MLIR, and the parser fills them in; an op a pass built without them prints them too,
        // so that the generic text is the same before and after a round trip.
        let filled;
        let properties = match self.registry.def_of(ir, op).and_then(|d| d.default_properties) {
            Some(fill) => {
                let mut state = crate::ir::OperationState::new(ir.op_name(op), ir.location(op).clone());
                state.properties = ir.properties(op).to_vec();
                fill(&mut state);
                filled = state.properties;
                filled.as_slice()
            }
            None => ir.properties(op),
        };
        if !properties.is_empty() {
            self.out.push_str(" <{");
            write_named_list(&mut self.out, properties)?;
            self.out.push_str("}>");
        }
        if !ir.regions(op).is_empty() {
            self.out.push_str(" (");
            for (i, &r) in ir.regions(op).iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region_impl(r, true, true, true)?;
            }
            self.out.push(')');
        }
        if !ir.attributes(op).is_empty() {
            self.out.push_str(" {");
            write_named_list(&mut self.out, ir.attributes(op))?;
            self.out.push('}');
        }
        self.out.push_str(" : (");
        self.print_value_types(ir.operands(op))?;
        self.out.push_str(") -> ");
        let types: Vec<Type> = ir.results(op).iter().map(|&v| ir.value_type(v).clone()).collect();
        write_result_types(&mut self.out, &types)
    }
}

/// Quotes an attribute name if needed (for custom printers that print names themselves).
pub fn attribute_name(name: &str) -> String {
    if is_bare_identifier(name) {
        name.to_string()
    } else {
        QuotedString(name).to_string()
    }
}

/// Where the parser puts an operand of an affine expression written over SSA values: the
/// first use of a value decides whether it is a dim or a symbol, and its position.
#[derive(Default)]
struct FirstUse {
    dims: Vec<ValueId>,
    symbols: Vec<ValueId>,
}

impl FirstUse {
    /// The new leaf for value `v` used plainly (`as_symbol` false) or in `symbol(...)`.
    fn leaf(&mut self, v: ValueId, as_symbol: bool) -> AffineExpr {
        let pos = |list: &[ValueId]| list.iter().position(|&x| x == v).map(|p| p as u32);
        if let Some(p) = pos(&self.dims) {
            return AffineExpr::Dim(p);
        }
        if let Some(p) = pos(&self.symbols) {
            return AffineExpr::Symbol(p);
        }
        let list = if as_symbol { &mut self.symbols } else { &mut self.dims };
        list.push(v);
        let p = (list.len() - 1) as u32;
        if as_symbol {
            AffineExpr::Symbol(p)
        } else {
            AffineExpr::Dim(p)
        }
    }

    /// `e` renumbered (in printing order, left to right) and rebuilt bottom-up with the
    /// parser's simplifications; `None` where a leaf has no operand or a fold overflows.
    fn renumber(&mut self, e: &AffineExpr, num_dims: usize, operands: &[ValueId]) -> Option<AffineExpr> {
        Some(match e {
            AffineExpr::Dim(d) => self.leaf(*operands.get(*d as usize)?, false),
            AffineExpr::Symbol(s) => self.leaf(*operands.get(num_dims + *s as usize)?, true),
            AffineExpr::Constant(c) => AffineExpr::Constant(*c),
            AffineExpr::Binary(op, l, r) => {
                let l = self.renumber(l, num_dims, operands)?;
                let r = self.renumber(r, num_dims, operands)?;
                AffineExpr::try_binary(*op, l, r).ok()?
            }
        })
    }
}

/// The map and operands that parsing the inline form of `map` over `operands` (`%i + 1,
/// symbol(%n)`) gives back: dims and symbols renumbered by first use (a value used twice gets
/// one position; unused operands disappear) and every expression rebuilt with those numbers,
/// which orders commutative operands by position. Repeated until it no longer changes (a
/// rebuild can reorder terms and so first uses; it settles at once in practice, and after
/// eight rounds the last result is used). A map that cannot be renumbered (an operand missing,
/// a fold overflowing) is returned as it is.
pub fn as_parsed_ssa_map(map: &AffineMap, operands: &[ValueId]) -> (AffineMap, Vec<ValueId>) {
    let mut current = (map.clone(), operands.to_vec());
    for _ in 0..8 {
        let (map, operands) = &current;
        let mut uses = FirstUse::default();
        let results: Option<Vec<AffineExpr>> =
            map.results.iter().map(|e| uses.renumber(e, map.num_dims as usize, operands)).collect();
        let Some(results) = results else { return current };
        let next = AffineMap::new(uses.dims.len() as u32, uses.symbols.len() as u32, results);
        let mut next_operands = uses.dims;
        next_operands.extend(uses.symbols);
        if next == *map && next_operands == *operands {
            break;
        }
        current = (next, next_operands);
    }
    current
}

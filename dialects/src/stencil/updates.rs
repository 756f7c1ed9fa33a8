//! A program's point updates as a function of its parameters: the terms `stencil.point_updates`
//! records on a lowered program (docs/runtime.md) and `sor.rewrite` records for a rewritten SOR
//! iteration, and their evaluation.
//!
//! A term is an array of affine maps over the parameters (no dimensions), a lower and an upper
//! map per pair: the bound maps of an apply's enclosing iterates (outermost first) and then its
//! box's. The count is the sum over the terms of the product over their pairs of
//! `max(0, upper − lower)` per result — what the reference interpreter counts.

use std::collections::HashMap;

use stencil_ir::affine::{AffineExpr, AffineMap};
use stencil_ir::{Attribute, BlockId, Ir, OpId};

/// Discardable dictionary attribute of a `stencil.program` whose SOR iterations a rewrite
/// replaced (`stencil-rbsor`, `stencil-mlsor`; kept on the function it lowers to): the method,
/// its `sweeps_per_step`, and its `point_updates` terms.
pub const SOR_REWRITE_ATTR: &str = "sor.rewrite";

/// The `point_updates` terms [`SOR_REWRITE_ATTR`] records on `op` (a rewritten program, or the
/// function it lowered to), if any.
pub fn rewrite_point_update_terms(ir: &Ir, op: OpId) -> Option<&Attribute> {
    match ir.attr(op, SOR_REWRITE_ATTR) {
        Some(Attribute::Dictionary(entries)) => stencil_ir::attributes::get_named(entries, "point_updates"),
        _ => None,
    }
}

/// The point updates of the program whose body is `block`, one term per apply. `None` when the
/// body holds an op that is neither `stencil.iterate` nor `stencil.apply` (the verifier allows
/// no other) or a bound is not an affine map.
pub fn point_update_terms(ir: &Ir, block: BlockId) -> Option<Attribute> {
    point_update_terms_with_sweeps(ir, block, &HashMap::new())
}

/// [`point_update_terms`], where each iterate of `sweeps` counts as that many sweeps of its
/// first apply's box per iteration (one term: its enclosing and own bounds, the box, and the
/// pair `0 … sweeps`) whatever its body holds — the count of a rewritten SOR iteration, whose
/// masked applies each update part of the box (`sor.rewrite`'s `point_updates`).
pub fn point_update_terms_with_sweeps(ir: &Ir, block: BlockId, sweeps: &HashMap<OpId, i64>) -> Option<Attribute> {
    let mut terms = Vec::new();
    walk(ir, block, sweeps, &mut Vec::new(), &mut terms)?;
    Some(Attribute::Array(terms))
}

fn walk(
    ir: &Ir,
    block: BlockId,
    sweeps: &HashMap<OpId, i64>,
    enclosing: &mut Vec<Attribute>,
    terms: &mut Vec<Attribute>,
) -> Option<()> {
    for op in ir.block_op_iter(block) {
        let bounds = |op: OpId, lower: &str, upper: &str| {
            let map = |name| ir.attr(op, name).filter(|a| a.as_affine_map().is_some()).cloned();
            Some([map(lower)?, map(upper)?])
        };
        match ir.op_name(op) {
            "stencil.iterate" => {
                let pair = bounds(op, "lower_bound", "upper_bound")?;
                let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r))?;
                enclosing.extend(pair.clone());
                match sweeps.get(&op) {
                    Some(&count) => {
                        let apply = ir.block_op_iter(body).find(|&o| ir.op_name(o) == "stencil.apply")?;
                        let symbols = pair[0].as_affine_map()?.num_symbols;
                        let constant = |c: i64| {
                            Attribute::AffineMap(AffineMap::new(0, symbols, vec![AffineExpr::Constant(c)]).into())
                        };
                        let mut term = enclosing.clone();
                        term.extend(bounds(apply, "lower_bounds", "upper_bounds")?);
                        term.extend([constant(0), constant(count)]);
                        terms.push(Attribute::Array(term));
                    }
                    None => walk(ir, body, sweeps, enclosing, terms)?,
                }
                enclosing.truncate(enclosing.len() - 2);
            }
            "stencil.apply" => {
                let mut term = enclosing.clone();
                term.extend(bounds(op, "lower_bounds", "upper_bounds")?);
                terms.push(Attribute::Array(term));
            }
            _ => return None,
        }
    }
    Some(())
}

/// The count `terms` (a [`point_update_terms`] attribute) give for `params` (the values of the
/// maps' symbols, in order): saturating as the reference interpreter's count does. `None` when
/// the attribute is malformed (not an array of arrays of pairs of affine maps over at most
/// `params.len()` symbols, lower and upper of equal length).
pub fn evaluate_point_updates(terms: &Attribute, params: &[i64]) -> Option<u64> {
    let Attribute::Array(terms) = terms else { return None };
    let mut total = 0u64;
    for term in terms {
        let Attribute::Array(maps) = term else { return None };
        if maps.len() % 2 != 0 {
            return None;
        }
        let mut product = 1u64;
        for pair in maps.chunks(2) {
            let eval = |a: &Attribute| {
                a.as_affine_map()
                    .filter(|m| m.num_dims == 0 && m.num_symbols as usize <= params.len())?
                    .eval(&[], params)
            };
            let (lower, upper) = (eval(&pair[0])?, eval(&pair[1])?);
            if lower.len() != upper.len() {
                return None;
            }
            for (l, u) in lower.iter().zip(&upper) {
                product = product.saturating_mul(u64::try_from(u.saturating_sub(*l)).unwrap_or(0));
            }
        }
        total = total.saturating_add(product);
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::evaluate_point_updates;
    use stencil_ir::affine::{AffineBinOp, AffineExpr, AffineMap};
    use stencil_ir::Attribute;

    fn map(results: Vec<AffineExpr>) -> Attribute {
        Attribute::AffineMap(AffineMap::new(0, 2, results).into())
    }

    #[test]
    fn terms_multiply_their_pairs_and_add_up() {
        let s = |i| AffineExpr::Symbol(i);
        let c = AffineExpr::Constant;
        // 0..T × [1, 1] to [N − 1, N − 1] (as N − 1 with N = s1: (N−2)²), times 3 sweeps; plus 0..T × [0] to [N].
        let minus_one = AffineExpr::Binary(AffineBinOp::Add, Box::new(s(1)), Box::new(c(-1)));
        let sweeps = vec![
            map(vec![c(0)]),
            map(vec![s(0)]),
            map(vec![c(1), c(1)]),
            map(vec![minus_one.clone(), minus_one]),
            map(vec![c(0)]),
            map(vec![c(3)]),
        ];
        let copy = vec![map(vec![c(0)]), map(vec![s(0)]), map(vec![c(0)]), map(vec![s(1)])];
        let terms = Attribute::Array(vec![Attribute::Array(sweeps), Attribute::Array(copy)]);
        assert_eq!(evaluate_point_updates(&terms, &[10, 130]), Some(10 * 128 * 128 * 3 + 10 * 130));
        // An empty range counts nothing; a pair without its upper map is malformed.
        assert_eq!(evaluate_point_updates(&terms, &[0, 130]), Some(0));
        let odd = Attribute::Array(vec![Attribute::Array(vec![map(vec![c(0)])])]);
        assert_eq!(evaluate_point_updates(&odd, &[1, 1]), None);
    }
}

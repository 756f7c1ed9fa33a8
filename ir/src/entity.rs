//! Typed indices and the arena that owns IR entities.
//!
//! The IR is plain data in arenas addressed by small copyable ids, in the style of cranelift's
//! `PrimaryMap` and naga's `Arena<T>`/`Handle<T>`: no reference counting, no interior
//! mutability, and ids that cannot be mixed up because each entity kind has its own type.

use std::fmt;
use std::marker::PhantomData;

/// An index type usable as an arena key.
pub trait EntityId: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// Builds the id from a raw index.
    fn new(index: usize) -> Self;
    /// The raw index of the id.
    fn index(self) -> usize;
}

/// Declares a newtype id over `u32` implementing [`EntityId`].
#[macro_export]
macro_rules! entity_id {
    ($(#[$meta:meta])* $vis:vis struct $name:ident, $prefix:literal;) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name(u32);

        impl $crate::entity::EntityId for $name {
            fn new(index: usize) -> Self {
                // Arenas larger than u32::MAX entries are far beyond any program we compile;
                // saturating keeps this total without a panic path.
                $name(u32::try_from(index).unwrap_or(u32::MAX))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

/// A growable arena mapping ids of type `K` to values of type `V`.
///
/// Entities are never removed: erased IR entities are marked dead by their owner, so ids stay
/// valid (and cheap) for the arena's whole life.
#[derive(Clone)]
pub struct Arena<K: EntityId, V> {
    items: Vec<V>,
    _key: PhantomData<K>,
}

impl<K: EntityId, V> Default for Arena<K, V> {
    fn default() -> Self {
        Arena { items: Vec::new(), _key: PhantomData }
    }
}

impl<K: EntityId, V> Arena<K, V> {
    /// Creates an empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `value` and returns its new id.
    pub fn push(&mut self, value: V) -> K {
        let id = K::new(self.items.len());
        self.items.push(value);
        id
    }

    /// Number of entities ever stored.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the arena holds no entity.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entity with id `key`, if it exists.
    pub fn get(&self, key: K) -> Option<&V> {
        self.items.get(key.index())
    }

    /// Iterates over `(id, entity)` pairs in creation order.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityId, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        &self.items[key.index()]
    }
}

impl<K: EntityId, V> std::ops::IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        &mut self.items[key.index()]
    }
}

impl<K: EntityId, V: fmt::Debug> fmt::Debug for Arena<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

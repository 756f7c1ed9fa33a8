//! Helpers shared by the driver's integration tests.

#![allow(dead_code)]

pub mod mutate;

//! Belisarius: tables.

//! Raw shapes of `belisarius/map` data files.

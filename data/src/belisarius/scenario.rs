//! Raw shapes of `belisarius/scenario` data files.

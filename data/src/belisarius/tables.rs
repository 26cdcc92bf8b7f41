//! Raw shapes of `belisarius/tables` data files.
